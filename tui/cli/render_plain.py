"""Human output when stdout is piped, without rich: ``list``, ``search`` and ``stats`` print the very lines
:mod:`tui.cli.render` prints off a terminal (a table as plain lines: :func:`plain_lines`, the one
layout both use), so a reading verb in a pipe or a script never imports rich.

On a terminal, or when ``FORCE_COLOR`` or ``TTY_COMPATIBLE`` asks rich to style a pipe as one
(:func:`piped` is then False), :mod:`tui.cli.render` prints as always."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from core.textutil import neutralise_controls, neutralise_line

from ..terminal import underlying
from ..text import LIST_PREVIEW, absolute_time, preview, relative_time, until_forgotten

if TYPE_CHECKING:
    from core import Memory, Relation, Vault
    from core.ops.provenance import EndState
    from core.search import SearchResult, Snippet

#: What makes rich style a pipe as a terminal (tui.cli.render.on_terminal): then rich prints
_STYLED_PIPE = ("FORCE_COLOR", "TTY_COMPATIBLE")


def piped() -> bool:
    """stdout is no terminal and nothing asks for it to be styled as one: the plain lines."""
    if any(name in os.environ for name in _STYLED_PIPE):
        return False
    try:
        return not underlying(sys.stdout).isatty()
    except (AttributeError, ValueError):
        return True


def plain_lines(title: str | None, headers: Sequence[str], right: Sequence[bool],
                rows: Sequence[Sequence[str]]) -> list[str]:
    """A table as plain lines: its title, its header (when a column has one), then one line a
    row (a cell of several lines adds lines with the other columns empty), columns two spaces
    apart and padded to their widest cell (``right``: to the right), the last column neither
    padded nor cut."""
    count = len(headers)
    lines_of: list[list[str]] = []
    if any(headers):
        lines_of.append(list(headers))
    for row in rows:
        split = [cell.split("\n") for cell in row]
        for k in range(max((len(parts) for parts in split), default=0)):
            lines_of.append([parts[k] if k < len(parts) else "" for parts in split])
    widths = [max((len(r[j]) for r in lines_of), default=0) for j in range(count)]
    lines = [title] if title else []
    for r in lines_of:
        shown = []
        for j, text in enumerate(r):
            if j == count - 1:
                shown.append(text)
            elif right[j]:
                shown.append(text.rjust(widths[j]))
            else:
                shown.append(text.ljust(widths[j]))
        lines.append("  ".join(shown).rstrip())
    return lines


def _write(lines: list[str]) -> None:
    """The lines on the real stdout, control characters shown as visible escapes (as
    :class:`tui.cli.render.SafeConsole` writes a table's)."""
    stream = underlying(sys.stdout)
    stream.write("".join(neutralise_controls(line) + "\n" for line in lines))
    stream.flush()


#: ``memvault list``'s columns: (header, right-justified)
_LIST_COLUMNS = (("id", False), ("status", False), ("score", True), ("uses", True),
                 ("last used", False), ("tags", False), ("gist or content", False))


def print_list(vault: Vault, memories: list[Memory], now: int) -> None:
    """``memvault list`` piped: the header and one line a memory, its text whole on that line
    (line breaks as spaces, at most :data:`~tui.text.LIST_PREVIEW` characters)."""
    if not memories:
        _write(["no memories match" if vault.memories else "the vault holds no memories yet"])
        return
    rows = [[m.id[:8], m.status.value, f"{vault.score(m, now):.3f}", str(m.use_count),
             relative_time(m.last_used, now), neutralise_line(", ".join(m.meta.tags)),
             neutralise_line(" ".join(preview(m.text, LIST_PREVIEW).split()))]
            for m in memories]
    _write(plain_lines(None, [h for h, _ in _LIST_COLUMNS], [r for _, r in _LIST_COLUMNS], rows))


def memory_fields(vault: Vault, m: Memory, now: int) -> list[tuple[str, str]]:
    """``memvault show``'s fields, (label, value) each, the empty ones left out: the grid both
    outputs print (:func:`tui.cli.render.print_memory` styles the status)."""
    from core.model.values import MemoryStatus

    forgotten = until_forgotten(vault.seconds_until_forgotten(m, now), now,
                                vault.config.forget_threshold)
    if m.status != MemoryStatus.ACTIVE:
        forgotten += " (gc only prunes active memories)"
    fields = [
        ("id", m.id), ("status", m.status.value), ("tags", ", ".join(m.meta.tags) or "-"),
        ("entities", ", ".join(m.entities) or "-"), ("source", m.meta.source),
        ("context", m.meta.context),
        ("created", f"{absolute_time(m.created_at)} ({relative_time(m.created_at, now)})"),
        ("last used", f"{absolute_time(m.last_used)} ({relative_time(m.last_used, now)})"),
        ("use count", str(m.use_count)), ("strength", f"{m.strength:g}"),
        ("score", f"{vault.score(m, now):.3f} ({vault.config.decay_model})"),
        ("forgotten", forgotten),
        ("promoted", f"{absolute_time(m.promoted_at)} to {m.promoted_to or '?'}"
         if m.promoted_at else None),
    ]
    return [(label, str(value)) for label, value in fields if value is not None and value != ""]


#: ``memvault show``'s table of relations: (header, right-justified)
RELATION_COLUMNS = (("", False), ("type", False), ("memory", False), ("strength", True),
                    ("text", False))


def relation_rows(vault: Vault, m: Memory, relations: list[Relation],
                  ends: dict[str, EndState] | None) -> list[tuple[list[str], bool]]:
    """One row a relation of ``m`` (its cells, and whether the other end is gone: its text
    then says what became of it)."""
    from core.vault import first_words

    rows = []
    for r in relations:
        outgoing = r.from_memory_id == m.id
        other_id = r.to_memory_id if outgoing else r.from_memory_id
        other = vault.find(other_id)
        end = (ends or {}).get(other_id)
        text = first_words(other.text, 80) if other else \
            f"({end.label if end is not None else 'missing'})"
        rows.append(([("->" if outgoing else "<-"), r.relation_type, other_id[:8],
                      f"{r.strength:g}", neutralise_line(text)], other is None))
    return rows


def _one_block(text: str) -> bool:
    """rich prints ``text`` as these very lines: no tab (rich expands it) and no line so long
    that a console of :data:`tui.cli.render.PIPE_WIDTH` would fold it."""
    return "\t" not in text and all(len(line) <= 1 << 16 for line in text.split("\n"))


def print_memory(vault: Vault, m: Memory, now: int, ends: dict[str, EndState] | None) -> bool:
    """``memvault show`` piped, without rich: the lines :func:`tui.cli.render.print_memory`
    prints off a terminal. False (nothing printed) when its gist or content holds a tab or a
    huge line: rich prints it (the grid and the table are plain lines either way)."""
    texts = ([("gist", m.gist)] if m.gist else []) + [("content", m.content)]
    if not all(_one_block(text) for _, text in texts):
        return False
    fields = [[label, neutralise_controls(value)] for label, value in memory_fields(vault, m, now)]
    lines = plain_lines(None, ["", ""], [False, False], fields)
    for title, text in texts:
        lines += ["", title, *neutralise_controls(text).split("\n")]
    relations = vault.relations_of(m.id)
    lines.append("")
    if not relations:
        lines.append("no relations")
    else:
        lines += plain_lines("relations", [h for h, _ in RELATION_COLUMNS],
                             [r for _, r in RELATION_COLUMNS],
                             [cells for cells, _ in relation_rows(vault, m, relations, ends)])
    _write(lines)
    return True


def print_stats(stats: dict[str, Any], now: int) -> None:
    """``memvault stats`` piped: its figures, a blank line, the histogram of scores."""
    by_status = ", ".join(f"{k} {v}" for k, v in stats["by_status"].items())
    types = ", ".join(f"{k} {v}" for k, v in stats["relation_types"].items())
    last_gc = stats.get("last_gc_at")
    rows = [
        ["path", neutralise_controls(stats["path"])],
        ["memories", f"{stats['memories']} ({by_status})"],
        ["relations", f"{stats['relations']}" + (f" ({types})" if types else "")],
        ["tags", str(stats["tags"])],
        ["layout", stats["layout"] + (" (memories/ab/{id}.json)"
                                      if stats["layout"] == "sharded" else "")],
        ["decay model", stats["decay_model"]],
        ["average score", f"{stats['avg_score']:.3f}"],
        ["below forget threshold",
         f"{stats['below_forget_threshold']} active (threshold "
         f"{stats['forget_threshold']:g}; `memvault gc --dry-run` lists them)"],
        ["last gc", f"{absolute_time(last_gc)} ({relative_time(last_gc, now)})"
         if last_gc else "never"],
    ]
    if stats["problems"]:
        rows.append(["unreadable files", str(len(stats["problems"]))])
    peak = max((b["count"] for b in stats["score_histogram"]), default=0) or 1
    bars = [[f"{b['from']:g} – " + (f"{b['to']:g}" if b["to"] is not None else "…"),
             str(b["count"]), "█" * round(30 * b["count"] / peak)]
            for b in stats["score_histogram"]]
    _write([*plain_lines(None, ["", ""], [False, False], rows), "",
            *plain_lines("scores", ["range", "memories", ""], [False, True, False], bars)])


#: ``memvault search``'s piped header (the terminal's output names the numbers on each hit's line)
SEARCH_HEADER = f"{'score':>5}  {'relevance':>9}  {'decay':>5}  {'id':<8}  {'status':<10}  memory"


def snippet_plain(snippet: Snippet) -> str:
    """The snippet on one line: newlines and tabs as spaces, control characters as visible
    escapes (each piece between matches neutralised on its own, as the terminal's styled
    snippet is), an ellipsis where text was cut."""
    raw, at, pieces = snippet.text, 0, ["…" if snippet.cut_before else ""]
    for start, end in snippet.spans:
        pieces += [one_line(raw[at:start]), one_line(raw[start:end])]
        at = end
    pieces.append(one_line(raw[at:]))
    return "".join(pieces) + ("…" if snippet.cut_after else "")


def one_line(piece: str) -> str:
    """A piece of a snippet on one line: newlines and tabs as spaces, controls escaped."""
    return neutralise_line(piece.replace("\n", " ").replace("\t", " "))


def search_lines(vault: Vault, result: SearchResult) -> list[str] | None:
    """``memvault search``'s piped lines (what :func:`tui.cli.render_search.print_hits` prints
    off a terminal): the ignored terms, the notes, then the header and one line a hit. None
    when a note or an error holds a tab or is huge (rich expands tabs and wraps at its width):
    rich prints those."""
    lines = [f"ignored: {error}" for error in result.query.errors]
    lines += [f"note: {note}" for note in result.notes]
    if any("\t" in line or len(line) > 1 << 16 for line in lines):
        return None
    if result.query.errors and result.query.empty:  # every term was ignored: not "everything"
        return [*lines, "nothing searched: no term of the query could be read"]
    if not result.hits:
        return [*lines, "no memories match" if vault.memories else
                "the vault holds no memories yet"]
    return [*lines, SEARCH_HEADER, *(
        f"{hit.score:>5.3f}  {hit.relevance:>9.3f}  {hit.decay:>5.3f}  {hit.memory.id[:8]}  "
        f"{hit.memory.status.value:<10}  " + snippet_plain(hit.snippet) for hit in result.hits)]


def print_search(vault: Vault, result: SearchResult) -> bool:
    """``memvault search`` piped, without rich; False (nothing printed) when rich must."""
    lines = search_lines(vault, result)
    if lines is None:
        return False
    _write(lines)
    return True
