"""A new memory (``n``): its text, tags and entities (the gist is made as ``memvault add`` makes
it). Before adding, the memories it would likely duplicate are looked up (core's similarity,
:mod:`core.ops.duplicates`) and listed: the person adds anyway (ctrl+s again) or cancels; nothing
is ever merged by itself. One ``add:`` commit; dismissed with the service's Change, or None."""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static, TextArea

from core import VaultError
from core.io.edit_text import check_content, parse_list
from core.vault import first_words

from ..messages import LikelyDuplicatesFound, EditSaved
from ..service import Change, VaultService


class NewMemoryScreen(ModalScreen[Change | None]):
    CSS_PATH = "edit_form.tcss"
    BINDINGS = [
        Binding("ctrl+s", "add", "Add", id="memvault.new.add"),
        Binding("escape", "cancel", "Cancel", id="memvault.new.cancel"),
    ]

    def __init__(self, service: VaultService) -> None:
        super().__init__()
        self.service = service
        self.busy = False
        self.checked: tuple[str, tuple[str, ...], tuple[str, ...]] | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="new-form", classes="dialog wide"):
            yield Static(Text("New memory", style="bold"), classes="dialog-title")
            yield Label("content", classes="edit-label")
            yield TextArea("", id="new-content", soft_wrap=True)
            with Horizontal(classes="edit-row"):
                with Vertical():
                    yield Label("tags  (comma separated)", classes="edit-label")
                    yield Input("", id="new-tags")
                with Vertical():
                    yield Label("entities  (comma separated)", classes="edit-label")
                    yield Input("", id="new-entities")
            yield Static("", id="new-duplicates")
            yield Static("", id="new-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Add (ctrl+s)", variant="primary", id="new-add")
                yield Button("Cancel (esc)", id="new-cancel")

    def on_mount(self) -> None:
        self.query_one("#new-duplicates").display = False
        self.query_one("#new-error").display = False
        self.query_one("#new-content").focus()

    def values(self) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
        return (check_content(self.query_one("#new-content", TextArea).text),
                parse_list(self.query_one("#new-tags", Input).value, "tags"),
                parse_list(self.query_one("#new-entities", Input).value, "entities"))

    def set_error(self, message: str | None) -> None:
        error = self.query_one("#new-error", Static)
        error.display = bool(message)
        error.update(Text(message or "", style="bold red"))

    @on(Button.Pressed, "#new-add")
    def action_add(self) -> None:
        """The first press looks for likely duplicates (and adds when there are none); with
        duplicates listed for this very text, the next press adds anyway."""
        if self.busy:
            return
        try:
            values = self.values()
        except VaultError as exc:
            self.set_error(str(exc))
            return
        self.set_error(None)
        self.busy = True
        if values == self.checked:
            self.add(values)
        else:
            self.set_error(None)
            box = self.query_one("#new-duplicates", Static)
            box.update(Text("looking for likely duplicates…", style="dim"))
            box.display = True
            self.look_for_duplicates(values)

    @work(thread=True, group="new-memory", exit_on_error=False)
    def look_for_duplicates(self, values: tuple[str, tuple[str, ...], tuple[str, ...]]) -> None:
        try:
            found = self.service.duplicates(*values)
        except VaultError as exc:
            self.post_message(EditSaved(None, str(exc)))
            return
        self.post_message(LikelyDuplicatesFound(values, found))

    @on(LikelyDuplicatesFound)
    def _duplicates(self, message: LikelyDuplicatesFound) -> None:
        if not message.found:
            self.add(message.key)  # (still busy)
            return
        self.busy = False
        self.checked = message.key
        n = len(message.found)
        text = Text(f"It looks like {n} memor{'y' if n == 1 else 'ies'} already here:\n",
                    style="bold")
        for memory, similarity in message.found:
            text.append(f"  {similarity:.0%} ", style="yellow")
            text.append(memory.id[:8], style="bold")
            if memory.status.value != "active":
                text.append(f" ({memory.status.value})", style="dim")
            text.append(f" {first_words(memory.text, 70)}\n")
        text.append("ctrl+s adds it anyway; esc cancels (nothing is merged by itself: M "
                    "merges marked memories).", style="dim")
        box = self.query_one("#new-duplicates", Static)
        box.update(text)
        box.display = True
        self.query_one("#new-add", Button).label = "Add anyway"  # (the note names ctrl+s)

    @work(thread=True, group="new-memory", exit_on_error=False)
    def add(self, values: tuple[str, tuple[str, ...], tuple[str, ...]]) -> None:
        try:
            change = self.service.add(*values)
        except VaultError as exc:
            self.post_message(EditSaved(None, str(exc)))
            return
        self.post_message(EditSaved(change))

    @on(EditSaved)
    def _added(self, message: EditSaved) -> None:
        self.busy = False
        if message.error is not None or message.change is None:
            self.set_error(message.error or "nothing was added")
            return
        self.dismiss(message.change)

    @on(Button.Pressed, "#new-cancel")
    def action_cancel(self) -> None:
        typed = (self.query_one("#new-content", TextArea).text.strip()
                 or self.query_one("#new-tags", Input).value.strip()
                 or self.query_one("#new-entities", Input).value.strip())
        from .confirm import close_asking

        close_asking(self, bool(typed), "Discard the new memory?", "this form")
