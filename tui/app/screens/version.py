"""One earlier version of a memory, from git, with a key to make it the current one."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from core import HistoryEntry, Memory, VaultError

from ...text import date_text, subject_line
from ..service import VaultService
from ..view import STATUS_STYLE


class VersionScreen(ModalScreen[bool]):
    BINDINGS = [
        Binding("r", "restore", "Restore this version", id="memvault.version.restore"),
        Binding("escape,q", "close", "Close", id="memvault.version.close"),
    ]

    def __init__(self, service: VaultService, memory_id: str, entry: HistoryEntry) -> None:
        super().__init__()
        self.service = service
        self.memory_id = memory_id
        self.entry = entry
        self.memory: Memory | None = None

    def compose(self) -> ComposeResult:
        e = self.entry
        with Vertical(id="dialog", classes="dialog wide"):
            title = Text()
            title.append(f"{self.memory_id[:8]}", style="bold")
            where = "before " if e.action == "deleted" else "at "
            title.append(f" as it was {where}{e.commit[:8]}", style="bold")
            title.append(f"  {date_text(e.timestamp)}  {subject_line(e.message)}", style="dim")
            yield Static(title, classes="dialog-title")
            with VerticalScroll(id="version-body"):
                yield Static(Text("reading git…", style="dim"), id="version-fields")
                yield Static("", id="version-content")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Restore this version (r)", variant="primary", id="restore")
                yield Button("Close (esc)", id="close")

    def on_mount(self) -> None:
        self.query_one("#close", Button).focus()
        self.load()

    @work(thread=True, exit_on_error=False)
    def load(self) -> None:
        try:
            memory = self.service.version(self.memory_id, self.entry)
        except VaultError as exc:
            self.app.call_from_thread(self._failed, str(exc))
            return
        self.app.call_from_thread(self._show, memory)

    def _failed(self, message: str) -> None:
        self.query_one("#version-fields", Static).update(Text(message, style="red"))
        self.query_one("#restore", Button).disabled = True

    def _show(self, m: Memory) -> None:
        self.memory = m
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column()
        grid.add_row("status", Text(m.status.value, style=STATUS_STYLE.get(m.status, "")))
        grid.add_row("tags", ", ".join(m.meta.tags) or "–")
        grid.add_row("entities", ", ".join(m.entities) or "–")
        grid.add_row("use count", str(m.use_count))
        grid.add_row("strength", f"{m.strength:.3g}")
        grid.add_row("last used", date_text(m.last_used))
        if m.gist:
            grid.add_row("gist", Text(m.gist))
        self.query_one("#version-fields", Static).update(grid)
        body = Text("content\n", style="bold")
        body.append(Text(m.content))
        self.query_one("#version-content", Static).update(body)

    @on(Button.Pressed, "#restore")
    def action_restore(self) -> None:
        if self.memory is not None:
            self.dismiss(True)

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(False)
