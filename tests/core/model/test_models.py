"""Models: CortexGraph-compatible fields, unknown keys kept, validation."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from core import KNOWN_RELATION_TYPES, Memory, MemoryMetadata, MemoryStatus, Relation, Vault


def test_fixture_memories_round_trip(cortexgraph_expected):
    for record in cortexgraph_expected["memories"].values():
        memory = Memory.model_validate(record)
        dumped = json.loads(memory.model_dump_json())
        # every key of the CortexGraph record comes back with the same value; gist is ours
        for key, value in record.items():
            assert dumped[key] == value, key
        assert Memory.model_validate_json(memory.model_dump_json()) == memory


def test_fixture_relations_round_trip(cortexgraph_expected):
    for record in cortexgraph_expected["relations"].values():
        relation = Relation.model_validate(record)
        assert json.loads(relation.model_dump_json()) == record


def test_defaults_match_cortexgraph():
    m = Memory(id="m1", content="x")
    assert m.use_count == 0 and m.strength == 1.0 and m.status == MemoryStatus.ACTIVE
    assert m.meta == MemoryMetadata(tags=[], source=None, context=None, extra={})
    assert m.gist is None and m.embed is None and m.entities == []
    assert m.review_priority == 0.0 and m.review_count == 0 and m.cross_domain_count == 0
    assert isinstance(m.created_at, int) and isinstance(m.last_used, int)
    assert {s.value for s in MemoryStatus} == {"active", "promoted", "archived", "superseded"}
    r = Relation(id="r1", from_memory_id="a", to_memory_id="b", relation_type="related")
    assert r.strength == 1.0 and r.metadata == {}


def test_known_relation_types():
    assert KNOWN_RELATION_TYPES >= {
        "related", "causes", "supports", "contradicts", "has_decision", "consolidated_from",
        "split_from", "related_to", "depends_on", "part_of", "caused_by", "similar_to",
        "supersedes", "alternative_to"}


def test_unknown_keys_survive_load_update_rewrite(vault_path):
    v = Vault.open(vault_path)
    m = v.add("a memory from the future", tags=["t"])
    path = vault_path / "memories" / f"{m.id}.json"
    data = json.loads(path.read_text())
    data["future_field"] = {"nested": [1, 2, 3]}
    data["meta"]["future_meta"] = "kept"
    data["meta"]["extra"] = {"x": 1}
    path.write_text(json.dumps(data, indent=2))
    v.close()

    v = Vault.open(vault_path)  # commits the hand edit as external
    assert v.get(m.id).model_dump()["future_field"] == {"nested": [1, 2, 3]}
    v.touch(m.id)
    v.update(m.id, content="a rewritten memory from the future")
    v.archive(m.id)
    v.close()

    after = json.loads(path.read_text())
    assert after["future_field"] == {"nested": [1, 2, 3]}
    assert after["meta"]["future_meta"] == "kept"
    assert after["meta"]["extra"] == {"x": 1}
    assert after["content"] == "a rewritten memory from the future"
    assert after["use_count"] == 1 and after["status"] == "archived"
    again = Vault.open(vault_path).get(m.id).model_dump()
    assert again["future_field"] == {"nested": [1, 2, 3]}
    assert again["meta"]["future_meta"] == "kept"


def test_unknown_relation_keys_survive(vault_path):
    v = Vault.open(vault_path)
    a, b = v.add("a"), v.add("b")
    r = v.relate(a.id, b.id, "related")
    path = vault_path / "relations" / f"{r.id}.json"
    data = json.loads(path.read_text())
    data["weight_v2"] = 0.5
    path.write_text(json.dumps(data))
    v.close()
    v = Vault.open(vault_path)
    assert v.relations[r.id].model_dump()["weight_v2"] == 0.5
    v.delete(a.id)
    v.restore(a.id)
    assert json.loads(path.read_text())["weight_v2"] == 0.5


@pytest.mark.parametrize("strength", [-0.1, -5])
def test_strength_must_be_non_negative(strength):
    with pytest.raises(ValidationError):
        Memory(id="m1", content="x", strength=strength)
    Memory(id="m1", content="x", strength=0)
    Memory(id="m1", content="x", strength=2.0)


@pytest.mark.parametrize("value", [-0.01, 1.01, 7])
def test_review_priority_in_unit_interval(value):
    with pytest.raises(ValidationError):
        Memory(id="m1", content="x", review_priority=value)
    for ok in (0, 0.5, 1):
        Memory(id="m1", content="x", review_priority=ok)


@pytest.mark.parametrize("value", [-0.01, 1.5])
def test_relation_strength_in_unit_interval(value):
    with pytest.raises(ValidationError):
        Relation(id="r", from_memory_id="a", to_memory_id="b", relation_type="x", strength=value)
    Relation(id="r", from_memory_id="a", to_memory_id="b", relation_type="x", strength=0)
    Relation(id="r", from_memory_id="a", to_memory_id="b", relation_type="x", strength=1)


def test_validation_on_assignment():
    m = Memory(id="m1", content="x")
    with pytest.raises(ValidationError):
        m.strength = -1
    r = Relation(id="r", from_memory_id="a", to_memory_id="b", relation_type="x")
    with pytest.raises(ValidationError):
        r.strength = 2


@pytest.mark.parametrize("field", ["use_count", "review_count", "cross_domain_count"])
def test_counts_non_negative(field):
    with pytest.raises(ValidationError):
        Memory(id="m1", content="x", **{field: -1})


def test_vault_refuses_invalid_values(vault):
    from core import VaultError

    with pytest.raises(VaultError):
        vault.add("x", strength=-1)
    m = vault.add("x")
    with pytest.raises(VaultError):
        vault.update(m.id, review_priority=1.5)
    with pytest.raises(VaultError):
        vault.relate(m.id, m.id, "related", strength=1.5)
    assert vault.get(m.id).review_priority == 0.0
    assert vault.relations == {}
