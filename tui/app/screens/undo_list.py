"""The undo list (``u``): what successive undos would take back, newest first, with when each
was made. Dismisses with the commits to undo, newest first, or None.

The list is core's ``undo_list``, read from git: it survives a restart and includes what other
processes did; touches are use records, which undo passes over. Enter on an entry undoes it and
everything newer, each as its own revert, newest first, stopping at the first refusal
(:meth:`~tui.app.service.VaultService.undo_through`); esc closes."""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from core import VaultError

from ...text import absolute_time, operation_parts, relative_time
from ..service import VaultService
from ..widgets.lists import RowOptions

SHOWN = 50  # entries listed (core reads at most this many operations back)


class UndoListScreen(ModalScreen[list[str] | None]):
    BINDINGS = [Binding("escape,q", "close", "Close", id="memvault.undo_list.close")]

    class Loaded(Message):
        """The entries read in the worker: (commit, subject, time), newest first; or why not."""

        def __init__(self, entries: list[tuple[str, str, int]], error: str = "") -> None:
            super().__init__()
            self.entries = entries
            self.error = error

    def __init__(self, service: VaultService) -> None:
        super().__init__()
        self.service = service
        self.entries: list[tuple[str, str, int]] | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="dialog wide"):
            yield Static(Text("Undo list", style="bold"), classes="dialog-title")
            yield Static(Text("reading the history…", style="dim"), id="undo-hint",
                         classes="dialog-note")
            yield RowOptions(id="undo-list")
            yield Static(Text("enter undoes the highlighted operation and every one above it "
                              "(each its own commit; ctrl+y redoes) · esc closes", style="dim"),
                         classes="dialog-note")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        self.load()

    @work(thread=True, exit_on_error=False)
    def load(self) -> None:
        try:
            entries = self.service.undo_list(SHOWN)
        except VaultError as exc:
            self.post_message(self.Loaded([], str(exc)))
            return
        self.post_message(self.Loaded(entries))

    @on(Loaded)
    def _loaded(self, message: Loaded) -> None:
        self.entries = message.entries
        options = self.query_one(OptionList)
        options.clear_options()
        if message.error or not message.entries:
            self._hint(Text(message.error or "Nothing to undo.", style="dim"))
            return
        now = self.service.view.now if self.service.is_open else None
        width = max(40, options.scrollable_content_region.width - 2)  # one line each
        options.add_options([Option(_line(index, subject, ts, now, width), id=commit)
                             for index, (commit, subject, ts) in enumerate(message.entries)])
        options.highlighted = 0

    @on(OptionList.OptionHighlighted, "#undo-list")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        n = event.option_index + 1
        if n == 1:
            self._hint(Text("enter undoes the newest operation", style="dim"))
        else:
            self._hint(Text(f"enter undoes the {n} newest operations, down to this one",
                            style="bold"))

    def _hint(self, text: Text) -> None:
        self.query_one("#undo-hint", Static).update(text)

    @on(OptionList.OptionSelected, "#undo-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        if self.entries:
            self.dismiss([commit for commit, _, _ in self.entries[: event.option_index + 1]])

    def action_close(self) -> None:
        self.dismiss(None)


def _line(index: int, subject: str, ts: int, now: int | None, width: int) -> Text:
    """``1  14:03 (2 hours ago)  archive of 3f2a1b2c  Never deploy…``."""
    line = Text(no_wrap=True, overflow="ellipsis")
    line.append(f"{index + 1:>2}  ", style="dim")
    line.append(absolute_time(ts), style="cyan")
    line.append(f"  {relative_time(ts, now):<16}", style="dim")
    label, words = operation_parts(subject)
    verb, _, rest = label.partition(" ")
    line.append(verb, style="bold")
    line.append(f" {rest}" if rest else "")
    if words:
        line.append(f"  {words}", style="dim")
    line.truncate(width, overflow="ellipsis")
    return line

