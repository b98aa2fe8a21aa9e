"""The main screen's opening of the vault: a glance and a first look from the derived index while
the vault opens (at 100k memories the open takes seconds, the first look about a second, the
glance milliseconds), then the vault as it is. On the glance (``view.glance``: the groups and
their counts, no memory) only the keys that move and fold work; on the first look
(``view.partial``) those that move, fold, filter and mark; the others show as disabled until the
vault is open."""

from __future__ import annotations

import threading
from collections.abc import Callable

from textual import work
from textual.message import Message
from textual.widgets import Input

from core import VaultError

from ..grouping import GLANCE_MODES
from ..messages import (
    OperationFailed,
    SearchIndexBuilt,
    SearchIndexProgress,
    VaultGlanced,
    VaultOpened,
    VaultPreviewed,
)
from ..view import VaultView
from ..widgets.index_progress import IndexProgress

#: How long the open waits for the glance, then the first look, to be painted before it goes on
#: anyway (seconds).
PREVIEW_WAIT = 5.0
#: What works on a first look from the index (``view.partial``): moving, folding, filtering,
#: grouping and sorting, marking, the flat list and the pane's width, and copying an id. (Textual asks ``check_action`` by name.)
PREVIEW_ACTIONS = frozenset({
    "tree", "top", "bottom", "open_node", "close_node", "expand_all", "collapse_all", "copy_id",
    "clear_filter", "focus_filter", "cycle_mode", "cycle_sort", "mark", "quit", "help",
    "visual", "mark_group", "invert_marks", "clear_marks", "toggle_view", "resize_left",
})
#: What works on a glance (``view.glance``: groups and counts, no memory): moving and folding.
GLANCE_ACTIONS = frozenset({
    "tree", "top", "bottom", "open_node", "close_node", "expand_all", "collapse_all", "quit",
    "help",
})


class MainOpening:
    """A part of :class:`~tui.app.screens.main.MainScreen`."""

    # -- opening ----------------------------------------------------------------------------
    def open_vault(self) -> None:
        """Open the vault in a worker, showing what the index has first: a glance when the
        tree shows, the filter is empty and the mode is one a glance draws (its groups come
        from counts alone), then the first look."""
        self._open_vault(self.mode in GLANCE_MODES and self.filter.empty
                         and not self.showing_list)

    @work(thread=True, group="open", exit_on_error=False)
    def _open_vault(self, glance: bool) -> None:
        if glance:
            self._show_first(self.service.glance, VaultGlanced)
        self._show_first(self.service.preview, VaultPreviewed)
        try:
            view = self.service.open()
        except VaultError as exc:
            self.post_message(OperationFailed(f"cannot open the vault: {exc}", "open"))
            return
        self.post_message(VaultOpened(view, self.service.open_notes))

    def _show_first(self, read: Callable[[], VaultView | None],
                    message: Callable[[VaultView, threading.Event], Message]) -> None:
        """(In the worker) what the index shows before the open, posted as ``message``; waits
        until it is painted, so that the next step does not share the interpreter with the
        paint. Nothing when the index has nothing to show (the open follows all the same)."""
        try:
            first = read()
        except (ValueError, TypeError, OSError):  # a summary the view cannot take: wait
            first = None
        if first is not None:
            painted = threading.Event()
            self.post_message(message(first, painted))
            painted.wait(PREVIEW_WAIT)

    # (handlers by name: ``@on`` registers only in a class that is a message pump itself)
    def on_vault_opened(self, message: VaultOpened) -> None:
        self._opened(message.view, message.notes)

    def on_vault_glanced(self, message: VaultGlanced) -> None:
        """Paint the groups and their counts while the summaries are read: moving and folding
        work; a group of memories opened shows that they are loading."""
        if self.view is not None:
            message.painted.set()
            return  # the first look or the open was first
        self._paint_first(message.view, message.painted)

    def on_vault_previewed(self, message: VaultPreviewed) -> None:
        """Paint the index's summaries while the vault opens: moving, filtering and folding
        work; nothing acts on a memory, and no detail shows, until it is open."""
        if self.view is not None and self.view.glance is None:
            message.painted.set()
            return  # the open was first
        self._paint_first(message.view, message.painted)

    def _paint_first(self, view: VaultView, painted: threading.Event) -> None:
        self.view = view
        self.query_one("#filter", Input).disabled = view.glance is not None
        self.show_subtitle()
        self.refilter()
        self.memory_tree.focus()
        self.refresh_bindings()
        self.call_after_refresh(painted.set)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While the tree shows a glance (``view.glance``) only the keys that move and fold
        work; on a first look from the index (``view.partial``) those that move, fold and
        filter; the others show as disabled."""
        view = self.view
        if view is not None and view.partial and action not in (
                GLANCE_ACTIONS if view.glance is not None else PREVIEW_ACTIONS):
            return None
        return True

    def _opened(self, view: VaultView, notes: list[str]) -> None:
        was_partial = self.view is not None and self.view.partial
        self.view = view
        if was_partial:
            self.query_one("#filter", Input).disabled = False
            self.show_subtitle()
            self.refresh_bindings()
        self.refilter()
        self.memory_tree.focus()
        for note in notes:
            self.notify(note, title="vault", markup=False)
        self.follower.tell_outside_edits()
        self.check_sync()
        self.count_inbox()
        self.build_search_index(view)

    # -- the search index's first build (after a clone) ----------------------------------------
    @work(thread=True, group="search-index", exclusive=True, exit_on_error=False,
          description="the search index's first build")
    def build_search_index(self, view: VaultView) -> None:
        """Build the search index now when it lacks rows for many memories (after a clone: at
        100k memories it takes a while), its progress shown under the tree; the filter ranks
        what is built so far meanwhile."""
        from ..search_rank import build_index

        try:
            built = build_index(view, lambda phase, done, total: self.post_message(
                SearchIndexProgress(phase, done, total)))
        except Exception as exc:  # the index cannot be written: searches build it as they go
            self.post_message(OperationFailed(f"cannot build the search index: {exc}", "search"))
            built = False
        self.post_message(SearchIndexBuilt(view, built))

    def on_search_index_progress(self, message: SearchIndexProgress) -> None:
        self.query_one(IndexProgress).show(message.phase, message.done, message.total)

    def on_search_index_built(self, message: SearchIndexBuilt) -> None:
        self.query_one(IndexProgress).finish()
        if message.built and message.view is self.view and self.filter.ranked:
            self.refilter()  # ranked again, over every memory now

