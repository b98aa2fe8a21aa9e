"""The main screen following the vault and jumping: reload on a key or when the vault moved on disk
(one look every few seconds: :class:`VaultFollower`), and putting the cursor on a memory (or
showing one that lives only in history)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual import work
from textual.screen import Screen
from textual.widgets import Input

from core import AmbiguousIdError, UnknownIdError, VaultError

from ..messages import (
    OperationFailed,
    VaultReloaded,
)
from ..service import VaultService


class VaultFollower:
    """Following the vault for ``screen``: a look (in a worker) whether the vault moved on disk,
    one at a time, reloading when it did; a reload on a key; the outside edits an open found,
    told once (``key_for`` names the key that lists them). Owns whether a look is under way and
    how many finds were told."""

    def __init__(self, screen: Screen[object], service: VaultService,
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


class MainFollowing:
    """A part of :class:`~tui.app.screens.main.MainScreen` (its widgets, service and view); plain
    methods, actions and workers only: the message handlers stay on the screen."""

    def jump(self, key: str) -> None:
        """Put the cursor on a living memory (clearing the filter if it hides it), or show a
        memory that exists only in history."""
        view = self.view
        if view is None:
            return
        try:
            memory_id = view.resolve(key)
        except AmbiguousIdError as exc:
            self.notify(str(exc), title="go to", severity="error", markup=False)
            return
        except UnknownIdError:
            self.find_in_history(key)
            return
        if memory_id not in set(self.matched):
            with self.prevent(Input.Changed):
                self.query_one("#filter", Input).value = ""
            self.set_filter("")
            self.notify("Filter cleared to show it", timeout=2)
        node = self.memory_tree.find_memory(memory_id)
        if node is not None:
            self.memory_tree.move_cursor(node)
            self.memory_tree.scroll_to_node(node, animate=False)
            self.memory_tree.focus()
            self._show_node(node.data)

    @work(thread=True, group="resolve", exclusive=True, exit_on_error=False)
    def find_in_history(self, key: str) -> None:
        try:
            memory_id = self.service.resolve_any(key)
        except VaultError as exc:
            self.post_message(OperationFailed(str(exc), "go to"))
            return
        self.app.call_from_thread(self._show_gone, memory_id)

    def _show_gone(self, memory_id: str) -> None:
        if self.view is not None and memory_id in self.view.rows:
            self.jump(memory_id)
            return
        self.current = memory_id
        self.detail.show_gone(memory_id)
        self.action_tab("history")
        self.git_panes.load()

    def action_outside_edits(self) -> None:
        from .outside_edits import OutsideEditsScreen

        edits = self.service.outside_edits
        if not edits:
            self.notify("No outside edits since the app opened", timeout=3)
            return

        def done(memory_id: str | None) -> None:
            if memory_id:
                self.jump(memory_id)

        self.app.push_screen(OutsideEditsScreen(edits, self.view), done)

    def action_reload(self) -> None:
        self.follower.reload("reloaded")
