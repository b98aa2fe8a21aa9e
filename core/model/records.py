"""The vault's records: Memory, its metadata and status, and Relation.

Field for field compatible with CortexGraph 1.2.1 (``cortexgraph.storage.models``), plus the
``gist`` field of the per-memory-file spec. Every model keeps keys it does not know
(``extra="allow"``), so a file written by a newer version survives being rewritten by this one.
"""

from __future__ import annotations

import time
from enum import Enum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .checks import check_value


def now_epoch() -> int:
    """Current time in whole epoch seconds (the unit of every timestamp in the vault)."""
    return int(time.time())


class MemoryStatus(str, Enum):
    ACTIVE = "active"
    PROMOTED = "promoted"
    ARCHIVED = "archived"
    SUPERSEDED = "superseded"


# Each model is built (its validator and serializer) on first use, not when imported: a read of
# memvault's own files makes its records without them (core.model.exact_records).
class MemoryMetadata(BaseModel):
    model_config = ConfigDict(extra="allow", allow_inf_nan=False, defer_build=True)

    tags: list[str] = Field(default_factory=list, description="Tags for categorization")
    source: str | None = Field(default=None, description="Source of the memory")
    context: str | None = Field(default=None, description="Context when the memory was created")
    extra: dict[str, Any] = Field(default_factory=dict, description="Additional custom metadata")

    @model_validator(mode="after")
    def _values_a_record_may_hold(self) -> MemoryMetadata:
        if self.extra:  # (depth: the record's file holds meta, which holds extra)
            check_value(self.extra, "meta.extra", depth=2)
        if self.model_extra:
            check_value(self.model_extra, "meta", depth=1)
        return self


class Memory(BaseModel):
    # allow_inf_nan: JSON has no infinity (pydantic would write null: a record no one reads)
    model_config = ConfigDict(extra="allow", validate_assignment=True, allow_inf_nan=False,
                              defer_build=True)

    id: str = Field(description="Unique identifier (file name without .json)")
    content: str = Field(description="Full verbatim memory content")
    gist: str | None = Field(default=None, description="Token-compressed summary of content")
    meta: MemoryMetadata = Field(default_factory=MemoryMetadata)
    created_at: int = Field(default_factory=now_epoch, description="Epoch seconds")
    last_used: int = Field(default_factory=now_epoch, description="Epoch seconds")
    use_count: int = Field(default=0, ge=0)
    strength: float = Field(default=1.0, ge=0, description="Decay multiplier, 1.0-2.0 in practice")
    status: MemoryStatus = Field(default=MemoryStatus.ACTIVE)
    promoted_at: int | None = None
    promoted_to: str | None = None
    embed: list[float] | None = None
    entities: list[str] = Field(default_factory=list)
    review_priority: float = Field(default=0.0, ge=0, le=1)
    last_review_at: int | None = None
    review_count: int = Field(default=0, ge=0)
    cross_domain_count: int = Field(default=0, ge=0)

    @model_validator(mode="after")
    def _values_a_record_may_hold(self) -> Memory:
        if self.model_extra:
            check_value(self.model_extra, "memory")
        return self

    @property
    def text(self) -> str:
        """What a reader sees first: the gist, or the content when there is none."""
        return self.gist or self.content


#: ``meta.extra[PIN_KEY] is True``: the memory is pinned, and gc never deletes or archives it
#: (kept in ``meta.extra``, which CortexGraph's ``MemoryMetadata`` carries through unchanged).
PIN_KEY = "pinned"


def is_pinned(memory: Memory) -> bool:
    return memory.meta.extra.get(PIN_KEY) is True


class Relation(BaseModel):
    model_config = ConfigDict(extra="allow", validate_assignment=True, allow_inf_nan=False,
                              defer_build=True)

    id: str
    from_memory_id: str
    to_memory_id: str
    relation_type: str
    strength: float = Field(default=1.0, ge=0, le=1)
    created_at: int = Field(default_factory=now_epoch)
    metadata: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _values_a_record_may_hold(self) -> Relation:
        if self.metadata:
            check_value(self.metadata, "metadata", depth=1)
        if self.model_extra:
            check_value(self.model_extra, "relation")
        return self


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


class KnowledgeGraph(BaseModel):
    """Memories and relations together, as CortexGraph's ``get_knowledge_graph`` returns them."""

    model_config = ConfigDict(defer_build=True)  # built on first use: opening never needs it

    memories: list[Memory]
    relations: list[Relation]
    stats: dict[str, Any] = Field(default_factory=dict)


# -- memory held per record --------------------------------------------------------------------
class FieldSetSharing:
    """Lets each record loaded (and a memory's ``meta``) hold pydantic's set of the fields it was
    given as one set shared by the records given the same fields (nearly all: memvault writes
    every field), instead of a set of its own: ~0.9 KB a memory, 40% of what a loaded memory
    costs (120 MB at 100k), and done as each record is loaded, so the peak is lower too.
    memvault never dumps with ``exclude_unset``, the one thing that set serves (and
    ``validate_assignment`` keeps it a set: an assigned field lands in the set the record
    shares, which only widens what ``exclude_unset`` would keep of the others)."""

    def __init__(self) -> None:
        self._memory: set[str] | None = None
        self._meta: set[str] | None = None
        self._relation: set[str] | None = None

    def memory(self, memory: Memory) -> Memory:
        self._memory = _share_fields(memory, self._memory)
        self._meta = _share_fields(memory.meta, self._meta)
        return memory

    def relation(self, relation: Relation) -> Relation:
        self._relation = _share_fields(relation, self._relation)
        return relation


def _share_fields(record: BaseModel, shared: set[str] | None) -> set[str]:
    """Give ``record`` the ``shared`` set when its own set of given fields is equal to it; the
    set to share from now on (the first record's own)."""
    fields = record.__pydantic_fields_set__
    if shared is None:
        return fields
    if fields == shared:
        object.__setattr__(record, "__pydantic_fields_set__", shared)
    return shared
