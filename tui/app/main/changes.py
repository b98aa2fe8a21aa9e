"""How the main screen runs an operation: the service call in a worker, its result handed back
as a message the screen handles (:class:`~tui.app.messages.MemoriesChanged`, or
:class:`~tui.app.messages.OperationFailed` with core's refusal); and the memory an operation on
"the highlighted memory" acts on, or why there is none."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.screen import Screen

from core import VaultError

from ..keys import key_for as key_of
from ..messages import MemoriesChanged, OperationFailed
from ..service import Change
from ..widgets.history import HistoryTable
from .pending import PendingWrite
from .state import MainState


class ChangeRunner:
    """Runs operations for ``screen`` (in its workers) on the memory ``state`` shows; ``key_for``
    names the screen's keys in what it says; ``pending`` shows each write at once, before its
    commit lands."""

    def __init__(self, screen: Screen[object], state: MainState,
                 key_for: Callable[[str], str], pending: PendingWrite) -> None:
        self.screen = screen
        self.state = state
        self.key_for = key_for
        self.pending = pending

    def run(self, operation: Callable[[], Change], doing: str = "saving") -> None:
        """Run ``operation`` (a service call) in a worker; its change comes back as a message.
        Until then the tree's title says ``doing`` (``undoing``)."""
        self.pending.start(doing)
        self.screen.run_worker(partial(self.change, operation), thread=True, group="write",
                               exit_on_error=False)

    def change(self, operation: Callable[[], Change]) -> None:
        """(In a worker.)"""
        try:
            change = operation()
        except VaultError as exc:
            self.screen.app.call_from_thread(self.pending.refused)
            self.screen.post_message(OperationFailed(str(exc)))
            return
        self.screen.post_message(MemoriesChanged(change))

    def need_memory(self) -> str | None:
        """The highlighted memory, when it is one an operation can act on; else None, and a
        warning says why (nothing highlighted, or a memory that lives in history only)."""
        memory_id, view = self.state.current, self.state.view
        if memory_id is not None and view is not None and memory_id not in view.rows:
            # a "deleted (in history)" row, or a deleted memory gone to by id
            history = self.key_for("pane('history')")
            restore = key_of(self.screen.app, HistoryTable, "restore")
            self.screen.notify(f"{memory_id[:8]} is deleted: it lives in history only. {history} "
                               f"shows its history; {restore} there restores a version of it "
                               "(one commit).",
                               title="deleted", severity="warning", timeout=6, markup=False)
            return None
        if memory_id is None or view is None:
            self.screen.notify("Highlight a memory first", severity="warning", timeout=2)
            return None
        return memory_id
