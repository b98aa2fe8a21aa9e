"""The main screen's moving keys (vim-like and arrows): j/k, ``g g`` and ``G`` for the first and
last row, h/l and left/right to collapse and expand (or go to the parent and the first child),
``*`` / ``-`` to expand and collapse every group, ``y`` to copy the highlighted memory's id (OSC 52,
through Textual's :meth:`~textual.app.App.copy_to_clipboard`) and esc to clear the filter. The
screen's actions of these keys hand the tree's part to :class:`TreeMoves`."""

from __future__ import annotations

from collections.abc import Callable

from textual.binding import Binding

from ..widgets.memory_tree import MemoryTree

#: The keys of this part, in the order help lists them (their actions are below).
MOVING_BINDINGS = [
    Binding("j", "tree('cursor_down')", "Down", show=False, id="memvault.down"),
    Binding("k", "tree('cursor_up')", "Up", show=False, id="memvault.up"),
    Binding("g", "top", "Top (g g)", show=False, id="memvault.top"),
    Binding("G", "bottom", "Bottom", show=False, id="memvault.bottom"),
    Binding("l", "open_node", "Expand / into", show=False, id="memvault.expand"),
    Binding("h", "close_node", "Collapse / out", show=False, id="memvault.collapse"),
    Binding("asterisk", "expand_all", "Expand all", show=False, id="memvault.expand_all"),
    Binding("minus", "collapse_all", "Collapse all", show=False, id="memvault.collapse_all"),
    Binding("y", "copy_id", "Copy id", show=False, id="memvault.copy_id"),
    Binding("escape", "clear_filter", "Clear filter", show=False, id="memvault.clear_filter"),
]


class TreeMoves:
    """The moving keys' work on the tree (``tree``: how to find it now). Owns the one state
    they have: a first ``g`` waiting for the second."""

    def __init__(self, tree: Callable[[], MemoryTree],
                 set_timer: Callable[[float, Callable[[], None]], object]) -> None:
        self.memory_tree = tree
        self.set_timer = set_timer
        self.g_pending = False

    def move(self, action: str) -> None:
        tree = self.memory_tree()
        tree.focus()
        getattr(tree, f"action_{action}")()

    def top(self) -> None:
        """``g`` then ``g``: the first row (one ``g`` waits for the second)."""
        if not self.g_pending:
            self.g_pending = True
            self.set_timer(1.0, self.forget_g)
            return
        self.g_pending = False
        tree = self.memory_tree()
        tree.focus()
        tree.action_scroll_home()
        tree.cursor_line = 0

    def forget_g(self) -> None:
        self.g_pending = False

    def bottom(self) -> None:
        tree = self.memory_tree()
        tree.focus()
        tree.cursor_line = tree.last_line
        tree.scroll_to_line(tree.last_line)

    def open_node(self) -> None:
        """l / right: open a closed group (or lineage node); on an open one, go to its first
        child; on a "… more" row, show the next memories."""
        tree = self.memory_tree()
        node = tree.cursor_node
        if node is None:
            return
        tree.focus()
        if node.data is not None and node.data.kind == "more":
            tree.select_node(node)
        elif node.allow_expand and not node.is_expanded:
            tree.expand_node(node)
        elif node.allow_expand and node.children:
            tree.move_cursor(node.children[0])

    def close_node(self) -> None:
        """h / left: close an open group; elsewhere go to the parent."""
        tree = self.memory_tree()
        node = tree.cursor_node
        if node is None:
            return
        tree.focus()
        if node.allow_expand and node.is_expanded:
            node.collapse()
        elif node.parent is not None and not node.parent.is_root:
            tree.move_cursor(node.parent)
