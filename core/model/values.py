"""The records' plain values, without the models (pydantic): a memory's status, the time in the
vault's unit, the relation types and the pin. :mod:`core.model.records` re-exports them; a
reading command that makes no model imports only this (``memvault list``: see
:mod:`core.model.plain_records`)."""

from __future__ import annotations

import time
from enum import Enum
from typing import Any


def now_epoch() -> int:
    """Current time in whole epoch seconds (the unit of every timestamp in the vault)."""
    return int(time.time())


class MemoryStatus(str, Enum):
    ACTIVE = "active"
    PROMOTED = "promoted"
    ARCHIVED = "archived"
    SUPERSEDED = "superseded"


#: ``meta.extra[PIN_KEY] is True``: the memory is pinned, and gc never deletes or archives it
#: (kept in ``meta.extra``, which CortexGraph's ``MemoryMetadata`` carries through unchanged).
PIN_KEY = "pinned"


def is_pinned(memory: Any) -> bool:
    """``memory`` (a :class:`~core.model.records.Memory`) is pinned."""
    return memory.meta.extra.get(PIN_KEY) is True


#: Relation types a person may create without ``force``: CortexGraph's own, the lifecycle edges,
#: and the link types of the tiered markdown memory schema.
KNOWN_RELATION_TYPES: frozenset[str] = frozenset(
    {
        "related",
        "causes",
        "supports",
        "contradicts",
        "has_decision",
        "consolidated_from",
        "split_from",
        "related_to",
        "depends_on",
        "part_of",
        "caused_by",
        "similar_to",
        "supersedes",
        "alternative_to",
    }
)

#: Edges that make up the provenance graph (direction: new -> old).
PROVENANCE_RELATION_TYPES: frozenset[str] = frozenset({"consolidated_from", "split_from"})
