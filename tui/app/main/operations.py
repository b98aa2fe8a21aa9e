"""The main screen's operations that open a modal or call the service, on the vault as a whole
or on the memory the panes show (undo, redo, go to, gc, split, consolidate, stats, the inbox,
a version seen, diffed or restored), and what an operation's result does to the screen
(:meth:`Operations.apply_change`).

Those on the marked memories are in bulk.py, the edits of one memory in edit.py: each part owns
the ``action_*`` methods of its keys (the screen hands an action to the part that has it).

Each runs core work through the service in a worker (:class:`ChangeRunner`) and hands the
result back as a message the screen handles (:class:`~tui.app.messages.MemoriesChanged`, or
:class:`~tui.app.messages.OperationFailed` with core's refusal)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.widgets import Input

from core import HistoryEntry, VaultError

from ..keys import key_for as key_of
from ..messages import InboxCounted, MemoriesChanged, OperationFailed
from ..query import parse
from ..service import Change, VaultService
from ..widgets.history import HistoryTable
from .filtering import TreeFilter
from .follow import Jumps, VaultFollower
from .panes import CursorPanes, GitPanes
from .pending import PendingWrite
from .tree import MainTree
from .vault_screen import VaultScreen


class ChangeRunner:
    """Runs operations for ``screen`` (in its workers) on the memory it shows; ``key_for``
    names the screen's keys in what it says; ``pending`` shows each write at once, before its
    commit lands."""

    def __init__(self, screen: VaultScreen, key_for: Callable[[str], str],
                 pending: PendingWrite) -> None:
        self.screen = screen
        self.key_for = key_for
        self.pending = pending

    def run(self, operation: Callable[[], Change], doing: str = "saving") -> None:
        """Run ``operation`` (a service call) in a worker, started once the pending look is
        drawn; its change comes back as a message. Until then the tree's title says ``doing``
        (``undoing``)."""
        self.pending.start(doing)
        self.pending.then(partial(self.screen.run_worker, partial(self.change, operation),
                                  thread=True, group="write", exit_on_error=False))

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
        memory_id, view = self.screen.current, self.screen.view
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


class Operations:
    """The operations of ``screen`` (each through ``service``, ``runner`` runs it); what one
    left is shown by :meth:`apply_change` (``filtering`` rebuilds the tree, ``panes`` and
    ``git_panes`` show it; ``key_for`` names the undo key); ``jumps`` puts the cursor on a
    memory, ``follower`` reads the vault again."""

    def __init__(self, screen: VaultScreen, service: VaultService, runner: ChangeRunner,
                 filtering: TreeFilter, panes: CursorPanes, git_panes: GitPanes, jumps: Jumps,
                 follower: VaultFollower, key_for: Callable[[str], str]) -> None:
        self.screen = screen
        self.service = service
        self.runner = runner
        self.filtering = filtering
        self.panes = panes
        self.git_panes = git_panes
        self.jumps = jumps
        self.follower = follower
        self.key_for = key_for

    @property
    def tree(self) -> MainTree:
        return self.screen.query_one(MainTree)

    # -- what an operation left -------------------------------------------------------------
    def apply_change(self, change: Change, tab: str | None = None) -> None:
        """Show the view an operation left (the cursor where it says), notify, and reload the
        panes (switching to ``tab`` first, if given)."""
        screen = self.screen
        screen.view = change.view
        focus = change.focus if change.focus in change.view.rows else None
        tree = self.tree
        tree.stay_key = change.stay_key
        query = tree.filter
        if (tab is not None and focus is not None and not query.empty
                and not query.matches(change.view.rows[focus], change.view.now)):
            # a wizard's new memory is where the person wants to look: show it
            with screen.prevent(Input.Changed):
                screen.query_one("#filter", Input).value = ""
            tree.set_reactive(MainTree.filter, parse(""))  # (refiltered below, with the focus)
            screen.query_one("#filter-error").display = False
        self.filtering.refilter(focus=focus)
        if focus is not None:
            tree.focus()
        note = change.note
        if change.undoable:
            note += f"  ({self.key_for('undo')} undoes)"
        screen.notify(note, title=change.title, markup=False)
        if tab is not None:
            self.panes.show_tab(tab)
        self.git_panes.reload()

    # -- undo ---------------------------------------------------------------------------------
    def action_undo(self) -> None:
        self.runner.run(self.service.undo, "undoing")

    def action_redo(self) -> None:
        self.runner.run(self.service.redo, "redoing")

    def action_undo_list(self) -> None:
        """``u``: what successive undos would take back, newest first; enter on one undoes it
        and everything newer (:meth:`~tui.app.service_bulk.BulkService.undo_through`)."""
        from ..screens.undo_list import UndoListScreen

        def done(commits: list[str] | None) -> None:
            if commits:
                self.runner.run(lambda: self.service.bulk.undo_through(commits), "undoing")

        self.screen.app.push_screen(UndoListScreen(self.service), done)

    # -- a memory: go to it, copy its id, its versions ----------------------------------------
    def action_goto(self) -> None:
        from ..screens.goto import GoToScreen

        def done(key: str | None) -> None:
            if key:
                self.jumps.jump(key)

        self.screen.app.push_screen(GoToScreen(self.screen.view), done)

    def action_copy_id(self) -> None:
        """``y``: the highlighted memory's id to the terminal's clipboard (OSC 52, through
        Textual's :meth:`~textual.app.App.copy_to_clipboard`)."""
        memory_id = self.screen.current
        if memory_id is None:
            self.screen.notify("Highlight a memory first", severity="warning", timeout=2)
            return
        self.screen.app.copy_to_clipboard(memory_id)
        self.screen.notify(f"copied {memory_id} (the terminal's clipboard, OSC 52)", title="id",
                           timeout=3, markup=False)

    def restore(self, memory_id: str, entry: HistoryEntry) -> None:
        """A version of the memory back (one commit)."""
        self.runner.run(lambda: self.service.restore_version(memory_id, entry), "restoring")

    def open_diff(self, memory_id: str, old: HistoryEntry | None, new: HistoryEntry) -> None:
        """The word diff of two versions (from the history pane); the person may restore the
        newer one from there."""
        from ..screens.version_diff import VersionDiffScreen

        def done(restore: HistoryEntry | None) -> None:
            if restore is not None:
                self.restore(memory_id, restore)

        view = self.screen.view
        now = view.now if view is not None else None
        self.screen.app.push_screen(VersionDiffScreen(self.service, memory_id, old, new, now),
                                    done)

    def view_version(self, memory_id: str, entry: HistoryEntry) -> None:
        """A version from the history pane, whole; the person may restore it from there."""
        from ..screens.version import VersionScreen

        def done(restore: bool | None) -> None:
            if restore:
                self.restore(memory_id, entry)

        self.screen.app.push_screen(VersionScreen(self.service, memory_id, entry), done)

    # -- the vault as a whole -----------------------------------------------------------------
    def action_gc(self) -> None:
        from ..screens.gc import GcScreen

        def done(answer: tuple[str, list[str]] | None) -> None:
            if answer is not None and answer[0] in ("delete", "archive"):
                how, kept = answer
                self.runner.run(lambda: self.service.gc_apply(archive=how == "archive",
                                                              keep=kept))

        self.runner.pending.opening("the gc preview", lambda: self.screen.app.push_screen(
            GcScreen(self.service, on_change=lambda change: self.apply_change(change, None)), done))

    def action_stats(self) -> None:
        from ..screens.stats import StatsScreen

        self.runner.pending.opening("stats", lambda: self.screen.app.push_screen(
            StatsScreen(self.service)))

    def action_reload(self) -> None:
        self.follower.reload("reloaded")

    # -- the wizards --------------------------------------------------------------------------
    def action_split(self, memory_id: str | None = None) -> None:
        """The split wizard, on the highlighted memory (or ``memory_id``)."""
        from ..screens.split_wizard import SplitWizard

        if self.screen.view is None:
            return
        start = memory_id or self.screen.current

        def done(change: Change | None) -> None:
            if change is not None:
                self.apply_change(change, "provenance")

        self.runner.pending.opening("the split wizard", lambda: self.screen.app.push_screen(
            SplitWizard(self.service, start), done))

    def action_consolidate(self, memory_id: str | None = None) -> None:
        """The consolidate wizard, on the marked memories (plus ``memory_id``, when it comes
        from the provenance pane) or a cluster core suggests."""
        if self.screen.view is None:
            return
        marked = list(self.tree.marks)
        if memory_id is not None and marked and memory_id not in marked:
            marked.append(memory_id)  # (nothing marked: its clusters come first instead)
        self.consolidate_members(marked, focus_id=memory_id or self.screen.current)

    def consolidate_members(self, ids: list[str], focus_id: str | None = None) -> None:
        """The consolidate wizard on these memories (as if marked; ``focus_id`` first, else the
        first of them); the marks of those it merged go."""
        from ..screens.consolidate_wizard import ConsolidateWizard

        def done(change: Change | None) -> None:
            if change is not None:
                self.tree.clear_marks(change.ids)
                self.apply_change(change, "provenance")

        focus = focus_id if focus_id is not None else (ids[0] if ids else None)
        self.runner.pending.opening("the consolidate wizard", lambda: self.screen.app.push_screen(
            ConsolidateWizard(self.service, ids, focus_id=focus), done))

    # -- the review inbox ---------------------------------------------------------------------
    def action_inbox(self) -> None:
        """What the assistant wrote since the person last reviewed: accept or reject."""
        from ..screens.inbox import InboxScreen

        def changed() -> None:
            self.follower.reload("")

        def closed(pair: list[str] | None) -> None:
            self.count_inbox()
            if pair:  # c on an entry that likely duplicates another memory
                self.consolidate_members(pair)

        self.runner.pending.opening("the review inbox", lambda: self.screen.app.push_screen(
            InboxScreen(self.service.inbox, on_change=changed,
                        duplicates=self.service.edits.duplicates_of_saved), closed))

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
