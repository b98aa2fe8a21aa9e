"""Parts of a split that repeat a memory the vault already holds: the duplicate check of
``memvault add`` (:func:`core.ops.duplicates.indexed_duplicates`: one similarity, one
threshold at every door) asked of each part, the memory being split and its parts left out (a
part is always like the note it came from).

Only a flag, as for a new memory: nothing is refused or merged here; the person keeps the part,
edits it or drops it (the split wizard's parts and preview, ``memvault suggest-split`` and
``memvault split``)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..model.records import Memory
from .duplicates import DUPLICATE_HINT, indexed_duplicates

if TYPE_CHECKING:
    from ..search.index import SearchIndex
    from ..vault import Vault

#: A part, as the check reads it: its text, tags and entities.
PartLabels = tuple[str, Sequence[str], Sequence[str]]


def repeated_memories(root: Path, memories: Mapping[str, Memory], parts: Sequence[PartLabels],
                      exclude: Collection[str], *, threshold: float = DUPLICATE_HINT,
                      index: SearchIndex | None = None, vault: Vault | None = None
                      ) -> list[list[tuple[Memory, float]]]:
    """For each part (text, tags, entities), the memories among ``memories`` (every memory of
    the vault at ``root``) it likely repeats, most similar first; ``exclude``: the memory being
    split and, once committed, its parts. ``index``, ``vault``: as for
    :func:`~core.ops.duplicates.indexed_duplicates`. A part with no text repeats nothing."""
    return [indexed_duplicates(root, memories, text, tags, entities, exclude=exclude,
                               threshold=threshold, index=index, vault=vault)
            if text.strip() else []
            for text, tags, entities in parts]


def split_repeats(vault: Vault, memory_id: str, parts: Sequence[PartLabels],
                  also_exclude: Collection[str] = ()) -> list[list[tuple[Memory, float]]]:
    """:func:`repeated_memories` for parts of the memory ``memory_id`` of ``vault`` (it and
    ``also_exclude``, the parts once saved, left out)."""
    source = vault.get(memory_id)
    return repeated_memories(vault.root, vault.memories, parts, {source.id, *also_exclude},
                             vault=vault)
