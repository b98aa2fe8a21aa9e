"""Human output of the CLI (and the tour): rich tables on a terminal, plain full-width lines
when stdout is piped.

Only the human paths import this module; ``--json`` output and ``add`` never need rich.

Every console comes from :func:`console`: a :class:`SafeConsole`, which shows control characters
in the text it is given as visible escapes (see :mod:`tui.terminal`), and writes to the real
stream so that its own colour codes get through. Off a terminal it is as wide as any line (no
text is cut or wrapped) and prints a table as plain lines: the columns two spaces apart, the
last one whole.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from rich import box
from rich.console import Console, ConsoleOptions, RenderableType
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from core.model.values import MemoryStatus
from core.textutil import neutralise_controls, neutralise_line
from core.vault import first_words

from ..terminal import underlying
from .render_plain import RELATION_COLUMNS, memory_fields, plain_lines, relation_rows
from ..text import LIST_PREVIEW, absolute_time, preview, relative_time, subject_line

if TYPE_CHECKING:  # (types only: ``show`` piped makes no model, core.model.plain_records)
    from core import HistoryEntry, Memory, Vault
    from core.vault import GcReport

STATUS_STYLE = {
    MemoryStatus.ACTIVE: "green",
    MemoryStatus.PROMOTED: "cyan",
    MemoryStatus.ARCHIVED: "yellow",
    MemoryStatus.SUPERSEDED: "magenta",
}
ACTION_STYLE = {"created": "green", "changed": "", "moved": "dim", "deleted": "red"}
PIPE_WIDTH = 1 << 20  # off a terminal: wide enough that no line is ever cut or wrapped


def borderless_table(title: str | None = None) -> Table:
    """A borderless table with a rule under the header and two spaces between columns."""
    return Table(box=box.SIMPLE_HEAD, padding=(0, 1, 0, 0), pad_edge=False, title=title,
                 title_justify="left")


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class SafeConsole(Console):
    """A rich console that never lets a control character of the text it prints through: a
    string is neutralised before it becomes rich Text (so tables lay it out at its shown
    width), and every text segment is checked again as it is rendered (Text built elsewhere,
    tree labels...). Rich's own control segments (cursor moves of a progress bar) pass."""

    def render_str(self, text: str, **kwargs: Any) -> Text:
        return super().render_str(neutralise_controls(text), **kwargs)

    def render(self, renderable: RenderableType, options: ConsoleOptions | None = None
               ) -> Iterator[Segment]:
        for segment in super().render(renderable, options):
            if segment.control or not _CONTROL.search(segment.text):
                yield segment
            else:
                yield Segment(neutralise_controls(segment.text), segment.style)

    def print(self, *objects: Any, **kwargs: Any) -> None:  # type: ignore[override]
        if self.is_terminal or not any(isinstance(o, Table) for o in objects):
            super().print(*objects, **kwargs)
            return
        for o in objects:  # piped: a table becomes plain lines
            if isinstance(o, Table):
                for line in table_lines(o):
                    self.file.write(neutralise_controls(line) + "\n")
                self.file.flush()
            else:
                super().print(o, **kwargs)


def _plain(cell: Any) -> str:
    return cell.plain if isinstance(cell, Text) else str(cell if cell is not None else "")


def table_lines(table: Table) -> list[str]:
    """A rich table as plain lines (:func:`tui.cli.render_plain.plain_lines`: the layout the
    piped output without rich uses too)."""
    columns = table.columns
    cells = [[_plain(c) for c in column.cells] for column in columns]
    rows = [[col[i] if i < len(col) else "" for col in cells] for i in range(table.row_count)]
    return plain_lines(_plain(table.title) if table.title else None,
                       [_plain(c.header) for c in columns],
                       [c.justify == "right" for c in columns], rows)


def console(*, stderr: bool = False, **options: Any) -> Console:
    """The console every human output uses: on the current ``sys.stdout`` (or ``sys.stderr``),
    so tests capturing them see the output, underneath the CLI's neutralising stream."""
    stream = underlying(sys.stderr if stderr else sys.stdout)
    out = SafeConsole(file=stream, **{"highlight": False, **options})
    if "width" in options or on_terminal(out):
        return out
    # piped (even with FORCE_COLOR or TTY_COMPATIBLE, which make rich style it as if on a
    # terminal of $COLUMNS or 80 columns): never cut
    return SafeConsole(file=stream, **{"highlight": False, "width": PIPE_WIDTH, **options})


def on_terminal(out: Console) -> bool:
    """``out`` writes to a real terminal (rich's own test also says yes for a pipe when
    FORCE_COLOR or TTY_COMPATIBLE is set: styled, but it must not be cut to a width)."""
    try:
        return out.is_terminal and bool(out.file.isatty())
    except (AttributeError, ValueError):
        return False


def display_width(out: Console) -> int:
    """How wide something that fills a line (a rule) may be drawn: the terminal's width, else
    ``$COLUMNS``, else 80 (a pipe's console is :data:`PIPE_WIDTH` wide so that no line is cut,
    which a rule would fill)."""
    if on_terminal(out):
        return out.width
    columns = os.environ.get("COLUMNS", "").strip()
    if columns.isdigit() and 0 < int(columns) <= 1000:
        return int(columns)
    return 80


def plain(text: str, **kwargs: Any) -> Text:
    """Rich Text of text from the vault (content, a gist, a tag), control characters shown as
    visible escapes (newline and tab kept)."""
    return Text(neutralise_controls(text), **kwargs)


# -- memories --------------------------------------------------------------------------------
def cell(text: str) -> Text:
    """A one-line cell that ends in an ellipsis when its column is narrow. (The column itself
    stays wrappable, so rich shrinks it first and keeps the fixed columns whole.)"""
    return Text(neutralise_line(text), no_wrap=True, overflow="ellipsis")


def status_text(status: MemoryStatus) -> Text:
    return Text(status.value, style=STATUS_STYLE.get(status, ""))


def memory_table(vault: Vault, memories: Iterable[Memory], now: int, *, whole: bool = False
                 ) -> Table:
    """One row a memory; its last column is the gist where there is one, else the content;
    ``whole``: that column holds the text on one line, line breaks as spaces (piped output),
    not its first words: at most :data:`~tui.text.LIST_PREVIEW` characters of it, then its size
    (``… (2.7 MB)``; ``memvault show`` prints it whole)."""
    table = borderless_table()
    table.add_column("id", no_wrap=True, style="bold")
    table.add_column("status", no_wrap=True)
    table.add_column("score", justify="right", no_wrap=True)
    table.add_column("uses", justify="right", no_wrap=True)
    table.add_column("last used", no_wrap=True)
    table.add_column("tags", max_width=20)
    table.add_column("gist or content")  # (m.text: the gist where there is one)
    for m in memories:
        table.add_row(
            m.id[:8],
            status_text(m.status),
            f"{vault.score(m, now):.3f}",
            str(m.use_count),
            relative_time(m.last_used, now),
            cell(", ".join(m.meta.tags)),
            # one line a memory: its line breaks read as spaces (show prints them as they are)
            neutralise_line(" ".join(preview(m.text, LIST_PREVIEW).split())) if whole
            else cell(first_words(m.text, 80)),
        )
    return table


def print_list(vault: Vault, memories: list[Memory], now: int, matched: int) -> None:
    """``memories``: what to show; ``matched``: how many matched before ``--limit``."""
    out = console()
    if not memories:
        out.print("no memories match" if vault.memories else "the vault holds no memories yet")
        return
    out.print(memory_table(vault, memories, now, whole=not on_terminal(out)))
    if not out.is_terminal:  # piped: only the header and one line a memory
        return
    shown = f"{len(memories)} of {matched}" if len(memories) != matched else str(matched)
    out.print(plain(f"{shown} shown · {len(vault.memories)} in {vault.root}", style="dim"))


def print_memory(vault: Vault, m: Memory, now: int, ends: dict[str, Any] | None = None) -> None:
    """The memory, and its relations; ``ends``: what became of the other ends that are not
    living memories (:func:`core.ops.provenance.relation_ends`), named in the text column.
    (Its fields and rows are :mod:`tui.cli.render_plain`'s, which prints them piped.)"""
    out = console()
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    for label, value in memory_fields(vault, m, now):
        grid.add_row(label, status_text(m.status) if label == "status" else plain(value))
    out.print(grid)
    if m.gist:
        out.print()
        out.print(Text("gist", style="bold"))
        out.print(plain(m.gist))
    out.print()
    out.print(Text("content", style="bold"))
    out.print(plain(m.content))
    relations = vault.relations_of(m.id)
    out.print()
    if not relations:
        out.print(Text("no relations", style="dim"))
        return
    table = borderless_table(title="relations")
    for header, right in RELATION_COLUMNS:
        table.add_column(header, no_wrap=True, justify="right" if right else "left",
                         style="bold" if header == "memory" else "")
    table.columns[-1].no_wrap = False
    for (arrow, kind, other, strength, text), gone in relation_rows(vault, m, relations, ends):
        shown = cell(text)
        if gone:
            shown.stylize("dim")
        table.add_row(arrow, kind, other, strength, shown)
    out.print(table)


# -- history, gc, stats ----------------------------------------------------------------------
def print_history(memory_id: str, entries: list[HistoryEntry], now: int, live: bool) -> None:
    # (here, not at the top: the inbox's model and the revert it imports cost every reading
    # verb ~30 ms of start-up, and only history names who wrote for whom)
    from core.ops.inbox_model import via_of

    out = console()
    state = "" if live else " (deleted)"
    out.print(Text(f"history of {memory_id}{state}, newest first", style="bold"))
    if not entries:
        out.print("no commits touch this memory")
        return
    table = borderless_table()
    table.add_column("commit", no_wrap=True, style="bold")
    table.add_column("when", no_wrap=True)
    table.add_column("", no_wrap=True)
    table.add_column("action", no_wrap=True)
    table.add_column("message")
    for e in entries:  # the subject, and who wrote it for whom (the trailers are git's)
        via = via_of(e.message)
        table.add_row(e.commit[:8], absolute_time(e.timestamp), relative_time(e.timestamp, now),
                      Text(e.action, style=ACTION_STYLE.get(e.action, "")),
                      cell(subject_line(e.message) + (f" (via {via})" if via else "")))
    out.print(table)
    if not live:
        out.print(Text(f"bring it back with: memvault restore {memory_id}", style="dim"))


def print_gc(vault: Vault, report: GcReport, now: int) -> None:
    out = console()
    n = len(report.candidates)
    noun = "memory" if n == 1 else "memories"
    pinned = len(report.pinned_kept)
    kept = (f"kept {pinned} pinned memor{'y' if pinned == 1 else 'ies'} below "
            f"{report.threshold:g} out (`memvault unpin ID` lets gc take it)" if pinned else "")
    if not n:
        out.print(f"nothing to collect: no active memory scores below {report.threshold:g}"
                  + (f"; {kept}" if kept else ""))
        return
    if report.applied:
        verb = "archived" if report.archived else "deleted"
        rels = len(report.relations_removed)
        extra = f" and {rels} relation{'s' if rels != 1 else ''}" if rels else ""
        commit = f" in commit {report.commit[:8]}" if report.commit else ""
        out.print(f"{verb} {n} {noun}{extra} scoring below {report.threshold:g}{commit}")
        lineage = len(report.relations_kept)
        if lineage:
            out.print(f"kept {lineage} lineage relation{'s' if lineage != 1 else ''} "
                      "(split and merge records outlive the memory)")
    else:
        verb = "archive" if report.archived else "delete"
        out.print(f"{n} active {noun} score below {report.threshold:g}; "
                  f"`memvault gc{' --archive' if report.archived else ''}` would {verb}:")
    out.print(memory_table(vault, [m for m, _ in report.candidates], now))
    if kept:
        out.print(kept)


def print_stats(stats: dict[str, Any], now: int) -> None:
    out = console()
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    by_status = ", ".join(f"{k} {v}" for k, v in stats["by_status"].items())
    types = ", ".join(f"{k} {v}" for k, v in stats["relation_types"].items())
    grid.add_row("path", plain(stats["path"]))
    grid.add_row("memories", f"{stats['memories']} ({by_status})")
    grid.add_row("relations", f"{stats['relations']}" + (f" ({types})" if types else ""))
    grid.add_row("tags", str(stats["tags"]))
    grid.add_row("layout", stats["layout"] + (" (memories/ab/{id}.json)"
                                              if stats["layout"] == "sharded" else ""))
    grid.add_row("decay model", stats["decay_model"])
    grid.add_row("average score", f"{stats['avg_score']:.3f}")
    grid.add_row("below forget threshold",
                 f"{stats['below_forget_threshold']} active (threshold "
                 f"{stats['forget_threshold']:g}; `memvault gc --dry-run` lists them)")
    last_gc = stats.get("last_gc_at")
    grid.add_row("last gc", f"{absolute_time(last_gc)} ({relative_time(last_gc, now)})"
                 if last_gc else "never")
    if stats["problems"]:
        grid.add_row("unreadable files", str(len(stats["problems"])))
    out.print(grid)
    histogram = borderless_table(title="scores")
    histogram.add_column("range", no_wrap=True)
    histogram.add_column("memories", justify="right")
    histogram.add_column("", no_wrap=True)
    peak = max((b["count"] for b in stats["score_histogram"]), default=0) or 1
    for b in stats["score_histogram"]:
        upper = f"{b['to']:g}" if b["to"] is not None else "…"
        bar = "█" * round(30 * b["count"] / peak)
        histogram.add_row(f"{b['from']:g} – {upper}", str(b["count"]), Text(bar, style="cyan"))
    out.print()
    out.print(histogram)
