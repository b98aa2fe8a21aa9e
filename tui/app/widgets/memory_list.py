"""The flat list of memories: every memory the filter keeps, one row each, sortable
by any column (score, status, id, text, tags, last used), beside the grouped tree (``f``
switches). The filter's words are highlighted in the text column.

Fast at 10k+ memories: only what can be seen is added. The rows up to the cursor and a few
screens after it are added at once, more when the cursor or the scroll comes near the last
added row (:attr:`MemoryList.AHEAD`); the title says how many are listed so far. Columns have
fixed widths, and a row's cells are :class:`Cell` s that make their ``Text`` only when the row is
first drawn (a table measures every cell it is given: these answer with their column's width).
Filling a DataTable with every row in the background was tried and dropped: each chunk makes
the table lay out and draw its visible rows again, which is what a keystroke then waits for.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text
from textual import on
from textual.binding import Binding
from textual.events import Resize
from textual.reactive import reactive
from textual.widgets import DataTable
from textual.widgets.data_table import CellDoesNotExist

from core.search.query import Term
from core.search.word_spans import match_spans
from core.vault import first_words

from ...text import short_span
from ..settings import LIST_SORTS
from ..view import MATCH_STYLE, STATUS_STYLE, Row, VaultView, score_text
from .columns import Column, fit_columns

SORT_NAMES = {"score": "score", "status": "status", "id": "id", "text": "text",
              "tags": "tags", "last_used": "last used"}
#: the fixed columns' widths (the text column takes what is left)
WIDTHS = {"score": 5, "status": 8, "id": 8, "tags": 12, "last_used": 4}
COLUMNS = ("score", "status", "id", "text", "tags", "last_used")
#: the fixed columns, and which give way first to the text at a narrow width
FIXED = [Column("score", "score", WIDTHS["score"]),
         Column("status", "status", WIDTHS["status"], gives_way=2),
         Column("id", "id", WIDTHS["id"]),
         Column("tags", "tags", WIDTHS["tags"], gives_way=1),
         Column("last_used", "used", WIDTHS["last_used"], gives_way=3)]
STATUS_RANK = {"active": 0, "promoted": 1, "archived": 2, "superseded": 3}


class Cell:
    """A table cell whose ``Text`` is made the first time it is drawn (or asked for)."""

    __slots__ = ("_make", "_width", "_text")

    def __init__(self, make: Callable[[], Text], width: int) -> None:
        self._make = make
        self._width = width
        self._text: Text | None = None

    @property
    def text(self) -> Text:
        if self._text is None:
            self._text = self._make()
        return self._text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.text

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(self._width, self._width)


def sort_key(sort: str, now: int, gist_first: bool) -> Callable[[Row], Any]:
    """The key ``sorted`` needs to order rows by ``sort`` (ascending; the id breaks ties)."""
    if sort == "status":
        return lambda r: (STATUS_RANK.get(r.brief.status.value, 9), r.id)
    if sort == "id":
        return lambda r: r.id
    if sort == "text":
        return lambda r: (_text_of(r, gist_first).lower(), r.id)
    if sort == "tags":
        return lambda r: (", ".join(r.brief.meta.tags).lower() or "\uffff", r.id)
    if sort == "last_used":
        return lambda r: (r.brief.last_used, r.id)
    return lambda r: (r.score, r.id)


def sorted_ids(view: VaultView, ids: Sequence[str], sort: str, descending: bool,
               gist_first: bool = True) -> list[str]:
    rows = [view.rows[i] for i in ids if i in view.rows]
    rows.sort(key=sort_key(sort, view.now, gist_first), reverse=descending)
    return [r.id for r in rows]


def _text_of(row: Row, gist_first: bool) -> str:
    text = row.brief.text if gist_first else row.memory.content  # (a summary's text: the start)
    return text.split("\n", 1)[0]


class MemoryList(DataTable):
    """Rows keyed by memory id. The screen gives it the view and the ids; it sorts them.

    What the person chose of it is a reactive attribute, as the tree's are
    (tui/app/main/tree.py): ``order``, the sort column and whether it runs high to low, which
    its keys ``s`` and ``o`` and a header's click change (the screen watches it: the title, the
    saved settings); the cursor is DataTable's ``cursor_coordinate``."""

    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False, id="memvault.list.down"),
        Binding("k", "cursor_up", "Up", show=False, id="memvault.list.up"),
        Binding("G", "scroll_bottom", "Bottom", show=False, id="memvault.list.bottom"),
        Binding("s", "next_sort", "Sort column", show=False, id="memvault.list.sort"),
        Binding("o", "reverse", "Reverse order", show=False, id="memvault.list.reverse"),
    ]
    FIRST = 120  # rows after the cursor added at once (a screen shows ~35)
    AHEAD = 40  # when the cursor or the scroll comes this near the last row, add ...
    CHUNK = 250  # ... this many more

    #: (the sort column, high to low): set, the rows are sorted again at once (not ``sort``:
    #: DataTable's method)
    order: reactive[tuple[str, bool]] = reactive(("score", True), init=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.view: VaultView | None = None
        self.ids: list[str] = []  # sorted, as shown
        self.gist_first = True
        self.terms: list[Term] = []
        self.added = 0  # how many of ``ids`` are rows yet
        self._width = 0
        self.shown_columns: list[str] = list(COLUMNS)  # those that fit (see fit_columns)
        self._shown: tuple[VaultView | None, list[str]] = (None, [])
        #: what the rows were drawn for: the width, gist or content, the words highlighted
        self._drawn: tuple[int, bool, tuple[Term, ...]] = (0, True, ())

    # -- what it shows ------------------------------------------------------------------------
    @property
    def sort_column(self) -> str:
        return self.order[0]

    @property
    def descending(self) -> bool:
        return self.order[1]

    @property
    def sort_title(self) -> str:
        return f"sorted by {SORT_NAMES[self.sort_column]} {'↓' if self.descending else '↑'}"

    @property
    def current_id(self) -> str | None:
        if not self.ids or not 0 <= self.cursor_row < self.added:
            return None
        return self.ids[self.cursor_row]

    def show(self, view: VaultView, ids: Sequence[str], focus: str | None = None) -> None:
        """Rebuild for the memories ``ids``; the cursor stays on its memory (or ``focus``).
        When the rows are the ones shown, in the same order and drawn the same way (an
        operation changed a few memories: archived, tagged), only the cells of the rows that
        changed are put in again (:meth:`renew`): the table is not emptied and measured again."""
        keep = focus or self.current_id
        ordered = sorted_ids(view, ids, self.sort_column, self.descending, self.gist_first)
        width = self.scrollable_content_region.width or self.size.width or 80
        drawn = (width, self.gist_first, tuple(self.terms))
        if self.view is not None and ordered == self.ids and drawn == self._drawn:
            self._shown = (view, list(ids))
            self.renew(view)
            if keep is not None and keep != self.current_id:
                self.go_to(keep)
            return
        self._shown = (view, list(ids))
        self.view = view
        self.ids = ordered
        self._width = width
        self._drawn = drawn
        self.clear(columns=True)
        kept, text_width = fit_columns(FIXED, self._width)
        shown = {c.key for c in kept}
        self.shown_columns = [c for c in COLUMNS if c == "text" or c in shown]
        for column in self.shown_columns:
            if column == "text":
                self.add_column("gist / content" if self.gist_first else "content",
                                width=text_width, key="text")
            else:
                fixed = next(c for c in kept if c.key == column)
                self.add_column(fixed.label, width=fixed.width, key=column)
        self.text_width = text_width
        self.added = 0
        at = self.ids.index(keep) if keep is not None and keep in self.ids else 0
        self._add_rows(at + self.FIRST)
        if self.ids:
            self.move_cursor(row=at, animate=False)

    def renew(self, view: VaultView) -> None:
        """``view`` holds the rows shown, in their order: the cells of the rows it changed
        (a new ``Row``) are made again, each in place; the others are left as drawn."""
        before, self.view = self.view, view
        assert before is not None
        widths = [(c, self.text_width if c == "text" else WIDTHS[c]) for c in self.shown_columns]
        cells: dict[tuple[str, str], object] = {}
        for memory_id in self.ids[:self.added]:
            row = view.rows[memory_id]
            if before.rows.get(memory_id) is not row:
                cells.update({(memory_id, c): Cell(partial(self.cell, row, c), w)
                              for c, w in widths})
        if cells:
            self.update_cells(cells)

    def _need(self, row: int) -> None:
        """Row ``row`` is (nearly) in sight: make sure the rows a little past it are added."""
        if row + self.AHEAD >= self.added < len(self.ids):
            self._add_rows(row + self.AHEAD + self.CHUNK)

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._need(event.cursor_row)  # (the screen hears it too)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._need(int(new_value) + self.size.height)

    def _add_rows(self, upto: int) -> None:
        assert self.view is not None
        rows = self.view.rows
        widths = [(c, self.text_width if c == "text" else WIDTHS[c]) for c in self.shown_columns]
        for memory_id in self.ids[self.added:upto]:
            row = rows[memory_id]
            self.add_row(*(Cell(partial(self.cell, row, c), w) for c, w in widths),
                         key=memory_id)
        self.added = min(upto, len(self.ids))
        self.border_subtitle = (f"{self.added} of {len(self.ids)} listed: more as you go down"
                                if self.added < len(self.ids) else "")

    def cell(self, row: Row, column: str) -> Text:
        """The ``Text`` of one cell (the filter's words styled in the text and the tags)."""
        m = row.brief
        if column == "score":
            return score_text(row.score, row.band)
        if column == "status":
            return Text(m.status.value, style=STATUS_STYLE.get(m.status, ""))
        if column == "id":
            return Text(m.id[:8], style="bold")
        if column == "last_used":
            assert self.view is not None
            return Text(short_span(self.view.now - m.last_used), style="dim")
        if column == "tags":
            shown = ", ".join(m.meta.tags)
        else:
            shown = first_words(_text_of(row, self.gist_first), self.text_width)
        text = Text(shown, no_wrap=True, overflow="ellipsis")
        for start, end in match_spans(shown, self.terms) if self.terms else ():
            text.stylize(MATCH_STYLE, start, end)
        return text

    def go_to(self, memory_id: str) -> bool:
        """Put the cursor on ``memory_id`` (adding rows up to it); False if not listed."""
        if memory_id not in self.ids:
            return False
        at = self.ids.index(memory_id)
        if at >= self.added:
            self._add_rows(at + self.FIRST)
        self.move_cursor(row=at, animate=False)
        return True

    def update_cells(self, cells: Mapping[tuple[str, str], object]) -> None:
        """Put each value in its cell ((memory id, column) -> value), every cell checked first:
        a row that is not shown raises ``CellDoesNotExist`` before any cell is changed.
        (DataTable's public ``update_cell`` asks for one redraw of the table each call; in one
        frame they are drawn once.)"""
        for memory_id, _ in cells:
            if memory_id not in self.rows:
                raise CellDoesNotExist(f"no row for {memory_id!r}")
        for (memory_id, column), value in cells.items():
            self.update_cell(memory_id, column, value)

    # -- sorting ------------------------------------------------------------------------------
    def validate_order(self, order: tuple[str, bool]) -> tuple[str, bool]:
        column, descending = order
        if column not in LIST_SORTS:
            raise ValueError(f"the list cannot sort by {column!r} (it sorts by "
                             f"{', '.join(LIST_SORTS)})")
        return column, bool(descending)

    def watch_order(self) -> None:
        """Sorted again, the cursor on its memory."""
        view, ids = self._shown
        if view is not None:
            self.show(view, ids)

    def sort_by(self, column: str) -> None:
        """Sort by ``column``: numbers and times read best high to low, words a to z."""
        self.order = (column, column in ("score", "last_used"))

    def action_next_sort(self) -> None:
        self.sort_by(LIST_SORTS[(LIST_SORTS.index(self.sort_column) + 1) % len(LIST_SORTS)])

    def action_reverse(self) -> None:
        self.order = (self.sort_column, not self.descending)

    def action_scroll_bottom(self) -> None:
        if self.ids:
            self.go_to(self.ids[-1])

    @on(DataTable.HeaderSelected)
    def _header_selected(self, event: DataTable.HeaderSelected) -> None:
        """A click on a column's header sorts by it (again: the other way)."""
        event.stop()
        key = str(event.column_key.value)
        if key == self.sort_column:
            self.action_reverse()
        else:
            self.sort_by(key)

    def on_resize(self, event: Resize) -> None:
        width = self.scrollable_content_region.width
        view, ids = self._shown
        if view is not None and width and width != self._width:
            self.show(view, ids)
