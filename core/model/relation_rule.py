"""The one rule for a memory's relations when the memory goes.

Lineage relations (``consolidated_from``, ``split_from``: :data:`LINEAGE_RELATION_TYPES`, new ->
old) outlive the memory they point at: they are the record of what it became, and what it was
made from. Every other relation that touches a memory going away goes with it, in the same
commit. :func:`relations_of_gone` makes that decision for a set of memories going away; every
path that removes memories asks it: delete, gc, consolidate and split (``Vault.apply`` and
``WritePath.commit`` enforce it for any plan), ``PerFileStorage.delete_memory`` (through delete),
undo, the JSONL migration (memories the source had deleted) and the sync merge.

Pure: it looks at relation records only (memvault's ``Relation``, or a raw record as a dict,
which is what a merge reads from git), never at files or git.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from .values import PROVENANCE_RELATION_TYPES

#: The relation types that outlive the memory they point at (the provenance edges).
LINEAGE_RELATION_TYPES: frozenset[str] = PROVENANCE_RELATION_TYPES

R = TypeVar("R")


def _field(relation: Any, name: str) -> Any:
    if isinstance(relation, Mapping):
        return relation.get(name)
    return getattr(relation, name, None)


def is_lineage(relation: Any) -> bool:
    """A ``consolidated_from`` or ``split_from`` relation (a record or a dict)."""
    return _field(relation, "relation_type") in LINEAGE_RELATION_TYPES


def ends_of(relation: Any) -> tuple[Any, Any]:
    """(from, to) memory ids of a relation record or dict."""
    return _field(relation, "from_memory_id"), _field(relation, "to_memory_id")


@dataclass
class RelationsOfGone(Generic[R]):
    """The relations touching memories that go away, sorted by the rule."""

    removed: list[R] = field(default_factory=list)  # not lineage: they go with the memory
    kept: list[R] = field(default_factory=list)  # lineage: they outlive it

    def removed_ids(self) -> list[str]:
        return [_field(r, "id") for r in self.removed]


def relations_of_gone(relations: Iterable[R], gone: Collection[str]) -> RelationsOfGone[R]:
    """Of ``relations``, those with an end among the memory ids ``gone``: ``removed`` (every
    relation that is not lineage; removed in the commit that removes the memory) and ``kept``
    (lineage relations, left in place). Relations touching none of them are in neither list.
    Each relation is listed once, in the order given."""
    gone = gone if isinstance(gone, (set, frozenset, dict)) else set(gone)
    out: RelationsOfGone[R] = RelationsOfGone()
    seen: set[Any] = set()
    for r in relations:
        key = _field(r, "id")
        key = key if isinstance(key, str) else id(r)
        if key in seen:
            continue
        if not any(isinstance(end, str) and end in gone for end in ends_of(r)):
            continue
        seen.add(key)
        (out.kept if is_lineage(r) else out.removed).append(r)
    return out
