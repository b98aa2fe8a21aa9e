"""The main screen's marks beyond space: a range (shift+down / shift+up extend the mark from
where the cursor was; ``V`` starts and ends a visual range that follows the cursor, as in
vim), every memory of the highlighted group (``A``: again unmarks them), invert (``~``, over the
memories the filter shows) and clear (``U``). The marked memories are what the bulk keys act on
(:mod:`.main_bulk`). Marks are kept by memory id: a refilter, a new grouping or sort keeps them
(a memory the filter hides stays marked, and the title says how many are hidden); a memory
that leaves the vault loses its mark."""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding
from textual.widgets.tree import TreeNode

from ..groups import sort_ids
from ..widgets.memory_list import MemoryList
from ..widgets.memory_tree import NodeData

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


class MainMarks:
    """A part of :class:`~tui.app.screens.main.MainScreen` (its tree, view and title); actions
    and plain methods only."""

    mark_range: MarkRange | None = None

    # -- one memory (space) -----------------------------------------------------------------
    def action_mark(self) -> None:
        """Mark or unmark the highlighted memory, then go to the next row (as ranger does:
        space space space marks three)."""
        memory_id = self._need_memory()
        if memory_id is None:
            return
        self.end_range()
        self.memory_tree.toggle_mark(memory_id)
        self.marks_changed()
        rows = self.memory_tree if self.memory_tree.display else self.query_one(MemoryList)
        rows.action_cursor_down()

    # -- ranges -----------------------------------------------------------------------------
    def action_mark_down(self) -> None:
        self._extend("cursor_down")

    def action_mark_up(self) -> None:
        self._extend("cursor_up")

    def _extend(self, move: str) -> None:
        tree = self.memory_tree
        if tree.cursor_node is None:
            return
        if not self._range_alive():
            self.mark_range = MarkRange(tree.cursor_node, list(tree.marks), visual=False)
        tree.focus()
        getattr(tree, f"action_{move}")()
        self.draw_range()

    def action_visual(self) -> None:
        """``V``: start a range at the cursor (the cursor's moves extend it), or end it."""
        tree = self.memory_tree
        if self.mark_range is not None and self.mark_range.visual and self._range_alive():
            self.end_range()
            self.marks_changed()
            return
        if tree.cursor_node is None:
            return
        self.mark_range = MarkRange(tree.cursor_node, list(tree.marks), visual=True)
        tree.focus()
        self.draw_range()

    def follow_range(self) -> None:
        """The cursor moved (the screen's highlight handler calls this): a visual range
        follows it; a shift range ends unless the move was its own."""
        r = self.mark_range
        if r is None:
            return
        if not self._range_alive() or (not r.visual and self.memory_tree.cursor_line != r.cursor):
            self.end_range()
            self.marks_changed()
        elif r.visual:
            self.draw_range()

    def draw_range(self) -> None:
        r = self.mark_range
        tree = self.memory_tree
        if r is None or not self._range_alive():
            return
        low, high = sorted((r.anchor.line, tree.cursor_line))
        covered = []
        for line in range(low, high + 1):
            node = tree.get_node_at_line(line)
            if node is not None and node.data is not None and node.data.kind == "memory":
                covered.append(node.data.memory_id)
        r.cursor = tree.cursor_line
        tree.set_marks([*r.base, *covered])
        self.marks_changed()

    def end_range(self) -> None:
        self.mark_range = None

    def _range_alive(self) -> bool:
        """Is the range's anchor still a row of the tree (a rebuild replaces every node)?"""
        r = self.mark_range
        if r is None:
            return False
        line = r.anchor.line
        return line >= 0 and self.memory_tree.get_node_at_line(line) is r.anchor

    # -- many at once -----------------------------------------------------------------------
    def action_mark_group(self) -> None:
        """``A``: mark every memory of the highlighted group (the cursor's group, on a memory);
        when all of them are marked already, unmark them."""
        node = self.memory_tree.cursor_node
        while node is not None and not (node.data is not None and node.data.kind == "group"):
            node = node.parent
        if node is None or node.data is None or node.data.group is None:
            self.notify("No group here: the lineage grouping has none "
                        f"({self.key_for('cycle_mode')} changes it)",
                        severity="warning", timeout=3)
            return
        self.end_range()
        view = self.view
        if view is None:
            return
        # in the order the tree shows them (a group's ids come in no particular order)
        ids = sort_ids(view, [i for i in node.data.group.ids if i in view.rows], self.sort,
                       self.memory_tree.rank)
        marks = list(self.memory_tree.marks)
        if ids and all(i in self.memory_tree.marks for i in ids):
            gone = set(ids)
            self.memory_tree.set_marks([i for i in marks if i not in gone])
        else:
            self.memory_tree.set_marks([*marks, *ids])
        self.marks_changed()

    def action_invert_marks(self) -> None:
        """``~``: every memory the filter shows changes its mark (hidden marks stay)."""
        self.end_range()
        marks = self.memory_tree.marks
        shown = self.shown_set()
        kept = [i for i in marks if i not in shown]
        self.memory_tree.set_marks([*kept, *(i for i in self.matched if i not in marks)])
        self.marks_changed()

    def action_clear_marks(self) -> None:
        self.end_range()
        self.memory_tree.clear_marks()
        self.marks_changed()

    _shown: tuple[list[str], set[str]] | None = None

    def shown_set(self) -> set[str]:
        """The memories the filter shows, as a set (made once per refilter: a mark at 100k
        memories must not copy the list each time)."""
        if self._shown is None or self._shown[0] is not self.matched:
            self._shown = (self.matched, set(self.matched))
        return self._shown[1]

    # -- saying it --------------------------------------------------------------------------
    def marks_changed(self) -> None:
        """Say the marks again: the tree's title and the header."""
        self._tree_title()

    def unmark(self, ids: list[str]) -> None:
        self.memory_tree.clear_marks(ids)
        self.marks_changed()

    def marks_note(self) -> str:
        """``3 marked``, ``3 marked (1 hidden by the filter)``, with `` · visual`` while ``V``
        draws a range; "" when nothing is marked and no range is drawn."""
        marks = self.memory_tree.marks
        parts = []
        if marks:
            shown = self.shown_set()
            hidden = sum(1 for i in marks if i not in shown)
            parts.append(f"{len(marks)} marked" + (f" ({hidden} hidden by the filter)"
                                                    if hidden else ""))
        if self.mark_range is not None and self.mark_range.visual:
            parts.append(f"visual ({self.key_for('visual')} ends)")
        return " · ".join(parts)

    def show_subtitle(self) -> None:
        """The header: the vault's path, "opening…" while the tree is a first look from the
        index, how many are marked, the review inbox's count."""
        parts = [getattr(self, "_title_path", "")]
        if self.view is not None and self.view.partial:
            parts.append("opening…")
        if self.memory_tree.marks:
            parts.append(f"{len(self.memory_tree.marks)} marked")
        n = getattr(self, "inbox_count", 0)
        if n:
            parts.append(f"inbox: {n} to review ({self.key_for('inbox')})")
        self.app.sub_title = " · ".join(parts)
