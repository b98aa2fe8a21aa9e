"""A small reader for the YAML-ish metadata blocks of tiered markdown memories.

Not a YAML parser: the subset the memory entry schema writes, read leniently, with every line it
cannot read reported (line number and reason) instead of raising:

- ``key: value`` lines; a value is a plain scalar (to the end of the line, a `` #`` comment
  dropped), a quoted string (``"..."`` with JSON-style escapes, ``'...'`` with ``''``), or a flow
  collection (``[a, b]``, ``{k: v, k2: [x, y]}``, nested, possibly over several lines);
- ``key:`` followed by more indented lines: a block mapping, or a block sequence of ``- value``
  items (an item may itself be ``- k: v`` with further ``k: v`` lines under it);
- a whole block that is one flow mapping (``{...}``, JSON included), or one line of
  ``key: value`` pairs separated by commas (``id: m1, importance: 0.5``);
- ``#`` comment lines and blank lines.

Scalars: ``null``/``~``/empty -> None, ``true``/``false`` -> bool, integers, floats, anything else
a string (timestamps stay strings).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

_INT = re.compile(r"[-+]?\d+")
_FLOAT = re.compile(r"[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?")
_KEY = re.compile(r"""^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'"""  # a quoted key,
                  r"""|[^\s:#'"{}\[\],-][^:]*?|-[^\s:][^:]*?)"""  # or a plain one
                  r"""\s*:(?:\s+|$)""")  # then a colon and a space (or the end)


class FlowError(ValueError):
    def __init__(self, message: str, offset: int = 0):
        super().__init__(message)
        self.offset = offset


@dataclass(frozen=True)
class ParseProblem:
    line: int  # 1-based, in the numbering the caller gave
    message: str


def scalar(text: str) -> Any:
    """A plain scalar's value."""
    t = text.strip()
    low = t.lower()
    if low in ("", "~", "null"):
        return None
    if low == "true":
        return True
    if low == "false":
        return False
    if _INT.fullmatch(t):
        return int(t)
    if _FLOAT.fullmatch(t):
        return float(t)
    return t


class _Flow:
    """Recursive descent over one flow value."""

    def __init__(self, text: str):
        self.text, self.pos = text, 0

    def ws(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t\r\n":
            self.pos += 1

    def peek(self) -> str:
        self.ws()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def value(self, in_map: bool = False) -> Any:
        c = self.peek()
        if c == "[":
            return self.seq()
        if c == "{":
            return self.map()
        if c in "\"'":
            return self.quoted()
        if c in "]},":
            return None  # an empty entry: [a, , b] or {k: }
        return self.plain(in_map)

    def quoted(self) -> str:
        quote, start = self.text[self.pos], self.pos
        i = start + 1
        while i < len(self.text):
            ch = self.text[i]
            if quote == '"' and ch == "\\":
                i += 2
                continue
            if ch == quote:
                if quote == "'" and self.text[i + 1: i + 2] == "'":
                    i += 2
                    continue
                self.pos = i + 1
                body = self.text[start: i + 1]
                if quote == "'":
                    return body[1:-1].replace("''", "'")
                try:
                    return json.loads(body)
                except ValueError:
                    raise FlowError("a bad escape in a quoted string", start) from None
            i += 1
        raise FlowError("a quoted string is not closed", start)

    def plain(self, key: bool) -> Any:
        start = self.pos
        i = start
        while i < len(self.text):
            ch = self.text[i]
            if ch in ",[]{}":
                break
            if ch == ":" and (i + 1 == len(self.text) or self.text[i + 1] in " \t,}]"):
                if key:
                    break
            if ch == "#" and i > start and self.text[i - 1] in " \t":
                raise FlowError("a comment inside a flow collection", i)
            i += 1
        self.pos = i
        return scalar(self.text[start:i])

    def seq(self) -> list[Any]:
        start = self.pos
        self.pos += 1
        items: list[Any] = []
        while True:
            c = self.peek()
            if c == "":
                raise FlowError("a [ is not closed", start)
            if c == "]":
                self.pos += 1
                return items
            items.append(self.value())
            c = self.peek()
            if c == ",":
                self.pos += 1
            elif c == "":
                raise FlowError("a [ is not closed", start)
            elif c != "]":
                raise FlowError(f"expected , or ] but found {c!r}", self.pos)

    def map(self) -> dict[str, Any]:
        start = self.pos
        self.pos += 1
        out: dict[str, Any] = {}
        while True:
            c = self.peek()
            if c == "":
                raise FlowError("a { is not closed", start)
            if c == "}":
                self.pos += 1
                return out
            at = self.pos
            key = self.quoted() if c in "\"'" else self.plain(True)
            if isinstance(key, (dict, list)) or key is None:
                raise FlowError("a mapping key is missing", at)
            value: Any = None
            if self.peek() == ":":
                self.pos += 1
                value = self.value(in_map=True)
            out[str(key)] = value
            c = self.peek()
            if c == ",":
                self.pos += 1
            elif c == "":
                raise FlowError("a { is not closed", start)
            elif c != "}":
                raise FlowError(f"expected , or }} but found {c!r}", self.pos)


def flow(text: str) -> Any:
    """One flow value (``[..]``, ``{..}``, quoted or plain scalar); raises FlowError."""
    parser = _Flow(text)
    value = parser.value()
    if parser.peek() not in ("", "#"):
        raise FlowError(f"unexpected text after the value: {text[parser.pos:].strip()!r}",
                        parser.pos)
    return value


def _balanced(text: str) -> bool:
    """Whether the brackets of a flow value are closed (quotes respected)."""
    depth, quote, i = 0, "", 0
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\" and quote == '"':
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        i += 1
    return depth <= 0


def _strip_comment(text: str) -> str:
    """A plain value without a trailing `` # comment``."""
    m = re.search(r"\s#", text)
    return text[: m.start()] if m else text


def parse_block(
    lines: list[tuple[int, str]],
    key_lines: dict[str, int] | None = None,
) -> tuple[dict[str, Any], list[ParseProblem]]:
    """The mapping a metadata block holds; ``lines`` are (line number, text) pairs. Lines that
    cannot be read are reported and skipped (with the lines indented under them). ``key_lines``,
    when given, receives the line number of each top-level key."""
    if key_lines is None:
        key_lines = {}
    problems: list[ParseProblem] = []
    rows = [(n, t.rstrip()) for n, t in lines]
    rows = [(n, t) for n, t in rows if t.strip() and not t.lstrip().startswith("#")]
    if not rows:
        return {}, problems
    if rows[0][1].lstrip().startswith("{"):
        text = "\n".join(t for _, t in rows)
        try:
            value = flow(text)
        except FlowError as exc:
            line = rows[0][0] + text[: exc.offset].count("\n")
            return {}, [ParseProblem(line, f"cannot read the metadata: {exc}")]
        if isinstance(value, dict):
            key_lines.update({k: rows[0][0] for k in value})
        return value, problems
    if len(rows) == 1 and re.search(r",\s*[\w\"'-]+\s*:", rows[0][1]):
        try:  # a one-line comment written as a mapping without braces: `id: m1, importance: 1`
            value = flow("{" + rows[0][1].strip() + "}")
        except FlowError:
            pass
        else:
            if isinstance(value, dict) and len(value) > 1:
                key_lines.update({k: rows[0][0] for k in value})
                return value, problems
    reader = _Block(rows, problems, key_lines, _indent(rows[0][1]))
    value = reader.mapping(0, _indent(rows[0][1]))
    while reader.i < len(rows):  # lines at an odd indentation after the first ones
        n, t = rows[reader.i]
        problems.append(ParseProblem(n, f"cannot read {t.strip()!r} (indentation)"))
        reader.skip_children(_indent(t))
        if reader.i < len(rows) and _indent(rows[reader.i][1]) <= _indent(rows[0][1]):
            value.update(reader.mapping(reader.i, _indent(rows[reader.i][1])))
    return value, problems


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" \t"))


class _Block:
    def __init__(self, rows: list[tuple[int, str]], problems: list[ParseProblem],
                 key_lines: dict[str, int], top: int):
        self.rows, self.problems, self.i = rows, problems, 0
        self.key_lines, self.top = key_lines, top

    def skip_children(self, indent: int) -> None:
        """Step over the current line and the lines indented under it (reported too)."""
        self.i += 1
        while self.i < len(self.rows) and _indent(self.rows[self.i][1]) > indent:
            n, text = self.rows[self.i]
            self.problems.append(ParseProblem(n, f"cannot read {text.strip()!r} (under a line "
                                                 "that could not be read)"))
            self.i += 1

    def mapping(self, start: int, indent: int, first: str | None = None) -> dict[str, Any]:
        """Lines ``key: value`` at ``indent``; ``first`` is the text of a first pair that does
        not start a line (``- k: v``)."""
        self.i = start
        out: dict[str, Any] = {}
        while self.i < len(self.rows) or first is not None:
            if first is not None:
                n, text, here = self.rows[self.i - 1][0], first, indent
                first = None
                own_line = False
            else:
                n, raw = self.rows[self.i]
                here, text = _indent(raw), raw.strip()
                if here != indent:
                    if here < indent:
                        return out
                    self.problems.append(ParseProblem(n, f"cannot read {text!r} (indentation)"))
                    self.skip_children(here)
                    continue
                if text.startswith("- ") or text == "-":
                    return out
                self.i += 1
                own_line = True
            m = _KEY.match(text)
            if m is None:
                self.problems.append(ParseProblem(n, f"cannot read {text!r} (not `key: value`)"))
                if own_line:
                    self.i -= 1
                    self.skip_children(here)
                continue
            key = m.group(1)
            if key[:1] in "\"'":
                try:
                    key = flow(key)
                except FlowError:
                    key = key[1:-1]
            rest = text[m.end():].strip()
            value, ok = self.value(n, rest, indent)
            if ok:
                out[str(key)] = value
                if indent == self.top:
                    self.key_lines[str(key)] = n
        return out

    def value(self, n: int, rest: str, indent: int) -> tuple[Any, bool]:
        if rest and rest[0] in "[{\"'":
            text = rest
            while (not _balanced(text) and self.i < len(self.rows)
                   and _indent(self.rows[self.i][1]) > indent):  # continued on indented lines
                text += "\n" + self.rows[self.i][1].strip()
                self.i += 1
            try:
                return flow(text), True
            except FlowError as exc:
                self.problems.append(ParseProblem(n, f"cannot read the value {rest!r}: {exc}"))
                return None, False
        if rest:
            return scalar(_strip_comment(rest)), True
        if self.i < len(self.rows) and _indent(self.rows[self.i][1]) > indent:
            child = _indent(self.rows[self.i][1])
            if self.rows[self.i][1].strip().startswith("-"):
                return self.sequence(self.i, child), True
            return self.mapping(self.i, child), True
        if self.i < len(self.rows) and _indent(self.rows[self.i][1]) == indent \
                and self.rows[self.i][1].strip().startswith("- "):
            return self.sequence(self.i, indent), True  # YAML allows `key:` then `- x` unindented
        return None, True

    def sequence(self, start: int, indent: int) -> list[Any]:
        self.i = start
        items: list[Any] = []
        while self.i < len(self.rows):
            n, raw = self.rows[self.i]
            here, text = _indent(raw), raw.strip()
            if here < indent or not (text.startswith("- ") or text == "-"):
                if here > indent:
                    self.problems.append(ParseProblem(n, f"cannot read {text!r} (indentation)"))
                    self.skip_children(here)
                    continue
                return items
            if here > indent:
                self.problems.append(ParseProblem(n, f"cannot read {text!r} (indentation)"))
                self.skip_children(here)
                continue
            body = text[1:].strip()
            self.i += 1
            if body and body[0] not in "[{\"'" and _KEY.match(body):
                item_indent = here + (len(text) - len(text[1:].lstrip()))
                items.append(self.mapping(self.i, item_indent, first=body))
                continue
            value, ok = self.value(n, body, here)
            if ok:
                items.append(value)
        return items


__all__ = ["FlowError", "ParseProblem", "flow", "parse_block", "scalar"]
