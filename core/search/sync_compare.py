"""What a sync of the search index compares (:meth:`core.search.index.SearchIndex.sync`): each
memory's :func:`fingerprint`, the mark of the mapping synced (:func:`sync_mark`), which ids
changed since (:func:`changed_since`), whether any row differs (:func:`stale`), and the
:class:`SyncReport` it answers."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..model.records import Memory

_SEP = "\x1f"

#: What a sync remembers of the last one: (the known-rows dict, the mapping, its mark).
Synced = tuple[dict[str, tuple[int, str]] | None, Mapping[str, "Memory"], object]


def fingerprint(memory: Memory) -> str:
    """A hash of what the index holds of ``memory`` (content, gist, tags, entities, the time it
    was written): equal fingerprints, equal rows. A touch or a status change does not change it."""
    text = _SEP.join([memory.content, "\x1e", memory.gist or "", "\x1e", *memory.meta.tags,
                      "\x1e", *memory.entities, "\x1e", str(memory.created_at)])
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def sync_mark(memories: Mapping[str, Memory]) -> tuple[object, ...]:
    """What a sync remembers of ``memories``: ("version", n) for a mapping that logs its changes
    (:class:`core.store.lazy.LazyRecords`), else ("objects", its ids and memory objects)."""
    version = getattr(memories, "version", None)
    if isinstance(version, int):
        return ("version", version)
    return ("objects", list(memories), list(memories.values()))  # (no tuple for each)


@dataclass
class SyncReport:
    added: int = 0
    changed: int = 0
    removed: int = 0
    rebuilt: str | None = None  # why the index was built anew (missing, unreadable, schema)
    #: (done, total, seconds left or None): another process (or connection) is building the
    #: index for the first time, still after the wait; nothing was written, the rows so far are
    #: only part of the memories (:mod:`.first_build`: a search answers from the memories)
    building: tuple[int, int, float | None] | None = None


def changed_since(synced: Synced | None, memories: Mapping[str, Memory],
                  known: dict[str, tuple[int, str]], mark: object = None) -> set[str] | None:
    """The ids changed in ``memories`` since the last sync (``synced``), when it keeps a log of
    its changes (:class:`core.store.lazy.LazyRecords`), or when both it and the last synced
    mapping are plain mappings (``mark``: :func:`sync_mark`; the app's checks take a copy of
    the vault's memories each time): the ids whose memory object is not the same one; and
    no other process wrote the index since. None: compare every memory."""
    if synced is None or synced[0] is not known or not isinstance(synced[2], tuple):
        return None
    if synced[2][0] == "objects" and isinstance(mark, tuple) and mark[0] == "objects":
        if synced[2] == mark:  # (the same objects: compared by identity, at once)
            return set()
        before = dict(zip(synced[2][1], synced[2][2]))
        changed = {i for i, m in zip(mark[1], mark[2]) if before.get(i) is not m}
        changed.update(i for i in before if i not in memories)
        return changed
    since = getattr(memories, "changed_since", None)
    if since is None or synced[1] is not memories or synced[2][0] != "version":
        return None
    found: set[str] | None = since(synced[2][1])
    return found


def stale(wanted: dict[str, str], known: dict[str, tuple[int, str]]) -> bool:
    """True when a fingerprint of ``wanted`` differs from its row's (or has none), or a
    row has no memory in ``wanted``."""
    if len(wanted) != len(known):
        return True
    for memory_id, fp in wanted.items():
        old = known.get(memory_id)
        if old is None or old[1] != fp:
            return True
    return False
