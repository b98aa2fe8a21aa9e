"""Two versions of a memory side by side in one text: a word diff of its content, gist and
context, and the other fields that changed (old → new). ``r`` restores the newer side's version
(the history pane's restore: one commit), ``s`` swaps the sides."""

from __future__ import annotations

from datetime import datetime

from rich.console import Group as RenderGroup
from rich.console import RenderableType
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from core import HistoryEntry, Memory, VaultError
from core.ops.version_diff import FieldChange, version_changes
from core.ops.word_diff import Piece

from ...text import relative_time, subject_line
from ..service import VaultService

#: how a diff draws what went and what came (fixed colours, readable on dark and light themes)
DELETE_STYLE = "strike #ef5b4f on #3b1d1b"
INSERT_STYLE = "bold #7ccc4c on #1d3319"
LABELS = {"content": "content", "gist": "gist", "context": "context", "tags": "tags",
          "entities": "entities", "status": "status", "strength": "strength",
          "use_count": "use count", "last_used": "last used", "created_at": "created",
          "source": "source", "promoted_to": "promoted to"}


def pieces_text(pieces: list[Piece]) -> Text:
    """A word diff as one ``Text``: deletions struck through in red, insertions in green (the
    memory's words are never read as markup)."""
    text = Text()
    for piece in pieces:
        style = DELETE_STYLE if piece.kind == "delete" else \
            INSERT_STYLE if piece.kind == "insert" else ""
        text.append(piece.text, style=style)
    return text


TIMES = ("last_used", "created_at")  # epoch seconds, shown as local date and time


def _value(name: str, value: str) -> str:
    if not value:
        return "–"
    if name in TIMES and value.lstrip("-").isdigit():
        return datetime.fromtimestamp(int(value)).strftime("%Y-%m-%d %H:%M")
    return value


def change_text(change: FieldChange) -> Text:
    text = Text(LABELS.get(change.name, change.name), style="bold")
    if change.pieces:
        text.append("\n")
        text.append_text(pieces_text(change.pieces))
    else:
        text.append("  ")
        text.append(_value(change.name, change.old), style=DELETE_STYLE)
        text.append(" → ", style="dim")
        text.append(_value(change.name, change.new), style=INSERT_STYLE)
    return text


def side_text(entry: HistoryEntry | None, now: int | None) -> Text:
    if entry is None:
        return Text("(before it existed)", style="italic")
    text = Text(entry.commit[:8], style="bold")
    text.append(f" {relative_time(entry.timestamp, now)} ", style="dim")
    if entry.action == "deleted":
        text.append("(deleted: nothing) ", style="red")
    text.append(subject_line(entry.message), style="dim")
    return text


class VersionDiffScreen(ModalScreen["HistoryEntry | None"]):
    BINDINGS = [
        Binding("r", "restore", "Restore newer", id="memvault.diff.restore"),
        Binding("s", "swap", "Swap sides", id="memvault.diff.swap"),
        Binding("j", "scroll(1)", "Down", show=False, id="memvault.diff.down"),
        Binding("k", "scroll(-1)", "Up", show=False, id="memvault.diff.up"),
        Binding("escape,q", "close", "Close", id="memvault.diff.close"),
    ]

    def __init__(self, service: VaultService, memory_id: str, old: HistoryEntry | None,
                 new: HistoryEntry, now: int | None = None) -> None:
        super().__init__()
        self.service = service
        self.memory_id = memory_id
        self.old, self.new = old, new
        self.now = now
        self.changes: list[FieldChange] | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="dialog wide"):
            yield Static("", id="diff-title", classes="dialog-title")
            with VerticalScroll(id="diff-body"):
                yield Static(Text("reading git…", style="dim"), id="diff-changes")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Restore the newer side (r)", variant="primary", id="restore")
                yield Button("Swap (s)", id="swap")
                yield Button("Close (esc)", id="close")

    def on_mount(self) -> None:
        self.query_one("#diff-body").focus()
        self._title()
        self.load()

    def _title(self) -> None:
        title = Text()
        title.append(self.memory_id[:8], style="bold")
        title.append(" · word diff\n", style="dim")
        title.append("from ", style="dim")
        title.append(" − ", style=DELETE_STYLE)
        title.append(" ")
        title.append_text(side_text(self.old, self.now))
        title.append("\nto   ", style="dim")
        title.append(" + ", style=INSERT_STYLE)
        title.append(" ")
        title.append_text(side_text(self.new, self.now))
        self.query_one("#diff-title", Static).update(title)
        restore = self.query_one("#restore", Button)
        what = "what it deleted" if self.new.action == "deleted" else self.new.commit[:8]
        restore.label = f"Restore {what} (r)"

    def _version(self, entry: HistoryEntry | None) -> Memory | None:
        if entry is None or entry.action == "deleted":
            return None  # the memory is not there at (after) that commit
        return self.service.version(self.memory_id, entry)

    @work(thread=True, group="diff", exclusive=True, exit_on_error=False)
    def load(self) -> None:
        old, new = self.old, self.new
        try:
            changes = version_changes(self._version(old), self._version(new))
        except VaultError as exc:
            self.app.call_from_thread(self._failed, str(exc))
            return
        self.app.call_from_thread(self._show, old, new, changes)

    def _failed(self, message: str) -> None:
        self.query_one("#diff-changes", Static).update(Text(message, style="red"))

    def _show(self, old: HistoryEntry | None, new: HistoryEntry,
              changes: list[FieldChange]) -> None:
        if (old, new) != (self.old, self.new):
            return  # swapped meanwhile: its own load follows
        self.changes = changes
        if not changes:
            body: RenderableType = Text("No field differs between these two versions.", style="dim")
        else:
            parts = []
            for change in changes:
                parts.append(change_text(change))
                parts.append(Text(""))
            body = RenderGroup(*parts[:-1])
        self.query_one("#diff-changes", Static).update(body)

    def action_scroll(self, step: int) -> None:
        body = self.query_one("#diff-body", VerticalScroll)
        body.scroll_to(y=body.scroll_y + step * 3, animate=False)

    @on(Button.Pressed, "#swap")
    def action_swap(self) -> None:
        if self.old is None:
            self.notify("Nothing to swap with: the other side is before the memory existed",
                        severity="warning", timeout=3)
            return
        self.old, self.new = self.new, self.old
        self.changes = None
        self.query_one("#diff-changes", Static).update(Text("reading git…", style="dim"))
        self._title()
        self.load()

    @on(Button.Pressed, "#restore")
    def action_restore(self) -> None:
        self.dismiss(self.new)

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(None)
