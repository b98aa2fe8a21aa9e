"""The main screen's filter and tree: which memories the filter keeps, the tree's groups for
them, and the ranking of a filter with words. For a big vault the filter and the groups are
worked out in a worker (at 100k memories each is a pass over the whole vault)."""

from __future__ import annotations

import time

from textual import work

from ..groups import Group, LineageRoot
from ..grouping import MODE_NAMES, SORT_NAMES, prepare
from ..messages import Filtered, OperationFailed, Ranked
from ..query import Query
from ..view import VaultView
from ..widgets.memory_tree import MemoryTree

#: Views of this many memories or more have the filter worked out in a worker (at 100k a keystroke
#: would otherwise hold the UI for a few hundred milliseconds).
FILTER_IN_WORKER_FROM = 20_000


def matching(view: VaultView, query: Query) -> list[str]:
    """The ids of the memories the filter ``query`` keeps."""
    now = view.now
    return [i for i, row in view.rows.items() if query.matches(row, now)]


class MainFiltering:
    """A part of :class:`~tui.app.screens.main.MainScreen`."""

    def refilter(self, focus: str | None = None) -> None:
        """Apply the filter to the view and rebuild the tree (keeping its state)."""
        view = self.view
        if view is None:
            return
        query = self.filter
        if len(view.rows) >= FILTER_IN_WORKER_FROM and not (view.partial and query.empty):
            # (a first look from the index is painted at once: there is nothing else to show)
            rank = self.memory_tree.rank if query.ranked else {}
            self._match(view, query, focus, self.mode, self.sort, rank,
                        self.memory_tree.opening(self.mode))
        elif query.empty:
            self._show_matched(view, query, list(view.rows), focus)
        else:
            self._show_matched(view, query, matching(view, query), focus)

    @work(thread=True, group="filter", exclusive=True, exit_on_error=False,
          description="the filter and the groups over a big vault")
    def _match(self, view: VaultView, query: Query, focus: str | None, mode: str, sort: str,
               rank: dict[str, float], opened: set[str] | None) -> None:
        """A big vault's filter and the tree's groups for it (with what opens at once), worked
        out off the UI thread: at 100k memories each is a pass over the whole vault."""
        matched = list(view.rows) if query.empty else matching(view, query)
        narrow = len(matched) < len(view.rows) and len(matched) <= MemoryTree.OPEN_ALL
        groups = prepare(view, matched, mode, sort, rank, opened, everything=narrow)
        self.post_message(Filtered(view, query, matched, focus, groups, mode, sort))

    # (handlers by name: ``@on`` registers only in a class that is a message pump itself)
    def on_filtered(self, message: Filtered) -> None:
        if message.view is self.view and message.query is self.filter:  # else a later one follows
            same = message.mode == self.mode and message.sort == self.sort
            self._show_matched(message.view, message.query, message.matched, message.focus,
                               message.groups if same else None)

    def _show_matched(self, view: VaultView, query: Query, matched: list[str],
                      focus: str | None, groups: list[Group | LineageRoot] | None = None) -> None:
        started = time.perf_counter()
        self.matched = matched
        tree = self.memory_tree
        tree.terms = query.parsed.text_terms
        if not query.ranked:
            tree.rank = {}
        tree.show(view, self.matched, self.mode, self.sort, focus=focus, groups=groups)
        tree.prune_marks()
        self._tree_title()
        self._tree_subtitle()
        self.timings["refilter"] = time.perf_counter() - started
        self._show_cursor()
        if query.ranked:
            self._rank(view, query, list(self.matched))
        self.after_refilter()

    def _tree_subtitle(self) -> None:
        order = "rank" if self.memory_tree.rank else SORT_NAMES[self.sort]
        self.memory_tree.border_subtitle = f"group: {MODE_NAMES[self.mode]} · sort: {order}"

    @work(thread=True, group="rank", exclusive=True, exit_on_error=False,
          description="rank the filter's results")  # (not named by its arguments: 10k ids)
    def _rank(self, view: VaultView, query: Query, ids: list[str]) -> None:
        """The filter has words: rank what it kept by search score (tui.app.search_rank)."""
        from ..search_rank import rank_ids

        try:
            scores = rank_ids(view, query.parsed, ids)
        except Exception as exc:  # the index cannot be used: the rows keep their sort
            self.post_message(OperationFailed(f"cannot rank the filter's results: {exc}", "search"))
            return
        self.post_message(Ranked(view, query.text, scores))

    def on_ranked(self, message: Ranked) -> None:
        if message.view is not self.view or message.query_text != self.query_text:
            return  # a later keystroke or reload: its own ranking follows
        tree = self.memory_tree
        tree.rank = message.scores
        tree.show(message.view, self.matched, self.mode, self.sort)
        self._tree_subtitle()

    def _tree_title(self) -> None:
        view = self.view
        if view is None:
            return
        tree = self.memory_tree
        total = view.total
        shown = total if view.glance is not None else len(self.matched)  # (a glance: no ids)
        title = f"memories {total}" if shown == total else f"memories {shown} of {total}"
        marked = self.marks_note()
        if marked:
            title += f" · {marked}"
        tree.border_title = title
        self.show_subtitle()  # (the header counts the marks too)
