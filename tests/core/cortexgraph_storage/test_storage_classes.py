"""PerFileStorage answers in the caller's classes: CortexGraph's when the program imported
them (models="auto"), or as ``models`` says; what CortexGraph's classes cannot carry survives a
record handed back. CortexGraph is not installed here: a stand-in module with its class names
sits where it would be imported from."""

from __future__ import annotations

import sys
import types

import pytest
from pydantic import BaseModel

from core import Memory, MemoryStatus, PerFileStorage, Relation, Vault


class CgMeta(BaseModel):
    tags: list[str] = []
    source: str | None = None
    context: str | None = None
    extra: dict = {}


class CgMemory(BaseModel):  # CortexGraph's shape: no gist, three statuses, extra keys ignored
    id: str
    content: str
    meta: CgMeta = CgMeta()
    created_at: int = 1_700_000_000
    last_used: int = 1_700_000_000
    use_count: int = 0
    strength: float = 1.0
    status: str = "active"
    entities: list[str] = []

    def model_post_init(self, _context) -> None:
        assert self.status in ("active", "promoted", "archived"), self.status


class CgRelation(BaseModel):
    id: str
    from_memory_id: str
    to_memory_id: str
    relation_type: str
    strength: float = 1.0
    created_at: int = 1_700_000_000
    metadata: dict = {}


class CgGraph(BaseModel):
    memories: list[CgMemory]
    relations: list[CgRelation]
    stats: dict = {}


@pytest.fixture
def cortexgraph_models(monkeypatch):
    module = types.ModuleType("cortexgraph.storage.models")
    module.Memory, module.Relation, module.KnowledgeGraph = CgMemory, CgRelation, CgGraph
    monkeypatch.setitem(sys.modules, "cortexgraph.storage.models", module)
    return module


LONG = ("The staging database lives on db-2 and is restored from production every night at two; "
        "the restore takes forty minutes and blocks the nightly tests, so the test job waits.")


def _filled(path) -> None:
    with PerFileStorage(path, models="memvault") as s:
        s.save_memory(Memory(id="m1", content=LONG, meta={"tags": ["db"], "colour": "blue"},
                             kept_key="from a newer writer"))
        s.save_memory(Memory(id="m2", content="short note", status=MemoryStatus.SUPERSEDED))
        s.create_relation(Relation(id="r1", from_memory_id="m1", to_memory_id="m2",
                                   relation_type="related"))


def test_ours_without_cortexgraph_imported(tmp_path):
    _filled(tmp_path / "v")
    with PerFileStorage(tmp_path / "v") as s:
        assert type(s.get_memory("m1")) is Memory
        assert type(s.get_knowledge_graph()).__module__ == "core.model.records"


def test_cortexgraphs_once_the_program_imported_them(tmp_path, cortexgraph_models):
    _filled(tmp_path / "v")
    with PerFileStorage(tmp_path / "v") as s:
        assert type(s.get_memory("m1")) is CgMemory
        assert {type(m) for m in s.list_memories()} == {CgMemory}
        assert {type(m) for m in s.memories.values()} == {CgMemory}
        assert {type(m) for m in s.search_memories(status=None)} == {CgMemory}
        assert [type(r) for r in s.get_relations(from_memory_id="m1")] == [CgRelation]
        assert [type(r) for r in s.get_all_relations()] == [CgRelation]
        assert type(s.get_knowledge_graph(status=None)) is CgGraph
        assert s.get_memory("m2").status == "archived"  # superseded, in CortexGraph's words
    with PerFileStorage(tmp_path / "v", models="memvault") as s:
        assert type(s.get_memory("m1")) is Memory


def test_handing_back_keeps_what_their_classes_cannot_carry(tmp_path, cortexgraph_models):
    _filled(tmp_path / "v")
    with PerFileStorage(tmp_path / "v") as s:
        gist = s.vault.get("m1").gist
        assert gist
        s.save_memory(s.get_memory("m1").model_copy(update={"use_count": 3}))
        s.save_memory(s.get_memory("m2"))
        back = s.vault.get("m1")
        assert back.use_count == 3 and back.gist == gist
        assert back.model_extra["kept_key"] == "from a newer writer"
        assert back.meta.model_extra["colour"] == "blue"
        assert s.vault.get("m2").status == MemoryStatus.SUPERSEDED
        s.save_memory(s.get_memory("m1").model_copy(update={"content": "a new text"}))
        assert s.vault.get("m1").gist is None  # the old gist no longer describes it
        s.create_relation(s.get_relations(from_memory_id="m1")[0].model_copy(
            update={"strength": 0.5}))
        again = s.vault.relations["r1"]
        assert again.strength == 0.5 and again.relation_type == "related"
        s.save_memory(s.get_memory("m2").model_copy(update={"status": "active"}))
        assert s.vault.get("m2").status == MemoryStatus.ACTIVE  # a real change is taken


def test_models_argument(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="models must be one of"):
        PerFileStorage(tmp_path / "v", models="pydantic")
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    with pytest.raises(ImportError, match="needs CortexGraph installed"):
        PerFileStorage(tmp_path / "v", models="cortexgraph")


def test_models_cortexgraph_imports_them_lazily(tmp_path, monkeypatch, cortexgraph_models):
    monkeypatch.setattr("importlib.util.find_spec", lambda name: object())
    monkeypatch.delitem(sys.modules, "cortexgraph.storage.models")
    imported = []

    def fake_import(name):
        imported.append(name)
        return cortexgraph_models

    monkeypatch.setattr("importlib.import_module", fake_import)
    s = PerFileStorage(tmp_path / "v", models="cortexgraph")
    assert imported == []  # nothing imported before an answer needs it
    s.connect()
    other = Vault.open(tmp_path / "v")
    other.add("hello there")
    other.close()
    assert {type(m) for m in s.list_memories()} == {CgMemory}
    assert imported and set(imported) == {"cortexgraph.storage.models"}
    s.close()
