"""The one rule for relations when a memory goes (core.model.relation_rule), as a pure
function: lineage relations stay, the others touching a memory that goes are removed."""

from __future__ import annotations

from core import LINEAGE_RELATION_TYPES, Relation, is_lineage, relations_of_gone


def rel(rid: str, a: str, b: str, kind: str = "related") -> Relation:
    return Relation(id=rid, from_memory_id=a, to_memory_id=b, relation_type=kind)


def test_lineage_types():
    assert LINEAGE_RELATION_TYPES == {"consolidated_from", "split_from"}
    assert is_lineage(rel("r", "a", "b", "split_from"))
    assert is_lineage({"relation_type": "consolidated_from"})
    assert not is_lineage(rel("r", "a", "b", "supports")) and not is_lineage({})


def test_lineage_stays_the_rest_goes():
    rels = [rel("c1", "m", "a", "consolidated_from"), rel("s1", "p", "a", "split_from"),
            rel("o1", "a", "x"), rel("o2", "x", "b", "supports"), rel("o3", "x", "y"),
            rel("o4", "a", "b", "causes")]
    fate = relations_of_gone(rels, {"a", "b"})
    assert [r.id for r in fate.kept] == ["c1", "s1"]
    assert [r.id for r in fate.removed] == ["o1", "o2", "o4"] == fate.removed_ids()
    # a lineage relation whose *new* end goes stays too (it outlives either end)
    assert [r.id for r in relations_of_gone(rels, {"m"}).kept] == ["c1"]
    assert relations_of_gone(rels, set()).removed == []


def test_each_relation_once_in_the_order_given():
    r = rel("o1", "a", "b")
    fate = relations_of_gone([r, r, rel("o2", "b", "a")], ["a", "b"])  # any collection
    assert fate.removed_ids() == ["o1", "o2"]


def test_raw_records_from_git_are_read_as_they_are():
    records = [{"id": "o1", "from_memory_id": "a", "to_memory_id": "x", "relation_type": "related"},
               {"id": "c1", "from_memory_id": "m", "to_memory_id": "a",
                "relation_type": "consolidated_from"},
               {"id": ["odd"], "from_memory_id": ["a"], "to_memory_id": None},  # malformed
               {"id": "o2", "from_memory_id": "x", "to_memory_id": "y"}]
    fate = relations_of_gone(records, {"a"})
    assert fate.removed == [records[0]] and fate.kept == [records[1]]
