"""The history pane: the memory's git log (when, what), newest first. Enter opens a version;
the restore key makes the highlighted version the current one (a new commit)."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Static

from core import HistoryEntry

from ...text import relative_time
from ..service import HistoryInfo

ACTION_STYLE = {"created": "green", "changed": "", "deleted": "red"}


class HistoryTable(DataTable):
    BINDINGS = [
        Binding("r", "restore", "Restore version", id="memvault.history.restore"),
    ]

    def action_restore(self) -> None:
        pane = self.parent
        if isinstance(pane, HistoryPane):
            pane.request_restore()


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

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.info: HistoryInfo | None = None
        self.memory_id: str | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text("Highlight a memory to see its history.", style="dim"),
                     id="history-title")
        yield HistoryTable(id="history-table", cursor_type="row", zebra_stripes=True)

    def show_loading(self, memory_id: str) -> None:
        self.memory_id = memory_id
        self.query_one("#history-title", Static).update(
            Text(f"history of {memory_id[:8]}: reading git…", style="dim"))

    def show_message(self, message: str) -> None:
        self.info = None
        self.memory_id = None
        self.query_one("#history-title", Static).update(Text(message, style="dim"))
        self.query_one(HistoryTable).clear(columns=True)

    def show_history(self, info: HistoryInfo, now: int) -> None:
        self.info = info
        self.memory_id = info.memory_id
        title = Text()
        title.append("history of ", style="dim")
        title.append(info.memory_id[:8], style="bold")
        if not info.live:
            title.append("  deleted", style="red")
        title.append(f"  {len(info.entries)} commit{'s' if len(info.entries) != 1 else ''}, "
                     "newest first · enter opens a version · r restores it", style="dim")
        self.query_one("#history-title", Static).update(title)
        table = self.query_one(HistoryTable)
        table.clear(columns=True)
        # what the other columns (8 + 13 + 7), cell padding (2 a column) and a scrollbar leave
        width = max(12, (table.size.width or self.size.width or 80) - 28 - 8 - 1)
        table.add_column("commit", width=8)
        table.add_column("when", width=13)
        table.add_column("action", width=7)
        table.add_column("message", width=width)
        for index, e in enumerate(info.entries):
            table.add_row(
                Text(e.commit[:8], style="bold"),
                Text(relative_time(e.timestamp, now)),
                Text(e.action, style=ACTION_STYLE.get(e.action, "")),
                Text(e.message, no_wrap=True, overflow="ellipsis"),
                key=str(index),
            )

    def selected_entry(self) -> HistoryEntry | None:
        if self.info is None or not self.info.entries:
            return None
        table = self.query_one(HistoryTable)
        row = table.cursor_row
        if 0 <= row < len(self.info.entries):
            return self.info.entries[row]
        return None

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
