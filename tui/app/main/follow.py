"""The main screen following the vault and jumping: reload on a key or when the vault moved on disk
(one look every few seconds: :class:`VaultFollower`), the scores again every minute, the last
sync's conflicts said, and putting the cursor on a memory (or showing one that lives only in
history: :class:`Jumps`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.widgets import Input

from core import AmbiguousIdError, UnknownIdError, VaultError

from ...text import relative_time
from ..messages import OperationFailed, SyncChecked, VaultReloaded
from ..service import VaultService, waiting_conflicts
from ..widgets.detail import DetailPane
from ..widgets.memory_tree import MemoryTree
from .filtering import TreeFilter
from .panes import CursorPanes, GitPanes
from .vault_screen import VaultScreen


class VaultFollower:
    """Following the vault for ``screen``: a look (in a worker) whether the vault moved on disk,
    one at a time, reloading when it did; a reload on a key; the outside edits an open found,
    told once (``key_for`` names the key that lists them); the scores again as time passes; the
    last sync's conflicts. Owns whether a look is under way and how many finds were told."""

    def __init__(self, screen: VaultScreen, service: VaultService,
                 key_for: Callable[[str], str]) -> None:
        self.screen = screen
        self.service = service
        self.key_for = key_for
        self.polling = False
        self.outside_told = 0

    def poll(self) -> None:
        """Every few seconds: did the vault move on disk? (One look at a time.)"""
        if not self.polling:
            self.polling = True
            self.screen.run_worker(self.look, thread=True, group="poll", exit_on_error=False)

    def look(self) -> None:
        """(In a worker.) Reload when HEAD or the vault's folders moved."""
        try:
            if not self.service.is_open or not self.service.changed_on_disk():
                return
            view = self.service.reload()
        except VaultError as exc:
            self.screen.post_message(OperationFailed(f"reload failed: {exc}", "reload"))
            return
        finally:
            self.polling = False
        self.screen.post_message(VaultReloaded(view, "the vault changed on disk: reloaded",
                                               self.service.open_notes))

    def reload(self, reason: str) -> None:
        """Read the vault again (in a worker); ``reason`` is what the notification says."""
        self.screen.run_worker(partial(self.read_again, reason), thread=True, group="reload",
                               exclusive=True, exit_on_error=False)

    def read_again(self, reason: str) -> None:
        try:
            view = self.service.reload()
        except VaultError as exc:
            self.screen.post_message(OperationFailed(f"reload failed: {exc}", "reload"))
            return
        self.screen.post_message(VaultReloaded(view, reason, self.service.open_notes))

    def tell_outside_edits(self) -> None:
        """Announce the outside edits an open found, once: how many were committed, which
        were refused (the key that lists them)."""
        service = self.service
        if service.outside_edits_found == self.outside_told:
            return
        self.outside_told = service.outside_edits_found
        for note in service.outside_edits.notes(self.key_for("outside_edits")):
            self.screen.notify(note, title="outside edits", timeout=10, markup=False,
                               severity="warning" if "not valid" in note else "information")

    def rescore(self) -> None:
        """Every minute: the scores again (they fade with time), in a worker."""
        self.screen.run_worker(self.score_again, thread=True, group="rescore", exclusive=True,
                               exit_on_error=False)

    def score_again(self) -> None:
        """(In a worker.) Posts :class:`VaultReloaded` (no reason said) when a score moved."""
        if not self.service.is_open:
            return
        view = self.service.rescore()
        if view is not None:
            self.screen.post_message(VaultReloaded(view, ""))

    # -- the last sync (core.sync.engine) ---------------------------------------------------
    def check_sync(self) -> None:
        self.screen.run_worker(self.read_last_sync, thread=True, group="sync", exclusive=True,
                               exit_on_error=False)

    def read_last_sync(self) -> None:
        """(In a worker.) What the last sync left, posted as :class:`SyncChecked`."""
        try:
            info = self.service.last_sync()
        except VaultError:
            return
        self.screen.post_message(SyncChecked(info))

    def sync_checked(self, message: SyncChecked) -> None:
        """Say the conflicts the last sync stopped at, if any wait for the person."""
        waiting = waiting_conflicts(message.info)
        if not waiting or message.info is None:
            return
        n = len(waiting)
        files = ", ".join(str(c.get("vault_path") or c.get("path")) for c in waiting[:3])
        more = f" and {n - 3} more" if n > 3 else ""
        when = message.info.get("time")
        view = self.screen.view
        ago = f" ({relative_time(when, view.now if view else None)})" if when else ""
        self.screen.notify(f"The last sync{ago} stopped at {n} conflict{'s' if n != 1 else ''} "
                           f"waiting for you: {files}{more}. Edit the copies in sync-conflicts/ "
                           "into valid records, then run `memvault sync` again "
                           f"({self.key_for('stats')} shows the details).",
                           title="sync", severity="warning", timeout=12, markup=False)


class Jumps:
    """Putting ``screen``'s cursor on a memory its view holds (``filtering`` clears the filter
    when it hides it; ``panes`` show it), or showing one that lives only in history (found
    through ``service``; its history in ``git_panes``)."""

    def __init__(self, screen: VaultScreen, service: VaultService, filtering: TreeFilter,
                 panes: CursorPanes, git_panes: GitPanes) -> None:
        self.screen = screen
        self.service = service
        self.filtering = filtering
        self.panes = panes
        self.git_panes = git_panes

    def jump(self, key: str) -> None:
        """Put the cursor on a living memory (clearing the filter if it hides it), or show a
        memory that exists only in history."""
        view = self.screen.view
        if view is None:
            return
        try:
            memory_id = view.resolve(key)
        except AmbiguousIdError as exc:
            self.screen.notify(str(exc), title="go to", severity="error", markup=False)
            return
        except UnknownIdError:
            self.screen.run_worker(partial(self.find_in_history, key), thread=True,
                                   group="resolve", exclusive=True, exit_on_error=False)
            return
        tree = self.screen.query_one(MemoryTree)
        if memory_id not in set(tree.ids):
            with self.screen.prevent(Input.Changed):
                self.screen.query_one("#filter", Input).value = ""
            self.filtering.set_filter("")
            self.screen.notify("Filter cleared to show it", timeout=2)
        node = tree.find_memory(memory_id)
        if node is not None:
            tree.move_cursor(node)
            tree.scroll_to_node(node, animate=False)
            tree.focus()
            self.panes.show_node(node.data)

    def find_in_history(self, key: str) -> None:
        """(In a worker.) The memory ``key`` names among those history holds."""
        try:
            memory_id = self.service.resolve_any(key)
        except VaultError as exc:
            self.screen.post_message(OperationFailed(str(exc), "go to"))
            return
        self.screen.app.call_from_thread(self.show_gone, memory_id)

    def show_gone(self, memory_id: str) -> None:
        view = self.screen.view
        if view is not None and memory_id in view.rows:
            self.jump(memory_id)
            return
        self.screen.current = memory_id
        self.screen.query_one(DetailPane).show_gone(memory_id)
        self.panes.show_tab("history")
        self.git_panes.load()

    def action_outside_edits(self) -> None:
        from ..screens.outside_edits import OutsideEditsScreen

        edits = self.service.outside_edits
        if not edits:
            self.screen.notify("No outside edits since the app opened", timeout=3)
            return

        def done(memory_id: str | None) -> None:
            if memory_id:
                self.jump(memory_id)

        self.screen.app.push_screen(OutsideEditsScreen(edits, self.screen.view), done)
