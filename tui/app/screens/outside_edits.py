"""The outside edits the app last found (``E``): the files an editor (or a copy) changed that
were committed as one ``external:`` commit, each with its memory's first words (enter goes to
it), and the files that are not valid records: never committed, each with why and where its copy
in the quarantine is."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from core.textutil import neutralise_line
from core.vault import first_words

from ..service_outside import OutsideEdits
from ..view import VaultView
from ..widgets.lists import RowOptions


class OutsideEditsScreen(ModalScreen[str | None]):
    """Dismisses with the id of the memory to go to, or None."""

    BINDINGS = [Binding("escape,q", "close", "Close", id="memvault.outside.close")]

    def __init__(self, edits: OutsideEdits, view: VaultView | None) -> None:
        super().__init__()
        self.edits = edits
        self.view = view

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="dialog wide"):
            yield Static(Text("Outside edits", style="bold"), classes="dialog-title")
            yield Static(self._summary(), classes="dialog-note")
            yield RowOptions(*self._options(), id="outside-list")

    def _summary(self) -> Text:
        e = self.edits
        text = Text()
        if e.committed and e.commit:
            n = len(e.committed)
            text.append(f"{n} file{'s' if n != 1 else ''} changed outside memvault, committed as "
                        f"{e.commit[:8]} (external:); enter goes to a memory, undo (ctrl+z) "
                        "takes the commit back.")
        if e.refused:
            if text:
                text.append("\n")
            n = len(e.refused)
            text.append(f"{n} file{'s' if n != 1 else ''} not valid: never committed, left as "
                        f"{'they are' if n != 1 else 'it is'} for you to fix; "
                        f"{'a copy of each' if n != 1 else 'a copy'} is in the quarantine.",
                        style="yellow")
        return text

    def _options(self) -> list[Option | None]:
        items: list[Option | None] = []
        for rel in self.edits.committed:
            line = Text("committed  ", style="green")
            line.append(neutralise_line(rel), style="bold")
            memory_id = _memory_id(rel)
            row = self.view.get(memory_id) if self.view is not None and memory_id else None
            if row is not None:
                line.append("  " + first_words(row.memory.text, 60))
            elif memory_id:
                line.append("  (deleted)", style="dim")
            items.append(Option(line, id=f"go:{memory_id}" if row is not None else None))
        for refused in self.edits.refused:
            line = Text("not valid  ", style="bold red")
            line.append(neutralise_line(refused.path), style="bold")
            line.append(f"\n   {neutralise_line(refused.reason)}", style="dim")
            line.append("\n   copy: " + (neutralise_line(str(refused.copy)) if refused.copy
                                         else "(could not be read to copy)"), style="dim")
            items.append(Option(line))
        return items

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected, "#outside-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        option_id = event.option.id or ""
        if option_id.startswith("go:"):
            self.dismiss(option_id[3:])

    def action_close(self) -> None:
        self.dismiss(None)


def _memory_id(rel: str) -> str | None:
    """``memories/abc.json`` -> ``abc`` (None for relations and metadata)."""
    folder, _, name = rel.rpartition("/")
    if folder.endswith("memories") and name.endswith(".json"):
        return name[: -len(".json")]
    return None
