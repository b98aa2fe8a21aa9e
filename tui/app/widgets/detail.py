"""The detail pane: one memory's fields, its score and time until forgotten, a sparkline of the
next 30 days of decay, and its gist or its content (one key toggles; a memory without a gist
shows its content and says so). What the filter's words match in the body and in the tags and
entities is highlighted (``terms``).

The pane owns a reactive ``memory_id`` (:meth:`DetailPane.want`): set, it reads that memory
(the first read of a row parses it; its relations and forecast) in a worker of its own, as the
history and provenance panes do, and draws what comes back only when it is still the memory
and the view it wants: a late read of a memory the cursor left is dropped. A group, a "… more"
row or a note are drawn at once (``memory_id`` None)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual import on
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Sparkline, Static

from core import MemoryStatus, decay
from core.model.records import is_pinned
from core.search.query import Term
from core.search.word_spans import match_spans

from ..groups import Group
from ...text import PANE_PREVIEW, date_text, preview, relative_time, size_text, span
from ..bands import BAND_STYLE
from ..view import (
    MATCH_STYLE,
    PIN_STYLE,
    STATUS_STYLE,
    Row,
    VaultView,
    score_bar,
)

FORECAST_DAYS = 30


def no_gist_note(content: str, short: str = "showing the content") -> str:
    """What the app says of a memory without a gist: why (core.gist.reasons), or ``short`` for
    a note under the gist's minimum length."""
    from core.gist import MIN_WORDS, word_count
    from core.gist.reasons import no_gist_reason

    return short if word_count(content) < MIN_WORDS else no_gist_reason(content)


def group_figures(view: VaultView, ids: Iterable[str]
                  ) -> tuple[float, float, float, dict[str, int], dict[str, int]] | None:
    """What the detail pane says of a group of memories (``ids``; those not in ``view`` left
    out): the sum, lowest and highest of their scores, how many of each status and of each decay
    band; None for none. A group highlighted as the vault opens holds most of it, and this runs
    before the tree is painted: a few passes the interpreter makes in C (``sum``, ``min``,
    ``Counter``) rather than one of Python steps per memory (0.16-0.19 s at 100k)."""
    rows = view.rows
    found = [row for i in ids if (row := rows.get(i)) is not None]
    if not found:
        return None
    scores = [row.score for row in found]
    statuses = Counter([row.brief.status for row in found])
    in_band = Counter([row.band for row in found])
    return (sum(scores), min(scores), max(scores),
            {status.value: n for status, n in statuses.items()}, dict(in_band))


@dataclass(frozen=True)
class MemoryRead:
    """What the pane's worker read of one memory for one view (None: it left the vault)."""

    row: Row | None
    relations: int = 0
    forecast: tuple[float, ...] = ()
    seconds: float | None = None


class DetailRead(Message, bubble=False):
    """(To the pane itself.) What its worker read of ``memory_id`` in ``view``."""

    def __init__(self, memory_id: str, view: VaultView, read: MemoryRead) -> None:
        super().__init__()
        self.memory_id = memory_id
        self.view = view
        self.read = read


def read_memory(view: VaultView, memory_id: str) -> MemoryRead:
    """(In the pane's worker.) ``memory_id``'s row in ``view``, parsed, with what the pane draws
    of it that takes time: its relations' count, its forecast, when it is forgotten."""
    row = view.get(memory_id)
    if row is None:
        return MemoryRead(None)
    m, config, now = row.memory, view.config, view.now
    return MemoryRead(row, len(view.relations_of(memory_id)),
                      tuple(decay.forecast(m, config, FORECAST_DAYS, now)),
                      decay.seconds_until_forgotten(m, config, now))


class DetailPane(VerticalScroll):
    """Shows a :class:`~tui.app.view.Row`; ``show_content`` picks the body. A pane shorter
    than :attr:`TALL` lines (an 80x24 terminal) shows the memory's words first and its fields
    below them, so what a decision needs is above the fold."""

    TALL = 30

    #: the memory the pane shows (None: a group, a note); set, the pane reads it in a worker
    memory_id: reactive[str | None] = reactive(None, init=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.show_content = False
        self.row: Row | None = None
        self.view: VaultView | None = None
        self.wanted: VaultView | None = None  # the view ``memory_id`` is read in
        self.toggle_key = "c"  # the key that toggles gist and content, for the hint
        self.terms: list[Term] = []  # the filter's words: highlighted where they match

    def marked(self, text: str) -> Text:
        """``text`` with what the filter's words match in it styled (never markup)."""
        out = Text(text)
        for start, end in match_spans(text, self.terms) if self.terms else ():
            out.stylize(MATCH_STYLE, start, end)
        return out

    def compose(self) -> ComposeResult:
        yield Static(Text("Highlight a memory to see it here.", style="dim"), id="detail-fields")
        with Vertical(id="forecast-row"):
            yield Static("", id="forecast-label")
            yield Sparkline([], id="forecast")
            yield Static("", id="forecast-axis")
        yield Static("", id="body-title")
        yield Static("", id="body")

    def on_resize(self) -> None:
        """Words first in a short pane, fields first in a tall one."""
        self._place_text()

    def _place_text(self) -> None:
        """A memory's words above its fields in a short pane; a group's figures (or a note)
        stay first, their line of help below them."""
        text_first = 0 < self.size.height < self.TALL and self.row is not None
        if text_first == self.has_class("-text-first"):
            return
        self.set_class(text_first, "-text-first")
        title, body = self.query_one("#body-title"), self.query_one("#body")
        if text_first:
            self.move_child(title, before=0)
            self.move_child(body, after=title)
        else:
            self.move_child(title, after=self.query_one("#forecast-row"))
            self.move_child(body, after=title)

    # -- what to show -----------------------------------------------------------------------
    def want(self, view: VaultView, memory_id: str, terms: list[Term] | None = None) -> None:
        """Show ``memory_id`` as ``view`` has it (``terms``: the filter's words): read in the
        pane's worker when it is another memory or another view, drawn when it comes back."""
        if terms is not None:
            self.terms = terms
        again = memory_id == self.memory_id and view is not self.wanted
        self.wanted = view
        if again:
            self._load(memory_id)
        else:
            self.memory_id = memory_id  # (its watcher reads it)

    def watch_memory_id(self, memory_id: str | None) -> None:
        if memory_id is not None:
            self._load(memory_id)

    def _load(self, memory_id: str) -> None:
        """Say which memory is read (never the one shown before), and read it in a worker (a
        newer read replaces an older one)."""
        view = self.wanted
        if view is None:
            return
        if self.row is None or self.row.id != memory_id:
            self.row = None
            self._place_text()
            self._fields(Text.assemble((memory_id[:8], "bold"), ("  reading…", "dim")))
            self._no_forecast()
            self.query_one("#body-title", Static).update("")
            self.query_one("#body", Static).update("")
        self.run_worker(partial(self._read, view, memory_id), thread=True, group="detail",
                        exclusive=True, exit_on_error=False)

    def _read(self, view: VaultView, memory_id: str) -> None:
        """(In a worker.)"""
        self.post_message(DetailRead(memory_id, view, read_memory(view, memory_id)))

    @on(DetailRead)
    def _drawn(self, message: DetailRead) -> None:
        if message.memory_id != self.memory_id or message.view is not self.wanted:
            return  # a read the cursor left behind: the newer one follows
        read = message.read
        if read.row is None:
            self.show_gone(message.memory_id, keep_id=True)
        else:
            self.show_row(message.view, read.row, read)

    def show_row(self, view: VaultView, row: Row, read: MemoryRead | None = None) -> None:
        """Draw ``row`` (``read``: what the worker read of it; else read here)."""
        self.view, self.row = view, row
        self._place_text()
        self._render_row(read or read_memory(view, row.id))

    def toggle_body(self) -> bool:
        self.show_content = not self.show_content
        if self.row is not None:
            self._render_body()
        return self.show_content

    def show_gone(self, memory_id: str, keep_id: bool = False) -> None:
        """A memory deleted: only its history remains (``keep_id``: it is ``memory_id``)."""
        if not keep_id:
            self.memory_id = None
        self.row = None
        self._place_text()
        self._fields(Text.assemble((memory_id, "bold"), "\n",
                                   ("deleted: only its history remains. ", "dim"),
                                   ("The History tab shows its versions and can restore it.",
                                    "dim")))
        self._no_forecast()
        self.query_one("#body-title", Static).update("")
        self.query_one("#body", Static).update("")

    def show_group(self, view: VaultView, group: Group, *, expanded: bool = False) -> None:
        """A group's counts; below them how to see its memories (``expanded``: it is open)."""
        self.row = self.memory_id = None
        self._place_text()
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column()
        grid.add_row("group", Text(group.title, style=group.style))
        grid.add_row("memories", str(group.count))
        figures = group.figures(view, group_figures)
        if figures is not None:
            total, low, high, statuses, in_band = figures
            grid.add_row("average score", f"{total / sum(statuses.values()):.3f}")
            grid.add_row("lowest", f"{low:.3f}")
            grid.add_row("highest", f"{high:.3f}")
            grid.add_row("status", ", ".join(f"{k} {v}" for k, v in statuses.items()))
            bands = Text()
            for band in view.band_table:
                n = in_band.get(band.key, 0)
                if n:
                    if bands:
                        bands.append(" · ", style="dim")
                    bands.append(f"{band.name} {n}", style=band.style)
            grid.add_row("decay", bands)
        self._fields(grid)
        self._no_forecast()
        self.query_one("#body-title", Static).update("")
        self.query_one("#body", Static).update(
            Text("Its memories are the rows below it (h or left closes the group)." if expanded
                 else "Expand the group (enter, l or a click; * opens every group) to see its "
                 "memories.", style="dim"))

    def clear_detail(self, message: str = "Highlight a memory to see it here.") -> None:
        self.row = self.memory_id = None
        self._place_text()
        self._fields(Text(message, style="dim"))
        self._no_forecast()
        self.query_one("#body-title", Static).update("")
        self.query_one("#body", Static).update("")

    # -- drawing ----------------------------------------------------------------------------
    def _fields(self, renderable: RenderableType) -> None:
        self.query_one("#detail-fields", Static).update(renderable)

    def _no_forecast(self) -> None:
        self.query_one("#forecast-row").display = False

    def _render_row(self, read: MemoryRead) -> None:
        assert self.row is not None and self.view is not None
        row, view = self.row, self.view
        m, now, config = row.memory, view.now, view.config
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column()
        grid.add_row("id", Text(m.id, style="bold"))
        grid.add_row("status", Text(m.status.value, style=STATUS_STYLE.get(m.status, "")))
        if is_pinned(m):
            grid.add_row("pinned", Text.assemble(("yes", PIN_STYLE),
                                                 ("  gc never deletes or archives it", "dim")))
        grid.add_row("tags", self.marked(", ".join(m.meta.tags) or "–"))
        grid.add_row("entities", self.marked(", ".join(m.entities) or "–"))
        if m.meta.source:
            grid.add_row("source", Text(m.meta.source))
        grid.add_row("created", Text(f"{relative_time(m.created_at, now)} ({date_text(m.created_at)})"))
        grid.add_row("last used", Text(f"{relative_time(m.last_used, now)} ({date_text(m.last_used)})"))
        grid.add_row("use count", str(m.use_count))
        grid.add_row("strength", f"{m.strength:.3g}")
        score = Text(f"{row.score:.3f} ", style=BAND_STYLE.get(row.band, ""))
        score.append_text(score_bar(row.score, row.band, 10))
        score.append(f"  {config.decay_model}", style="dim")
        grid.add_row("score", score)
        seconds = read.seconds
        if seconds is None:
            forgotten = Text("never")
        elif seconds <= 0:
            forgotten = Text(f"now: below the forget threshold {config.forget_threshold:g}",
                             style="bright_red")
        else:
            forgotten = Text(f"in {span(seconds)} ({date_text(now + seconds)})")
        if m.status != MemoryStatus.ACTIVE:
            forgotten.append("  (gc prunes only active memories)", style="dim")
        elif is_pinned(m):
            forgotten.append("  (pinned: gc keeps it)", style="dim")
        grid.add_row("forgotten", forgotten)
        if read.relations:
            grid.add_row("relations", f"{read.relations} (see Provenance)")
        self._fields(grid)
        series = list(read.forecast)
        self.query_one("#forecast-row").display = True
        self.query_one("#forecast", Sparkline).data = series
        label = Text("next 30 days  ", style="bold")
        label.append(f"{series[0]:.2f} → {series[-1]:.2f}")
        threshold = config.forget_threshold
        if series[-1] < threshold <= series[0]:
            day = next(d for d, s in enumerate(series) if s < threshold)
            label.append(f"  below {threshold:g} on day {day}", style="bright_red")
        elif series[0] < threshold:
            label.append(f"  already below {threshold:g}", style="bright_red")
        self.query_one("#forecast-label", Static).update(label)
        axis = Table.grid(expand=True)  # (as wide as the axis is drawn: read in a worker,
        axis.add_column()  # the row may not be laid out yet, its width unknown)
        axis.add_column(justify="right")
        axis.add_row(Text("today", style="dim"), Text("+30 days", style="dim"))
        self.query_one("#forecast-axis", Static).update(axis)
        self._render_body()

    def _render_body(self) -> None:
        if self.row is None:
            return
        m = self.row.memory
        title = self.query_one("#body-title", Static)
        body = self.query_one("#body", Static)
        if not m.gist:
            # (the gist's reasons read the whole content: seconds for megabytes)
            note = no_gist_note(m.content) if len(m.content) <= PANE_PREVIEW else \
                f"showing its first {PANE_PREVIEW:,} characters of {size_text(len(m.content.encode()))}"
            title.update(Text.assemble(("content", "bold"), (f"  (no gist: {note})", "dim italic")))
            body.update(self.marked(preview(m.content, PANE_PREVIEW)))
        elif self.show_content:
            title.update(Text.assemble(("content", "bold"), (f"  {self.toggle_key} shows the gist", "dim")))
            body.update(self.marked(preview(m.content, PANE_PREVIEW)))
        else:
            saved = len(m.content) - len(m.gist)
            note = f"  {len(m.gist)} of {len(m.content)} characters" if saved > 0 else ""
            title.update(Text.assemble(("gist", "bold"), (note, "dim"),
                                       (f"  {self.toggle_key} shows the content", "dim")))
            body.update(self.marked(preview(m.gist, PANE_PREVIEW)))

