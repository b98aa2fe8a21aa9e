"""What the memory tool answers, and its edits of a file's text, word for word as the SDK's own
backend (``BetaLocalFilesystemMemoryTool`` in ``anthropic/lib/tools/_beta_builtin_memory_tool.py``,
anthropic 2.15): the listing of a folder (up to 2 levels deep, hidden names left out, sizes as
``4.0K``), a file with its line numbers, the snippet after ``str_replace``, and every refusal
(:class:`ToolError`) with the SDK's own message.

Claude is trained on those answers; a test runs the same commands on both backends and
compares them (tests/tui/memory_tool/)."""

from __future__ import annotations

from anthropic.lib.tools import ToolError

from .tree import MemoryTree

MAX_LINES = 999999
LINE_NUMBER_WIDTH = len(str(MAX_LINES))
_UNITS = ["B", "K", "M", "G"]


def file_size(size: int) -> str:
    """``0B``, ``512B``, ``4.0K``, ``1.5M`` (the SDK's ``_format_file_size``)."""
    if size == 0:
        return "0B"
    i = min(int(size.bit_length() - 1) // 10, len(_UNITS) - 1)
    value = size / (1024**i)
    return f"{int(value)}{_UNITS[i]}" if value == int(value) else f"{value:.1f}{_UNITS[i]}"


def folder_listing(tree: MemoryTree, folder: str, shown_as: str) -> str:
    """The files and folders up to 2 levels deep in ``folder`` (``shown_as``: the path as the
    command gave it, which the answer repeats), hidden names (``.x``) left out; a folder's size
    is its files' bytes."""
    items: list[tuple[str, str]] = []

    def collect(here: str, relative: str, depth: int) -> None:
        if depth > 2:
            return
        for name in sorted(tree.children.get(here, ())):
            if name.startswith("."):
                continue
            path, item = f"{here}/{name}", f"{relative}/{name}" if relative else name
            if path in tree.folders:
                items.append((file_size(tree.sizes[path]), f"{item}/"))
                if depth < 2:
                    collect(path, item, depth + 1)
            else:
                items.append((file_size(tree.sizes[path]), item))

    collect(folder, "", 1)
    header = (f"Here're the files and directories up to 2 levels deep in {shown_as}, "
              "excluding hidden items:")
    lines = [f"{file_size(tree.sizes[folder])}\t{shown_as}"]
    lines.extend(f"{size}\t{shown_as}/{item}" for size, item in items)
    return f"{header}\n" + "\n".join(lines)


def numbered(line_number: int, line: str) -> str:
    """One line as shown: its number right-aligned in 6 columns, a tab, the line."""
    return f"{str(line_number).rjust(LINE_NUMBER_WIDTH)}\t{line}"


def file_view(content: str, shown_as: str, view_range: list[int] | None) -> str:
    """The file's lines with their numbers (``view_range`` ``[first, last]``, ``-1``: to the
    end), split on ``\\n`` only, as the SDK does."""
    lines = content.split("\n")
    if len(lines) > MAX_LINES:
        raise ToolError(f"File {shown_as} exceeds maximum line limit of 999,999 lines.")
    shown, start = lines, 1
    if view_range and len(view_range) == 2:
        first = max(1, view_range[0]) - 1
        last = len(lines) if view_range[1] == -1 else view_range[1]
        shown, start = lines[first:last], first + 1
    body = "\n".join(numbered(i + start, line) for i, line in enumerate(shown))
    return f"Here's the content of {shown_as} with line numbers:\n" + body


def replaced(content: str, old: str, new: str, shown_as: str) -> tuple[str, str]:
    """``content`` with its one ``old`` replaced by ``new``, and the snippet the SDK answers
    (two lines either side of the change); ToolError when ``old`` is not in it, or more than
    once (the lines where it is)."""
    count = content.count(old)
    if count == 0:
        raise ToolError(f"No replacement was performed, old_str `{old}` did not appear "
                        f"verbatim in {shown_as}.")
    if count > 1:
        lines, start = [], 0
        while (pos := content.find(old, start)) != -1:
            lines.append(content[:pos].count("\n") + 1)
            start = pos + 1
        raise ToolError(f"No replacement was performed. Multiple occurrences of old_str `{old}` "
                        f"in lines: {', '.join(map(str, lines))}. Please ensure it is unique")
    changed_line = content[:content.find(old)].count("\n")
    result = content.replace(old, new)
    new_lines = result.split("\n")
    first, last = max(0, changed_line - 2), min(len(new_lines), changed_line + 3)
    snippet = [numbered(n, new_lines[n - 1]) for n in range(first + 1, last + 1)]
    return result, ("The memory file has been edited. Here is the snippet showing the change "
                    "(with line numbers):\n" + "\n".join(snippet))


def inserted(content: str, line: int, text: str) -> str:
    """``content`` with ``text`` as a new line after line ``line`` (0: first), ending with a
    newline; ToolError when ``line`` is past the end (the SDK's range and words)."""
    lines = content.split("\n")
    if lines[-1] == "":  # (a final newline leaves no empty last line)
        lines.pop()
    if line < 0 or line > len(lines):
        raise ToolError(f"Invalid `insert_line` parameter: {line}. "
                        f"It should be within the range [0, {len(lines)}].")
    lines.insert(line, text.rstrip("\n"))
    result = "\n".join(lines)
    return result if result.endswith("\n") else result + "\n"
