"""The main screen's titles: the tree's border title (how many memories the filter shows, how many
are marked) and subtitle (the grouping and the order), and the header's subtitle (the vault's
path, "opening…" on a first look, the marks, the review inbox's count)."""

from __future__ import annotations

from collections.abc import Callable

from ..first_frame import short_path as short_path  # (read from here too)
from ..grouping import MODE_NAMES, SORT_NAMES
from .mark_ranges import MarkRanges
from .tree import MainTree
from .vault_screen import VaultScreen


class Titles:
    """The titles of ``screen``, from its view, its tree (what the filter kept, the marks, the
    grouping and the sort), the range being marked (``ranges``) and the keys (``key_for``).
    Owns the vault's path as the header says it and the review inbox's count."""

    def __init__(self, screen: VaultScreen, ranges: MarkRanges, key_for: Callable[[str], str],
                 title_path: str) -> None:
        self.screen = screen
        self.ranges = ranges
        self.key_for = key_for
        self.title_path = title_path
        self.inbox_count = 0

    @property
    def tree(self) -> MainTree:
        return self.screen.query_one(MainTree)

    def tree_title(self) -> None:
        """``memories 12 of 40 · 3 marked``; the header too (it counts the marks)."""
        view = self.screen.view
        if view is None:
            return
        tree = self.tree
        total = view.total
        shown = total if view.glance is not None else len(tree.matched)  # (a glance: no ids)
        title = f"memories {total}" if shown == total else f"memories {shown} of {total}"
        marked = self.marks_note()
        if marked:
            title += f" · {marked}"
        tree.border_title = title
        self.show_subtitle()

    def marks_note(self) -> str:
        """``3 marked``, ``3 marked (1 hidden by the filter)``, with `` · visual`` while ``V``
        draws a range; "" when nothing is marked and no range is drawn."""
        tree = self.tree
        marks = tree.marks
        parts = []
        if marks:
            shown = tree.matched_set()
            hidden = sum(1 for i in marks if i not in shown)
            parts.append(f"{len(marks)} marked" + (f" ({hidden} hidden by the filter)"
                                                    if hidden else ""))
        if self.ranges.visual:
            parts.append(f"visual ({self.key_for('visual')} ends)")
        return " · ".join(parts)

    def tree_subtitle(self) -> None:
        tree = self.tree
        order = "rank" if tree.rank else SORT_NAMES[tree.sort]
        tree.border_subtitle = f"group: {MODE_NAMES[tree.mode]} · sort: {order}"

    def inbox_counted(self, count: int) -> None:
        self.inbox_count = count
        self.show_subtitle()

    def show_subtitle(self) -> None:
        """The header: the vault's path, "opening…" while the tree is a first look from the
        index, how many are marked, the review inbox's count."""
        parts = [self.title_path]
        view = self.screen.view
        if view is not None and view.partial:
            parts.append("opening…")
        marks = self.tree.marks
        if marks:
            parts.append(f"{len(marks)} marked")
        if self.inbox_count:
            parts.append(f"inbox: {self.inbox_count} to review ({self.key_for('inbox')})")
        self.screen.app.sub_title = " · ".join(parts)


