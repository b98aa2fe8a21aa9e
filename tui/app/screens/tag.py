"""The tag prompt of ``T``: a tag to put on the marked (or highlighted) memories, or, typed
``-tag``, one to take off them. Suggests the vault's tags as the person types; dismisses with
``("tag", tag)`` or ``("untag", tag)``, or None (esc)."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Input, Static

from core.textutil import has_controls, neutralise_line

from ...text import plural


class TagScreen(ModalScreen[tuple[str, str] | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="memvault.tag.cancel")]

    def __init__(self, count: int, present: list[str], every: list[str]) -> None:
        """``count`` memories; ``present``: the tags they carry (what untag can take off);
        ``every``: the vault's tags (suggested)."""
        super().__init__()
        self.count = count
        self.present = present
        self.every = every

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="dialog"):
            yield Static(self._title("tag"), id="tag-title", classes="dialog-title")
            suggestions = [*self.every, *(f"-{t}" for t in self.present)]
            yield Input(placeholder="a tag to add  (-tag takes it off)", id="tag-input",
                        suggester=SuggestFromList(suggestions, case_sensitive=True))
            have = Text("They carry: " if self.count > 1 else "It carries: ", style="dim")
            have.append(", ".join(neutralise_line(t) for t in self.present) or "no tags",
                        style="dim italic")
            yield Static(have, id="tag-present", classes="dialog-note")
            yield Static("", id="tag-error", classes="dialog-note")
            yield Static(Text("enter applies (one commit) · → takes the suggestion · esc "
                              "cancels", style="dim"), classes="dialog-note")

    def _title(self, verb: str) -> Text:
        title = Text(f"{'Tag' if verb == 'tag' else 'Untag'} ", style="bold")
        title.append(plural(self.count, "memory", "memories"), style="bold cyan")
        return title

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def _parse(self, value: str) -> tuple[str, str]:
        text = value.strip()
        if text.startswith("-"):
            return "untag", text[1:].strip()
        return "tag", text

    @on(Input.Changed, "#tag-input")
    def _changed(self, event: Input.Changed) -> None:
        verb, _ = self._parse(event.value)
        self.query_one("#tag-title", Static).update(self._title(verb))
        self.query_one("#tag-error", Static).update("")

    @on(Input.Submitted, "#tag-input")
    def _submitted(self, event: Input.Submitted) -> None:
        verb, tag = self._parse(event.value)
        error = None
        if not tag:
            error = "type a tag (or -tag to take one off)"
        elif has_controls(tag, single_line=True):
            error = "a tag cannot hold control characters"
        elif verb == "untag" and tag not in self.present:
            error = f"{'none of them carries' if self.count > 1 else 'it does not carry'} " \
                    f"the tag {tag!r}"
        if error is not None:
            self.query_one("#tag-error", Static).update(Text(error, style="red"))
            return
        self.dismiss((verb, tag))

    def action_cancel(self) -> None:
        self.dismiss(None)
