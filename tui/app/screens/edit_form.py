"""The edit form (ctrl+e / F2): content, gist, tags, entities and strength of one memory, checked
with core's rules (:mod:`core.io.edit_text`, the same as ``$EDITOR``'s file) before anything is
written; saving is ONE ``update:`` commit of the fields that changed (core's
:func:`~core.ops.edit.apply_edit`), an unchanged form writes nothing. What is wrong shows in the
form, which stays open with what the person typed. Dismissed with the service's Change, or None.

Text fields holding control characters are shown with them escaped (``\\x1b``), never raw: a
gist or list as a JSON string (what the file format does), the content read-only (``e`` edits
it in ``$EDITOR``, byte-exact)."""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static, TextArea

from core import Memory, VaultError
from core.io.edit_text import (
    EditFields,
    check_content,
    format_list,
    format_strength,
    format_value,
    parse_list,
    parse_strength,
    parse_value,
)
from core.textutil import has_controls, neutralise_controls

from ..messages import EditSaved
from ..service import Change, VaultService
from ..widgets.text_area import EditorArea


class EditFormScreen(ModalScreen[Change | None]):
    CSS_PATH = "edit_form.tcss"
    BINDINGS = [
        Binding("ctrl+s", "save", "Save", id="memvault.edit_form.save"),
        Binding("escape", "cancel", "Cancel", id="memvault.edit_form.cancel"),
    ]

    def __init__(self, service: VaultService, memory: Memory) -> None:
        super().__init__()
        self.service = service
        self.memory = memory
        self.base = EditFields.of(memory)
        self.content_editable = not has_controls(memory.content)
        self.busy = False

    def compose(self) -> ComposeResult:
        m, f = self.memory, self.base
        with Vertical(id="edit-form", classes="dialog wide"):
            title = Text("Edit ", style="bold")
            title.append(m.id[:8], style="bold")
            title.append(f"  {m.status.value}", style="dim")
            yield Static(title, classes="dialog-title")
            yield Label("content" + ("" if self.content_editable else
                                     "  (holds control characters, shown escaped: e edits it "
                                     "in $EDITOR)"), classes="edit-label")
            yield EditorArea(m.content if self.content_editable else neutralise_controls(m.content),
                           id="edit-content", soft_wrap=True, read_only=not self.content_editable)
            yield Label("gist  (empty: none; left as it is with a new content: made anew)",
                        classes="edit-label")
            yield Input(format_value(f.gist), id="edit-gist")
            with Horizontal(classes="edit-row"):
                with Vertical():
                    yield Label("tags  (comma separated)", classes="edit-label")
                    yield Input(format_list(f.tags), id="edit-tags")
                with Vertical():
                    yield Label("entities  (comma separated)", classes="edit-label")
                    yield Input(format_list(f.entities), id="edit-entities")
                with Vertical(id="edit-strength-box"):
                    yield Label("strength  (≥ 0)", classes="edit-label")
                    yield Input(format_strength(f.strength), id="edit-strength")
            yield Static("", id="edit-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Save (ctrl+s)", variant="primary", id="edit-save")
                yield Button("Cancel (esc)", id="edit-cancel")

    def on_mount(self) -> None:
        self.query_one("#edit-error").display = False
        self.query_one("#edit-content" if self.content_editable else "#edit-gist").focus()

    # -- reading the form ----------------------------------------------------------------------
    def _value(self, selector: str) -> str:
        return self.query_one(selector, Input).value

    def fields(self) -> EditFields:
        """What the form says, checked with core's rules (EditTextError says what is wrong)."""
        content = (self.query_one("#edit-content", TextArea).text if self.content_editable
                   else self.memory.content)
        return EditFields(
            check_content(content),
            parse_value(self._value("#edit-gist"), "gist") or None,
            parse_list(self._value("#edit-tags"), "tags"),
            parse_list(self._value("#edit-entities"), "entities"),
            parse_strength(self._value("#edit-strength")),
        )

    @property
    def edited(self) -> bool:
        try:
            return self.fields() != self.base
        except VaultError:
            return True  # something typed that does not even parse

    def set_error(self, message: str | None) -> None:
        error = self.query_one("#edit-error", Static)
        error.display = bool(message)
        error.update(Text(message or "", style="bold red"))

    # -- saving --------------------------------------------------------------------------------
    @on(Button.Pressed, "#edit-save")
    def action_save(self) -> None:
        if self.busy:
            return
        try:
            fields = self.fields()
        except VaultError as exc:
            self.set_error(str(exc))
            return
        if fields == self.base:
            self.notify("No changes: nothing written", title="edit", timeout=3)
            self.dismiss(None)
            return
        self.busy = True
        self.set_error(None)
        self.save(fields)

    @work(thread=True, group="edit-form", exit_on_error=False)
    def save(self, fields: EditFields) -> None:
        try:
            change = self.service.edits.edit_fields(self.memory.id, self.memory, fields)
        except VaultError as exc:
            self.post_message(EditSaved(None, str(exc)))
            return
        self.post_message(EditSaved(change))

    @on(EditSaved)
    def _saved(self, message: EditSaved) -> None:
        self.busy = False
        if message.error is not None:
            self.set_error(message.error)  # the form stays open with what was typed
            return
        if message.change is None:
            self.notify("No changes: nothing written", title="edit", timeout=3)
        self.dismiss(message.change)

    # -- cancelling ----------------------------------------------------------------------------
    @on(Button.Pressed, "#edit-cancel")
    def action_cancel(self) -> None:
        from .confirm import close_asking

        close_asking(self, self.edited, "Discard your changes?", "this form")
