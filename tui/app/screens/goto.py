"""The "go to id" prompt: an id or a unique prefix (4+ characters) of a living memory, or the id
of one that exists only in history."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from core import AmbiguousIdError, UnknownIdError
from core.vault import first_words

from ..view import VaultView


class GoToScreen(ModalScreen[str | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="memvault.goto.cancel")]

    def __init__(self, view: VaultView | None) -> None:
        super().__init__()
        self.view = view

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="dialog"):
            yield Static(Text("Go to a memory", style="bold"), classes="dialog-title")
            yield Input(placeholder="id or unique prefix (4+ characters)", id="goto-input")
            yield Static("", id="goto-hint", classes="dialog-note")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Changed, "#goto-input")
    def _changed(self, event: Input.Changed) -> None:
        hint = self.query_one("#goto-hint", Static)
        key = event.value.strip()
        if not key or self.view is None:
            hint.update("")
            return
        try:
            memory_id = self.view.resolve(key)
        except AmbiguousIdError as exc:
            shown = ", ".join(c[:12] for c in exc.candidates[:6])
            more = f" and {len(exc.candidates) - 6} more" if len(exc.candidates) > 6 else ""
            hint.update(Text(f"{len(exc.candidates)} match: {shown}{more}", style="yellow"))
            return
        except UnknownIdError:
            hint.update(Text("no living memory: enter looks in history", style="dim"))
            return
        row = self.view.rows[memory_id]
        line = Text("→ ", style="dim")
        line.append(memory_id[:8], style="bold")
        line.append(" " + first_words(row.memory.text, 50))
        hint.update(line)

    @on(Input.Submitted, "#goto-input")
    def _submitted(self, event: Input.Submitted) -> None:
        key = event.value.strip()
        if not key:
            self.dismiss(None)
            return
        if self.view is not None:
            try:
                self.dismiss(self.view.resolve(key))
                return
            except AmbiguousIdError:
                self.query_one("#goto-hint", Static).update(
                    Text("ambiguous prefix: type more of the id", style="red"))
                return
            except UnknownIdError:
                pass
        self.dismiss(key)

    def action_cancel(self) -> None:
        self.dismiss(None)
