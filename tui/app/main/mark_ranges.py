"""Marking a range of the main screen's tree: from where the cursor was to where shift+down /
shift+up take it, or a visual range (``V``) that follows the cursor until ``V`` again, as in
vim. The marks themselves are the tree's (:attr:`.tree.MainTree.marks`)."""

from __future__ import annotations

from dataclasses import dataclass

from textual.widgets.tree import TreeNode

from ..widgets.tree_nodes import NodeData
from .tree import MainTree
from .vault_screen import VaultScreen


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
    """Marking a range of the rows of ``screen``'s tree: from where the cursor was to where a
    shift move takes it, or following the cursor until ``V`` again. Owns the range being
    marked; each method says whether the marks (or the range) changed."""

    def __init__(self, screen: VaultScreen) -> None:
        self.screen = screen
        self.range: MarkRange | None = None

    def tree(self) -> MainTree:
        return self.screen.query_one(MainTree)

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
