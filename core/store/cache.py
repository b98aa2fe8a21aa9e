"""The in-memory cache of a vault: memories, relations, a tag index and the queries over them.

Pure data structure: no files, no git. The vault keeps it equal to what is on disk and in HEAD.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from ..model.config import DecayConfig
from ..decay import score
from ..errors import AmbiguousIdError, UnknownIdError
from ..model.records import FieldSetSharing, Memory, MemoryStatus, Relation, now_epoch

SortKey = Literal["score", "last_used", "created"]
SORT_KEYS: tuple[str, ...] = ("score", "last_used", "created")
MIN_PREFIX = 4


class Store:
    def __init__(self) -> None:
        self.memories: dict[str, Memory] = {}
        self.relations: dict[str, Relation] = {}
        self._tags: dict[str, set[str]] = {}
        self._relations_by_memory: dict[str, set[str]] = {}
        self._sharing = FieldSetSharing()  # one field set per shape of record, not per record

    # -- mutation ---------------------------------------------------------------------------
    def put_memory(self, memory: Memory) -> None:
        old = self.memories.get(memory.id)
        if old is not None:
            for tag in old.meta.tags:
                ids = self._tags.get(tag)
                if ids is not None:
                    ids.discard(memory.id)
                    if not ids:
                        del self._tags[tag]
        memory_id = memory.id
        self.memories[memory_id] = self._sharing.memory(memory)
        tags = self._tags
        for tag in memory.meta.tags:  # (no empty set made for a tag that has one: 10k at open)
            ids = tags.get(tag)
            if ids is None:
                tags[tag] = {memory_id}
            else:
                ids.add(memory_id)

    def drop_memory(self, memory_id: str) -> Memory | None:
        old = self.memories.pop(memory_id, None)
        if old is not None:
            for tag in old.meta.tags:
                ids = self._tags.get(tag)
                if ids is not None:
                    ids.discard(memory_id)
                    if not ids:
                        del self._tags[tag]
        return old

    def put_relation(self, relation: Relation) -> None:
        self.drop_relation(relation.id)
        relation_id = relation.id
        self.relations[relation_id] = self._sharing.relation(relation)
        by_memory = self._relations_by_memory
        for end in (relation.from_memory_id, relation.to_memory_id):
            ids = by_memory.get(end)
            if ids is None:
                by_memory[end] = {relation_id}
            else:
                ids.add(relation_id)

    def drop_relation(self, relation_id: str) -> Relation | None:
        old = self.relations.pop(relation_id, None)
        if old is not None:
            for end in (old.from_memory_id, old.to_memory_id):
                ids = self._relations_by_memory.get(end)
                if ids is not None:
                    ids.discard(relation_id)
                    if not ids:
                        del self._relations_by_memory[end]
        return old

    # -- lookups ----------------------------------------------------------------------------
    def resolve(self, key: str, kind: str = "memory") -> str:
        """An exact id, or a unique prefix of at least 4 characters, to the full id."""
        pool = self.memories if kind == "memory" else self.relations
        if key in pool:
            return key
        if len(key) < MIN_PREFIX:
            raise UnknownIdError(
                f"no {kind} with id {key!r} (prefixes need at least {MIN_PREFIX} characters)"
            )
        matches = [i for i in pool if i.startswith(key)]
        if not matches:
            raise UnknownIdError(f"no {kind} with id or prefix {key!r}")
        if len(matches) > 1:
            raise AmbiguousIdError(key, matches)
        return matches[0]

    def tags(self) -> dict[str, int]:
        return {tag: len(ids) for tag, ids in sorted(self._tags.items())}

    def relations_of(self, memory_id: str) -> list[Relation]:
        """Relations with ``memory_id`` at either end, oldest first."""
        ids = self._relations_by_memory.get(memory_id, ())
        return sorted((self.relations[i] for i in ids), key=lambda r: (r.created_at, r.id))

    def search(
        self,
        query: str | None = None,
        tags: Iterable[str] | None = None,
        status: MemoryStatus | str | Iterable[MemoryStatus | str] | None = None,
        window_days: float | None = None,
        limit: int | None = None,
        offset: int = 0,
        sort: SortKey = "score",
        config: DecayConfig | None = None,
        now: int | None = None,
    ) -> list[Memory]:
        """Memories matching every given filter: ``query`` (case-insensitive, in content, gist,
        tags or entities; every word must appear), ``tags`` (any of them), ``status`` (one or
        several), ``window_days`` (used within the last N days); sorted best/newest first."""
        at = now_epoch() if now is None else now
        tag_list = list(tags or ())
        if tag_list:
            ids: set[str] = set()
            for tag in tag_list:
                ids |= self._tags.get(tag, set())
            pool: Iterable[Memory] = (self.memories[i] for i in ids)
        else:
            pool = self.memories.values()
        wanted = _status_set(status)
        words = query.lower().split() if query else []
        cutoff = at - window_days * 86400 if window_days is not None else None
        found = []
        for m in pool:
            if wanted is not None and m.status not in wanted:
                continue
            if cutoff is not None and m.last_used < cutoff:
                continue
            if words:
                hay = " ".join([m.content, m.gist or "", *m.meta.tags, *m.entities]).lower()
                if not all(w in hay for w in words):
                    continue
            found.append(m)
        if sort == "score":
            cfg = config or DecayConfig()
            keyed = sorted(found, key=lambda m: (-score(m, cfg, at), m.id))
        elif sort == "last_used":
            keyed = sorted(found, key=lambda m: (-m.last_used, m.id))
        elif sort == "created":
            keyed = sorted(found, key=lambda m: (-m.created_at, m.id))
        else:
            raise ValueError(f"unknown sort {sort!r}: choose one of {', '.join(SORT_KEYS)}")
        end = None if limit is None else offset + limit
        return keyed[offset:end]


def _status_set(status: object) -> set[MemoryStatus] | None:
    if status is None:
        return None
    if isinstance(status, (str, MemoryStatus)):
        return {MemoryStatus(status)}
    return {MemoryStatus(s) for s in status}  # type: ignore[union-attr]
