"""The main screen's opening of the vault: a first look from the derived index while the vault
opens (at 100k memories the open takes seconds, the first look a fraction of that), then the
vault as it is. On the first look (``view.partial``) only the keys that move, fold, filter and
mark work; the others show as disabled until the vault is open."""

from __future__ import annotations

import threading

from textual import work

from core import VaultError

from ..messages import OperationFailed, VaultOpened, VaultPreviewed
from ..view import VaultView

#: How long the open waits for the first look to be painted before it starts anyway (seconds).
PREVIEW_WAIT = 5.0
#: What works on a first look from the index (``view.partial``): moving, folding, filtering,
#: grouping and sorting, marking, the flat list and the pane's width, and copying an id. (Textual asks ``check_action`` by name.)
PREVIEW_ACTIONS = frozenset({
    "tree", "top", "bottom", "open_node", "close_node", "expand_all", "collapse_all", "copy_id",
    "clear_filter", "focus_filter", "cycle_mode", "cycle_sort", "mark", "quit", "help",
    "visual", "mark_group", "invert_marks", "clear_marks", "toggle_view", "resize_left",
})


class MainOpening:
    """A part of :class:`~tui.app.screens.main.MainScreen`."""

    # -- opening ----------------------------------------------------------------------------
    @work(thread=True, group="open", exit_on_error=False)
    def open_vault(self) -> None:
        try:
            first = self.service.preview()
        except (ValueError, TypeError, OSError):  # a summary the view cannot take: wait
            first = None
        if first is not None:
            painted = threading.Event()
            self.post_message(VaultPreviewed(first, painted))
            painted.wait(PREVIEW_WAIT)
        try:
            view = self.service.open()
        except VaultError as exc:
            self.post_message(OperationFailed(f"cannot open the vault: {exc}", "open"))
            return
        self.post_message(VaultOpened(view, self.service.open_notes))

    # (handlers by name: ``@on`` registers only in a class that is a message pump itself)
    def on_vault_opened(self, message: VaultOpened) -> None:
        self._opened(message.view, message.notes)

    def on_vault_previewed(self, message: VaultPreviewed) -> None:
        """Paint the index's summaries while the vault opens: moving, filtering and folding
        work; nothing acts on a memory, and no detail shows, until it is open."""
        if self.view is not None:
            message.painted.set()
            return  # the open was first
        self.view = message.view
        self.show_subtitle()
        self.refilter()
        self.tree.focus()
        self.refresh_bindings()
        self.call_after_refresh(message.painted.set)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While the tree shows a first look from the index (``view.partial``), only the keys
        that move, fold and filter work; the others show as disabled."""
        if self.view is not None and self.view.partial and action not in PREVIEW_ACTIONS:
            return None
        return True

    def _opened(self, view: VaultView, notes: list[str]) -> None:
        was_partial = self.view is not None and self.view.partial
        self.view = view
        if was_partial:
            self.show_subtitle()
            self.refresh_bindings()
        self.refilter()
        self.tree.focus()
        for note in notes:
            self.notify(note, title="vault", markup=False)
        self.tell_outside_edits()
        self.check_sync()
        self.count_inbox()

