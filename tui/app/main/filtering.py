"""The main screen's filter and tree: which memories the filter keeps, the tree's groups for
them (the grouping and the sort), and the ranking of a filter with words. For a big vault the
filter and the groups are worked out in a worker (at 100k memories each is a pass over the whole
vault).

A filter with words is shown at once with the memories holding every word as a substring, and
its words go through the ranked search of ``memvault search`` in a worker
(:func:`tui.app.search_rank.search_filter`); when it lands, the filter also keeps the search's
hits (a question typed in the box finds what the search finds), ranked first in their groups,
and a hit the substrings did not find takes the cursor (the best one)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Input, Static

from ..groups import Group, LineageRoot
from ..grouping import prepare
from ..messages import DuplicatesFound, Filtered, OperationFailed, Ranked
from ..query import Query, parse
from ..service import VaultService
from ..view import VaultView
from ..widgets.memory_tree import MemoryTree
from .panes import CursorPanes
from .titles import Titles
from .tree import MainTree
from .vault_screen import VaultScreen
from .views import Views

if TYPE_CHECKING:  # the duplicates' grouping is imported when the person picks it
    from ..duplicates import Duplicates

#: Views of this many memories or more have the filter worked out in a worker (at 100k a keystroke
#: would otherwise hold the UI for a few hundred milliseconds).
FILTER_IN_WORKER_FROM = 20_000


def matching(view: VaultView, query: Query, hits: Mapping[str, float] | None = None
             ) -> list[str]:
    """The ids of the memories the filter ``query`` keeps; ``hits``: its words' search hits
    (from a search of the same text), kept too when its fields allow them."""
    now = view.now
    if not hits:
        return [i for i, row in view.rows.items() if query.matches(row, now)]
    return [i for i, row in view.rows.items()
            if query.matches(row, now) or (i in hits and query.allows(row, now))]


class DuplicateSearch:
    """The search the "possible duplicates" grouping shows, in a worker of ``screen``: once a
    view (its answer is kept by :mod:`tui.app.duplicates`). Owns which view it last searched."""

    def __init__(self, screen: VaultScreen, service: VaultService) -> None:
        self.screen = screen
        self.service = service
        self.searched: VaultView | None = None

    def start(self, view: VaultView) -> None:
        from .. import duplicates  # (not on the first paint's path)
        if duplicates.known(view) is not None or self.searched is view:
            return
        self.searched = view
        self.screen.run_worker(partial(self.find, view), thread=True, group="duplicates",
                               exclusive=True, exit_on_error=False)

    def find(self, view: VaultView) -> None:
        """(In a worker.) Posts :class:`DuplicatesFound`, or says why it could not look."""
        from .. import duplicates
        try:
            found = duplicates.find_duplicates(view, self.service.wizards.clusters)
        except Exception as exc:  # a suggestion: its failure is said, never fatal
            self.screen.post_message(OperationFailed(f"cannot look for duplicates: {exc}",
                                                     "duplicates"))
            return
        self.screen.post_message(DuplicatesFound(found))


class TreeFilter:
    """The filter of ``screen``'s tree, and the tree rebuilt for it, its grouping and its sort
    (the tree's reactive ``filter``, ``mode`` and ``sort``: the screen calls
    :meth:`refilter` when one changes); the ``titles`` say it, ``panes`` show the cursor's
    node once the tree shows the result, ``views`` follow it (the flat list, the saved
    choices). Owns the search of the "possible duplicates" grouping (through ``service``), the
    filter text whose search the tree's ranking holds, and how long the last rebuild took."""

    def __init__(self, screen: VaultScreen, service: VaultService, titles: Titles,
                 panes: CursorPanes, views: Views) -> None:
        self.screen = screen
        self.titles = titles
        self.panes = panes
        self.views = views
        self.duplicate_search = DuplicateSearch(screen, service)
        #: the filter text whose words' search the tree's ranking holds, and its hits: kept by
        #: a refilter of the same text
        self.searched_text: str | None = None
        #: for the bench: how long the last tree rebuild took, etc.
        self.timings: dict[str, float] = {}
        #: the last ranking said something (its notes shown once, not at every keystroke)
        self.noted = False

    @property
    def tree(self) -> MainTree:
        return self.screen.query_one(MainTree)

    # -- the filter box -------------------------------------------------------------------------
    def set_filter(self, text: str) -> None:
        """The filter box's ``text``: parsed, its errors said under the box, the tree's
        ``filter`` (whose change refilters)."""
        query = parse(text)
        error = self.screen.query_one("#filter-error", Static)
        if query.errors:
            error.update(Text("; ".join(query.errors), style="red"))
            error.display = True
        else:
            error.display = False
        self.tree.filter = query

    def action_focus_filter(self) -> None:
        self.screen.query_one("#filter", Input).focus()

    def action_clear_filter(self) -> None:
        """esc: clear the filter (ctrl+z in the box brings it back) and go to the tree."""
        box = self.screen.query_one("#filter", Input)
        if box.value:
            box.value = ""  # the box's Changed event refilters
        self.tree.focus()

    # -- the tree for it ------------------------------------------------------------------------
    def regroup(self) -> None:
        """A new grouping: rebuilt, the cursor kept on the memory the panes show."""
        self.refilter(focus=self.screen.current)

    def rebuild(self) -> None:
        """A new filter or sort: rebuilt, the cursor kept on its row."""
        self.refilter()

    def refilter(self, focus: str | None = None) -> None:
        """Apply the filter to the view and rebuild the tree (keeping its state)."""
        tree = self.tree
        view, query = self.screen.view, tree.filter
        if view is None:
            return
        hits = tree.rank if query.ranked and self.searched_text == query.text else None
        if len(view.rows) >= FILTER_IN_WORKER_FROM and not (view.partial and query.empty):
            # (a first look from the index is painted at once: there is nothing else to show)
            rank = tree.rank if query.ranked else {}
            work = partial(self.match, view, query, focus, tree.mode, tree.sort, rank,
                           tree.opening(tree.mode), hits)
            self.screen.run_worker(work, thread=True, group="filter", exclusive=True,
                                   exit_on_error=False,
                                   description="the filter and the groups over a big vault")
        elif query.empty:
            self.show_matched(view, query, list(view.rows), focus)
        else:
            self.show_matched(view, query, matching(view, query, hits), focus)

    def match(self, view: VaultView, query: Query, focus: str | None, mode: str, sort: str,
              rank: dict[str, float], opened: set[str] | None,
              hits: Mapping[str, float] | None = None) -> None:
        """(In a worker.) A big vault's filter and the tree's groups for it (with what opens at
        once), posted as :class:`Filtered`: at 100k memories each is a pass over the vault."""
        matched = list(view.rows) if query.empty else matching(view, query, hits)
        narrow = len(matched) < len(view.rows) and len(matched) <= MemoryTree.OPEN_ALL
        groups = prepare(view, matched, mode, sort, rank, opened, everything=narrow)
        self.screen.post_message(Filtered(view, query, matched, focus, groups, mode, sort))

    def filtered(self, message: Filtered) -> None:
        tree = self.tree
        if message.view is self.screen.view and message.query is tree.filter:  # else a later one
            same = message.mode == tree.mode and message.sort == tree.sort
            self.show_matched(message.view, message.query, message.matched, message.focus,
                              message.groups if same else None)

    def show_matched(self, view: VaultView, query: Query, matched: list[str],
                     focus: str | None, groups: list[Group | LineageRoot] | None = None) -> None:
        started = time.perf_counter()
        tree = self.tree
        tree.terms = query.parsed.text_terms
        if not query.ranked:
            tree.rank = {}
        tree.show(view, matched, tree.mode, tree.sort, focus=focus, groups=groups)
        tree.prune_marks()
        self.titles.tree_title()
        self.titles.tree_subtitle()
        self.timings["refilter"] = time.perf_counter() - started
        self.panes.show_cursor()
        if query.ranked:
            self.screen.run_worker(partial(self.rank, view, query), thread=True,
                                   group="rank", exclusive=True, exit_on_error=False,
                                   description="search the filter's words")  # (not its 10k ids)
        self.after_rebuild()

    def rank(self, view: VaultView, query: Query) -> None:
        """(In a worker.) The filter has words: search them as ``memvault search`` does and
        rank what the filter keeps by search score (tui.app.search_rank), posted as
        :class:`Ranked`."""
        from ..search_rank import search_filter

        notes: list[str] = []
        try:
            scores, matched = search_filter(view, query, notes)
        except Exception as exc:  # the index cannot be used: the rows keep their sort
            self.screen.post_message(OperationFailed(f"cannot rank the filter's results: {exc}",
                                                     "search"))
            return
        self.screen.post_message(Ranked(view, query.text, scores, matched, tuple(notes)))

    def ranked(self, message: Ranked) -> None:
        tree = self.tree
        if message.view is not self.screen.view or message.query_text != tree.filter.text:
            return  # a later keystroke or reload: its own ranking follows
        tree.rank = message.scores
        self.searched_text = message.query_text
        if message.notes and not self.noted:  # (once while the first build runs, not a key)
            for note in message.notes:
                self.screen.notify(note, title="search", timeout=6, markup=False)
        self.noted = bool(message.notes)
        before = tree.matched_set()
        found = [i for i in message.matched if i not in before]  # by the search alone
        changed = message.matched != tree.matched  # (hits of an earlier search may be gone)
        scores = message.scores
        focus = min(scores, key=lambda i: (-scores[i], i)) if found else None  # the best hit
        tree.show(message.view, message.matched, tree.mode, tree.sort, focus=focus)
        self.titles.tree_title()
        self.titles.tree_subtitle()
        if changed:
            self.panes.show_cursor()
            self.after_rebuild()

    def after_rebuild(self) -> None:
        """What follows the tree rebuilt (a refilter, which a new mode or sort runs too): the
        views (the flat list, the saved choices), the duplicates' search when it groups so."""
        self.views.after_refilter()
        view = self.screen.view
        if self.tree.mode == "duplicates" and view is not None:
            self.duplicate_search.start(view)

    def duplicates_found(self, found: Duplicates) -> None:
        from .. import duplicates
        duplicates.remember(found)
        if found.view is not self.screen.view or self.tree.mode != "duplicates":
            return
        self.refilter(focus=self.screen.current)
        tree = self.tree
        first = tree.root.children[0] if tree.root.children else None
        if first is not None and first.data is not None and first.data.key == "dupes:found":
            tree.expand_node(first)
