"""The main screen's operations and wizards: undo and redo (and the undo list), go to, gc,
split, consolidate, stats, the review inbox (archive, delete and the other operations on the
marked memories are in bulk.py, the marks in marks.py). Each runs core work through
the service in a worker (:class:`~.main_changes.ChangeRunner`) and hands the result back as a
message the screen handles."""

from __future__ import annotations

from collections.abc import Callable

from textual.screen import Screen

from core import VaultError

from ..messages import InboxCounted
from ..service import Change, VaultService
from ..widgets.memory_tree import MemoryTree
from .changes import ChangeRunner
from .state import MainState


class Operations:
    """The operations of ``screen`` on the vault as a whole, or on the memory ``state`` shows:
    each through ``service`` (``runner`` runs it; the review inbox: ``service.inbox``). ``jump``
    puts the cursor on a memory, ``apply_change`` shows what an operation left (on a tab),
    ``reload`` reads the vault again."""

    def __init__(self, screen: Screen[object], state: MainState, service: VaultService,
                 runner: ChangeRunner, jump: Callable[[str], None],
                 apply_change: Callable[[Change, str | None], None],
                 reload: Callable[[str], None]) -> None:
        self.screen = screen
        self.state = state
        self.service = service
        self.runner = runner
        self.jump = jump
        self.apply_change = apply_change
        self.reload = reload

    def undo(self) -> None:
        self.runner.run(self.service.undo, "undoing")

    def redo(self) -> None:
        self.runner.run(self.service.redo, "redoing")

    def undo_list(self) -> None:
        """``u``: what successive undos would take back, newest first; enter on one undoes it
        and everything newer (:meth:`~tui.app.service_bulk.BulkService.undo_through`)."""
        from ..screens.undo_list import UndoListScreen

        def done(commits: list[str] | None) -> None:
            if commits:
                self.runner.run(lambda: self.service.bulk.undo_through(commits), "undoing")

        self.screen.app.push_screen(UndoListScreen(self.service), done)

    def goto(self) -> None:
        from ..screens.goto import GoToScreen

        def done(key: str | None) -> None:
            if key:
                self.jump(key)

        self.screen.app.push_screen(GoToScreen(self.state.view), done)

    def gc(self) -> None:
        from ..screens.gc import GcScreen

        def done(answer: tuple[str, list[str]] | None) -> None:
            if answer is not None and answer[0] in ("delete", "archive"):
                how, kept = answer
                self.runner.run(lambda: self.service.gc_apply(archive=how == "archive",
                                                              keep=kept))

        self.runner.pending.opening("the gc preview", lambda: self.screen.app.push_screen(
            GcScreen(self.service, on_change=lambda change: self.apply_change(change, None)), done))

    def split(self, memory_id: str | None = None) -> None:
        """The split wizard, on the highlighted memory (or ``memory_id``)."""
        from ..screens.split_wizard import SplitWizard

        if self.state.view is None:
            return
        start = memory_id or self.state.current

        def done(change: Change | None) -> None:
            if change is not None:
                self.apply_change(change, "provenance")

        self.runner.pending.opening("the split wizard", lambda: self.screen.app.push_screen(
            SplitWizard(self.service, start), done))

    def consolidate(self, memory_id: str | None = None) -> None:
        """The consolidate wizard, on the marked memories (plus ``memory_id``, when it comes
        from the provenance pane) or a cluster core suggests."""
        from ..screens.consolidate_wizard import ConsolidateWizard

        if self.state.view is None:
            return
        tree = self.screen.query_one(MemoryTree)
        marked = list(tree.marks)
        if memory_id is not None and marked and memory_id not in marked:
            marked.append(memory_id)  # (nothing marked: its clusters come first instead)

        def done(change: Change | None) -> None:
            if change is not None:
                tree.clear_marks(change.ids)
                self.apply_change(change, "provenance")

        focus = memory_id or self.state.current
        self.runner.pending.opening("the consolidate wizard", lambda: self.screen.app.push_screen(
            ConsolidateWizard(self.service, marked, focus_id=focus), done))

    def stats(self) -> None:
        from ..screens.stats import StatsScreen

        self.runner.pending.opening("stats", lambda: self.screen.app.push_screen(
            StatsScreen(self.service)))

    def inbox(self) -> None:
        """What the assistant wrote since the person last reviewed: accept or reject."""
        from ..screens.inbox import InboxScreen

        def changed() -> None:
            self.reload("")

        def closed(pair: list[str] | None) -> None:
            self.count_inbox()
            if pair:  # c on an entry that likely duplicates another memory
                self.consolidate_members(pair)

        self.runner.pending.opening("the review inbox", lambda: self.screen.app.push_screen(
            InboxScreen(self.service.inbox, on_change=changed,
                        duplicates=self.service.edits.duplicates_of_saved), closed))

    def consolidate_members(self, ids: list[str]) -> None:
        """The consolidate wizard on these memories (as if marked), the first one focused."""
        from ..screens.consolidate_wizard import ConsolidateWizard

        def done(change: Change | None) -> None:
            if change is not None:
                self.apply_change(change, "provenance")

        self.screen.app.push_screen(ConsolidateWizard(self.service, ids, focus_id=ids[0]), done)

    def count_inbox(self) -> None:
        """How many entries the review inbox holds, counted in a worker (:class:`InboxCounted`)."""
        self.screen.run_worker(self.read_inbox_count, thread=True, group="inbox-count",
                               exclusive=True, exit_on_error=False)

    def read_inbox_count(self) -> None:
        """(In a worker.)"""
        try:
            count = self.service.inbox.count()
        except VaultError:
            return
        self.screen.post_message(InboxCounted(count))
