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
from collections.abc import Callable, Mapping
from functools import partial

from rich.text import Text
from textual.screen import Screen
from textual.widgets import Static

from ..groups import Group, LineageRoot
from ..grouping import MODES, SORTS, prepare
from ..messages import Filtered, OperationFailed, Ranked
from ..query import Query, parse
from ..view import VaultView
from ..widgets.memory_tree import MemoryTree
from .state import MainState
from .titles import Titles

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


class TreeFilter:
    """The filter, grouping and sort of ``screen``'s tree: writes them and what the filter kept
    into ``state``, rebuilds the tree, says it in the ``titles``; ``shown`` runs once the tree
    shows the result, ``after`` once the ranking (if any) is under way."""

    def __init__(self, screen: Screen[object], state: MainState, titles: Titles,
                 shown: Callable[[], None], after: Callable[[], None]) -> None:
        self.screen = screen
        self.state = state
        self.titles = titles
        self.shown = shown
        self.after = after

    @property
    def tree(self) -> MemoryTree:
        return self.screen.query_one(MemoryTree)

    def set_filter(self, text: str) -> None:
        state = self.state
        state.query_text = text
        state.filter = parse(text)
        error = self.screen.query_one("#filter-error", Static)
        if state.filter.errors:
            error.update(Text("; ".join(state.filter.errors), style="red"))
            error.display = True
        else:
            error.display = False
        self.refilter()

    def cycle_mode(self) -> None:
        self.set_mode(MODES[(MODES.index(self.state.mode) + 1) % len(MODES)])

    def cycle_sort(self) -> None:
        self.set_sort(SORTS[(SORTS.index(self.state.sort) + 1) % len(SORTS)])

    def set_mode(self, mode: str) -> None:
        self.state.mode = mode
        self.refilter(focus=self.state.current)

    def set_sort(self, sort: str) -> None:
        self.state.sort = sort
        self.refilter()

    def refilter(self, focus: str | None = None) -> None:
        """Apply the filter to the view and rebuild the tree (keeping its state)."""
        state = self.state
        view, query = state.view, state.filter
        if view is None:
            return
        hits = self.tree.rank if query.ranked and state.searched_text == query.text else None
        if len(view.rows) >= FILTER_IN_WORKER_FROM and not (view.partial and query.empty):
            # (a first look from the index is painted at once: there is nothing else to show)
            tree = self.tree
            rank = tree.rank if query.ranked else {}
            work = partial(self.match, view, query, focus, state.mode, state.sort, rank,
                           tree.opening(state.mode), hits)
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
        state = self.state
        if message.view is state.view and message.query is state.filter:  # else a later one follows
            same = message.mode == state.mode and message.sort == state.sort
            self.show_matched(message.view, message.query, message.matched, message.focus,
                              message.groups if same else None)

    def show_matched(self, view: VaultView, query: Query, matched: list[str],
                     focus: str | None, groups: list[Group | LineageRoot] | None = None) -> None:
        started = time.perf_counter()
        state = self.state
        state.matched = matched
        tree = self.tree
        tree.terms = query.parsed.text_terms
        if not query.ranked:
            tree.rank = {}
        tree.show(view, matched, state.mode, state.sort, focus=focus, groups=groups)
        tree.prune_marks()
        self.titles.tree_title()
        self.titles.tree_subtitle()
        state.timings["refilter"] = time.perf_counter() - started
        self.shown()
        if query.ranked:
            self.screen.run_worker(partial(self.rank, view, query), thread=True,
                                   group="rank", exclusive=True, exit_on_error=False,
                                   description="search the filter's words")  # (not its 10k ids)
        self.after()

    def rank(self, view: VaultView, query: Query) -> None:
        """(In a worker.) The filter has words: search them as ``memvault search`` does and
        rank what the filter keeps by search score (tui.app.search_rank), posted as
        :class:`Ranked`."""
        from ..search_rank import search_filter

        try:
            scores, matched = search_filter(view, query)
        except Exception as exc:  # the index cannot be used: the rows keep their sort
            self.screen.post_message(OperationFailed(f"cannot rank the filter's results: {exc}",
                                                     "search"))
            return
        self.screen.post_message(Ranked(view, query.text, scores, matched))

    def ranked(self, message: Ranked) -> None:
        state = self.state
        if message.view is not state.view or message.query_text != state.query_text:
            return  # a later keystroke or reload: its own ranking follows
        tree = self.tree
        tree.rank = message.scores
        state.searched_text = message.query_text
        before = set(state.matched)
        found = [i for i in message.matched if i not in before]  # by the search alone
        changed = message.matched != state.matched  # (hits of an earlier search may be gone)
        state.matched = message.matched
        scores = message.scores
        focus = min(scores, key=lambda i: (-scores[i], i)) if found else None  # the best hit
        tree.show(message.view, state.matched, state.mode, state.sort, focus=focus)
        self.titles.tree_title()
        self.titles.tree_subtitle()
        if changed:
            self.shown()
            self.after()
