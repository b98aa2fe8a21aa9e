"""PerFileStorage is a drop-in for CortexGraph 1.2.1's JSONLStorage: the same public methods,
parameter names, defaults and order, the same errors and return values.

The expected signatures below were read from cortexgraph 1.2.1
(``cortexgraph/storage/jsonl_storage.py``) and are written here as data: the tests do not import
cortexgraph.
"""

from __future__ import annotations

import asyncio
import inspect
import json

import pytest

from core import (
    KnowledgeGraph,
    Memory,
    MemoryMetadata,
    MemoryStatus,
    PerFileStorage,
    Relation,
    Vault,
)
from core.model.records import now_epoch

REQ = object()  # a required parameter
ACTIVE = "MemoryStatus.ACTIVE"

# method -> (is async, [(parameter, default)]) for JSONLStorage 1.2.1; every parameter is
# POSITIONAL_OR_KEYWORD and ``self`` comes first. PerFileStorage may add keyword-only parameters
# with defaults (``models``), which no JSONLStorage caller can be passing.
JSONL_STORAGE_1_2_1 = {
    "__init__": (False, [("storage_path", None)]),
    "connect": (False, []),
    "close": (False, []),
    "__enter__": (False, []),
    "__exit__": (False, [("exc_type", REQ), ("exc_val", REQ), ("exc_tb", REQ)]),
    "save_memory": (False, [("memory", REQ)]),
    "save_memories_batch": (False, [("memories", REQ)]),
    "get_memory": (False, [("memory_id", REQ)]),
    "update_memory": (False, [
        ("memory_id", REQ), ("last_used", None), ("use_count", None), ("strength", None),
        ("status", None), ("promoted_at", None), ("promoted_to", None),
        ("review_priority", None), ("last_review_at", None), ("review_count", None),
        ("cross_domain_count", None)]),
    "delete_memory": (False, [("memory_id", REQ)]),
    "delete_memories_batch": (False, [("memory_ids", REQ)]),
    "list_memories": (False, [("status", None), ("limit", None), ("offset", 0)]),
    "count_memories": (False, [("status", None)]),
    "search_memories": (False, [("query", None), ("tags", None), ("status", ACTIVE),
                                ("window_days", None), ("limit", 10)]),
    "get_all_embeddings": (False, []),
    "create_relation": (False, [("relation", REQ)]),
    "create_relations_batch": (False, [("relations", REQ)]),
    "get_relations": (False, [("from_memory_id", None), ("to_memory_id", None),
                              ("relation_type", None)]),
    "get_all_relations": (False, []),
    "delete_relation": (False, [("relation_id", REQ)]),
    "get_knowledge_graph": (False, [("status", ACTIVE)]),
    "get_storage_stats": (False, []),
    "save_memory_async": (True, [("memory", REQ)]),
    "compact": (False, []),
}


@pytest.mark.parametrize("name", JSONL_STORAGE_1_2_1)
def test_signature_matches_jsonl_storage(name):
    is_async, expected = JSONL_STORAGE_1_2_1[name]
    method = getattr(PerFileStorage, name)
    assert inspect.iscoroutinefunction(method) == is_async
    params = list(inspect.signature(method).parameters.values())
    assert params[0].name == "self"
    got = []
    extra = [p for p in params[1:] if p.kind == inspect.Parameter.KEYWORD_ONLY]
    assert all(p.default is not inspect.Parameter.empty for p in extra)
    assert [p.name for p in extra] == (["models"] if name == "__init__" else [])
    for p in params[1:]:
        if p in extra:
            continue
        assert p.kind == inspect.Parameter.POSITIONAL_OR_KEYWORD, (name, p.name)
        if p.default is inspect.Parameter.empty:
            got.append((p.name, REQ))
        elif p.default is MemoryStatus.ACTIVE:
            got.append((p.name, ACTIVE))
        else:
            got.append((p.name, p.default))
    assert got == expected


def test_storage_path_properties(tmp_path):
    s = PerFileStorage(storage_path=tmp_path / "v")
    assert s.storage_path == tmp_path / "v"
    assert s.storage_dir == tmp_path / "v"
    s.storage_path = tmp_path / "w"
    assert s.storage_path == tmp_path / "w"
    s2 = PerFileStorage(tmp_path / "positional")
    assert s2.storage_path == tmp_path / "positional"


def test_default_path_from_env(tmp_path, monkeypatch):
    monkeypatch.setenv("CORTEXGRAPH_STORAGE_PATH", str(tmp_path / "cg"))
    assert PerFileStorage().storage_path == tmp_path / "cg"
    monkeypatch.setenv("MEMVAULT_PATH", str(tmp_path / "mv"))
    assert PerFileStorage().storage_path == tmp_path / "mv"


def test_models_importable_from_core():
    import core

    for name in ("Memory", "MemoryMetadata", "MemoryStatus", "Relation", "KnowledgeGraph",
                 "PerFileStorage"):
        assert name in core.__all__ and getattr(core, name) is not None


def _mem(i, **kw):
    return Memory(id=f"m{i}", content=kw.pop("content", f"memory number {i}"), **kw)


CALLS = {
    "save_memory": lambda s: s.save_memory(_mem(1)),
    "save_memories_batch": lambda s: s.save_memories_batch([_mem(1)]),
    "get_memory": lambda s: s.get_memory("m1"),
    "update_memory": lambda s: s.update_memory("m1", use_count=2),
    "delete_memory": lambda s: s.delete_memory("m1"),
    "delete_memories_batch": lambda s: s.delete_memories_batch(["m1"]),
    "list_memories": lambda s: s.list_memories(),
    "count_memories": lambda s: s.count_memories(),
    "search_memories": lambda s: s.search_memories("x"),
    "get_all_embeddings": lambda s: s.get_all_embeddings(),
    "create_relation": lambda s: s.create_relation(
        Relation(id="r1", from_memory_id="m1", to_memory_id="m1", relation_type="related")),
    "create_relations_batch": lambda s: s.create_relations_batch([
        Relation(id="r1", from_memory_id="m1", to_memory_id="m1", relation_type="related")]),
    "get_relations": lambda s: s.get_relations(),
    "get_all_relations": lambda s: s.get_all_relations(),
    "delete_relation": lambda s: s.delete_relation("r1"),
    "get_knowledge_graph": lambda s: s.get_knowledge_graph(),
    "get_storage_stats": lambda s: s.get_storage_stats(),
    "save_memory_async": lambda s: asyncio.run(s.save_memory_async(_mem(1))),
}


@pytest.mark.parametrize("name", CALLS)
def test_not_connected(tmp_path, name):
    s = PerFileStorage(storage_path=tmp_path / "v")
    with pytest.raises(RuntimeError, match="^Storage not connected$"):
        CALLS[name](s)
    s.connect()
    s.save_memory(_mem(1))
    s.close()
    with pytest.raises(RuntimeError, match="^Storage not connected$"):
        CALLS[name](s)


@pytest.fixture
def storage(tmp_path):
    s = PerFileStorage(storage_path=tmp_path / "store")
    s.connect()
    yield s
    s.close()


def _commits(s):
    return int(s.vault.journal.commands.output("rev-list", "--count", "HEAD"))


def test_save_get_update(storage):
    assert storage.get_memory("nope") is None
    assert storage.update_memory("nope", use_count=3) is False
    m = _mem(1, meta=MemoryMetadata(tags=["a"]))
    before = _commits(storage)
    assert storage.save_memory(m) is None
    assert _commits(storage) == before + 1
    assert storage.get_memory("m1") == m
    assert storage.update_memory("m1", last_used=123, use_count=4, strength=1.7,
                                 status=MemoryStatus.PROMOTED, promoted_at=124,
                                 promoted_to="notes/x.md", review_priority=0.3,
                                 last_review_at=125, review_count=2, cross_domain_count=1) is True
    got = storage.get_memory("m1")
    assert (got.last_used, got.use_count, got.strength, got.status, got.promoted_at,
            got.promoted_to, got.review_priority, got.last_review_at, got.review_count,
            got.cross_domain_count) == (123, 4, 1.7, MemoryStatus.PROMOTED, 124, "notes/x.md",
                                        0.3, 125, 2, 1)
    assert _commits(storage) == before + 2
    assert storage.update_memory("m1") is True  # nothing to change: no commit
    assert _commits(storage) == before + 2
    # a second object on the same folder sees it
    other = PerFileStorage(storage_path=storage.storage_path)
    other.connect()
    assert other.get_memory("m1") == got


def test_save_memories_batch_one_commit(storage):
    before = _commits(storage)
    storage.save_memories_batch([_mem(i) for i in range(20)])
    assert _commits(storage) == before + 1
    assert storage.count_memories() == 20
    storage.save_memories_batch([])
    assert _commits(storage) == before + 1


def test_delete(storage):
    storage.save_memories_batch([_mem(i) for i in range(5)])
    storage.create_relation(Relation(id="r01", from_memory_id="m0", to_memory_id="m1",
                                     relation_type="related"))
    assert storage.delete_memory("unknown") is False
    assert storage.delete_memory("m0") is True
    assert storage.get_memory("m0") is None
    assert storage.get_all_relations() == []  # the per-file spec removes dangling relations
    assert storage.delete_memories_batch(["m1", "unknown", "m2"]) == 2
    assert storage.delete_memories_batch([]) == 0
    assert storage.delete_memories_batch(["unknown"]) == 0
    assert storage.delete_memories_batch(["m3", "m3"]) == 1
    assert [m.id for m in storage.list_memories()] == ["m4"]


def test_list_memories_sorted_and_paged(storage):
    now = now_epoch()
    mems = [_mem(i, last_used=now - i * 100, created_at=now - 10_000) for i in range(8)]
    mems[3] = mems[3].model_copy(update={"status": MemoryStatus.ARCHIVED})
    storage.save_memories_batch(list(reversed(mems)))
    ids = [m.id for m in storage.list_memories()]
    assert ids == [f"m{i}" for i in range(8)]  # last_used, newest first
    assert [m.id for m in storage.list_memories(limit=3)] == ids[:3]
    assert [m.id for m in storage.list_memories(limit=3, offset=2)] == ids[2:5]
    assert [m.id for m in storage.list_memories(offset=6)] == ids[6:]
    assert [m.id for m in storage.list_memories(status=MemoryStatus.ARCHIVED)] == ["m3"]
    assert len(storage.list_memories(status=MemoryStatus.ACTIVE)) == 7
    assert storage.count_memories() == 8
    assert storage.count_memories(MemoryStatus.ARCHIVED) == 1
    assert storage.count_memories(status=MemoryStatus.PROMOTED) == 0


def test_search_memories(storage):
    now = now_epoch()
    storage.save_memories_batch([
        _mem(1, content="Postgres upgrade scheduled", meta=MemoryMetadata(tags=["db"]),
             last_used=now),
        _mem(2, content="The postgres UPGRADE went fine", meta=MemoryMetadata(tags=["db"]),
             last_used=now - 100),
        _mem(3, content="archived postgres upgrade note", status=MemoryStatus.ARCHIVED,
             last_used=now - 50),
        _mem(4, content="old postgres upgrade", last_used=now - 40 * 86400),
        _mem(5, content="dark mode", meta=MemoryMetadata(tags=["ui"]), last_used=now - 10),
    ])
    # default status ACTIVE; query is one case-insensitive substring of the content
    assert [m.id for m in storage.search_memories("postgres upgrade")] == ["m1", "m2", "m4"]
    assert [m.id for m in storage.search_memories("GRADE SCHED")] == ["m1"]
    assert storage.search_memories("upgrade postgres") == []  # a substring, not words
    assert storage.search_memories("db") == []  # tags are not searched by the query
    assert [m.id for m in storage.search_memories(status=None)][:2] == ["m1", "m5"]
    assert {m.id for m in storage.search_memories("upgrade", status=None)} == {"m1", "m2", "m3",
                                                                               "m4"}
    assert [m.id for m in storage.search_memories(
        "upgrade", status=[MemoryStatus.ARCHIVED])] == ["m3"]
    assert [m.id for m in storage.search_memories(tags=["db"])] == ["m1", "m2"]
    assert [m.id for m in storage.search_memories(tags=["ui", "db"])] == ["m1", "m5", "m2"]
    assert [m.id for m in storage.search_memories("upgrade", window_days=7)] == ["m1", "m2"]
    assert len(storage.search_memories("postgres", limit=1)) == 1


def test_search_memories_default_limit_is_ten(storage):
    storage.save_memories_batch([_mem(i) for i in range(15)])
    assert len(storage.search_memories()) == 10
    assert len(storage.search_memories(limit=12)) == 12


def test_embeddings(storage):
    storage.save_memories_batch([
        _mem(1, embed=[0.1, 0.2]),
        _mem(2, embed=[0.3, 0.4], status=MemoryStatus.ARCHIVED),
        _mem(3),
    ])
    assert storage.get_all_embeddings() == {"m1": [0.1, 0.2]}


def test_relations(storage):
    storage.save_memories_batch([_mem(i) for i in range(3)])
    r1 = Relation(id="r1", from_memory_id="m0", to_memory_id="m1", relation_type="related")
    r2 = Relation(id="r2", from_memory_id="m1", to_memory_id="m2", relation_type="causes")
    r3 = Relation(id="r3", from_memory_id="m0", to_memory_id="m2", relation_type="any_custom_type")
    assert storage.create_relation(r1) is None
    before = _commits(storage)
    storage.create_relations_batch([r2, r3])  # any type is accepted by the storage API
    assert _commits(storage) == before + 1
    assert {r.id for r in storage.get_all_relations()} == {"r1", "r2", "r3"}
    assert {r.id for r in storage.get_relations(from_memory_id="m0")} == {"r1", "r3"}
    assert {r.id for r in storage.get_relations(to_memory_id="m2")} == {"r2", "r3"}
    assert [r.id for r in storage.get_relations(relation_type="causes")] == ["r2"]
    assert [r.id for r in storage.get_relations("m0", "m2", "any_custom_type")] == ["r3"]
    assert storage.delete_relation("r1") is True
    assert storage.delete_relation("r1") is False
    assert storage.delete_relation("unknown") is False
    assert {r.id for r in storage.get_all_relations()} == {"r2", "r3"}


def test_create_relation_missing_endpoints(storage):
    storage.save_memory(_mem(1))
    before = _commits(storage)
    with pytest.raises(ValueError, match="Source memory nope does not exist"):
        storage.create_relation(Relation(id="r", from_memory_id="nope", to_memory_id="m1",
                                         relation_type="related"))
    with pytest.raises(ValueError, match="Target memory nope does not exist"):
        storage.create_relation(Relation(id="r", from_memory_id="m1", to_memory_id="nope",
                                         relation_type="related"))
    ok = Relation(id="ok", from_memory_id="m1", to_memory_id="m1", relation_type="related")
    bad = Relation(id="bad", from_memory_id="m1", to_memory_id="nope", relation_type="related")
    with pytest.raises(ValueError):
        storage.create_relations_batch([ok, bad])  # checked before anything is written
    assert storage.get_all_relations() == []
    assert _commits(storage) == before
    assert not any((storage.storage_path / "relations").iterdir())


def test_knowledge_graph_and_stats(storage):
    storage.save_memories_batch([_mem(1), _mem(2), _mem(3, status=MemoryStatus.ARCHIVED)])
    storage.create_relation(Relation(id="r1", from_memory_id="m1", to_memory_id="m2",
                                     relation_type="related"))
    graph = storage.get_knowledge_graph()
    assert isinstance(graph, KnowledgeGraph)
    assert {m.id for m in graph.memories} == {"m1", "m2"}
    assert [r.id for r in graph.relations] == ["r1"]
    assert graph.stats["total_memories"] == 2 and graph.stats["total_relations"] == 1
    assert graph.stats["status_filter"] == "active"
    assert 0 < graph.stats["avg_score"] <= 1.0 and graph.stats["avg_use_count"] == 0
    everything = storage.get_knowledge_graph(status=None)
    assert len(everything.memories) == 3 and everything.stats["status_filter"] == "all"
    stats = storage.get_storage_stats()
    assert set(stats) == {"memories", "relations", "should_compact"}
    for key in ("memories", "relations"):
        assert set(stats[key]) == {"active", "total_lines", "file_size_bytes",
                                   "compaction_savings"}
    assert stats["memories"]["active"] == 3 and stats["relations"]["active"] == 1
    assert stats["memories"]["file_size_bytes"] > 0
    assert stats["should_compact"] is False
    assert storage.compact()["memories_after"] == 3


def test_save_memory_async(storage):
    before = _commits(storage)

    async def go():
        await storage.save_memory_async(_mem(1))
        await storage.save_memory_async(_mem(2))

    asyncio.run(go())
    assert _commits(storage) == before + 2
    assert storage.get_memory("m2").content == "memory number 2"
    reopened = PerFileStorage(storage_path=storage.storage_path)
    reopened.connect()
    assert reopened.get_memory("m1") == storage.get_memory("m1")
    assert (storage.storage_path / "memories" / "m1.json").exists()


def test_context_manager(tmp_path):
    path = tmp_path / "ctx"
    with PerFileStorage(storage_path=path) as s:
        assert isinstance(s, PerFileStorage)
        s.save_memory(_mem(1))
    with pytest.raises(RuntimeError, match="Storage not connected"):
        s.get_memory("m1")
    with PerFileStorage(storage_path=path) as again:
        assert again.get_memory("m1").content == "memory number 1"


def test_connect_is_idempotent_and_reconnect_reads_disk(tmp_path):
    s = PerFileStorage(storage_path=tmp_path / "v")
    s.connect()
    s.connect()
    s.save_memory(_mem(1))
    s.close()
    s.close()
    s.connect()
    assert s.get_memory("m1") is not None


# -- the CortexGraph fixture set -----------------------------------------------------------------
def test_fixture_records_round_trip(tmp_path, cortexgraph_expected, git_tools):
    memories = [Memory.model_validate(r) for r in cortexgraph_expected["memories"].values()]
    relations = [Relation.model_validate(r) for r in cortexgraph_expected["relations"].values()]
    path = tmp_path / "from-fixture"
    with PerFileStorage(storage_path=path) as s:
        s.save_memories_batch(memories)
        known = set(s.memories)
        linked = [r for r in relations if {r.from_memory_id, r.to_memory_id} <= known]
        dangling = [r for r in relations if r not in linked]
        assert linked and dangling  # the fixture has both kinds
        with pytest.raises(ValueError, match="does not exist"):
            s.create_relations_batch(relations)
        assert s.get_all_relations() == []
        s.create_relations_batch(linked)
        s.vault.save_relations(dangling)  # the vault API writes any relation record

    with PerFileStorage(storage_path=path) as s:
        assert s.count_memories() == len(cortexgraph_expected["memories"])
        for mid, record in cortexgraph_expected["memories"].items():
            got = s.get_memory(mid)
            assert got is not None, mid
            dumped = got.model_dump(mode="json")
            # saving may add a gist (the per-file spec's summary; CortexGraph has no such key),
            # everything else reads back exactly
            gist = dumped.pop("gist")
            assert gist is None or (isinstance(gist, str) and gist.strip())
            expected = Memory.model_validate(record).model_dump(mode="json")
            expected.pop("gist")
            assert dumped == expected, mid
            for key, value in record.items():  # every CortexGraph key, value for value
                assert dumped[key] == value, (mid, key)
        got_rel = {r.id: r.model_dump(mode="json") for r in s.get_all_relations()}
        assert got_rel == cortexgraph_expected["relations"]
        assert s.vault.problems == []
        git_tools.assert_consistent(s.vault)
    # each file is the record, pretty-printed
    some = next(iter(cortexgraph_expected["memories"]))
    text = (path / "memories" / f"{some}.json").read_text("utf-8")
    assert text.startswith("{\n  ")
    assert json.loads(text)["content"] == cortexgraph_expected["memories"][some]["content"]
    # and a Vault opened on it sees the same
    v = Vault.open(path)
    assert len(v.memories) == len(cortexgraph_expected["memories"])
    assert len(v.relations) == len(cortexgraph_expected["relations"])


def test_moving_a_connected_storage_reopens_it_at_the_new_place(tmp_path):
    """JSONLStorage lets storage_path change on a live object; so does PerFileStorage: it
    closes and opens again there, and what was written stays where it was written."""
    s = PerFileStorage(storage_path=tmp_path / "one")
    s.connect()
    s.save_memory(Memory(id="m-one", content="written in the first folder"))
    s.storage_path = tmp_path / "two"
    assert s.storage_path == tmp_path / "two"
    assert s.get_memory("m-one") is None  # a new, empty vault
    s.save_memory(Memory(id="m-two", content="written in the second folder"))
    assert (tmp_path / "two" / "memories" / "m-two.json").exists()
    assert (tmp_path / "one" / "memories" / "m-one.json").exists()
    assert not (tmp_path / "one" / "memories" / "m-two.json").exists()
    s.close()


class _ForeignMeta(__import__("pydantic").BaseModel):
    """A stand-in for CortexGraph's own models: another class, the same field names, no gist."""

    tags: list[str] = []
    source: str | None = None
    context: str | None = None
    extra: dict = {}


class _ForeignMemory(__import__("pydantic").BaseModel):
    id: str
    content: str
    meta: _ForeignMeta = _ForeignMeta()
    created_at: int = 1_700_000_000
    last_used: int = 1_700_000_000
    use_count: int = 0
    strength: float = 1.0
    status: str = "active"
    entities: list[str] = []
    a_field_from_a_newer_cortexgraph: str = "kept"


class _ForeignRelation(__import__("pydantic").BaseModel):
    id: str
    from_memory_id: str
    to_memory_id: str
    relation_type: str
    strength: float = 1.0
    created_at: int = 1_700_000_000
    metadata: dict = {}


def test_takes_objects_with_cortexgraphs_field_names_and_dicts(tmp_path):
    """CortexGraph's tools hand in their own Memory and Relation objects; they used to fail with
    AttributeError: 'Memory' object has no attribute 'gist'."""
    s = PerFileStorage(storage_path=tmp_path / "v")
    s.connect()
    long_text = ("The staging database lives on db-2 and is restored from production every "
                 "night at two; the restore takes forty minutes and blocks the nightly tests, "
                 "so the test job waits for the restore flag before it starts anything.")
    s.save_memory(_ForeignMemory(id="cg-1", content=long_text, meta=_ForeignMeta(tags=["db"])))
    s.save_memories_batch([{"id": "cg-2", "content": "a dict with the same field names"}])
    s.create_relation(_ForeignRelation(id="r-1", from_memory_id="cg-1", to_memory_id="cg-2",
                                       relation_type="related"))
    saved = s.get_memory("cg-1")
    assert saved.meta.tags == ["db"] and saved.gist  # a gist was made, as for our own records
    on_disk = json.loads((tmp_path / "v" / "memories" / "cg-1.json").read_text())
    assert on_disk["a_field_from_a_newer_cortexgraph"] == "kept"
    assert s.get_memory("cg-2").content == "a dict with the same field names"
    assert [r.id for r in s.get_relations(from_memory_id="cg-1")] == ["r-1"]
    with pytest.raises(TypeError, match="not int"):
        s.save_memory(42)
    s.close()
