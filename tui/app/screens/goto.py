"""The "go to id" prompt: an id or a unique prefix (4+ characters) of a living memory, or the id
of one that exists only in history. A prefix several memories share lists them to pick from
(down or enter goes into the list, enter picks one)."""

from __future__ import annotations

import string

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from core import AmbiguousIdError, UnknownIdError
from core.store.prefixes import MIN_PREFIX
from core.vault import first_words

from ..view import VaultView
from ..widgets.lists import RowOptions

SHOWN = 50  # candidates listed at most
ID_CHARACTERS = string.hexdigits + "-"


class GoToScreen(ModalScreen[str | None]):
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="memvault.goto.cancel"),
        Binding("down", "choices", "The candidates", show=False, id="memvault.goto.choices"),
    ]

    def __init__(self, view: VaultView | None) -> None:
        super().__init__()
        self.view = view

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="dialog"):
            yield Static(Text("Go to a memory", style="bold"), classes="dialog-title")
            yield Input(placeholder="id or unique prefix (4+ characters)", id="goto-input")
            yield Static("", id="goto-hint", classes="dialog-note")
            yield RowOptions(id="goto-choices")

    def on_mount(self) -> None:
        self.query_one("#goto-choices").display = False
        self.query_one(Input).focus()

    def _show_candidates(self, candidates: list[str]) -> None:
        """The memories a prefix matches, to pick one: id, status and first words."""
        choices = self.query_one("#goto-choices", RowOptions)
        choices.clear_options()
        rows = self.view.rows if self.view is not None else {}
        options = []
        for memory_id in candidates[:SHOWN]:
            line = Text(no_wrap=True, overflow="ellipsis")
            line.append(memory_id[:12], style="bold")
            row = rows.get(memory_id)
            if row is not None:
                if row.memory.status.value != "active":
                    line.append(f" ({row.memory.status.value})", style="dim")
                line.append(" " + first_words(row.memory.text, 44))
            options.append(Option(line, id=memory_id))
        choices.add_options(options)
        choices.display = bool(options)

    def action_choices(self) -> None:
        choices = self.query_one("#goto-choices", RowOptions)
        if choices.display and choices.option_count:
            choices.focus()
            if choices.highlighted is None:
                choices.highlighted = 0

    def on_key(self, event: events.Key) -> None:
        """Typing an id's characters in the list types them in the box (j/k are no hex)."""
        box = self.query_one("#goto-input", Input)
        if self.focused is not box and event.character and event.character in ID_CHARACTERS:
            event.stop()
            event.prevent_default()
            box.focus()
            box.insert_text_at_cursor(event.character)

    @on(OptionList.OptionSelected, "#goto-choices")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    @on(Input.Changed, "#goto-input")
    def _changed(self, event: Input.Changed) -> None:
        hint = self.query_one("#goto-hint", Static)
        key = event.value.strip()
        self.query_one("#goto-choices").display = False
        if not key or self.view is None:
            hint.update("")
            return
        try:
            memory_id = self.view.resolve(key)
        except AmbiguousIdError as exc:
            n = len(exc.candidates)
            more = f" (the first {SHOWN} listed)" if n > SHOWN else ""
            hint.update(Text(f"{n} memories start with it{more}: type more, or down / enter "
                             "to pick one", style="yellow"))
            self._show_candidates(list(exc.candidates))
            return
        except UnknownIdError as exc:
            short = len(key) < MIN_PREFIX  # core's words: how many start with it, type more
            hint.update(Text(str(exc) if short else "no living memory: enter looks in history",
                             style="yellow" if short else "dim"))
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
            except AmbiguousIdError as exc:
                self._show_candidates(list(exc.candidates))
                self.query_one("#goto-hint", Static).update(
                    Text(f"{len(exc.candidates)} memories start with it: pick one (j/k, "
                         "enter) or type more", style="yellow"))
                self.action_choices()
                return
            except UnknownIdError:
                pass
        self.dismiss(key)

    def action_cancel(self) -> None:
        self.dismiss(None)
