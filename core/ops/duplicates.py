"""Memories a new one would likely duplicate, before it is added (the app's ``n``): the
similarity the consolidate clusters use (:func:`core.ops.consolidate.similarity`: content tokens
with tag and entity overlap), against every memory of the vault, or the share of the new text's
words an existing memory already holds (a new note that only repeats part of a longer memory is
a likely duplicate too, though their similarity is low). Only a suggestion: nothing is merged or
refused here; the person adds anyway or cancels."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..model.records import Memory, MemoryMetadata
from ..textutil import content_tokens
from .consolidate import similarity

#: Below the clusters' 0.83 (a merge suggestion): a warning before adding may ask more often.
DUPLICATE_HINT = 0.6
#: ... or this share of the new text's words (of at least CONTAINED_MIN_WORDS) in one memory
CONTAINED_HINT, CONTAINED_MIN_WORDS = 0.85, 4
SHOWN = 5


def likely_duplicates(memories: Iterable[Memory], content: str, tags: Sequence[str] = (),
                      entities: Sequence[str] = (), *, threshold: float = DUPLICATE_HINT,
                      limit: int = SHOWN) -> list[tuple[Memory, float]]:
    """The memories at least ``threshold`` similar to a memory with this text, tags and
    entities, or holding at least :data:`CONTAINED_HINT` of its words, with the higher of the
    two figures, most similar first (ties by id), at most ``limit``."""
    probe = Memory(id="new", content=content,
                   meta=MemoryMetadata(tags=list(tags)), entities=list(entities))
    words = content_tokens(content)
    found = []
    for m in memories:
        s = similarity(probe, m, False)
        if len(words) >= CONTAINED_MIN_WORDS:
            held = len(words & content_tokens(m.content)) / len(words)
            if held >= CONTAINED_HINT:
                s = max(s, held)
        if s >= threshold:
            found.append((m, s))
    found.sort(key=lambda p: (-p[1], p[0].id))
    return found[:limit]
