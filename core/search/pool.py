"""The memories a search's statuses and tags allow, asked one id at a time: over a vault whose
memories are still their files' bytes (an open from the derived index,
:class:`core.store.lazy.LazyRecords`), a search for the top few then parses only the memories it
reads as candidates, not every memory to find the allowed ones first."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol

from ..model.values import MemoryStatus
from .query import Query, select

if TYPE_CHECKING:
    from ..model.records import Memory


class _Decided(Protocol):
    """What :meth:`AllowedPool.allows` reads of a memory: its status and its tags."""

    @property
    def status(self) -> MemoryStatus: ...

    @property
    def meta(self) -> Any: ...


@cache
def _read_filtered() -> Callable[[bytes], _Decided]:
    """The reader of a memory file's status and tags, the rest skipped: a memory still held as
    bytes is decided on without being parsed whole (those bytes made a valid record when they
    were kept, so these two fields are the record's). Its pydantic model is built on first use:
    a search that reads no memory as bytes (a small vault's, answered from its records) builds
    no model, and so never loads pydantic's plugins (importlib.metadata, email)."""
    from pydantic import BaseModel, ConfigDict, Field

    class _Tags(BaseModel):
        tags: list[str] = Field(default_factory=list)

    class _Filtered(BaseModel):
        model_config = ConfigDict(extra="ignore")
        status: MemoryStatus = MemoryStatus.ACTIVE
        meta: _Tags = Field(default_factory=_Tags)

    read: Callable[[bytes], _Decided] = _Filtered.__pydantic_validator__.validate_json
    return read


class AllowedPool(Collection[str]):
    """The ids of ``memories`` whose status is one of ``statuses`` (None: any) and that hold one
    of ``tags`` (empty: any), each decided when first asked and remembered."""

    def __init__(self, memories: Mapping[str, Memory],
                 statuses: tuple[MemoryStatus, ...] | None, tags: set[str]):
        self.memories = memories
        self.statuses = statuses
        self.tags = tags
        self._decided: dict[str, bool] = {}

    def allows(self, memory: Memory | _Decided) -> bool:
        return (self.statuses is None or memory.status in self.statuses) and (
            not self.tags or not self.tags.isdisjoint(memory.meta.tags))

    def __contains__(self, memory_id: object) -> bool:
        if not isinstance(memory_id, str):
            return False
        decided = self._decided.get(memory_id)
        if decided is None:
            decided = self._decided[memory_id] = self._decide(memory_id)
        return decided

    def _decide(self, memory_id: str) -> bool:
        if memory_id not in self.memories:
            return False
        held = getattr(self.memories, "held", None)
        value = held(memory_id) if held is not None else None
        if type(value) is bytes:
            return self.allows(_read_filtered()(value))
        return self.allows(self.memories[memory_id])

    def forget(self, ids: Iterable[str]) -> None:
        """Decide these again when next asked (their memories changed)."""
        for memory_id in ids:
            self._decided.pop(memory_id, None)

    def __len__(self) -> int:
        """At most this many (every memory): the exact count would parse them all."""
        return len(self.memories)

    def __iter__(self) -> Iterator[str]:
        return (i for i in list(self.memories) if i in self)


class KeptPool:
    """The pool of the last search, kept for the next one of the same memories, statuses and
    tags with its decisions on the memories changed since forgotten: a memory is decided once,
    not once a search. A new pool when what changed is not known."""

    def __init__(self) -> None:
        self.pool: AllowedPool | None = None
        self.version: int | None = None

    def pool_for(self, memories: Mapping[str, Memory],
                 statuses: tuple[MemoryStatus, ...] | None, tags: set[str]) -> AllowedPool:
        kept, now = self.pool, getattr(memories, "version", None)
        changed_since = getattr(memories, "changed_since", None)
        same = kept is not None and kept.memories is memories and kept.tags == tags and (
            None if kept.statuses is None else set(kept.statuses)) == (
            None if statuses is None else set(statuses))
        if kept is not None and same and isinstance(self.version, int) and changed_since:
            changed = changed_since(self.version)
            if changed is not None:
                kept.forget(changed)
                self.version = now
                return kept
        self.pool, self.version = AllowedPool(memories, statuses, tags), now
        return self.pool


def allowed_ids(vault: Any, memories: Mapping[str, Memory], query: Query,
                statuses: Iterable[MemoryStatus | str] | None, tags: Iterable[str] | None,
                now: int) -> set[str]:
    """The ids of ``memories`` the statuses, tags and filter terms of ``query`` allow (every
    memory read: :class:`AllowedPool` asks one at a time)."""
    wanted, tag_set = filters(query, statuses, tags)
    allow = wanted or ()
    if tag_set:
        pool = [m for m in memories.values() if not tag_set.isdisjoint(m.meta.tags)
                and (wanted is None or m.status in allow)]
    elif wanted is not None:
        pool = [m for m in memories.values() if m.status in allow]
    else:
        pool = list(memories.values())
    if all(t.is_text for t in query.terms):  # no filter term: nothing more to test
        return {m.id for m in pool}
    chosen = select(query, pool, now, score_of=lambda m: vault.score(m, now),
                    relations_of=lambda m: len(vault.relations_of(m.id)), text=False)
    return {m.id for m in chosen}


def filters(query: Query, statuses: Iterable[MemoryStatus | str] | None,
            tags: Iterable[str] | None) -> tuple[tuple[MemoryStatus, ...] | None, set[str]]:
    """The statuses allowed (None: any; a tuple: enum members compare by identity, no hashing)
    and the tags (any of them; empty: any)."""
    wanted = None if statuses is None else {MemoryStatus(s) for s in statuses}
    if wanted is None and query.statuses is None:
        wanted = {MemoryStatus.ACTIVE}
    if wanted is not None and len(wanted) == len(MemoryStatus):
        wanted = None
    return (None if wanted is None else tuple(wanted)), set(tags or ())
