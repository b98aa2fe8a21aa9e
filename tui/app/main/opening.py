"""The main screen's opening of the vault: a glance or a first look from the derived index while
the vault opens (at 100k memories the open takes seconds, the first look about a second, the
glance milliseconds), then the vault as it is. The glance (``view.glance``: the groups and their
counts, no memory) is the first screen where it can draw it (the modes "status → tag" and
"tag", the tree, no filter), the first look (``view.partial``: the index's summaries) where it
cannot. On the glance only the keys that move and fold work; on the first look those that move,
fold, filter and mark; the others show as disabled until the vault is open. A reload (a key,
the vault moved on disk, the scores again) shows the vault as it is the same way."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial

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
    VaultReloaded,
)
from ..service import VaultService
from ..view import VaultView
from ..widgets.index_progress import IndexProgress
from ..widgets.memory_tree import MemoryTree
from .filtering import TreeFilter
from .follow import VaultFollower
from .operations import Operations
from .panes import GitPanes
from .preload import preload
from .titles import Titles
from .tree import MainTree
from .vault_screen import VaultScreen
from .views import Views

#: How long the open waits for the glance, then the first look, to be painted before it goes on
#: anyway (seconds).
PREVIEW_WAIT = 5.0
#: How often the imports ahead (:mod:`.preload`) and the search index's first build look whether
#: the open vault is painted yet (seconds): they start after that paint.
BUILD_LOOK = 0.05
#: What works on a first look from the index (``view.partial``): moving, folding, filtering,
#: grouping and sorting, marking, the flat list and the pane's width, and copying an id.
#: (Textual asks ``check_action`` by name.)
PREVIEW_ACTIONS = frozenset({
    "cursor_down", "cursor_up", "top", "bottom", "open_node", "close_node", "expand_all",
    "collapse_all", "copy_id", "clear_filter", "focus_filter", "cycle_mode", "cycle_sort", "mark", "quit", "help",
    "visual", "mark_group", "invert_marks", "clear_marks", "toggle_view", "resize_left",
})
#: What works on a glance (``view.glance``: groups and counts, no memory): moving and folding.
GLANCE_ACTIONS = frozenset({
    "cursor_down", "cursor_up", "top", "bottom", "open_node", "close_node", "expand_all",
    "collapse_all", "quit", "help",
})


class VaultOpening:
    """The vault as ``screen`` shows it, in ``screen.view``: opened (through ``service``, in a
    worker) with a glance and a first look first, or read again; ``filtering`` rebuilds the
    tree, ``titles`` say it, ``git_panes`` load again, ``follower`` tells the outside edits and
    the last sync, ``operations`` count the review inbox; ``views`` say whether the flat list
    shows (a glance draws only the tree)."""

    def __init__(self, screen: VaultScreen, service: VaultService, filtering: TreeFilter,
                 titles: Titles, git_panes: GitPanes, follower: VaultFollower,
                 operations: Operations, views: Views) -> None:
        self.screen = screen
        self.service = service
        self.filtering = filtering
        self.titles = titles
        self.git_panes = git_panes
        self.follower = follower
        self.operations = operations
        self.views = views

    # -- opening ----------------------------------------------------------------------------
    def open_vault(self, read: VaultView | None = None) -> None:
        """Open the vault in a worker, showing what the index has first: a glance when the
        tree shows, the filter is empty and the mode is one a glance draws (its groups come
        from counts alone), then the first look. A glance already ``read`` (in the first
        frame's place: :meth:`~tui.app.app.MemvaultApp.import_main`) is drawn at once."""
        tree = self.screen.query_one(MainTree)
        glance = tree.mode in GLANCE_MODES and tree.filter.empty and not self.views.showing_list
        shown = glance and read is not None and read.glance is not None
        if shown and read is not None:
            self.paint_first(read, threading.Event())
        self.screen.run_worker(partial(self.open_in_worker, glance, shown), thread=True,
                               group="open", exit_on_error=False)

    def open_in_worker(self, glance: bool, shown: bool = False) -> None:
        """(In a worker.) The glance, or when there is none the first look (it waits for its
        paint), then the open, posted as :class:`VaultOpened`. The glance is the whole first
        screen (groups and counts): the first look after it would only put off the open, by
        the second it takes to read and draw 100k summaries. Nothing first when the glance is
        ``shown`` already."""
        if not shown and not (glance and self.show_first(self.service.glance, VaultGlanced)):
            self.show_first(self.service.preview, VaultPreviewed)
        try:
            view = self.service.open()
        except VaultError as exc:
            self.screen.post_message(OperationFailed(f"cannot open the vault: {exc}", "open"))
            return
        self.screen.post_message(VaultOpened(view, self.service.open_notes))

    def show_first(self, read: Callable[[], VaultView | None],
                   message: Callable[[VaultView, threading.Event], Message]) -> bool:
        """(In the worker) what the index shows before the open, posted as ``message``; waits
        until it is painted, so that the next step does not share the interpreter with the
        paint. Nothing when the index has nothing to show (the open follows all the same).
        True when it showed something."""
        try:
            first = read()
        except (ValueError, TypeError, OSError):  # a summary the view cannot take: wait
            first = None
        if first is None:
            return False
        painted = threading.Event()
        self.screen.post_message(message(first, painted))
        painted.wait(PREVIEW_WAIT)
        return True

    def glanced(self, message: VaultGlanced) -> None:
        """Paint the groups and their counts while the summaries are read: moving and folding
        work; a group of memories opened shows that they are loading."""
        if self.screen.view is not None:
            message.painted.set()
            return  # the first look or the open was first
        self.paint_first(message.view, message.painted)

    def previewed(self, message: VaultPreviewed) -> None:
        """Paint the index's summaries while the vault opens: moving, filtering and folding
        work; nothing acts on a memory, and no detail shows, until it is open."""
        view = self.screen.view
        if view is not None and view.glance is None:
            message.painted.set()
            return  # the open was first
        self.paint_first(message.view, message.painted)

    def paint_first(self, view: VaultView, painted: threading.Event) -> None:
        self.screen.view = view
        self.screen.query_one("#filter", Input).disabled = view.glance is not None
        self.titles.show_subtitle()
        self.filtering.refilter()
        self.screen.query_one(MemoryTree).focus()
        self.screen.refresh_bindings()
        self.screen.call_after_refresh(painted.set)

    def allows(self, action: str) -> bool | None:
        """While the tree shows a glance (``view.glance``) only the keys that move and fold
        work; on a first look from the index (``view.partial``) those that move, fold and
        filter; the others show as disabled (None, as Textual's ``check_action`` says it)."""
        view = self.screen.view
        if view is not None and view.partial and action not in (
                GLANCE_ACTIONS if view.glance is not None else PREVIEW_ACTIONS):
            return None
        return True

    def opened(self, view: VaultView, notes: list[str]) -> None:
        """The vault is open: show it as it is, say what the open found."""
        was_partial = self.screen.view is not None and self.screen.view.partial
        self.screen.view = view
        if was_partial:
            self.screen.query_one("#filter", Input).disabled = False
            self.titles.show_subtitle()
            self.screen.refresh_bindings()
        self.filtering.refilter()
        self.screen.query_one(MemoryTree).focus()
        for note in notes:
            self.screen.notify(note, title="vault", markup=False)
        self.follower.tell_outside_edits()
        self.follower.check_sync()
        self.operations.count_inbox()
        # once the open vault is painted: the imports and the build (a thread that holds the
        # interpreter in turns for a minute at 100k memories, after a clone) would share it
        # with that paint
        self.after_open_painted()

    def after_open_painted(self, tries: int = 0) -> None:
        """Once the tree shows the open vault and it is painted (a big vault's groups come
        from a worker: until then this looks again every :data:`BUILD_LOOK` seconds,
        :data:`PREVIEW_WAIT` seconds at most): the modules of the keys' screens imported ahead
        (a worker: :mod:`.preload`), then the search index's first build started (a worker:
        :meth:`build_search_index`)."""
        view = self.screen.view
        if view is None or view.partial:
            return  # (a reload's open brings its own)
        if self.screen.query_one(MemoryTree).painted is not view \
                and tries * BUILD_LOOK < PREVIEW_WAIT:
            self.screen.set_timer(BUILD_LOOK, partial(self.after_open_painted, tries + 1))
            return
        self.screen.run_worker(preload, thread=True, group="preload", exit_on_error=False,
                               description="the keys' screens imported ahead")
        # the index's copies of the files the open left for first use, then the relations,
        # read on first use (the first screen shows none), read now
        self.screen.run_worker(partial(self.read_copies, view), thread=True, group="relations",
                               exit_on_error=False, description="the view's relations read")
        self.screen.run_worker(partial(self.build_search_index, view), thread=True,
                               group="search-index", exclusive=True, exit_on_error=False,
                               description="the search index's first build")

    def read_copies(self, view: VaultView) -> None:
        """(In a worker.) The copies the open left for the cache's first use read, the view
        made again when they were not what it was made from (posted as a reload); then the
        relations of the view shown read."""
        try:
            found = self.service.copies_read()
        except VaultError as exc:
            self.screen.post_message(OperationFailed(f"cannot read the vault: {exc}", "open"))
            return
        if found is not None:
            self.screen.post_message(VaultReloaded(found[0], "", found[1]))
            found[0].relations.by_memory()
            return
        view.relations.by_memory()

    def reloaded(self, message: VaultReloaded) -> None:
        """The vault read again (a key, a move on disk, the scores again): show it as it is."""
        self.screen.view = message.view
        self.filtering.refilter()
        self.git_panes.reload()
        self.operations.count_inbox()
        if message.reason:
            self.follower.check_sync()
            n = len(message.view)
            self.screen.notify(f"{message.reason} ({n} memor{'y' if n == 1 else 'ies'})",
                               title="vault", timeout=3, markup=False)
        for note in message.notes:  # (also of a view made again once the copies were read)
            self.screen.notify(note, title="vault", markup=False)
        self.follower.tell_outside_edits()

    # -- the search index's first build (after a clone) ----------------------------------------
    def build_search_index(self, view: VaultView) -> None:
        """(In a worker.) Build the search index now when it lacks rows for many memories
        (after a clone: at 100k memories it takes a while), its progress shown under the tree;
        the filter meanwhile ranks every memory of the view in memory, past the search's
        wait (:mod:`tui.app.search_rank`)."""
        from ..search_rank import build_index

        post = self.screen.post_message

        def progress(phase: str, done: int, total: int) -> None:
            post(SearchIndexProgress(phase, done, total))

        try:
            built = build_index(view, progress)
        except Exception as exc:  # the index cannot be written: searches build it as they go
            post(OperationFailed(f"cannot build the search index: {exc}", "search"))
            built = False
        post(SearchIndexBuilt(view, built))

    def index_progress(self, message: SearchIndexProgress) -> None:
        self.screen.query_one(IndexProgress).show(message.phase, message.done, message.total)

    def index_built(self, message: SearchIndexBuilt) -> None:
        self.screen.query_one(IndexProgress).finish()
        if (message.built and message.view is self.screen.view
                and self.screen.query_one(MainTree).filter.ranked):
            self.filtering.refilter()  # ranked again, over every memory now
