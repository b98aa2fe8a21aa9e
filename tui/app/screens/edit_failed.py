"""What ``e`` ($EDITOR) shows when the edited file cannot be saved: it does not parse (what and
on which line) or core refused it (a secret, a later change by another writer: then editing the
same text again cannot help, and only keep and discard are offered). Nothing was written and the
person's text is still in its file: edit it again, or keep the file (its path is shown) and go
back, or throw it away. Dismissed with "again", "keep" or "discard"."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from core.textutil import neutralise_controls


class EditFailedScreen(ModalScreen[str]):
    BINDINGS = [
        Binding("e,enter", "choose('again')", "Edit again", id="memvault.edit_failed.again"),
        Binding("escape,k", "choose('keep')", "Keep the file", id="memvault.edit_failed.keep"),
        Binding("d", "choose('discard')", "Discard", id="memvault.edit_failed.discard"),
    ]

    def __init__(self, memory_id: str, error: str, path: Path, retry: bool = True) -> None:
        super().__init__()
        self.retry = retry
        self.memory_id = memory_id
        self.error = error
        self.path = path

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="dialog danger wide"):
            yield Static(Text(f"Not saved: {self.memory_id[:8]}", style="bold"),
                         classes="dialog-title")
            yield Static(Text(neutralise_controls(self.error), style="red"), classes="dialog-note")
            note = Text("Nothing was written. Your text is kept in\n  ", style="dim")
            note.append(neutralise_controls(str(self.path)), style="bold")
            note.append("\nuntil you edit it again or discard it.", style="dim")
            yield Static(note, classes="dialog-note")
            with Horizontal(classes="dialog-buttons"):
                if self.retry:
                    yield Button("Edit again (e)", variant="primary", id="again")
                yield Button("Keep the file (esc)", id="keep")
                yield Button("Discard (d)", variant="error", id="discard")

    def on_mount(self) -> None:
        self.query_one("#again" if self.retry else "#keep", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.action_choose(event.button.id or "keep")

    def action_choose(self, what: str) -> None:
        if what == "again" and not self.retry:
            return  # the same text would be refused again (a later change by another writer)
        self.dismiss(what)
