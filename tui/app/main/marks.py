"""The main screen's marks beyond space: a range (shift+down / shift+up extend the mark from
where the cursor was; ``V`` starts and ends a visual range that follows the cursor, as in
vim), every memory of the highlighted group (``A``: again unmarks them), invert (``~``, over the
memories the filter shows) and clear (``U``). The marked memories are what the bulk keys act on
(bulk.py); the ranges are drawn by mark_ranges.py. Marks are kept by memory id: a refilter, a
new grouping or sort keeps them (a memory the filter hides stays marked, and the title says
how many are hidden); a memory that leaves the vault loses its mark."""

from __future__ import annotations

from collections.abc import Callable

from textual.binding import Binding

from ..groups import sort_ids
from ..widgets.memory_list import MemoryList
from .mark_ranges import MarkRanges
from .operations import ChangeRunner
from .titles import Titles
from .tree import MainTree
from .vault_screen import VaultScreen

#: The keys of this part, in the order help lists them (space and shift+up/down are the tree's).
MARK_BINDINGS = [
    Binding("V", "visual", "Visual range (V ends)", show=False, id="memvault.visual"),
    Binding("A", "mark_group", "Mark the group", show=False, id="memvault.mark_group"),
    Binding("tilde", "invert_marks", "Invert marks", show=False, id="memvault.invert_marks"),
    Binding("U", "clear_marks", "Clear marks", show=False, id="memvault.clear_marks"),
]


class Marks:
    """The marks of ``screen``'s tree (kept by the tree: :attr:`.tree.MainTree.marks`): one
    memory (the one ``runner`` says an operation may act on), ranges (``ranges``), a group,
    invert and clear; ``titles`` say a range that began or ended (a change of the marks
    themselves the screen hears from the tree), ``key_for`` names the keys."""

    def __init__(self, screen: VaultScreen, runner: ChangeRunner, ranges: MarkRanges,
                 titles: Titles, key_for: Callable[[str], str]) -> None:
        self.screen = screen
        self.runner = runner
        self.ranges = ranges
        self.titles = titles
        self.key_for = key_for

    @property
    def tree(self) -> MainTree:
        return self.screen.query_one(MainTree)

    def changed(self) -> None:
        self.titles.tree_title()

    # -- one memory (space) -----------------------------------------------------------------
    def action_mark(self) -> None:
        """Mark or unmark the highlighted memory, then go to the next row (as ranger does:
        space space space marks three)."""
        memory_id = self.runner.need_memory()
        if memory_id is None:
            return
        self.ranges.end()
        tree = self.tree
        tree.toggle_mark(memory_id)
        self.changed()
        rows = tree if tree.display else self.screen.query_one(MemoryList)
        rows.action_cursor_down()

    # -- ranges (MarkRanges) -----------------------------------------------------------------
    def action_mark_down(self) -> None:
        """shift+down (the tree's key): mark down, extending the range."""
        if self.ranges.extend("cursor_down"):
            self.changed()

    def action_mark_up(self) -> None:
        if self.ranges.extend("cursor_up"):
            self.changed()

    def action_visual(self) -> None:
        if self.ranges.toggle_visual():
            self.changed()

    def follow_range(self) -> None:
        """The cursor moved (the screen's highlight handler calls this)."""
        if self.ranges.follow():
            self.changed()

    # -- many at once -----------------------------------------------------------------------
    def action_mark_group(self) -> None:
        """``A``: mark every memory of the highlighted group (the cursor's group, on a memory);
        when all of them are marked already, unmark them."""
        tree = self.tree
        node = tree.cursor_node
        while node is not None and not (node.data is not None and node.data.kind == "group"):
            node = node.parent
        if node is None or node.data is None or node.data.group is None:
            self.screen.notify("No group here: the lineage grouping has none "
                               f"({self.key_for('cycle_mode')} changes it)",
                               severity="warning", timeout=3)
            return
        self.ranges.end()
        view = self.screen.view
        if view is None:
            return
        # in the order the tree shows them (a group's ids come in no particular order)
        ids = sort_ids(view, [i for i in node.data.group.ids if i in view.rows], tree.sort,
                       tree.rank)
        marks = list(tree.marks)
        if ids and all(i in tree.marks for i in ids):
            gone = set(ids)
            tree.set_marks([i for i in marks if i not in gone])
        else:
            tree.set_marks([*marks, *ids])
        self.changed()

    def action_invert_marks(self) -> None:
        """``~``: every memory the filter shows changes its mark (hidden marks stay)."""
        self.ranges.end()
        tree = self.tree
        marks = tree.marks
        shown = tree.matched_set()
        kept = [i for i in marks if i not in shown]
        tree.set_marks([*kept, *(i for i in tree.matched if i not in marks)])
        self.changed()

    def action_clear_marks(self) -> None:
        self.ranges.end()
        self.tree.clear_marks()
        self.changed()
