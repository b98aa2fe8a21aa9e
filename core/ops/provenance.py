"""Provenance: the DAG of a memory's ancestors and descendants through ``split_from`` and
``consolidated_from`` edges (both point new -> old), including memories that no longer exist
(their last version comes from git history, marked as gone)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from ..errors import UnknownIdError, VaultError
from ..model.records import PROVENANCE_RELATION_TYPES, Memory, Relation
from ..vault import Vault


@dataclass
class LineageNode:
    id: str
    memory: Memory | None  # the living memory, or its last version from history
    gone: bool  # no longer in the vault
    depth: int  # < 0 ancestors, 0 the memory itself, > 0 descendants


@dataclass
class Lineage:
    root: str
    nodes: dict[str, LineageNode]
    edges: list[Relation]  # provenance relations between nodes (new -> old)
    other_relations: list[Relation] = field(default_factory=list)  # the root's other relations

    def ancestors(self) -> list[LineageNode]:
        return sorted((n for n in self.nodes.values() if n.depth < 0), key=lambda n: (n.depth, n.id))

    def descendants(self) -> list[LineageNode]:
        return sorted((n for n in self.nodes.values() if n.depth > 0), key=lambda n: (n.depth, n.id))

    def label(self, relation: Relation) -> str:
        return "split" if relation.relation_type == "split_from" else "merge"


def last_known_version(vault: Vault, memory_id: str) -> Memory | None:
    """A living memory, or the last version git has of a deleted one (None if unknown)."""
    live = vault.find(memory_id)
    if live is not None:
        return live
    try:
        entries = vault.history(memory_id)
    except (UnknownIdError, VaultError):
        return None
    if not entries:
        return None
    rev = f"{entries[0].commit}^" if entries[0].action == "deleted" else entries[0].commit
    try:
        return vault.version(memory_id, rev)
    except VaultError:
        return None


def lineage(vault: Vault, key: str, max_nodes: int = 500) -> Lineage:
    """Breadth-first through provenance edges in both directions from the memory ``key``
    (a living id or prefix, or the id of a deleted memory)."""
    root = vault.resolve_any(key)
    depth = {root: 0}
    edges: dict[str, Relation] = {}
    queue = deque([root])
    while queue and len(depth) < max_nodes:
        current = queue.popleft()
        for r in vault.store.relations_of(current):
            if r.relation_type not in PROVENANCE_RELATION_TYPES:
                continue
            edges[r.id] = r
            if r.from_memory_id == current:  # current was made from r.to (an ancestor)
                other, step = r.to_memory_id, -1
            else:  # r.from was made from current (a descendant)
                other, step = r.from_memory_id, 1
            if other not in depth:
                # Stay on one side: ancestors of ancestors, descendants of descendants.
                here = depth[current]
                if here != 0 and (here < 0) != (step < 0):
                    continue
                depth[other] = here + step
                queue.append(other)
    nodes = {}
    for node_id, d in depth.items():
        memory = last_known_version(vault, node_id)
        nodes[node_id] = LineageNode(node_id, memory, node_id not in vault.memories, d)
    kept = [e for e in edges.values() if e.from_memory_id in nodes and e.to_memory_id in nodes]
    others = [r for r in vault.store.relations_of(root)
              if r.relation_type not in PROVENANCE_RELATION_TYPES]
    return Lineage(root, nodes, sorted(kept, key=lambda r: (r.created_at, r.id)), others)
