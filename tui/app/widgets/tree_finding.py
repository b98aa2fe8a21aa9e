"""Finding rows in the memory tree (:mod:`.memory_tree`): the keys of its open groups, the row
of a key among those shown, and whether a closed node may hold a memory (so that a search for
it opens only the nodes that do)."""

from __future__ import annotations

from textual.widgets.tree import TreeNode

from .tree_nodes import NodeData

#: a lineage tree's edges: a memory's (other memory, relation) pairs
Edges = dict[str, list[tuple[str, str]]]


def expanded_keys(root: TreeNode[NodeData]) -> set[str]:
    """The keys of the open nodes under ``root``."""
    keys: set[str] = set()
    stack = list(root.children)
    while stack:
        node = stack.pop()
        if node.is_expanded and node.data is not None:
            keys.add(node.data.key)
            stack.extend(node.children)
    return keys


def find_key(root: TreeNode[NodeData], key: str) -> TreeNode[NodeData] | None:
    """The shown node (under open ones only) whose key is ``key``, the first from the top."""
    stack = list(root.children)[::-1]
    while stack:
        node = stack.pop()
        if node.data is not None and node.data.key == key:
            return node
        if node.is_expanded:
            stack.extend(list(node.children)[::-1])
    return None


def near_keys(node: TreeNode[NodeData] | None) -> list[str]:
    """Where the cursor goes when a rebuild no longer shows its memory's row (a filter hid it):
    the rows after it in its group, nearest first, then those before it, then the group."""
    if node is None or node.data is None or node.data.kind != "memory" or node.parent is None:
        return []
    siblings = list(node.parent.children)
    at = siblings.index(node)
    keys = [n.data.key for n in siblings[at + 1:] + siblings[:at][::-1] if n.data is not None]
    return keys + ([node.parent.data.key] if node.parent.data is not None else [])


def may_hold(node: TreeNode[NodeData], memory_id: str, parents_of: Edges,
             children_of: Edges) -> bool:
    """May ``node``, opened, show ``memory_id`` (a group holding it, a lineage node above it)?"""
    data = node.data
    if data is None:
        return False
    if data.kind == "group" and data.group is not None:
        return memory_id in data.group.ids
    if data.lineage and data.memory_id is not None:
        from ..grouping import descendants

        if data.merged and any(p == memory_id for p, _k in parents_of.get(data.memory_id, ())):
            return True
        return memory_id in descendants(children_of, data.memory_id)
    return False
