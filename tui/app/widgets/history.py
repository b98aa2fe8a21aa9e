"""The history pane: the memory's git log (when, what), newest first. Enter opens a version;
the restore key makes the highlighted version the current one (a new commit). ``D`` shows a word
diff of the highlighted version against the one marked with space (default: against the version
before it); j/k move, esc goes back to the tree."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import DataTable, Static

from core import HistoryEntry

from ...text import relative_time, subject_line
from ..keys import key_for
from ..messages import OperationFailed
from ..service import HistoryInfo
from ..view import VaultView
from .columns import Column, fit_columns
from .git_reading import GitRead, GitReading

ACTION_STYLE = {"created": "green", "changed": "", "deleted": "red"}


MARK = Text("◆", style="bold magenta")  # the version the diff compares with


class HistoryTable(DataTable):
    BINDINGS = [
        Binding("r", "restore", "Restore", show=False, id="memvault.history.restore"),
        Binding("space", "mark_version", "Mark", show=False, id="memvault.history.mark"),
        Binding("D", "diff", "Diff", id="memvault.history.diff"),
        Binding("j", "cursor_down", "Down", show=False, id="memvault.history.down"),
        Binding("k", "cursor_up", "Up", show=False, id="memvault.history.up"),
        Binding("escape", "screen.focus_tree", "Back to the tree", show=False,
                id="memvault.history.back"),
    ]

    def action_restore(self) -> None:
        pane = self.parent
        if isinstance(pane, HistoryPane):
            pane.request_restore()

    def action_mark_version(self) -> None:
        pane = self.parent
        if isinstance(pane, HistoryPane):
            pane.toggle_mark()

    def action_diff(self) -> None:
        pane = self.parent
        if isinstance(pane, HistoryPane):
            pane.request_diff()


class HistoryPane(Vertical):
    class ViewVersion(Message):
        def __init__(self, memory_id: str, entry: HistoryEntry) -> None:
            super().__init__()
            self.memory_id = memory_id
            self.entry = entry

    class RestoreVersion(Message):
        def __init__(self, memory_id: str, entry: HistoryEntry) -> None:
            super().__init__()
            self.memory_id = memory_id
            self.entry = entry

    class DiffVersions(Message):
        """Compare ``old`` (None: the memory before it existed) with ``new``."""

        def __init__(self, memory_id: str, old: HistoryEntry | None, new: HistoryEntry) -> None:
            super().__init__()
            self.memory_id = memory_id
            self.old = old
            self.new = new

    #: the memory whose history the pane shows (None: a hint); set, the pane reads it from git
    #: in a worker of its own (``read``: the service's)
    memory_id: reactive[str | None] = reactive(None, init=False)

    def __init__(self, *, read: Callable[[str], HistoryInfo] | None = None,
                 id: str | None = None) -> None:
        super().__init__(id=id)
        self.reading = GitReading(self, read, "history",
                                  "Highlight a memory to see its history.")
        #: the vault as the screen shows it (what "now" is for the ages)
        self.view: VaultView | None = None
        self.info: HistoryInfo | None = None
        self.marked: int | None = None  # the row of the version marked to compare with
        self.now = 0
        self._drawn_width = 0  # the pane's width the table was filled for

    def compose(self) -> ComposeResult:
        yield Static(Text("Highlight a memory to see its history.", style="dim"),
                     id="history-title")
        yield HistoryTable(id="history-table", cursor_type="row", zebra_stripes=True)

    def watch_memory_id(self, memory_id: str | None) -> None:
        self.reading.follow(memory_id)

    def want(self, memory_id: str | None) -> None:
        """Show ``memory_id``'s history: read when it is another memory, or the vault changed."""
        self.reading.want(memory_id)

    @on(GitRead)
    def _read(self, message: GitRead) -> None:
        if not self.reading.current(message):
            return  # an older memory's read: the current one's follows
        if message.error is not None:
            self.reading.stale = True
            self.post_message(OperationFailed(message.error, "history"))
        else:
            self.show_history(message.found, self.view.now if self.view is not None else 0)

    def show_loading(self, memory_id: str) -> None:
        self.query_one("#history-title", Static).update(
            Text(f"history of {memory_id[:8]}: reading git…", style="dim"))

    def show_message(self, message: str) -> None:
        self.info = None
        self.marked = None
        self.query_one("#history-title", Static).update(Text(message, style="dim"))
        self.query_one(HistoryTable).clear(columns=True)

    def show_history(self, info: HistoryInfo, now: int) -> None:
        self.info = info
        self.marked = None
        title = Text()
        title.append("history of ", style="dim")
        title.append(info.memory_id[:8], style="bold")
        if not info.live:
            title.append("  deleted", style="red")
        key = partial(key_for, self.app, HistoryTable)
        title.append(f"  {len(info.entries)} commit{'s' if len(info.entries) != 1 else ''}, "
                     f"newest first · enter opens a version · {key('restore')} restores it · "
                     f"{key('mark_version')} marks one · {key('diff')} diffs with the marked "
                     "(or the previous) one", style="dim")
        self.query_one("#history-title", Static).update(title)
        self.now = now
        self._fill_table()

    def _fill_table(self, cursor: int = 0) -> None:
        """The rows, the "when" and "action" columns as wide as their longest cell and the
        message as wide as what is left of the pane (an ellipsis where it is cut)."""
        info = self.info
        if info is None:
            return
        table = self.query_one(HistoryTable)
        table.clear(columns=True)
        whens = [relative_time(e.timestamp, self.now) for e in info.entries]
        when_width = max([4, *map(len, whens)])
        action_width = max([6, *(len(e.action) for e in info.entries)])
        # in a narrow pane the action (the message's first word says it too), then the time,
        # give way to the message (fit_columns keeps one cell, this one more, for a scrollbar)
        fixed = [Column("mark", " ", 1), Column("commit", "commit", 8),
                 Column("when", "when", when_width, gives_way=2),
                 Column("action", "action", action_width, gives_way=1)]
        kept, width = fit_columns(fixed, (self.size.width or table.size.width or 80) - 1, 16)
        self._drawn_width = self.size.width
        for column in kept:
            table.add_column(column.label, width=column.width, key=column.key)
        table.add_column("message", width=width, key="message")
        for index, (e, when) in enumerate(zip(info.entries, whens)):
            cells = {"mark": MARK if index == self.marked else Text(" "),
                     "commit": Text(e.commit[:8], style="bold"), "when": Text(when),
                     "action": Text(e.action, style=ACTION_STYLE.get(e.action, ""))}
            table.add_row(*(cells[c.key] for c in kept),
                          Text(subject_line(e.message), no_wrap=True, overflow="ellipsis"),
                          key=str(index))
        if info.entries:
            table.move_cursor(row=min(cursor, len(info.entries) - 1))

    def on_resize(self) -> None:
        """A wider or narrower pane: the message column takes what there is now."""
        if self.info is not None and self.size.width != self._drawn_width:
            self._fill_table(self.query_one(HistoryTable).cursor_row)

    def selected_entry(self) -> HistoryEntry | None:
        if self.info is None or not self.info.entries:
            return None
        table = self.query_one(HistoryTable)
        row = table.cursor_row
        if 0 <= row < len(self.info.entries):
            return self.info.entries[row]
        return None

    def toggle_mark(self) -> None:
        """Mark the highlighted version as the one ``D`` compares with (again: unmark it)."""
        if self.info is None or not self.info.entries:
            return
        table = self.query_one(HistoryTable)
        row = table.cursor_row
        if not 0 <= row < len(self.info.entries):
            return
        previous, self.marked = self.marked, (None if self.marked == row else row)
        for index in (previous, self.marked):
            if index is not None:
                table.update_cell(str(index), "mark", MARK if index == self.marked else Text(" "))

    def diff_pair(self) -> tuple[HistoryEntry | None, HistoryEntry] | None:
        """(older side, newer side) that ``D`` compares: the marked version (or the one before
        the highlighted one: None before the first) and the highlighted one."""
        entry = self.selected_entry()
        if entry is None or self.info is None:
            return None
        row = self.query_one(HistoryTable).cursor_row
        entries = self.info.entries
        if self.marked is not None and self.marked != row:
            return entries[self.marked], entry
        return (entries[row + 1] if row + 1 < len(entries) else None), entry

    def request_diff(self) -> None:
        pair = self.diff_pair()
        if pair is not None and self.info is not None:
            self.post_message(self.DiffVersions(self.info.memory_id, *pair))

    def request_restore(self) -> None:
        entry = self.selected_entry()
        if entry is not None and self.info is not None:
            self.post_message(self.RestoreVersion(self.info.memory_id, entry))

    @on(DataTable.RowSelected, "#history-table")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        entry = self.selected_entry()
        if entry is not None and self.info is not None:
            self.post_message(self.ViewVersion(self.info.memory_id, entry))
