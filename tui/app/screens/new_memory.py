"""A new memory (``n``): its text, tags and entities (the gist is made as ``memvault add`` makes
it). One ``add:`` commit; dismissed with the service's Change, or None.

Before adding, the memories it would likely duplicate are looked up (core's similarity,
:mod:`core.ops.duplicates`) and listed: the person adds anyway (ctrl+s again) or cancels; nothing
is ever merged by itself. Text that looks like a secret is refused under the vault's policy:
the form says what was found and where, and offers what the app can do: store it with the
secret redacted, add it as it is this once, or edit it (the cursor on the secret)."""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static, TextArea
from textual.widgets.text_area import Selection

from core import VaultError
from core.secrets.policy import SecretRefusedError
from core.io.edit_text import check_content, parse_list
from core.vault import first_words

from ..messages import LikelyDuplicatesFound, EditSaved
from ..service import Change, VaultService
from ..widgets.text_area import EditorArea


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
        self.looking = False  # "looking for likely duplicates…" shows
        self.secrets: list[tuple[str, str, int, int]] = []  # what was refused as a secret
        self.checked: tuple[str, tuple[str, ...], tuple[str, ...]] | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="new-form", classes="dialog wide"):
            yield Static(Text("New memory", style="bold"), classes="dialog-title")
            yield Label("content", classes="edit-label")
            yield EditorArea("", id="new-content", soft_wrap=True)
            with Horizontal(classes="edit-row"):
                with Vertical():
                    yield Label("tags  (comma separated)", classes="edit-label")
                    yield Input("", id="new-tags")
                with Vertical():
                    yield Label("entities  (comma separated)", classes="edit-label")
                    yield Input("", id="new-entities")
            yield Static("", id="new-duplicates")
            yield Static("", id="new-error")
            with Horizontal(id="new-secret-buttons", classes="dialog-buttons"):
                yield Button("Redact and add", variant="warning", id="new-redact")
                yield Button("Add as it is, once", variant="error", id="new-allow")
                yield Button("Edit it", id="new-edit")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Add (ctrl+s)", variant="primary", id="new-add")
                yield Button("Cancel (esc)", id="new-cancel")

    def on_mount(self) -> None:
        self.query_one("#new-duplicates").display = False
        self.query_one("#new-error").display = False
        self.query_one("#new-secret-buttons").display = False
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
        values = self._start()
        if values is None:
            return
        if values == self.checked:
            self.add(values)
        else:
            box = self.query_one("#new-duplicates", Static)
            box.update(Text("looking for likely duplicates…", style="dim"))
            box.display = True
            self.looking = True
            self.look_for_duplicates(values)

    @work(thread=True, group="new-memory", exit_on_error=False)
    def look_for_duplicates(self, values: tuple[str, tuple[str, ...], tuple[str, ...]]) -> None:
        try:
            found = self.service.edits.duplicates(*values)
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
        self.looking = False
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
    def add(self, values: tuple[str, tuple[str, ...], tuple[str, ...]],
            secrets: str | None = None) -> None:
        try:
            change = self.service.edits.add(*values, secrets=secrets)
        except SecretRefusedError as exc:
            found = [(f.kind, f.field, f.start, f.end) for fs in exc.found.values() for f in fs]
            self.post_message(EditSaved(None, str(exc), secrets=found))
            return
        except VaultError as exc:
            self.post_message(EditSaved(None, str(exc)))
            return
        self.post_message(EditSaved(change))

    @on(EditSaved)
    def _added(self, message: EditSaved) -> None:
        self.busy = False
        if self.looking:  # no duplicates listed: the "looking for…" line goes
            self.looking = False
            self.query_one("#new-duplicates").display = False
        if message.secrets:
            self._secret_found(message.secrets)
            return
        if message.error is not None or message.change is None:
            self.set_error(message.error or "nothing was added")
            return
        self.dismiss(message.change)

    def _secret_found(self, secrets: list[tuple[str, str, int, int]]) -> None:
        """Say what looks like a secret and where (never the secret), and offer the ways on."""
        self.secrets = secrets
        places = "; ".join(f"{kind} in the {_field_name(field)} (character {start + 1})"
                           for kind, field, start, _ in secrets[:4])
        more = f"; and {len(secrets) - 4} more" if len(secrets) > 4 else ""
        self.set_error(f"This looks like a secret: {places}{more}. Nothing was added. Store it "
                       "with the secret replaced by [REDACTED:kind], add it as it is this "
                       "once, or edit it.")
        self.query_one("#new-secret-buttons").display = True

    def _hide_secret_offer(self) -> None:
        self.secrets = []
        self.query_one("#new-secret-buttons").display = False

    @on(Button.Pressed, "#new-redact")
    def _redact(self) -> None:
        self._add_with("redact")

    @on(Button.Pressed, "#new-allow")
    def _allow(self) -> None:
        self._add_with("allow")

    def _add_with(self, policy: str) -> None:
        values = self._start()
        if values is not None:
            self.add(values, policy)

    def _start(self) -> tuple[str, tuple[str, ...], tuple[str, ...]] | None:
        """The form's values, the form now busy with them; None (and the error shown) when it
        is busy already or a value is wrong."""
        if self.busy:
            return None
        try:
            values = self.values()
        except VaultError as exc:
            self.set_error(str(exc))
            return None
        self.set_error(None)
        self._hide_secret_offer()
        self.busy = True
        return values

    @on(Button.Pressed, "#new-edit")
    def _edit(self) -> None:
        """Back to the text, the first secret in the content selected."""
        area = self.query_one("#new-content", TextArea)
        spans = [(start, end) for _, field, start, end in self.secrets if field == "content"]
        self._hide_secret_offer()
        area.focus()
        if spans:
            start, end = spans[0]
            area.selection = Selection(_location(area.text, start), _location(area.text, end))

    @on(Button.Pressed, "#new-cancel")
    def action_cancel(self) -> None:
        typed = (self.query_one("#new-content", TextArea).text.strip()
                 or self.query_one("#new-tags", Input).value.strip()
                 or self.query_one("#new-entities", Input).value.strip())
        from .confirm import close_asking

        close_asking(self, bool(typed), "Discard the new memory?", "this form")


def _field_name(field: str) -> str:
    """``content`` -> "content", ``meta.tags[1]`` -> "tags", ``entities[0]`` -> "entities"."""
    return field.removeprefix("meta.").split("[")[0].split(".")[0]


def _location(text: str, offset: int) -> tuple[int, int]:
    """(row, column) of a character offset in a text area's text."""
    before = text[:offset]
    return before.count("\n"), len(before) - (before.rfind("\n") + 1)
