"""The filter box: an :class:`~textual.widgets.Input` with its own undo and redo of the typing
(``ctrl+z`` / ``ctrl+y``), so those keys never reach the screen, where they undo and redo vault
operations, while the person is typing a filter."""

from __future__ import annotations

from textual import on
from textual.binding import Binding
from textual.widgets import Input


class FilterInput(Input):
    BINDINGS = [
        Binding("ctrl+z", "undo_typing", "Undo typing", show=False,
                id="memvault.filter.undo"),
        Binding("ctrl+y", "redo_typing", "Redo typing", show=False,
                id="memvault.filter.redo"),
    ]

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self._done: list[str] = []  # earlier values, newest last
        self._undone: list[str] = []
        self._shown = self.value
        self._replaying = False

    @on(Input.Changed)
    def _remember(self, event: Input.Changed) -> None:
        """Every change is a step to undo (the screen hears the event as well)."""
        if event.input is not self or event.value == self._shown:
            return
        if self._replaying:
            self._replaying = False
        else:
            self._done.append(self._shown)
            self._undone.clear()
        self._shown = event.value

    def action_undo_typing(self) -> None:
        self._step(self._done, self._undone)

    def action_redo_typing(self) -> None:
        self._step(self._undone, self._done)

    def _step(self, source: list[str], target: list[str]) -> None:
        if not source:
            self.app.bell()  # nothing to take back: never the vault's undo
            return
        target.append(self.value)
        self._replaying = True
        self.value = source.pop()
        self.cursor_position = len(self.value)
