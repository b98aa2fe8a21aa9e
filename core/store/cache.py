"""The in-memory cache of a vault: memories, relations, a tag index and the queries over them.

Pure data structure: no files, no git. The vault keeps it equal to what is on disk and in HEAD.
An open from the derived index fills it with records still held as their bytes
(:meth:`Store.fill_raw`, :mod:`core.store.lazy`): each is parsed when first read, and the tag
index and the relations of each memory are made the first time they are asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Literal

from ..model.config import DecayConfig
from ..decay import score
from ..model.field_sets import FieldSetSharing
from ..model.values import MemoryStatus, now_epoch
from ..model.exact_records import read_memory, read_relation
from .lazy import LazyRecords
from .prefixes import resolve_prefix

if TYPE_CHECKING:
    from ..model.records import Memory, Relation

SortKey = Literal["score", "last_used", "created"]
SORT_KEYS: tuple[str, ...] = ("score", "last_used", "created")


class Store:
    def __init__(self) -> None:
        self._sharing = FieldSetSharing()  # one field set per shape of record, not per record
        memory, relation = self._sharing.memory, self._sharing.relation
        # (a file memvault wrote is made without the models' validators: exact_records)
        self.memories: LazyRecords[Memory] = LazyRecords(lambda b: memory(read_memory(b)))
        self.relations: LazyRecords[Relation] = LazyRecords(
            lambda b: relation(read_relation(b)))
        # made on first use (None until then), then kept up to date by every put and drop
        self._tags: dict[str, set[str]] | None = None
        self._relations_by_memory: dict[str, set[str]] | None = None

    # -- mutation ---------------------------------------------------------------------------
    def fill_raw(self, memories: dict[str, bytes], relations: dict[str, bytes]) -> None:
        """Hold these records (id -> the bytes of its file) unparsed, each parsed when first
        read: an empty store only (an open), and only bytes known to make a valid record of
        their id (the derived index's rows). The dicts are taken, not copied."""
        self.memories.fill(memories)
        self.relations.fill(relations)

    def fill_unchecked(self, memories: dict[str, bytes], relations: dict[str, bytes],
                       check: Callable[[str, str, bytes], Any],
                       refused: Callable[[str, str, ValueError], None]) -> None:
        """Hold these records (id -> the bytes of its file) unparsed and not yet checked (an
        open that read every file): each is made with ``check(kind, id, bytes)`` when first
        read, or when all are (:meth:`settle`); one that is no record of its id is dropped and
        handed to ``refused(kind, id, error)`` (:meth:`LazyRecords.fill_unchecked`). An empty
        store only; the dicts are taken, not copied."""
        memory, relation = self._sharing.memory, self._sharing.relation
        self.memories.fill_unchecked(
            memories, lambda key, body: memory(check("memory", key, body)),
            lambda key, exc: refused("memory", key, exc))
        self.relations.fill_unchecked(
            relations, lambda key, body: relation(check("relation", key, body)),
            lambda key, exc: refused("relation", key, exc))

    def relations_unchecked(self, relations: dict[str, bytes],
                            check: Callable[[str, str, bytes], Any],
                            refused: Callable[[str, str, ValueError], None]) -> None:
        """Hold these relations unparsed and unchecked, as :meth:`fill_unchecked` holds both
        kinds: after ``fill_loaded(memories, ())`` (a read-only open parses the memories only:
        a search never reads the relations). The dict is taken, not copied."""
        relation = self._sharing.relation
        self.relations.fill_unchecked(
            relations, lambda key, body: relation(check("relation", key, body)),
            lambda key, exc: refused("relation", key, exc))

    @property
    def unchecked(self) -> bool:
        """Whether records are held that were not checked yet (:meth:`fill_unchecked`)."""
        return self.memories.unchecked or self.relations.unchecked

    def settle(self) -> None:
        """Check every record not checked yet (:meth:`fill_unchecked`), so that every file that
        is no record has been handed to ``refused``."""
        self.memories.settle()
        self.relations.settle()

    def fill_loaded(self, memories: Iterable[Memory], relations: Iterable[Relation]) -> None:
        """Hold these records, each id once (an open that read every file): an empty store
        only; what ``put_memory`` and ``put_relation`` of each would do, in one pass."""
        memory, relation = self._sharing.memory, self._sharing.relation
        self.memories.fill({m.id: memory(m) for m in memories}, parsed=True)
        self.relations.fill({r.id: relation(r) for r in relations}, parsed=True)

    def relations_later(self, load: Callable[[], Iterable[Relation]]) -> None:
        """Fill the (empty) relations from ``load()`` the first time they are used at all (a
        read-only open that leaves a big relations folder unread until then)."""
        relation = self._sharing.relation
        relations = self.relations
        relations.fill_later(lambda: relations.fill({r.id: relation(r) for r in load()},
                                                    parsed=True))

    def put_memory(self, memory: Memory) -> None:
        memory_id = memory.id
        tags = self._tags
        if tags is not None:
            self._untag(memory_id)
        self.memories[memory_id] = self._sharing.memory(memory)
        if tags is not None:
            _add(tags, memory.meta.tags, memory_id)

    def drop_memory(self, memory_id: str) -> Memory | None:
        if self._tags is not None:
            self._untag(memory_id)
        return self.memories.pop(memory_id, None)

    def _untag(self, memory_id: str) -> None:
        old = self.memories.get(memory_id)
        if old is not None and self._tags is not None:
            _discard(self._tags, old.meta.tags, memory_id)

    def put_relation(self, relation: Relation) -> None:
        self.drop_relation(relation.id)
        self.relations[relation.id] = self._sharing.relation(relation)
        if self._relations_by_memory is not None:
            _add(self._relations_by_memory, (relation.from_memory_id, relation.to_memory_id),
                 relation.id)

    def drop_relation(self, relation_id: str) -> Relation | None:
        old = self.relations.pop(relation_id, None)
        if old is not None and self._relations_by_memory is not None:
            _discard(self._relations_by_memory, (old.from_memory_id, old.to_memory_id),
                     relation_id)
        return old

    # -- the indexes made on first use --------------------------------------------------------
    def _tag_index(self) -> dict[str, set[str]]:
        if self._tags is None:
            tags: dict[str, set[str]] = {}
            for memory_id, memory in self.memories.items():
                _add(tags, memory.meta.tags, memory_id)
            self._tags = tags
        return self._tags

    def _relation_index(self) -> dict[str, set[str]]:
        if self._relations_by_memory is None:
            by_memory: dict[str, set[str]] = {}
            for relation_id, relation in self.relations.items():
                _add(by_memory, (relation.from_memory_id, relation.to_memory_id), relation_id)
            self._relations_by_memory = by_memory
        return self._relations_by_memory

    # -- lookups ----------------------------------------------------------------------------
    def resolve(self, key: str, kind: str = "memory") -> str:
        """An exact id, or a unique prefix of at least 4 characters, to the full id."""
        pool = self.memories if kind == "memory" else self.relations
        if key in pool:
            return key
        return resolve_prefix(key, pool.keys(), kind)

    def tags(self) -> dict[str, int]:
        return {tag: len(ids) for tag, ids in sorted(self._tag_index().items())}

    def relations_of(self, memory_id: str) -> list[Relation]:
        """Relations with ``memory_id`` at either end, oldest first."""
        ids = self._relation_index().get(memory_id, ())
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
                ids |= self._tag_index().get(tag, set())
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


def _add(index: dict[str, set[str]], keys: Iterable[str], value: str) -> None:
    """Put ``value`` in the set of each key (no empty set made for a key that has one)."""
    for key in keys:
        found = index.get(key)
        if found is None:
            index[key] = {value}
        else:
            found.add(value)


def _discard(index: dict[str, set[str]], keys: Iterable[str], value: str) -> None:
    """Take ``value`` out of the set of each key; a key left with none goes."""
    for key in keys:
        found = index.get(key)
        if found is not None:
            found.discard(value)
            if not found:
                del index[key]


def _status_set(status: object) -> set[MemoryStatus] | None:
    if status is None:
        return None
    if isinstance(status, (str, MemoryStatus)):
        return {MemoryStatus(status)}
    if not isinstance(status, Iterable):
        raise TypeError(f"status: a status or several, not {type(status).__name__}")
    return {MemoryStatus(s) for s in status}
