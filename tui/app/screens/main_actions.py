"""The main screen's operations and wizards: undo and redo (and the undo list), go to, gc,
split, consolidate, stats, the review inbox (archive, delete and the other operations on the
marked memories are in main_bulk.py, the marks in main_marks.py). Each runs core work through
the service in a worker (:meth:`MainActions.run_change`) and hands the result back as a message
the screen handles."""

from __future__ import annotations

from collections.abc import Callable

from textual import work

from core import VaultError

from ..keys import key_for
from ..messages import (
    InboxCounted,
    MemoriesChanged,
    OperationFailed,
)
from ..service import Change
from ..widgets.history import HistoryTable


class MainActions:
    """A part of :class:`~tui.app.screens.main.MainScreen` (its widgets, service and view); plain
    methods, actions and workers only: the message handlers stay on the screen."""

    @work(thread=True, group="write", exit_on_error=False)
    def run_change(self, operation: Callable[[], Change]) -> None:
        try:
            change = operation()
        except VaultError as exc:
            self.post_message(OperationFailed(str(exc)))
            return
        self.post_message(MemoriesChanged(change))

    def key_for(self, action: str) -> str:
        """The first key bound to ``action`` on this screen, as the keymap has it now."""
        return key_for(self.app, type(self), action)

    def _need_memory(self) -> str | None:
        memory_id = self.current
        if memory_id is not None and self.view is not None and memory_id not in self.view.rows:
            # a "deleted (in history)" row, or a deleted memory gone to by id
            history = self.key_for("pane('history')")
            restore = key_for(self.app, HistoryTable, "restore")
            self.notify(f"{memory_id[:8]} is deleted: it lives in history only. {history} "
                        f"shows its history; {restore} there restores a version of it (one "
                        "commit).",
                        title="deleted", severity="warning", timeout=6, markup=False)
            return None
        if memory_id is None or self.view is None:
            self.notify("Highlight a memory first", severity="warning", timeout=2)
            return None
        return memory_id

    def action_undo(self) -> None:
        self.run_change(self.service.undo)

    def action_redo(self) -> None:
        self.run_change(self.service.redo)

    def action_undo_list(self) -> None:
        """``u``: what successive undos would take back, newest first; enter on one undoes it
        and everything newer (:meth:`~tui.app.service.VaultService.undo_through`)."""
        from .undo_list import UndoListScreen

        def done(commits: list[str] | None) -> None:
            if commits:
                self.run_change(lambda: self.service.bulk.undo_through(commits))

        self.app.push_screen(UndoListScreen(self.service), done)

    def action_goto(self) -> None:
        from .goto import GoToScreen

        def done(key: str | None) -> None:
            if key:
                self.jump(key)

        self.app.push_screen(GoToScreen(self.view), done)

    def action_gc(self) -> None:
        from .gc import GcScreen

        def done(answer: tuple[str, list[str]] | None) -> None:
            if answer is not None and answer[0] in ("delete", "archive"):
                how, kept = answer
                self.run_change(lambda: self.service.gc_apply(archive=how == "archive",
                                                              keep=kept))

        self.app.push_screen(GcScreen(self.service, on_change=self.apply_change), done)

    def action_split(self, memory_id: str | None = None) -> None:
        """The split wizard, on the highlighted memory (or ``memory_id``)."""
        from .split_wizard import SplitWizard

        if self.view is None:
            return
        start = memory_id or self.current

        def done(change: Change | None) -> None:
            if change is not None:
                self.apply_change(change, tab="provenance")

        self.app.push_screen(SplitWizard(self.service, start), done)

    def action_consolidate(self, memory_id: str | None = None) -> None:
        """The consolidate wizard, on the marked memories (plus ``memory_id``, when it comes
        from the provenance pane) or a cluster core suggests."""
        from .consolidate_wizard import ConsolidateWizard

        if self.view is None:
            return
        marked = list(self.memory_tree.marks)
        if memory_id is not None and marked and memory_id not in marked:
            marked.append(memory_id)  # (nothing marked: its clusters come first instead)

        def done(change: Change | None) -> None:
            if change is not None:
                self.memory_tree.clear_marks(change.ids)
                self.apply_change(change, tab="provenance")

        self.app.push_screen(ConsolidateWizard(self.service, marked,
                                               focus_id=memory_id or self.current), done)

    def action_stats(self) -> None:
        from .stats import StatsScreen

        self.app.push_screen(StatsScreen(self.service))

    def action_inbox(self) -> None:
        """What the assistant wrote since the person last reviewed: accept or reject."""
        from .inbox import InboxScreen

        def changed() -> None:
            self.follower.reload("")

        def closed(pair: list[str] | None) -> None:
            self.count_inbox()
            if pair:  # c on an entry that likely duplicates another memory
                self.consolidate_members(pair)

        self.app.push_screen(InboxScreen(self.inbox, on_change=changed,
                                         duplicates=self.service.edits.duplicates_of_saved), closed)

    def consolidate_members(self, ids: list[str]) -> None:
        """The consolidate wizard on these memories (as if marked), the first one focused."""
        from .consolidate_wizard import ConsolidateWizard

        def done(change: Change | None) -> None:
            if change is not None:
                self.apply_change(change, tab="provenance")

        self.app.push_screen(ConsolidateWizard(self.service, ids, focus_id=ids[0]), done)

    @work(thread=True, group="inbox-count", exclusive=True, exit_on_error=False)
    def count_inbox(self) -> None:
        try:
            count = self.inbox.count()
        except VaultError:
            return
        self.post_message(InboxCounted(count))
