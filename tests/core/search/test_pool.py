"""The status and tag filter a search asks one candidate at a time (core.search.pool): over a
vault still held as bytes, a memory is decided once, not once a search, and again when it
changes."""

from __future__ import annotations

from core.model.records import Memory, MemoryMetadata, MemoryStatus
from core.search.pool import KeptPool
from core.store.lazy import LazyRecords


def _records(count: int) -> tuple[LazyRecords[Memory], list[str]]:
    """Memories held as their bytes, and the ids of every parse the filter asks for."""
    read: list[str] = []

    def make(body: bytes) -> Memory:
        memory = Memory.model_validate_json(body)
        read.append(memory.id)
        return memory

    records: LazyRecords[Memory] = LazyRecords(make)
    records.fill({f"m{i}": Memory(id=f"m{i}", content=f"note {i}", created_at=1, last_used=1,
                                  meta=MemoryMetadata(tags=["a"])).model_dump_json().encode()
                  for i in range(count)})
    return records, read


def test_the_next_search_keeps_the_decisions_of_the_last(monkeypatch):
    records, _ = _records(4)
    pools = KeptPool()
    decided: list[str] = []
    first = pools.pool_for(records, (MemoryStatus.ACTIVE,), set())
    decide = type(first)._decide
    monkeypatch.setattr(type(first), "_decide",
                        lambda pool, i: decided.append(i) or decide(pool, i))
    assert all(f"m{i}" in first for i in range(4))
    again = pools.pool_for(records, (MemoryStatus.ACTIVE,), set())
    assert all(f"m{i}" in again for i in range(4))
    assert sorted(decided) == ["m0", "m1", "m2", "m3"]  # each once, over both searches


def test_a_memory_changed_since_is_decided_again(monkeypatch):
    records, _ = _records(3)
    pools = KeptPool()
    pool = pools.pool_for(records, (MemoryStatus.ACTIVE,), set())
    assert "m1" in pool and "m2" in pool
    records["m1"] = records["m1"].model_copy(update={"status": MemoryStatus.ARCHIVED})
    del records["m2"]
    pool = pools.pool_for(records, (MemoryStatus.ACTIVE,), set())
    assert "m1" not in pool and "m2" not in pool and "m0" in pool


def test_other_statuses_or_tags_make_a_new_pool():
    records, _ = _records(2)
    pools = KeptPool()
    active = pools.pool_for(records, (MemoryStatus.ACTIVE,), set())
    assert pools.pool_for(records, (MemoryStatus.ACTIVE,), {"b"}) is not active
    tagged = pools.pool_for(records, (MemoryStatus.ACTIVE,), {"b"})
    assert "m0" not in tagged
    assert pools.pool_for(records, None, {"b"}) is not tagged
