"""What a node of the memory tree holds (:class:`NodeData`) and how it is labelled: a group with
its count, a memory (score, bar, short id, first words; a mark before a marked one, the edge
before a lineage child), a memory deleted since, a group still loading."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.text import Text
from textual.scroll_view import ScrollView
from textual.widgets.tree import TreeNode

from core.search.query import Term

from ..groups import Group
from ..view import Row, gone_label, leaf_label

#: What a group of memories opened on a glance shows until the memories are read
LOADING = Text("loading…", style="dim italic")
MARK = Text("● ", style="bold magenta")  # before a marked memory (for the consolidate wizard)
EDGE_PREFIX = {"split": Text("split ", style="italic cyan"),
               "merge": Text("merge ", style="italic magenta"),
               "from": Text("from ", style="italic magenta")}


@dataclass
class NodeData:
    kind: str  # "group", "memory", "gone", "more" or "loading" (a glance's group: never acted on)
    key: str
    memory_id: str | None = None
    group: Group | None = None
    remaining: list[str] = field(default_factory=list)  # for "more": ids still to add
    populated: bool = False
    lineage: bool = False  # a memory node whose children are its provenance descendants
    merged: bool = False  # ... and, first, the sources it was merged from
    edge: str | None = None  # "split", "merge" or "from": how a lineage child is drawn
    extra: int = 0  # a lineage root's descendant count


#: A memory row's cells before its words: score (4), bar (5), short id (8), a space after each
LEAF_FIELDS = 20
#: ... on a narrow line, without the bar (the score's colour still says its band)
NARROW_FIELDS = 14
#: A line narrower than this (the tree's width, in cells) draws its rows narrow: no bar, and the
#: guides indent a level by 2 cells instead of 3 (at 80x24 a row two levels down kept 11 cells
#: for its words: "Never…"; narrow, it keeps 23)
NARROW_BELOW = 56


@dataclass(frozen=True)
class RowLayout:
    """How a tree of a given width draws its memory rows: the cells before the words, whether
    the score's bar is drawn, the cells a level of the tree is indented by."""

    fields: int
    bar: bool
    guide_depth: int


def row_layout(width: int) -> RowLayout:
    """The rows' layout for a tree whose lines have ``width`` cells."""
    if width < NARROW_BELOW:
        return RowLayout(NARROW_FIELDS, bar=False, guide_depth=2)
    return RowLayout(LEAF_FIELDS, bar=True, guide_depth=3)
#: The cells of a node's expand arrow ("▶ "), drawn before the label of a node with children
EXPAND_ARROW = 2


def words_at(width: int) -> tuple[RowLayout, int]:
    """The rows' layout on lines of ``width`` cells, and the cells a top-level row's words have."""
    layout = row_layout(width)
    return layout, max(0, width - layout.fields)


def depth_below(root: TreeNode[NodeData], parent: TreeNode[NodeData]) -> int:
    """The depth of a child of ``parent`` in the tree of ``root`` (0: a child of the root)."""
    depth = 0
    node: TreeNode[NodeData] | None = parent
    while node is not None and node is not root:
        depth += 1
        node = node.parent
    return depth


def every_node(root: TreeNode[NodeData]) -> list[TreeNode[NodeData]]:
    """Every node below ``root`` that the tree holds now (a group opened once has children;
    one never opened has none yet)."""
    found: list[TreeNode[NodeData]] = []
    stack = list(root.children)
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(node.children)
    return found


def label_room(tree: ScrollView) -> int:
    """The cells a line of ``tree`` has for a label, as if its vertical scrollbar were shown:
    opening a group that brings the scrollbar in must not leave the labels one cell too long."""
    width = tree.scrollable_content_region.width
    if not tree.show_vertical_scrollbar:
        width -= tree.styles.scrollbar_size_vertical
    return max(0, width)


def group_label(group: Group) -> Text:
    """``tag: python  12  note``: the group's title in its style, its count, its note."""
    label = Text(no_wrap=True)
    label.append(group.title, style=group.style)
    label.append(f"  {group.count}", style="dim")
    if group.note:
        label.append(f"  {group.note}", style="dim italic")
    return label


def memory_label(row: Row | None, data: NodeData, has_children: bool, *, marked: bool,
                 words: int, terms: Sequence[Term], status: bool = True,
                 bar: bool = True) -> Text:
    """The label of the memory ``data`` names (``row``: None once it left the vault): its
    lineage edge and its mark before it, its descendant count after it when it has children;
    its status after its words unless ``status`` is False (its group names it); the score's
    bar unless ``bar`` is False (a narrow tree: :func:`row_layout`)."""
    assert data.memory_id is not None
    prefix = EDGE_PREFIX.get(data.edge or "")
    if row is not None and marked:
        prefix = MARK + prefix if prefix is not None else MARK.copy()
    extra = f"  +{data.extra}" if has_children and data.extra else ""
    label = (leaf_label(row, words=words - len(extra), prefix=prefix, terms=terms,
                        status=status, bar=bar) if row
             else gone_label(data.memory_id, prefix=prefix))
    if extra:
        label.append(extra, style="dim")
    return label
