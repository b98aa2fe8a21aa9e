"""Provenance: the DAG of a memory's ancestors and descendants through ``split_from`` and
``consolidated_from`` edges (both point new -> old), including memories that no longer exist
(their last version comes from git history, marked as gone).

Lineage relations outlive the memories they point at (:mod:`core.model.relation_rule`), so a
relation's end may be a memory that is gone. :func:`end_state` says what became of it, from
history, with one ``git log`` of its file, only when asked: ``consumed`` (a commit of this vault
removed it: that commit's id and subject), ``absent`` (no commit of this vault ever held it:
"not in this vault", never called deleted) or ``unloaded`` (history has it and no deletion: its
file does not load, or was removed outside memvault and not committed yet)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..errors import VaultError
from ..git.entries import HistoryEntry, operation_of
from ..model.values import PROVENANCE_RELATION_TYPES
from ..textutil import neutralise_line
from ..vault import Vault

if TYPE_CHECKING:
    from ..model.records import Memory, Relation


@dataclass(frozen=True)
class EndState:
    """What became of the memory at one end of a relation."""

    memory_id: str
    state: str  # "living", "consumed", "absent" (never in this vault) or "unloaded"
    commit: str | None = None  # consumed: the commit that removed it
    subject: str | None = None  # that commit's subject line (control characters escaped)
    at: int | None = None  # that commit's time

    @property
    def label(self) -> str:
        """``consumed in 1a2b3c4d (consolidate: merge ...)``, ``not in this vault``, ..."""
        if self.state == "consumed":
            return f"consumed in {(self.commit or '')[:8]} ({self.subject})"
        return self.short_label

    @property
    def short_label(self) -> str:
        """``consumed in 1a2b3c4d (consolidate)``: the commit's verb instead of its subject."""
        if self.state == "consumed":
            verb = operation_of(self.subject or "") or "commit"
            return f"consumed in {(self.commit or '')[:8]} ({verb})"
        return {"absent": "not in this vault", "unloaded": "in history, not loaded",
                "living": "living"}.get(self.state, self.state)

    def as_json(self) -> dict[str, object]:
        return {"state": self.state, "commit": self.commit, "subject": self.subject,
                "at": self.at, "label": self.label}


@dataclass
class LineageNode:
    id: str
    memory: Memory | None  # the living memory, or its last version from history
    gone: bool  # no longer in the vault
    depth: int  # < 0 ancestors, 0 the memory itself, > 0 descendants
    end: EndState | None = None  # a gone node: consumed (by which commit) or never here


@dataclass
class Lineage:
    root: str
    nodes: dict[str, LineageNode]
    edges: list[Relation]  # provenance relations between nodes (new -> old)
    other_relations: list[Relation] = field(default_factory=list)  # the root's other relations
    #: what became of the other relations' ends that are not living memories (by id)
    other_ends: dict[str, EndState] = field(default_factory=dict)

    def ancestors(self) -> list[LineageNode]:
        return sorted((n for n in self.nodes.values() if n.depth < 0), key=lambda n: (n.depth, n.id))

    def descendants(self) -> list[LineageNode]:
        return sorted((n for n in self.nodes.values() if n.depth > 0), key=lambda n: (n.depth, n.id))

    def label(self, relation: Relation) -> str:
        return "split" if relation.relation_type == "split_from" else "merge"


def memory_history(vault: Vault, memory_id: str) -> list[HistoryEntry]:
    """The newest commit of this vault that touched the memory's file, if any (one ``git log``
    that stops at it); none for an id that cannot be a file name, or without git."""
    try:
        return vault.journal.history.log(vault.layout.memory_path(memory_id), limit=1)
    except VaultError:
        return []


def end_state(vault: Vault, memory_id: str,
              entries: list[HistoryEntry] | None = None) -> EndState:
    """What became of ``memory_id`` (see the module docstring). ``entries``: its history, when
    the caller read it already (else one ``git log`` here, only for a memory not living)."""
    if memory_id in vault.memories:
        return EndState(memory_id, "living")
    if entries is None:
        entries = memory_history(vault, memory_id)
    if not entries:
        return EndState(memory_id, "absent")
    last = entries[0]
    if last.action != "deleted":
        return EndState(memory_id, "unloaded", last.commit)
    subject = neutralise_line(last.message.splitlines()[0] if last.message else "")
    return EndState(memory_id, "consumed", last.commit, subject, last.timestamp)


def relation_ends(vault: Vault, memory_id: str,
                  relations: Iterable[Relation]) -> dict[str, EndState]:
    """For the relations of ``memory_id``: what became of each other end that is not a living
    memory (by id; one ``git log`` each). Living ends are left out."""
    ends: dict[str, EndState] = {}
    for r in relations:
        other = r.to_memory_id if r.from_memory_id == memory_id else r.from_memory_id
        if other not in vault.memories and other not in ends:
            ends[other] = end_state(vault, other)
    return ends


def _version_before(vault: Vault, memory_id: str, entries: list[HistoryEntry]) -> Memory | None:
    if not entries:
        return None
    rev = f"{entries[0].commit}^" if entries[0].action == "deleted" else entries[0].commit
    from ..model.records import Memory

    try:  # straight from git: the id is known, no look-up through every name ever used
        data = vault.journal.history.show(rev, vault.layout.memory_path(memory_id))
        memory = Memory.model_validate_json(data) if data is not None else None
    except (VaultError, ValueError):
        return None
    return memory if memory is not None and memory.id == memory_id else None


def last_known_version(vault: Vault, memory_id: str) -> Memory | None:
    """A living memory, or the last version git has of a deleted one (None if unknown)."""
    live = vault.find(memory_id)
    if live is not None:
        return live
    return _version_before(vault, memory_id, memory_history(vault, memory_id))


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
        live = vault.find(node_id)
        if live is not None:
            nodes[node_id] = LineageNode(node_id, live, False, d)
            continue
        entries = memory_history(vault, node_id)  # one git log: its last version and its end
        nodes[node_id] = LineageNode(node_id, _version_before(vault, node_id, entries), True, d,
                                     end_state(vault, node_id, entries))
    kept = [e for e in edges.values() if e.from_memory_id in nodes and e.to_memory_id in nodes]
    others = [r for r in vault.store.relations_of(root)
              if r.relation_type not in PROVENANCE_RELATION_TYPES]
    return Lineage(root, nodes, sorted(kept, key=lambda r: (r.created_at, r.id)), others,
                   relation_ends(vault, root, others))
