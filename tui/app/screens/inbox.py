"""The review inbox (key ``I`` on the main screen): what the assistant added, changed or removed
since the person last looked, one row a memory, the highlighted one's diff below.

``a`` accepts and ``r`` rejects the marked entries (``space`` marks), or the highlighted one when
none is marked; ``A`` accepts every entry shown. An entry whose memory likely duplicates another
(:func:`core.ops.duplicates.duplicates_of`) says so, and ``c`` closes the inbox and opens the
consolidate wizard on the pair (nothing is merged until the person applies it there). A reject
is one commit per memory, refused (nothing written) where the person changed the same field
since; ``ctrl+z`` on the main screen undoes it. Everything goes through
:class:`tui.app.inbox_service.InboxService` in thread workers; the results come back as
messages.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.coordinate import Coordinate
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from core import VaultError
from core.ops.inbox import InboxEntry, InboxView

from ..inbox_service import InboxService
from ..keys import key_for
from ..messages import InboxActed, InboxLoaded
from ...text import plural, relative_time, short_id
from ..widgets.inbox_diff import OPERATION_STYLE, InboxDiff
from ..widgets.lists import RowTable

MARK = "●"
HEADERS = (" ", "id", "operation", "when", "client", "change")
CHANGE_WIDTH = 60  # the change column's cells are cut to this (the diff below shows all)


def _width(cell: Text | str) -> int:
    """How many cells ``cell`` takes on the terminal."""
    return cell.cell_len if isinstance(cell, Text) else Text(cell).cell_len


def _cut(text: Text, width: int) -> Text:
    text.truncate(width, overflow="ellipsis")
    return text


class InboxScreen(Screen[list[str] | None]):
    """Dismissed with None, or with the pair of ids to open the consolidate wizard on."""

    CSS_PATH = "inbox.tcss"
    BINDINGS = [
        Binding("a", "accept", "Accept", id="memvault.inbox.accept"),
        Binding("r", "reject", "Reject", id="memvault.inbox.reject"),
        Binding("space", "mark", "Mark", id="memvault.inbox.mark"),
        Binding("A", "accept_all", "Accept all", id="memvault.inbox.accept_all"),
        Binding("c", "consolidate", "Merge", id="memvault.inbox.consolidate",
                tooltip="the consolidate wizard on the entry and the memory it likely duplicates"),
        Binding("ctrl+r", "reload", "Reload", show=False, id="memvault.inbox.reload"),
        Binding("escape,q", "back", "Back", id="memvault.inbox.back"),
    ]

    def __init__(self, inbox: InboxService, *, on_change: Callable[[], None] | None = None,
                 duplicates: Callable[[list[str]], dict[str, list[tuple[str, float]]]]
                 | None = None) -> None:
        super().__init__()
        self.inbox = inbox
        self.on_change = on_change  # the vault changed (a reject): the main screen reloads
        #: memory ids -> the memories each likely duplicates (the service's, of the open vault)
        self.duplicates = duplicates
        self.likely: dict[str, list[tuple[str, float]]] = {}
        self.view: InboxView | None = None
        self.entries: dict[str, InboxEntry] = {}
        self.marks: set[str] = set()
        self.busy = False

    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        with Vertical(id="inbox-body"):
            yield Static(Text("inbox: reading git…", style="dim"), id="inbox-title")
            table = RowTable(id="inbox-table", cursor_type="row", zebra_stripes=True)
            table.add_columns(*HEADERS)
            yield table
            yield InboxDiff(id="inbox-diff")
        yield Footer()

    @property
    def table(self) -> DataTable:
        return self.query_one("#inbox-table", DataTable)

    def on_mount(self) -> None:
        self.sub_title = "review inbox"
        self.query_one("#inbox-diff", InboxDiff).border_title = "change"
        self.load()

    # -- loading ----------------------------------------------------------------------------
    @work(thread=True, group="inbox-load", exclusive=True, exit_on_error=False)
    def load(self) -> None:
        try:
            view = self.inbox.review()
        except VaultError as exc:
            self.post_message(InboxLoaded(error=str(exc)))
            return
        likely: dict[str, list[tuple[str, float]]] = {}
        if self.duplicates is not None:
            ids = [e.memory_id for e in view.entries
                   if e.exists and e.operation in ("added", "changed")]
            try:
                likely = self.duplicates(ids)
            except Exception:  # noqa: BLE001 - a suggestion: the entries show without it
                likely = {}
        self.post_message(InboxLoaded(view, likely=likely))

    @on(InboxLoaded)
    def _loaded(self, message: InboxLoaded) -> None:
        if message.error is not None:
            self.query_one("#inbox-title", Static).update(Text(message.error, style="red"))
            return
        view: InboxView = message.view
        self.view = view
        self.likely = message.likely
        self.entries = {e.memory_id: e for e in view.entries}
        self.marks &= set(self.entries)
        self._fill_table()
        self._title()
        self._show_highlighted()
        self.table.focus()

    def on_resize(self) -> None:
        """The change column takes what the others leave: lay the rows out again."""
        if self.view is not None:
            self._fill_table()

    def _fill_table(self) -> None:
        """The table's rows for the entries shown, the cursor kept on its memory. Each column
        is as wide as its widest cell, set before the rows are added (a column that grows as
        rows come left the header drawn at the old widths until the next repaint); the change
        column is cut to what the others leave of the table's width (the diff below shows it
        whole), so nothing scrolls sideways at 80 columns."""
        assert self.view is not None
        table = self.table
        keep = self._highlighted()
        now = self.inbox.clock()
        rows = [(e.memory_id, self._cells(e, now)) for e in self.view.entries]
        widths = [max([len(header), *(_width(cells[index]) for _, cells in rows)])
                  for index, header in enumerate(HEADERS)]
        pad = 2 * table.cell_padding
        room = table.scrollable_content_region.width - table.styles.scrollbar_size_vertical
        left = room - sum(w + pad for w in widths[:-1]) - pad
        if room > 0:
            widths[-1] = max(len(HEADERS[-1]), min(widths[-1], left))
            rows = [(memory_id, [*cells[:-1], _cut(cells[-1].copy(), widths[-1])])
                    if isinstance(cells[-1], Text) else (memory_id, cells)
                    for memory_id, cells in rows]
        table.clear(columns=True)
        for header, width in zip(HEADERS, widths):
            table.add_column(header, width=width)
        for memory_id, cells in rows:
            table.add_row(*cells, key=memory_id)
        if keep in self.entries:
            table.move_cursor(row=table.get_row_index(keep), animate=False)

    def _cells(self, e: InboxEntry, now: int) -> list[Text | str]:
        change = e.summary(60) or e.preview
        if e.blocked:
            change = "you changed it since · " + change
        likely = self.likely.get(e.memory_id)
        if likely:
            other, score = likely[0]
            change = f"likely duplicates {short_id(other)} ({score:.2f}) · " + change
        return [Text(MARK if e.memory_id in self.marks else " ", style="bold cyan"),
                Text(short_id(e.memory_id), style="bold"),
                Text(e.operation, style=OPERATION_STYLE.get(e.operation, "")),
                relative_time(e.when, now),
                ", ".join(e.clients),
                _cut(Text(change, style="yellow" if e.blocked else ""), CHANGE_WIDTH)]

    def _title(self) -> None:
        n = len(self.entries)
        title = self.query_one("#inbox-title", Static)
        if not n:
            title.update(Text("Nothing to review: everything the assistant wrote has been "
                              "seen.", style="green"))
            return
        text = Text()
        text.append(plural(n, "memory", "memories"), style="bold")
        text.append(" the assistant added, changed or removed since you last reviewed.")
        if self.marks:
            text.append(f"  {len(self.marks)} marked", style="bold cyan")
        key = self.key_for
        text.append(f"\n{key('accept')} accepts, {key('reject')} rejects (the marked ones, else "
                    f"the highlighted one), {key('mark')} marks, {key('accept_all')} accepts "
                    "all.", style="dim")
        if self.likely:
            n = len(self.likely)
            text.append(f"\n{plural(n, 'entry', 'entries')} likely duplicate{'s' if n == 1 else ''}"
                        f" another memory: {self.key_for('consolidate')} opens the consolidate "
                        "wizard on the pair.",
                        style="#e3c948")
        title.update(text)

    def key_for(self, action: str) -> str:
        """The first key bound to ``action`` here, as the keymap has it now."""
        return key_for(self.app, type(self), action)

    def _highlighted(self) -> str | None:
        table = self.table
        if not table.row_count:
            return None
        try:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        except Exception:  # no such row (an empty table)
            return None
        return str(key.value) if key.value is not None else None

    def _show_highlighted(self) -> None:
        entry = self.entries.get(self._highlighted() or "")
        self.query_one("#inbox-diff", InboxDiff).show(entry, self.inbox.clock())

    @on(DataTable.RowHighlighted, "#inbox-table")
    def _row_highlighted(self) -> None:
        self._show_highlighted()

    # -- acting -----------------------------------------------------------------------------
    def _targets(self) -> list[str]:
        if self.marks:
            return [i for i in self.entries if i in self.marks]
        current = self._highlighted()
        return [current] if current else []

    def action_mark(self) -> None:
        memory_id = self._highlighted()
        if memory_id is None:
            return
        self.marks ^= {memory_id}
        table = self.table
        row = table.get_row_index(memory_id)
        table.update_cell_at(Coordinate(row, 0), Text(MARK if memory_id in self.marks else " ",
                                            style="bold cyan"))
        if row + 1 < table.row_count:
            table.move_cursor(row=row + 1)
        self._title()

    def action_accept(self) -> None:
        targets = self._targets()
        if not targets:
            self.notify("Nothing to accept", timeout=2)
            return
        self._act(lambda: self.inbox.accept(targets), "accept", changed=False)

    def action_accept_all(self) -> None:
        if not self.entries or self.view is None:
            self.notify("Nothing to accept", timeout=2)
            return
        upto = self.view.head
        self._act(lambda: self.inbox.accept(None, upto=upto), "accept", changed=False)

    def action_reject(self) -> None:
        targets = self._targets()
        if not targets:
            self.notify("Nothing to reject", timeout=2)
            return
        blocked = [self.entries[i] for i in targets if self.entries[i].blocked]
        if blocked:
            self.notify(f"Cannot reject {short_id(blocked[0].memory_id)}: "
                        f"{blocked[0].blocked}. Nothing was written.", title="reject",
                        severity="error", markup=False)
            return
        if len(targets) == 1:
            self._act(lambda: self.inbox.reject(targets[0]), "reject", changed=True)
        else:
            self._act(lambda: self.inbox.reject_many(targets), "reject", changed=True)

    def _act(self, operation: Callable[[], object], title: str, *, changed: bool) -> None:
        if self.busy:
            return
        self.busy = True
        self.act_in_worker(operation, title, changed)

    @work(thread=True, group="inbox-write", exit_on_error=False)
    def act_in_worker(self, operation: Callable[[], object], title: str, changed: bool) -> None:
        try:
            result = operation()
        except VaultError as exc:
            self.post_message(InboxActed(error=str(exc), title=title))
            return
        finally:
            self.busy = False
        self.post_message(InboxActed(result, title="changed" if changed else title))

    @on(InboxActed)
    def _acted(self, message: InboxActed) -> None:
        if message.error is not None:
            self.notify(message.error, title=message.title or "refused", severity="error",
                        markup=False)
        else:
            result = message.result
            self.notify(result.note, title=result.title, markup=False)
            self.marks.clear()
            if message.title == "changed" and self.on_change is not None:
                self.on_change()
        self.load()

    def action_consolidate(self) -> None:
        """Close the inbox and open the consolidate wizard on the highlighted entry's memory
        and the memory it most likely duplicates."""
        memory_id = self._highlighted()
        likely = self.likely.get(memory_id or "")
        if memory_id is None or not likely:
            self.notify("This entry likely duplicates no other memory", timeout=3)
            return
        self.dismiss([memory_id, likely[0][0]])

    def action_reload(self) -> None:
        self.load()

    def action_back(self) -> None:
        self.dismiss(None)
