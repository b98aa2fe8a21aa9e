"""The vault's records: Memory, its metadata and status, and Relation.

Field for field compatible with CortexGraph 1.2.1 (``cortexgraph.storage.models``), plus the
``gist`` field of the per-memory-file spec. Every model keeps keys it does not know
(``extra="allow"``), so a file written by a newer version survives being rewritten by this one.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .checks import check_value
from .field_sets import FieldSetSharing as FieldSetSharing
from .values import (KNOWN_RELATION_TYPES as KNOWN_RELATION_TYPES, PIN_KEY as PIN_KEY,
                     PROVENANCE_RELATION_TYPES as PROVENANCE_RELATION_TYPES,
                     MemoryStatus as MemoryStatus, is_pinned as is_pinned,
                     now_epoch as now_epoch)

# The plain values (status, time, relation types, the pin) are in core.model.values, the set
# of given fields shared in core.model.field_sets: a reading command that makes no model
# imports them without pydantic (core.model.plain_records).

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


class KnowledgeGraph(BaseModel):
    """Memories and relations together, as CortexGraph's ``get_knowledge_graph`` returns them."""

    model_config = ConfigDict(defer_build=True)  # built on first use: opening never needs it

    memories: list[Memory]
    relations: list[Relation]
    stats: dict[str, Any] = Field(default_factory=dict)
