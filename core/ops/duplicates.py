"""Memories a new one would likely duplicate, before it is added (the app's ``n``): the
similarity the consolidate clusters use (:func:`core.ops.consolidate.similarity`: content tokens
with tag and entity overlap, or cosine on ``embed``), against every memory of the vault. Only a
suggestion: nothing is merged or refused here; the person adds anyway or cancels."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..model.records import Memory, MemoryMetadata
from .consolidate import similarity

#: Below the clusters' 0.83 (a merge suggestion): a warning before adding may ask more often.
DUPLICATE_HINT = 0.6
SHOWN = 5


def likely_duplicates(memories: Iterable[Memory], content: str, tags: Sequence[str] = (),
                      entities: Sequence[str] = (), *, threshold: float = DUPLICATE_HINT,
                      limit: int = SHOWN) -> list[tuple[Memory, float]]:
    """The memories at least ``threshold`` similar to a memory with this text, tags and
    entities, most similar first (ties by id), at most ``limit``."""
    probe = Memory(id="new", content=content,
                   meta=MemoryMetadata(tags=list(tags)), entities=list(entities))
    found = [(m, s) for m in memories if (s := similarity(probe, m, False)) >= threshold]
    found.sort(key=lambda p: (-p[1], p[0].id))
    return found[:limit]
