"""The main screen's tree: :class:`~tui.app.widgets.memory_tree.MemoryTree`'s drawing, with what
the person chose of it as reactive attributes (the grouping ``mode``, the ``sort``, the
``filter`` the filter box parsed, the ``marks``; the cursor is Tree's ``cursor_line``) and the
keys that change them or move the cursor.

The tree never calls the screen: the screen watches these attributes (Textual's
:meth:`~textual.dom.DOMNode.watch`) and rebuilds the tree, says the titles again, saves the
settings (:mod:`.filtering`). Its keys ask the screen's ``check_action`` whether they work now
(a glance of the vault only moves and folds: :mod:`.opening`).

The moving keys: j/k, ``g g`` and ``G`` for the first and last row, h/l (and left/right) to
collapse and expand (or go to the parent and the first child), ``*`` / ``-`` to
expand and collapse every group; ``m`` and ``s`` the next grouping and sort."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.reactive import reactive

from ..grouping import MODES, SORTS
from ..query import Query, parse
from ..widgets.memory_tree import MemoryTree

#: The keys of the tree, in the order help lists them (their actions are below).
TREE_BINDINGS: list[BindingType] = [
    Binding("j", "cursor_down", "Down", show=False, id="memvault.down"),
    Binding("k", "cursor_up", "Up", show=False, id="memvault.up"),
    Binding("g", "top", "Top (g g)", show=False, id="memvault.top"),
    Binding("G", "bottom", "Bottom", show=False, id="memvault.bottom"),
    Binding("l", "open_node", "Expand / into", show=False, id="memvault.expand"),
    Binding("h", "close_node", "Collapse / out", show=False, id="memvault.collapse"),
    # (left and right as h and l: a scrolling view's own would scroll sideways)
    Binding("right", "open_node", "Expand / into", show=False, id="memvault.expand.arrow"),
    Binding("left", "close_node", "Collapse / out", show=False, id="memvault.collapse.arrow"),
    Binding("asterisk", "expand_all", "Expand all", show=False, id="memvault.expand_all"),
    Binding("minus", "collapse_all", "Collapse all", show=False, id="memvault.collapse_all"),
    Binding("m", "cycle_mode", "Group", show=False, id="memvault.group"),
    Binding("s", "cycle_sort", "Sort", show=False, id="memvault.sort"),
]
#: The actions of those keys: the screen's ``check_action`` says whether they work now.
TREE_ACTIONS = frozenset(b.action for b in TREE_BINDINGS if isinstance(b, Binding))


class MainTree(MemoryTree):
    """The tree of the main screen: the grouping, sort, filter and marks the person chose, and
    the keys that change them. Owns a first ``g`` waiting for the second."""

    BINDINGS: ClassVar[list[BindingType]] = TREE_BINDINGS
    #: the grouping (:data:`~tui.app.grouping.MODES`) and the sort the person chose (what the
    #: tree draws now is MemoryTree's ``shown_mode`` / ``shown_sort``: a big vault's rebuild
    #: comes from a worker, after)
    mode: reactive[str] = reactive(MODES[0], init=False)
    sort: reactive[str] = reactive(SORTS[0], init=False)
    #: what the filter box parsed (its ``text`` is the box's text)
    filter: reactive[Query] = reactive(lambda: parse(""), init=False, always_update=True)
    #: the marked memory ids, in the order they were marked (MemoryTree keeps them; a change
    #: in place is told with ``mutate_reactive``)
    marks: reactive[dict[str, None]] = reactive(dict, init=False, always_update=True)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.g_pending = False
        self.matched_as_set: tuple[list[str], set[str]] | None = None

    @property
    def matched(self) -> list[str]:
        """The ids the filter kept, as the tree shows them (the view's order)."""
        return self.ids

    def matched_set(self) -> set[str]:
        """The memories the filter shows, as a set (made once per rebuild: a mark at 100k
        memories must not copy the list each time)."""
        matched = self.ids
        if self.matched_as_set is None or self.matched_as_set[0] is not matched:
            self.matched_as_set = (matched, set(matched))
        return self.matched_as_set[1]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in TREE_ACTIONS and self.is_attached:
            return self.screen.check_action(action, parameters)
        return True

    # -- marks: told when they change in place --------------------------------------------------
    def toggle_mark(self, memory_id: str) -> bool:
        marked = super().toggle_mark(memory_id)
        self.mutate_reactive(MainTree.marks)
        return marked

    def clear_marks(self, ids: list[str] | None = None) -> None:
        had = len(self.marks)
        super().clear_marks(ids)
        if len(self.marks) != had:
            self.mutate_reactive(MainTree.marks)

    # -- the grouping and the sort ------------------------------------------------------------
    def action_cycle_mode(self) -> None:
        self.mode = MODES[(MODES.index(self.mode) + 1) % len(MODES)]

    def action_cycle_sort(self) -> None:
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]

    # -- moving -------------------------------------------------------------------------------
    def action_top(self) -> None:
        """``g`` then ``g``: the first row (one ``g`` waits a second for the second)."""
        if not self.g_pending:
            self.g_pending = True
            self.set_timer(1.0, self.forget_g)
            return
        self.g_pending = False
        self.action_scroll_home()
        self.cursor_line = 0

    def forget_g(self) -> None:
        self.g_pending = False

    def action_bottom(self) -> None:
        self.cursor_line = self.last_line
        self.scroll_to_line(self.last_line)

    def action_open_node(self) -> None:
        """l / right: open a closed group (or lineage node); on an open one, go to its first
        child; on a "… more" row, show the next memories."""
        node = self.cursor_node
        if node is None:
            return
        self.focus()
        if node.data is not None and node.data.kind == "more":
            self.select_node(node)
        elif node.allow_expand and not node.is_expanded:
            self.expand_node(node)
        elif node.allow_expand and node.children:
            self.move_cursor(node.children[0])

    def action_close_node(self) -> None:
        """h / left: close an open group; elsewhere go to the parent."""
        node = self.cursor_node
        if node is None:
            return
        self.focus()
        if node.allow_expand and node.is_expanded:
            self.collapse_node(node)
        elif node.parent is not None and not node.parent.is_root:
            self.move_cursor(node.parent)

    def action_expand_all(self) -> None:
        self.expand_all()

    def action_collapse_all(self) -> None:
        self.collapse_all()
