"""The main screen's marks beyond space: a range (shift+down / shift+up extend the mark from
where the cursor was; ``V`` starts and ends a visual range that follows the cursor, as in
vim), every memory of the highlighted group (``A``: again unmarks them), invert (``~``, over the
memories the filter shows) and clear (``U``). The marked memories are what the bulk keys act on
(:mod:`.main_bulk`). Marks are kept by memory id: a refilter, a new grouping or sort keeps them
(a memory the filter hides stays marked, and the title says how many are hidden); a memory
that leaves the vault loses its mark."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from textual.binding import Binding
from textual.screen import Screen
from textual.widgets.tree import TreeNode

from ..groups import sort_ids
from ..widgets.memory_list import MemoryList
from ..widgets.memory_tree import MemoryTree
from ..widgets.tree_nodes import NodeData
from .state import MainState

#: The keys of this part, in the order help lists them (space and shift+up/down are the tree's).
MARK_BINDINGS = [
    Binding("V", "visual", "Visual range (V ends)", show=False, id="memvault.visual"),
    Binding("A", "mark_group", "Mark the group", show=False, id="memvault.mark_group"),
    Binding("tilde", "invert_marks", "Invert marks", show=False, id="memvault.invert_marks"),
    Binding("U", "clear_marks", "Clear marks", show=False, id="memvault.clear_marks"),
]


@dataclass
class MarkRange:
    """A range being marked: from ``anchor`` to the cursor, on top of the marks ``base`` held
    when it began. ``visual`` (``V``) lasts until ``V`` again; a shift range ends when the
    cursor moves by another key."""

    anchor: TreeNode[NodeData]
    base: list[str]
    visual: bool
    cursor: int = -1  # the cursor line the range was last drawn for


class MarkRanges:
    """Marking a range of the tree's rows (``tree``: how to find it now): from where the cursor
    was to where a shift move takes it, or following the cursor until ``V`` again. Owns the
    range being marked; each method says whether the marks changed."""

    def __init__(self, tree: Callable[[], MemoryTree]) -> None:
        self.tree = tree
        self.range: MarkRange | None = None

    @property
    def visual(self) -> bool:
        return self.range is not None and self.range.visual

    def extend(self, move: str) -> bool:
        """Move the cursor (``cursor_down`` / ``cursor_up``) and mark what the move covered."""
        tree = self.tree()
        if tree.cursor_node is None:
            return False
        if not self.alive():
            self.range = MarkRange(tree.cursor_node, list(tree.marks), visual=False)
        tree.focus()
        getattr(tree, f"action_{move}")()
        return self.draw()

    def toggle_visual(self) -> bool:
        """``V``: start a range at the cursor (the cursor's moves extend it), or end it."""
        tree = self.tree()
        if self.visual and self.alive():
            self.end()
            return True
        if tree.cursor_node is None:
            return False
        self.range = MarkRange(tree.cursor_node, list(tree.marks), visual=True)
        tree.focus()
        return self.draw()

    def follow(self) -> bool:
        """The cursor moved: a visual range follows it; a shift range ends unless the move was
        its own."""
        r = self.range
        if r is None:
            return False
        if not self.alive() or (not r.visual and self.tree().cursor_line != r.cursor):
            self.end()
            return True
        return r.visual and self.draw()

    def draw(self) -> bool:
        r = self.range
        tree = self.tree()
        if r is None or not self.alive():
            return False
        low, high = sorted((r.anchor.line, tree.cursor_line))
        covered: list[str] = []
        for line in range(low, high + 1):
            node = tree.get_node_at_line(line)
            data = node.data if node is not None else None
            if data is not None and data.kind == "memory" and data.memory_id is not None:
                covered.append(data.memory_id)
        r.cursor = tree.cursor_line
        tree.set_marks([*r.base, *covered])
        return True

    def end(self) -> None:
        self.range = None

    def alive(self) -> bool:
        """Is the range's anchor still a row of the tree (a rebuild replaces every node)?"""
        r = self.range
        if r is None:
            return False
        line = r.anchor.line
        return line >= 0 and self.tree().get_node_at_line(line) is r.anchor


class Marks:
    """The marks of ``screen``'s tree beyond the tree's own: one memory (the one
    ``need_memory`` gives), ranges (its :class:`MarkRanges`), a group, invert and clear;
    ``changed`` says them again (the titles). Owns the range being marked and the filter's
    memories as a set."""

    def __init__(self, screen: Screen[object], state: MainState,
                 need_memory: Callable[[], str | None], key_for: Callable[[str], str],
                 changed: Callable[[], None]) -> None:
        self.screen = screen
        self.state = state
        self.need_memory = need_memory
        self.key_for = key_for
        self.changed = changed
        self.ranges = MarkRanges(lambda: self.tree)
        self.shown: tuple[list[str], set[str]] | None = None

    @property
    def tree(self) -> MemoryTree:
        return self.screen.query_one(MemoryTree)

    # -- one memory (space) -----------------------------------------------------------------
    def mark(self) -> None:
        """Mark or unmark the highlighted memory, then go to the next row (as ranger does:
        space space space marks three)."""
        memory_id = self.need_memory()
        if memory_id is None:
            return
        self.ranges.end()
        tree = self.tree
        tree.toggle_mark(memory_id)
        self.changed()
        rows = tree if tree.display else self.screen.query_one(MemoryList)
        rows.action_cursor_down()

    # -- ranges (MarkRanges) -----------------------------------------------------------------
    def extend(self, move: str) -> None:
        """shift+down / shift+up (``move``: ``cursor_down`` / ``cursor_up``)."""
        if self.ranges.extend(move):
            self.changed()

    def visual(self) -> None:
        if self.ranges.toggle_visual():
            self.changed()

    def follow_range(self) -> None:
        """The cursor moved (the screen's highlight handler calls this)."""
        if self.ranges.follow():
            self.changed()

    # -- many at once -----------------------------------------------------------------------
    def mark_group(self) -> None:
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
        view = self.state.view
        if view is None:
            return
        # in the order the tree shows them (a group's ids come in no particular order)
        ids = sort_ids(view, [i for i in node.data.group.ids if i in view.rows], self.state.sort,
                       tree.rank)
        marks = list(tree.marks)
        if ids and all(i in tree.marks for i in ids):
            gone = set(ids)
            tree.set_marks([i for i in marks if i not in gone])
        else:
            tree.set_marks([*marks, *ids])
        self.changed()

    def invert(self) -> None:
        """``~``: every memory the filter shows changes its mark (hidden marks stay)."""
        self.ranges.end()
        tree = self.tree
        marks = tree.marks
        shown = self.shown_set()
        kept = [i for i in marks if i not in shown]
        tree.set_marks([*kept, *(i for i in self.state.matched if i not in marks)])
        self.changed()

    def clear(self) -> None:
        self.ranges.end()
        self.tree.clear_marks()
        self.changed()

    def shown_set(self) -> set[str]:
        """The memories the filter shows, as a set (made once per refilter: a mark at 100k
        memories must not copy the list each time)."""
        matched = self.state.matched
        if self.shown is None or self.shown[0] is not matched:
            self.shown = (matched, set(matched))
        return self.shown[1]

    # -- saying it --------------------------------------------------------------------------
    def unmark(self, ids: list[str]) -> None:
        self.tree.clear_marks(ids)
        self.changed()

    def note(self) -> str:
        """``3 marked``, ``3 marked (1 hidden by the filter)``, with `` · visual`` while ``V``
        draws a range; "" when nothing is marked and no range is drawn."""
        marks = self.tree.marks
        parts = []
        if marks:
            shown = self.shown_set()
            hidden = sum(1 for i in marks if i not in shown)
            parts.append(f"{len(marks)} marked" + (f" ({hidden} hidden by the filter)"
                                                    if hidden else ""))
        if self.ranges.visual:
            parts.append(f"visual ({self.key_for('visual')} ends)")
        return " · ".join(parts)
