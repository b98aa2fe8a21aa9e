"""The main screen following the vault and jumping: reload on a key or when the vault moved on disk (one look every few seconds), and putting the cursor on a memory (or showing one that lives only in history)."""

from __future__ import annotations

from textual import work
from textual.widgets import Input

from core import AmbiguousIdError, UnknownIdError, VaultError

from ..messages import (
    OperationFailed,
    VaultReloaded,
)


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

    # -- outside edits (tui/app/service_outside.py) ------------------------------------------
    _outside_told = 0

    def tell_outside_edits(self) -> None:
        """Announce the outside edits an open found, once: how many were committed, which
        were refused (the key that lists them)."""
        service = self.service
        if service.outside_edits_found == self._outside_told:
            return
        self._outside_told = service.outside_edits_found
        edits = service.outside_edits
        for note in edits.notes(self.key_for("outside_edits")):
            self.notify(note, title="outside edits", timeout=10, markup=False,
                        severity="warning" if "not valid" in note else "information")

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
        self.reload_vault("reloaded")

    @work(thread=True, group="reload", exclusive=True, exit_on_error=False)
    def reload_vault(self, reason: str) -> None:
        try:
            view = self.service.reload()
        except VaultError as exc:
            self.post_message(OperationFailed(f"reload failed: {exc}", "reload"))
            return
        self.post_message(VaultReloaded(view, reason, self.service.open_notes))

    _polling = False

    def poll(self) -> None:
        """Every few seconds: did the vault move on disk? (One look at a time.)"""
        if not self._polling:
            self._polling = True
            self._poll()

    @work(thread=True, group="poll", exit_on_error=False)
    def _poll(self) -> None:
        try:
            if not self.service.is_open or not self.service.changed_on_disk():
                return
            view = self.service.reload()
        except VaultError as exc:
            self.post_message(OperationFailed(f"reload failed: {exc}", "reload"))
            return
        finally:
            self._polling = False
        self.post_message(VaultReloaded(view, "the vault changed on disk: reloaded",
                                        self.service.open_notes))
