"""The main screen's moving keys (vim-like and arrows): j/k, ``g g`` and ``G`` for the first and
last row, h/l and left/right to collapse and expand (or go to the parent and the first child),
``*`` / ``-`` to expand and collapse every group, ``y`` to copy the highlighted memory's id (OSC 52,
through Textual's :meth:`~textual.app.App.copy_to_clipboard`) and esc to clear the filter."""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import Input

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


class MainKeys:
    """A part of :class:`~tui.app.screens.main.MainScreen` (its tree, filter and current memory);
    actions only."""

    _g_pending = False

    def action_tree(self, action: str) -> None:
        tree = self.tree
        tree.focus()
        getattr(tree, f"action_{action}")()

    def action_top(self) -> None:
        """``g`` then ``g``: the first row (one ``g`` waits for the second)."""
        if not self._g_pending:
            self._g_pending = True
            self.set_timer(1.0, self._forget_g)
            return
        self._g_pending = False
        self.tree.focus()
        self.tree.action_scroll_home()
        self.tree.cursor_line = 0

    def _forget_g(self) -> None:
        self._g_pending = False

    def action_bottom(self) -> None:
        tree = self.tree
        tree.focus()
        tree.cursor_line = tree.last_line
        tree.scroll_to_line(tree.last_line)

    def action_open_node(self) -> None:
        """l / right: open a closed group (or lineage node); on an open one, go to its first
        child; on a "… more" row, show the next memories."""
        tree = self.tree
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

    def action_close_node(self) -> None:
        """h / left: close an open group; elsewhere go to the parent."""
        tree = self.tree
        node = tree.cursor_node
        if node is None:
            return
        tree.focus()
        if node.allow_expand and node.is_expanded:
            node.collapse()
        elif node.parent is not None and not node.parent.is_root:
            tree.move_cursor(node.parent)

    def action_expand_all(self) -> None:
        self.tree.expand_all()

    def action_collapse_all(self) -> None:
        self.tree.collapse_all()

    def action_copy_id(self) -> None:
        memory_id = self.current
        if memory_id is None:
            self.notify("Highlight a memory first", severity="warning", timeout=2)
            return
        self.app.copy_to_clipboard(memory_id)
        self.notify(f"copied {memory_id} (the terminal's clipboard, OSC 52)", title="id",
                    timeout=3, markup=False)

    def action_clear_filter(self) -> None:
        """esc: clear the filter (ctrl+z in the box brings it back) and go to the tree."""
        box = self.query_one("#filter", Input)
        if box.value:
            box.value = ""  # the box's Changed event refilters
        self.tree.focus()
