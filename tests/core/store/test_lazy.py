"""Records held as bytes until first read (``core.store.lazy``) and the cache over them
(``core.store.cache.Store``): a full mapping that only ever hands out parsed records, and
indexes (tags, relations of a memory) that are made on first use and then kept up to date."""

from __future__ import annotations

import pytest

from core import Memory, Relation
from core.model.records import MemoryMetadata
from core.store.cache import Store
from core.store.lazy import LazyRecords


def _memory(i: int, tags: list[str]) -> Memory:
    return Memory(id=f"m{i:04d}", content=f"memory {i}", meta=MemoryMetadata(tags=tags),
                  created_at=1000 + i, last_used=2000 + i)


def _relation(i: int, a: str, b: str) -> Relation:
    return Relation(id=f"r{i:04d}", from_memory_id=a, to_memory_id=b, relation_type="related",
                    created_at=3000 + i)


def _bytes(record) -> bytes:
    return record.model_dump_json(indent=2).encode()


@pytest.fixture
def parsed():
    """A LazyRecords of memories counting each parse."""
    calls: list[bytes] = []

    def make(body: bytes) -> Memory:
        calls.append(body)
        return Memory.model_validate_json(body)

    records: LazyRecords[Memory] = LazyRecords(make)
    return records, calls


def test_a_record_is_parsed_on_first_read_and_only_once(parsed):
    records, calls = parsed
    made = [_memory(i, ["a"]) for i in range(3)]
    records.fill({m.id: _bytes(m) for m in made})
    assert len(records) == 3 and records.raw == 3 and calls == []
    assert "m0001" in records and "nope" not in records
    assert list(records) == ["m0000", "m0001", "m0002"]  # ids without parsing
    assert calls == []
    assert records["m0001"] == made[1]
    assert records.get("m0001") is records["m0001"]
    assert len(calls) == 1 and records.raw == 2
    assert records.get("nope") is None and records.get("nope", made[0]) is made[0]
    with pytest.raises(KeyError):
        records["nope"]


def test_every_way_of_reading_them_all_hands_out_records_never_bytes(parsed):
    records, calls = parsed
    made = {m.id: m for m in (_memory(i, []) for i in range(4))}
    records.fill({m.id: _bytes(m) for m in made.values()})
    assert dict(records) == made
    records2: LazyRecords[Memory] = LazyRecords(Memory.model_validate_json)
    records2.fill({m.id: _bytes(m) for m in made.values()})
    assert list(records2.values()) == list(made.values())
    assert records2.raw == 0 and all(isinstance(v, Memory) for v in records2.values())
    records3: LazyRecords[Memory] = LazyRecords(Memory.model_validate_json)
    records3.fill({m.id: _bytes(m) for m in made.values()})
    assert dict(records3.items()) == made and records3 == made
    assert records3 == records2
    assert len(calls) == 4  # each parsed once by dict(records)


def test_writes_and_removals_keep_the_count_of_records_not_parsed(parsed):
    records, _ = parsed
    a, b, c = (_memory(i, []) for i in range(3))
    records.fill({m.id: _bytes(m) for m in (a, b, c)})
    records[a.id] = a  # replaced before being read
    assert records.raw == 2 and records[a.id] is a
    del records[b.id]
    assert records.raw == 1 and b.id not in records
    assert records.pop(c.id) == c and records.raw == 0 and len(records) == 1
    assert records.pop("nope", None) is None
    assert list(records.values()) == [a]
    with pytest.raises(ValueError):
        records.fill({b.id: _bytes(b)})  # only an empty mapping is filled at once
    empty: LazyRecords[Memory] = LazyRecords(Memory.model_validate_json)
    empty.fill({b.id: _bytes(b), c.id: _bytes(c)})
    assert empty.raw == 2 and list(empty) == [b.id, c.id] and empty[c.id] == c


def _filled(memories, relations, raw: bool) -> Store:
    store = Store()
    if raw:
        store.fill_raw({m.id: _bytes(m) for m in memories}, {r.id: _bytes(r) for r in relations})
        return store
    for m in memories:
        store.put_memory(m)
    for r in relations:
        store.put_relation(r)
    return store


def _views(store: Store) -> tuple:
    return (store.tags(), {i: [r.id for r in store.relations_of(i)] for i in store.memories},
            [m.id for m in store.search(tags=["b"], sort="created")])


def test_a_store_of_bytes_answers_as_a_store_of_records():
    memories = [_memory(i, [["a"], ["b"], ["a", "b"], []][i % 4]) for i in range(12)]
    relations = [_relation(i, memories[i].id, memories[(i * 5) % 12].id) for i in range(8)]
    raw, parsed = _filled(memories, relations, True), _filled(memories, relations, False)
    assert raw.memories.raw == 12 and raw.relations.raw == 8
    assert raw.resolve("m0003") == "m0003" and raw.memories.raw == 12  # an id, nothing parsed
    assert _views(raw) == _views(parsed)
    # then the same changes to both: the indexes made on first use follow every put and drop
    for store in (raw, parsed):
        store.put_memory(_memory(1, ["c"]))
        store.drop_memory("m0002")
        store.put_memory(_memory(40, ["b", "c"]))
        store.drop_relation("r0001")
        store.put_relation(_relation(1, "m0040", "m0003"))
        store.put_relation(_relation(2, "m0004", "m0040"))  # replaces r0002 (its ends change)
    assert _views(raw) == _views(parsed)
    assert raw.memories == parsed.memories and raw.relations == parsed.relations


def test_changes_before_the_indexes_are_made_are_in_them():
    memories = [_memory(i, ["a"] if i % 2 else ["b"]) for i in range(6)]
    relations = [_relation(i, memories[i].id, memories[i + 1].id) for i in range(4)]
    raw = _filled(memories, relations, True)
    raw.put_memory(_memory(0, ["z"]))
    raw.drop_memory("m0001")
    raw.drop_relation("r0000")
    assert raw.tags() == {"a": 2, "b": 2, "z": 1}
    assert [r.id for r in raw.relations_of("m0001")] == ["r0001"]
    assert raw.relations_of("m0000") == []


def test_threads_reading_at_once_never_see_bytes_and_count_each_record_once():
    import threading

    made = [_memory(i, []) for i in range(300)]
    for _round in range(5):
        records: LazyRecords[Memory] = LazyRecords(Memory.model_validate_json)
        records.fill({m.id: _bytes(m) for m in made})
        seen: list[object] = []
        start = threading.Barrier(3)

        def read_all() -> None:
            start.wait()
            seen.extend(records.values())

        def read_each() -> None:
            start.wait()
            seen.extend(records[m.id] for m in reversed(made))

        threads = [threading.Thread(target=f) for f in (read_all, read_each, read_all)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert records.raw == 0 and all(isinstance(v, Memory) for v in seen)
        assert list(records.values()) == made


USES = {
    "len": len, "iter": list, "in": lambda r: "m0000" in r, "get": lambda r: r.get("m0000"),
    "item": lambda r: r["m0000"], "values": lambda r: list(r.values()),
    "items": lambda r: dict(r.items()), "raw": lambda r: r.raw,
    "held": lambda r: r.held("m0000"), "changed_since": lambda r: r.changed_since(0),
    "set": lambda r: r.__setitem__("m0009", _memory(9, [])),
    "delete": lambda r: r.__delitem__("m0000"),
}


@pytest.mark.parametrize("use", list(USES))
def test_a_mapping_filled_later_is_filled_by_its_first_use_once(parsed, use):
    records, _ = parsed
    made = [_memory(i, ["a"]) for i in range(3)]
    loads: list[int] = []

    def load() -> None:
        loads.append(1)
        records.fill({m.id: _bytes(m) for m in made})

    records.fill_later(load)
    assert records.due and loads == [] and "filled on first use" in repr(records)
    USES[use](records)
    assert loads == [1] and not records.due
    assert len(records) == (2 if use == "delete" else 4 if use == "set" else 3)
    assert records["m0001"] == made[1] and loads == [1]


def test_a_load_that_fails_leaves_it_due_and_the_next_use_tries_again(parsed):
    records, _ = parsed
    tries: list[int] = []

    def load() -> None:
        tries.append(1)
        if len(tries) == 1:
            raise OSError("disk on fire")
        records.fill({"m0000": _bytes(_memory(0, []))})

    records.fill_later(load)
    with pytest.raises(OSError, match="on fire"):
        len(records)
    assert records.due
    assert list(records) == ["m0000"] and len(tries) == 2 and not records.due


def test_a_fill_takes_the_place_of_a_load_still_due(parsed):
    records, _ = parsed
    records.fill_later(lambda: pytest.fail("the load ran"))
    records.fill({"m0001": _bytes(_memory(1, []))})
    assert not records.due and list(records) == ["m0001"]


def test_fill_later_is_for_an_empty_mapping(parsed):
    records, _ = parsed
    records.fill({"m0000": _bytes(_memory(0, []))})
    with pytest.raises(ValueError, match="empty"):
        records.fill_later(lambda: None)


def _checked(key: str, body: bytes) -> Memory:
    """A memory made from bytes not known to be one of ``key`` (as an open with no index
    checks them): ValueError when they are not."""
    record = Memory.model_validate_json(body)
    if record.id != key:
        raise ValueError(f"id inside the file ({record.id!r}) differs from the file name")
    return record


def test_records_held_unchecked_never_show_a_file_that_is_no_record():
    good = [_memory(i, []) for i in range(3)]
    raw = {m.id: _bytes(m) for m in good}
    raw["m0100"] = b'{"id": "m0100", "content": "x", "use_count": -1}'
    raw["m0101"] = _bytes(good[0])  # a copy of another memory: its id is not the file's
    refused: list[tuple[str, str]] = []
    records: LazyRecords[Memory] = LazyRecords(Memory.model_validate_json)
    records.fill_unchecked(raw, _checked, lambda key, exc: refused.append((key, str(exc))))
    assert records.unchecked and records.raw == 5 and refused == []
    assert records["m0001"] == good[1] and records.raw == 4  # one read, one checked
    assert "m0100" not in records and records.get("m0100") is None
    assert [key for key, _ in refused] == ["m0100"] and "use_count" in refused[0][1]
    with pytest.raises(KeyError):
        records["m0101"]
    assert refused[1] == ("m0101", "id inside the file ('m0000') differs from the file name")
    assert records.unchecked  # m0000 and m0002 are not checked yet
    assert list(records) == ["m0000", "m0001", "m0002"] and len(records) == 3
    assert not records.unchecked and records.raw == 0 and len(refused) == 2
    assert list(records.values()) == good


def test_records_held_unchecked_are_all_checked_before_their_ids_are_shown():
    refused: list[str] = []
    good = _memory(2, [])
    for show in (len, list, lambda r: list(r.items()), lambda r: r.changed_since(0), dict):
        records: LazyRecords[Memory] = LazyRecords(Memory.model_validate_json)
        records.fill_unchecked({"m1": b"not json", good.id: _bytes(good)}, _checked,
                               lambda key, exc: refused.append(key))
        show(records)
        assert refused == ["m1"] and records.raw == 0 and not records.unchecked
        assert list(records) == [good.id] and "m1" not in records
        refused.clear()


def test_a_reader_that_found_bytes_just_before_every_record_was_checked_gets_the_check():
    """(Another thread checked them all between this reader's look at the value and its parse:
    the bytes it holds are still checked, never parsed as if known good.)"""
    good, bad = _memory(1, []), b'{"id": "m0002", "content": "x", "use_count": -1}'
    copy = _bytes(good)  # a file named m0003 holding m0001
    records: LazyRecords[Memory] = LazyRecords(Memory.model_validate_json)
    records.fill_unchecked({good.id: _bytes(good), "m0002": bad, "m0003": copy}, _checked,
                           lambda key, exc: None)
    found = dict(records._items)  # (what each reader found)
    records.settle()
    assert records._parse(good.id, found[good.id]) == good
    for key in ("m0002", "m0003"):
        with pytest.raises(KeyError):
            records._parse(key, found[key])


def test_a_mapping_filled_on_first_use_keeps_its_version_and_what_it_was_filled_with(parsed):
    """It stood for those records since ``fill_later`` (an open that reads the index's copies
    on the cache's first use: core/vault/later_copies.py): a reader that noted its version
    then sees only the changes made after, and finds what it held as it was filled."""
    records, _ = parsed
    made = [_memory(i, ["a"]) for i in range(3)]
    records.fill_later(lambda: records.fill({m.id: _bytes(m) for m in made}))
    version = records.version
    records["m0001"] = _memory(7, ["b"])  # (its first use: filled, then changed)
    del records["m0002"]
    assert records.changed_since(version) == {"m0001", "m0002"}  # (was None: all unknown)
    filled = records.as_filled()
    assert filled is not None and set(filled) == {"m0000", "m0001", "m0002"}
    assert Memory.model_validate_json(filled["m0001"]) == made[1]
    records_now: LazyRecords[Memory] = LazyRecords(Memory.model_validate_json)
    records_now.fill({"m0000": _bytes(made[0])})
    assert records_now.as_filled() is None  # (filled at once: nothing kept)
