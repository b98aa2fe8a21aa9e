"""A yes/no question in a modal (gc apply and other operations that change many memories)."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class ConfirmScreen(ModalScreen[bool]):
    BINDINGS = [
        Binding("y", "confirm", "Yes", id="memvault.confirm.yes"),
        Binding("n,escape", "cancel", "No", id="memvault.confirm.no"),
    ]

    def __init__(self, title: str, message: str, confirm: str = "Yes",
                 danger: bool = True) -> None:
        super().__init__()
        self.title_text = title
        self.message = message
        self.confirm_label = confirm
        self.danger = danger

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="dialog danger" if self.danger else "dialog"):
            yield Static(Text(self.title_text, style="bold"), classes="dialog-title")
            yield Static(Text(self.message), classes="dialog-note")
            with Horizontal(classes="dialog-buttons"):
                yield Button(f"{self.confirm_label} (y)",
                             variant="error" if self.danger else "primary", id="confirm")
                yield Button("Cancel (n)", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#cancel", Button).focus()

    @on(Button.Pressed, "#confirm")
    def action_confirm(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(False)


def close_asking(screen: ModalScreen, typed: bool, title: str, where: str,
                 still: Callable[[], bool] = lambda: True) -> None:
    """Close the modal ``screen`` (dismissed with None), first asking "``title``" when the
    person ``typed`` something there (``where``: "this form", "this wizard"...), which would be
    lost; ``still``: whether closing still makes sense once they answered."""
    if not typed:
        screen.dismiss(None)
        return

    def answered(discard: bool | None) -> None:
        if discard and still():
            screen.dismiss(None)

    screen.app.push_screen(ConfirmScreen(
        title, f"What you typed in {where} is lost; nothing was written to the vault.",
        "Discard"), answered)
