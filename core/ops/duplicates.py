"""Memories a new one would likely duplicate, before it is added (the app's ``n``). Only a
suggestion: nothing is merged or refused here; the person adds anyway or cancels.

A likely duplicate is one the consolidate clusters' similarity links to the new text
(:func:`core.ops.similarity.similarity`: content terms with tag and entity overlap; a new note
that only repeats part of a longer memory, or a longer one that holds a short memory whole, is
alike by containment there: :func:`core.wording.likeness`), among every memory of the vault:
one similarity, one meaning of the threshold at every door.

:func:`indexed_duplicates` and :func:`duplicates_of` ask the same of the candidates the vault's
near-duplicate index names (:mod:`core.ops.near_duplicates`) instead of every memory."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..model.records import Memory, MemoryMetadata
from .similarity import similarity

if TYPE_CHECKING:
    from ..search.index import SearchIndex
    from ..vault import Vault

#: Below the clusters' 0.83 (a merge suggestion): a warning before adding may ask more often.
DUPLICATE_HINT = 0.6
SHOWN = 5


def likely_duplicates(memories: Iterable[Memory], content: str, tags: Sequence[str] = (),
                      entities: Sequence[str] = (), *, threshold: float = DUPLICATE_HINT,
                      limit: int = SHOWN) -> list[tuple[Memory, float]]:
    """The memories at least ``threshold`` similar to a memory with this text, tags and
    entities, with their similarity, most similar first (ties by id), at most ``limit``."""
    probe = Memory(id="new", content=content,
                   meta=MemoryMetadata(tags=list(tags)), entities=list(entities))
    found = []
    for m in memories:
        s = similarity(probe, m, False)
        if s >= threshold:
            found.append((m, s))
    found.sort(key=lambda p: (-p[1], p[0].id))
    return found[:limit]


def indexed_duplicates(root: Path, memories: Mapping[str, Memory], content: str,
                       tags: Sequence[str] = (), entities: Sequence[str] = (), *,
                       exclude: Collection[str] = (), threshold: float = DUPLICATE_HINT,
                       limit: int = SHOWN, index: SearchIndex | None = None,
                       vault: Vault | None = None) -> list[tuple[Memory, float]]:
    """:func:`likely_duplicates` among ``memories`` (every memory of the vault at ``root``),
    compared only with the candidates the near-duplicate index names
    (:mod:`core.ops.near_duplicates`): milliseconds at 100k memories. ``exclude``: ids not to
    name (the memory itself, when it is already saved); ``index``: the caller's own search
    index of the vault, kept open and synced with ``memories`` (else one kept for the vault);
    ``vault``: the vault whose ``memories`` they are (its index then follows its commits:
    :func:`core.ops.near_duplicates.synced_index`)."""
    from .near_duplicates import candidates_for

    pool = [memories[i] for i in candidates_for(root, memories, content, index, vault)
            if i in memories and i not in exclude]
    return likely_duplicates(pool, content, tags, entities, threshold=threshold, limit=limit)


def duplicates_of(vault: Vault, memory_id: str, *, threshold: float = DUPLICATE_HINT,
                  limit: int = SHOWN, index: SearchIndex | None = None
                  ) -> list[tuple[Memory, float]]:
    """The memories a saved memory likely duplicates (itself left out), most similar first:
    what ``memvault add``, MCP ``save_memory`` and the review inbox say after a save.
    ``index``: as for :func:`indexed_duplicates`."""
    memory = vault.get(memory_id)
    return indexed_duplicates(vault.root, vault.memories, memory.content, memory.meta.tags,
                              memory.entities, exclude={memory.id}, threshold=threshold,
                              limit=limit, index=index, vault=vault)


def possible_duplicates(vault: Vault, memory_id: str, index: SearchIndex | None = None
                        ) -> list[dict[str, object]]:
    """:func:`duplicates_of` as plain data for an answer (MCP ``save_memory``, which passes
    its search index: ``index``): id, similarity (4 places) and the first words of each. A
    failure to look (an index that cannot be read or written) is no failure of the save it
    follows: nothing is named then."""
    import sqlite3

    from ..vault.reports import first_words

    try:
        found = duplicates_of(vault, memory_id, index=index)
    except (sqlite3.Error, OSError):
        return []
    return [{"id": m.id, "similarity": round(score, 4), "preview": first_words(m.text, 80)}
            for m, score in found]
