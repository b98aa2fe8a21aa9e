"""The main screen's keys: :data:`MAIN_BINDINGS` (every key of the screen, in the order help
lists them) and :class:`TreeMoves`, which does the work of the moving keys.

The moving keys: j/k, ``g g`` and ``G`` for the first and last row, h/l and left/right to
collapse and expand (or go to the parent and the first child), ``*`` / ``-`` to expand and
collapse every group, ``y`` to copy the highlighted memory's id (OSC 52, through Textual's
:meth:`~textual.app.App.copy_to_clipboard`), ``/`` to go to the filter and esc to clear it."""

from __future__ import annotations

from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Input

from ..widgets.memory_tree import MemoryTree
from .bulk import BULK_BINDINGS
from .edit import EDIT_BINDINGS
from .marks import MARK_BINDINGS
from .state import MainState

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


#: Every key of the main screen, in the order help lists them.
MAIN_BINDINGS = [
    Binding("slash", "focus_filter", "Filter", id="memvault.filter"),
    Binding("a", "archive", "Archive", id="memvault.archive"),
    Binding("x,delete", "delete", "Delete", id="memvault.delete"),
    Binding("ctrl+z", "undo", "Undo", id="memvault.undo"),
    Binding("ctrl+y", "redo", "Redo", show=False, id="memvault.redo"),
    Binding("v", "split", "Split", id="memvault.split"),
    Binding("M", "consolidate", "Merge", id="memvault.consolidate"),
    # (the tree binds space to the same action, over Tree's own space)
    Binding("space", "mark", "Mark", show=False, id="memvault.mark"),
    Binding("m", "cycle_mode", "Group", show=False, id="memvault.group"),
    Binding("s", "cycle_sort", "Sort", show=False, id="memvault.sort"),
    Binding("c", "toggle_body", "Gist/content", show=False, id="memvault.toggle_body"),
    Binding("i", "goto", "Go to id", show=False, id="memvault.goto"),
    Binding("d", "tab('detail')", "Detail", show=False, id="memvault.tab.detail"),
    Binding("p", "pane('provenance')", "Provenance", show=False, id="memvault.tab.provenance"),
    Binding("H", "pane('history')", "History", show=False, id="memvault.tab.history"),
    Binding("C", "gc", "gc", show=False, id="memvault.gc"),
    Binding("S", "stats", "Stats", show=False, id="memvault.stats"),
    Binding("I", "inbox", "Inbox", show=False, id="memvault.inbox"),
    Binding("ctrl+r", "reload", "Reload", show=False, id="memvault.reload"),
    Binding("E", "outside_edits", "Outside edits", show=False, id="memvault.outside_edits"),
    *MOVING_BINDINGS,
    *EDIT_BINDINGS,
    # views (views.py): the flat list, the left pane's width
    Binding("f", "toggle_view", "List/tree", show=False, id="memvault.toggle_view"),
    Binding("less_than_sign", "resize_left(-4)", "Narrower", show=False,
            id="memvault.left.narrower"),
    Binding("greater_than_sign", "resize_left(4)", "Wider", show=False,
            id="memvault.left.wider"),
    *BULK_BINDINGS,
    *MARK_BINDINGS,
]


class TreeMoves:
    """The moving keys' work on ``screen``'s tree and filter box (``state``: the memory whose
    id ``y`` copies). Owns the one state they have: a first ``g`` waiting for the second."""

    def __init__(self, screen: Screen[object], state: MainState) -> None:
        self.screen = screen
        self.state = state
        self.g_pending = False

    def memory_tree(self) -> MemoryTree:
        return self.screen.query_one(MemoryTree)

    def move(self, action: str) -> None:
        tree = self.memory_tree()
        tree.focus()
        getattr(tree, f"action_{action}")()

    def top(self) -> None:
        """``g`` then ``g``: the first row (one ``g`` waits for the second)."""
        if not self.g_pending:
            self.g_pending = True
            self.screen.set_timer(1.0, self.forget_g)
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
            tree.collapse_node(node)
        elif node.parent is not None and not node.parent.is_root:
            tree.move_cursor(node.parent)

    def copy_id(self) -> None:
        """``y``: the highlighted memory's id to the terminal's clipboard."""
        memory_id = self.state.current
        if memory_id is None:
            self.screen.notify("Highlight a memory first", severity="warning", timeout=2)
            return
        self.screen.app.copy_to_clipboard(memory_id)
        self.screen.notify(f"copied {memory_id} (the terminal's clipboard, OSC 52)", title="id",
                           timeout=3, markup=False)

    def clear_filter(self) -> None:
        """esc: clear the filter (ctrl+z in the box brings it back) and go to the tree."""
        box = self.screen.query_one("#filter", Input)
        if box.value:
            box.value = ""  # the box's Changed event refilters
        self.memory_tree().focus()

    def focus_filter(self) -> None:
        self.screen.query_one("#filter", Input).focus()
