"""The tree of memories: groups (by the current mode) with counts, leaves with score, bar, short
id and first words. Children are added only when a group is expanded, and at most
:attr:`MemoryTree.CHUNK` leaves at a time (a "… more" node adds the next ones), so a 10k-memory
vault costs only what is on screen.

A rebuild (new filter, mode, sort, or a changed vault) keeps which groups were expanded and
where the cursor was, by their stable keys.
"""

from __future__ import annotations

from typing import cast

from rich.text import Text
from textual import on
from textual.binding import Binding
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from core.search.query import Term

from ..grouping import groups_for
from ..groups import Group, LineageRoot
from ..view import VaultView
from .tree_finding import expanded_keys, find_key, may_hold, near_keys
from .tree_nodes import (EXPAND_ARROW, LOADING, NodeData, depth_below, every_node,
                         group_label, label_room, memory_label, row_layout,
                         words_at)

class MemoryTree(Tree[NodeData]):
    #: space marks the highlighted memory (the screen's action; Tree's own space toggles a node,
    #: which enter and h/l do here); the main screen's tree adds its keys (tui/app/main/tree.py)
    BINDINGS = [
        Binding("space", "screen.mark", "Mark", show=False, id="memvault.mark"),
        # marking a range (over Tree's own shift+up/down, which go to the parent and sibling)
        Binding("shift+down", "screen.mark_down", "Mark down (extend)", show=False,
                id="memvault.mark_down"),
        Binding("shift+up", "screen.mark_up", "Mark up (extend)", show=False,
                id="memvault.mark_up"),
    ]
    _rebuilding = True  # (until __init__ is done: Tree's own __init__ sets the cursor)
    CHUNK = 120  # leaves added at a time (a screen shows ~35; "… more" adds the next ones)
    OPEN_ALL = 40  # a filter leaving at most this many memories opens every group

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("memories", id=id)
        self.show_root = False
        self.rows_drawn = row_layout(80)  # how rows are drawn at the width (words_at)
        self.guide_depth = self.rows_drawn.guide_depth
        self.auto_expand = True
        #: the key of the row the cursor goes to at the next rebuild (over ``focus``)
        self.stay_key: str | None = None
        self.view: VaultView | None = None
        self.shown_mode = "status_tag"  # the grouping and the sort drawn now (show sets them)
        self.shown_sort = "score"
        self.ids: list[str] = []
        self._children_of: dict[str, list[tuple[str, str]]] = {}
        self._parents_of: dict[str, list[tuple[str, str]]] = {}
        self._built = False
        self._top: list[Group | LineageRoot] | None = None  # the top level last shown
        self.words = 56
        self.marks: dict[str, None] = {}  # marked memory ids, in the order they were marked
        #: The filter's words: styled where they match in the rows' labels
        self.terms: list[Term] = []
        #: A search's scores when the filter has words: rows ranked by them inside each group
        self.rank: dict[str, float] = {}
        #: the open groups and the cursor's row (keys, memory) as the person left them, while a
        #: rebuild shows them otherwise (a narrow filter opened every group, or hid the cursor's
        #: memory): the next rebuild that can show them does; a move or a fold forgets them.
        self._kept: tuple[set[str], str | None, str | None] | None = None
        self.painted: VaultView | None = None  # the view the tree last drew
        self._rebuilding = False

    def process_label(self, label: str | Text) -> Text:  # type: ignore[override]
        """Labels are ``Text`` of one line already (never markup: a gist may hold ``[x]``)."""
        if isinstance(label, Text) and "\n" not in label.plain:
            return label
        return super().process_label(Text(label) if isinstance(label, str) else label)

    def render_lines(self, crop: Region) -> list[Strip]:
        """Drawn: :attr:`painted` is the view shown (the index's first build waits for it)."""
        self.painted = self.view
        return super().render_lines(crop)

    # -- widths: a label's length is enough (the default renders every label to measure it) --
    def get_label_width(self, node: TreeNode[NodeData]) -> int:
        label = cast(Text, node.label)  # (process_label made every label a Text)
        return label.cell_len + (2 if node.allow_expand else 0)

    def on_resize(self) -> None:
        """Labels are cut to the width: redo them when it changes."""
        width = label_room(self)
        if self.view is not None and width and words_at(width)[1] != self.words:
            self.show(self.view, self.ids, self.shown_mode, self.shown_sort, groups=self._top)

    # -- building ---------------------------------------------------------------------------
    def opening(self, mode: str) -> set[str] | None:
        """The keys of the groups :meth:`show` will open for ``mode``: the open ones when the
        shape stays, None when it changes (then the first group opens)."""
        return expanded_keys(self.root) if mode == self.shown_mode and self._built else None

    def show(self, view: VaultView, ids: list[str], mode: str, sort: str,
             focus: str | None = None, groups: list[Group | LineageRoot] | None = None) -> None:
        """Rebuild for the memories ``ids``; keep expanded groups and the cursor. ``groups``:
        the top level, already made (:func:`tui.app.grouping.prepare`, in a worker)."""
        self._rebuilding = True
        try:
            self._show(view, ids, mode, sort, focus, groups)
        finally:
            self._rebuilding = False

    def _show(self, view: VaultView, ids: list[str], mode: str, sort: str,
              focus: str | None, groups: list[Group | LineageRoot] | None) -> None:
        cursor = self.cursor_node
        same_shape = mode == self.shown_mode and self._built
        if self._kept is not None and same_shape and focus is None and self.stay_key is None:
            expanded, cursor_key, cursor_memory = self._kept  # the person's, not the filter's
        else:
            expanded = expanded_keys(self.root)
            cursor_key = cursor.data.key if cursor is not None and cursor.data else None
            cursor_memory = cursor.data.memory_id if cursor is not None and cursor.data else None
        kept = (expanded, cursor_key, cursor_memory)
        cursor_line, near = self.cursor_line, near_keys(cursor)
        scroll_y = self.scroll_y
        narrow = False
        self.view, self.shown_mode, self.shown_sort, self.ids = view, mode, sort, ids
        self.rows_drawn, self.words = words_at(label_room(self) or 80)  # (less score, id)
        self.guide_depth = self.rows_drawn.guide_depth
        self._parents_of, self._children_of = view.provenance() if mode == "lineage" else ({}, {})
        self.clear()
        self._top = groups_for(view, ids, mode) if groups is None else groups
        for item in self._top:
            self._add_top(item)
        if len(ids) < len(view.rows) and len(ids) <= self.OPEN_ALL:
            self._reexpand(self.root, None)  # a narrow filter: show every match at once
            narrow = True
        elif same_shape:
            self._reexpand(self.root, expanded)
        else:
            first = self.root.children[0] if self.root.children else None
            if first is not None and first.data and first.data.kind == "group":
                self.expand_node(first)
        self._built = True
        target = find_key(self.root, self.stay_key) if self.stay_key is not None else None
        if target is not None:  # the row that took an archived or deleted one's place
            focus = None
        self.stay_key = None
        if target is None and focus is not None:
            target = self.find_memory(focus, open_groups=True)
        found = target is not None
        if target is None and cursor_key is not None:
            target = find_key(self.root, cursor_key)
        if target is None and cursor_memory is not None:
            target = self.find_memory(cursor_memory, open_groups=False)
        # shown otherwise than the person left it: kept for the rebuild that can show it
        self._kept = kept if same_shape and not found and (narrow or target is None) else None
        if target is None:  # its row hidden: the nearest row of its group (not the same line)
            target = next((n for k in near if (n := find_key(self.root, k)) is not None), None)
        self._rebuild_lines()
        if target is not None:
            self.move_cursor(target)
            if focus is None:
                self.scroll_to(y=scroll_y, animate=False)
                self.scroll_to_node(target, animate=False)
        elif self.root.children:
            line = min(max(cursor_line, 0), self.last_line)
            self.cursor_line = line
            self.scroll_to(y=scroll_y, animate=False)
        # cursor_node is the node drawn at the cursor's line, never an old one (the line is
        # always_update: set again, Tree takes its node anew)
        self.cursor_line = self.cursor_line

    def _rebuild_lines(self) -> None:
        """Lay out the lines now, so a cursor can be placed on a node just added (adding or
        opening a node drops Tree's lines; reading ``last_line`` lays them out again)."""
        self.last_line  # noqa: B018 (read for its effect: Tree lays its lines out on first read)

    def _add_top(self, item: Group | LineageRoot) -> None:
        if isinstance(item, Group):
            self._add_group(self.root, item)
        else:
            self._add_memory(self.root, item.memory_id, item.key, lineage=True,
                             extra=item.descendants, merged=item.merged)

    def _add_group(self, parent: TreeNode[NodeData], group: Group) -> TreeNode[NodeData]:
        return parent.add(group_label(group), NodeData("group", group.key, group=group),
                          allow_expand=True)

    def _add_memory(self, parent: TreeNode[NodeData], memory_id: str, key: str,
                    lineage: bool = False, edge: str | None = None,
                    extra: int = 0, merged: bool = False) -> TreeNode[NodeData]:
        assert self.view is not None
        row = self.view.get(memory_id)
        data = NodeData("memory" if row else "gone", key, memory_id=memory_id, lineage=lineage,
                        merged=merged, edge=edge, extra=extra)
        has_children = lineage and (merged or bool(self._children_of.get(memory_id)))
        label = self._memory_label(data, has_children, depth_below(self.root, parent))
        if has_children:
            return parent.add(label, data, allow_expand=True)
        return parent.add_leaf(label, data)

    def _memory_label(self, data: NodeData, has_children: bool, depth: int) -> Text:
        """The label of a memory at ``depth``, its words cut to what the line has left beside
        the guides of that depth and the expand arrow, so the tree never cuts it mid-word."""
        assert self.view is not None and data.memory_id is not None
        room = self.words - self.guide_depth * depth - (EXPAND_ARROW if has_children else 0)
        return memory_label(self.view.get(data.memory_id), data, has_children,
                            marked=data.memory_id in self.marks, words=room,
                            terms=self.terms, status=self.shown_mode != "status_tag",
                            bar=self.rows_drawn.bar)

    # -- marks (what the consolidate wizard offers as its members) ----------------------------
    def toggle_mark(self, memory_id: str) -> bool:
        """Mark or unmark a memory; True when it is marked now."""
        if memory_id in self.marks:
            del self.marks[memory_id]
        else:
            self.marks[memory_id] = None
        self._relabel({memory_id})
        return memory_id in self.marks

    def clear_marks(self, ids: list[str] | None = None) -> None:
        """Unmark ``ids`` (default: every marked memory)."""
        gone = set(self.marks) if ids is None else set(ids) & set(self.marks)
        for memory_id in gone:
            del self.marks[memory_id]
        self._relabel(gone)

    def set_marks(self, ids: list[str]) -> None:
        """Make ``ids`` the marked memories (in this order), relabelling only the rows whose
        mark changed (a range, a group, an invert: see tui/app/main/marks.py)."""
        new = dict.fromkeys(ids)
        changed = set(new).symmetric_difference(self.marks)
        self.marks = new
        self._relabel(changed)

    def prune_marks(self) -> None:
        """Forget marks of memories that left the vault."""
        if self.view is not None:
            self.clear_marks([i for i in self.marks if i not in self.view.rows])

    def _relabel(self, ids: set[str]) -> None:
        if not ids or self.view is None:
            return
        for node in every_node(self.root):
            data = node.data
            if data is not None and data.memory_id in ids and data.kind in ("memory", "gone"):
                depth = depth_below(self.root, node.parent) if node.parent is not None else 0
                node.set_label(self._memory_label(data, node.allow_expand, depth))

    def populate(self, node: TreeNode[NodeData]) -> None:
        """Add a group's (or a lineage node's) children, if not done yet."""
        data = node.data
        if data is None or data.populated or self.view is None:
            return
        data.populated = True
        if data.kind == "group" and data.group is not None:
            group = data.group
            children = group.children()
            if children is not None:
                for sub in children:
                    self._add_group(node, sub)
                return
            if self.view.glance is not None:  # counts only: the memories come with the preview
                node.add_leaf(LOADING.copy(), NodeData("loading", f"{data.key}/…loading"))
                return
            self._add_chunk(node, group.ordered(self.view, self.shown_sort, self.rank), data.key)
        elif data.lineage and data.memory_id is not None:
            if data.merged:
                for source, _kind in self._parents_of.get(data.memory_id, ()):
                    self._add_memory(node, source, f"{data.key}/<{source}", edge="from")
            for child, kind in self._children_of.get(data.memory_id, ()):
                self._add_memory(node, child, f"{data.key}/{child}", lineage=True, edge=kind)

    def _add_chunk(self, node: TreeNode[NodeData], ids: list[str], key: str) -> None:
        for memory_id in ids[: self.CHUNK]:
            self._add_memory(node, memory_id, f"{key}/{memory_id}")
        rest = ids[self.CHUNK:]
        if rest:
            label = Text(f"… {len(rest)} more", style="dim italic")
            label.append("  (enter shows them)", style="dim")
            node.add_leaf(label, NodeData("more", f"{key}/…{len(ids)}", remaining=rest))

    def show_more(self, node: TreeNode[NodeData]) -> TreeNode[NodeData] | None:
        """Replace a "… more" node by the next chunk; returns the first node added."""
        data = node.data
        parent = node.parent
        if data is None or data.kind != "more" or parent is None:
            return None
        index = parent.children.index(node)
        node.remove()
        before = len(parent.children)
        key = parent.data.key if parent.data else ""
        self._add_chunk(parent, data.remaining, key)
        self._rebuild_lines()
        return parent.children[index] if len(parent.children) > before else None

    def expand_node(self, node: TreeNode[NodeData]) -> None:
        if not self._rebuilding:
            self._kept = None  # the person's own fold
        self.populate(node)
        node.expand()

    def collapse_node(self, node: TreeNode[NodeData]) -> None:
        self._kept = None
        node.collapse()

    def action_select_cursor(self) -> None:
        self._kept = None  # enter on a group: the person's own fold
        super().action_select_cursor()

    def action_toggle_node(self) -> None:
        self._kept = None
        super().action_toggle_node()

    def watch_cursor_line(self, previous_line: int, line: int) -> None:
        super().watch_cursor_line(previous_line, line)
        if not self._rebuilding and previous_line != line:
            self._kept = None  # the person moved the cursor

    @on(Tree.NodeExpanded)
    def _on_expanded(self, event: Tree.NodeExpanded[NodeData]) -> None:
        self.populate(event.node)

    @on(Tree.NodeSelected)
    def _on_selected(self, event: Tree.NodeSelected[NodeData]) -> None:
        data = event.node.data
        if data is not None and data.kind == "more":
            event.stop()
            first = self.show_more(event.node)
            if first is not None:
                self.move_cursor(first)

    # -- state ------------------------------------------------------------------------------
    def expand_all(self) -> None:
        """Open every group (``*``)."""
        self._kept = None
        self._reexpand(self.root, None)
        self._rebuild_lines()

    def collapse_all(self) -> None:
        """Close every group (``-``); the cursor goes to the top-level row it was under."""
        self._kept = None
        node = self.cursor_node
        while node is not None and node.parent is not None and not node.parent.is_root:
            node = node.parent
        for child in self.root.children:
            child.collapse_all()
        self._rebuild_lines()
        if node is not None:
            self.move_cursor(node)

    def _reexpand(self, parent: TreeNode[NodeData], keys: set[str] | None) -> None:
        """Open the nodes under ``parent`` whose keys are in ``keys`` (None: every group)."""
        for node in list(parent.children):
            data = node.data
            if data is not None and (data.key in keys if keys is not None
                                     else data.kind == "group"):
                self.expand_node(node)
                self._reexpand(node, keys)

    def find_memory(self, memory_id: str, open_groups: bool = True) -> TreeNode[NodeData] | None:
        """The first node showing ``memory_id``; with ``open_groups``, expand groups (and add
        chunks) to reach it."""
        stack = list(self.root.children)[::-1]
        while stack:
            node = stack.pop()
            data = node.data
            if data is None:
                continue
            if data.memory_id == memory_id:
                self._open_ancestors(node)
                return node
            if data.kind == "more" and memory_id in data.remaining and open_groups:
                first = self.show_more(node)
                if first is not None:
                    return self.find_memory(memory_id, open_groups)
            if node.is_expanded or (open_groups and may_hold(node, memory_id, self._parents_of,
                                                           self._children_of)):
                if not node.is_expanded:
                    self.expand_node(node)
                stack.extend(list(node.children)[::-1])
        return None

    def _open_ancestors(self, node: TreeNode[NodeData]) -> None:
        parent = node.parent
        while parent is not None and not parent.is_root:
            if not parent.is_expanded:
                self.expand_node(parent)
            parent = parent.parent
        self._rebuild_lines()

    @property
    def cursor_memory(self) -> str | None:
        node = self.cursor_node
        if node is None or node.data is None:
            return None
        return node.data.memory_id
