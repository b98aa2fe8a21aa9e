"""Provenance (core.ops.provenance): the lineage DAG through split_from and consolidated_from,
with memories that no longer exist coming back from git history, marked gone."""

from __future__ import annotations

import pytest

from core import Memory, MemoryMetadata, MemoryStatus, Vault
from core.ops.consolidate import execute_consolidation
from core.errors import UnknownIdError
from core.ops.provenance import last_known_version, lineage
from core.ops.split import execute_split


@pytest.fixture
def chain(vault):
    """root --split--> p1, p2 --consolidate--> merged --split--> q1, q2, with every intermediate
    deleted; q1 also has an ordinary relation to a bystander."""
    root = vault.save(Memory(id="root-0001", content="Tomatoes need sun. Basil needs water.",
                             meta=MemoryMetadata(tags=["garden"])))
    first = execute_split(vault, root.id, ["Tomatoes need sun.", "Basil needs water."],
                          original="delete")
    p1, p2 = first.parts
    merged = execute_consolidation(vault, [p1.id, p2.id], content="The garden needs sun and water.")
    second = execute_split(vault, merged.merged.id, ["The garden needs sun.",
                                                     "The garden needs water."], original="delete")
    q1, q2 = second.parts
    bystander = vault.add("a bystander")
    other = vault.relate(q1.id, bystander.id, "supports")
    return vault, {"root": root, "p1": p1, "p2": p2, "merged": merged.merged, "q1": q1,
                   "q2": q2, "bystander": bystander, "other": other}


def test_intermediates_are_gone(chain):
    vault, m = chain
    for name in ("root", "p1", "p2", "merged"):
        assert m[name].id not in vault.memories
    assert m["q1"].id in vault.memories and m["q2"].id in vault.memories


def test_ancestors_through_deleted_intermediates(chain):
    vault, m = chain
    found = lineage(vault, m["q1"].id)
    assert found.root == m["q1"].id
    depths = {n.id: n.depth for n in found.nodes.values()}
    assert depths == {m["q1"].id: 0, m["merged"].id: -1, m["p1"].id: -2, m["p2"].id: -2,
                      m["root"].id: -3}
    assert m["q2"].id not in found.nodes  # a sibling is neither ancestor nor descendant
    assert [n.id for n in found.ancestors()] == [m["root"].id, *sorted([m["p1"].id, m["p2"].id]),
                                                 m["merged"].id]
    assert found.descendants() == []
    for name in ("root", "p1", "p2", "merged"):
        node = found.nodes[m[name].id]
        assert node.gone is True
        assert node.memory is not None
        # the last version before deletion, from git history
        assert node.memory.content == m[name].content
        assert node.memory.model_dump() == m[name].model_dump()
    assert found.nodes[m["q1"].id].gone is False
    assert found.nodes[m["q1"].id].memory == vault.memories[m["q1"].id]


def test_edges_and_labels(chain):
    vault, m = chain
    found = lineage(vault, m["q1"].id)
    edges = {(e.from_memory_id, e.to_memory_id, e.relation_type) for e in found.edges}
    assert edges == {
        (m["q1"].id, m["merged"].id, "split_from"),
        (m["merged"].id, m["p1"].id, "consolidated_from"),
        (m["merged"].id, m["p2"].id, "consolidated_from"),
        (m["p1"].id, m["root"].id, "split_from"),
        (m["p2"].id, m["root"].id, "split_from"),
    }
    assert {found.label(e) for e in found.edges if e.relation_type == "split_from"} == {"split"}
    assert {found.label(e) for e in found.edges
            if e.relation_type == "consolidated_from"} == {"merge"}
    times = [e.created_at for e in found.edges]
    assert times == sorted(times)


def test_other_relations_of_the_memory(chain):
    vault, m = chain
    found = lineage(vault, m["q1"].id)
    assert [r.id for r in found.other_relations] == [m["other"].id]
    assert lineage(vault, m["q2"].id).other_relations == []


def test_descendants_of_a_deleted_memory(chain):
    vault, m = chain
    for key in (m["root"].id, m["root"].id[:6]):  # the full id, or a prefix from history
        found = lineage(vault, key)
        assert found.root == m["root"].id
        depths = {n.id: n.depth for n in found.nodes.values()}
        assert depths == {m["root"].id: 0, m["p1"].id: 1, m["p2"].id: 1, m["merged"].id: 2,
                          m["q1"].id: 3, m["q2"].id: 3}
        assert found.nodes[m["root"].id].gone
        assert not found.nodes[m["q2"].id].gone
        assert found.ancestors() == []
        assert [n.depth for n in found.descendants()] == [1, 1, 2, 3, 3]


def test_both_sides_from_the_middle(chain):
    vault, m = chain
    found = lineage(vault, m["merged"].id)
    depths = {n.id: n.depth for n in found.nodes.values()}
    assert depths == {m["merged"].id: 0, m["p1"].id: -1, m["p2"].id: -1, m["root"].id: -2,
                      m["q1"].id: 1, m["q2"].id: 1}
    assert len(found.edges) == 6


def test_archived_original_is_not_gone(vault):
    src = vault.add("one thing. another thing.")
    result = execute_split(vault, src.id, ["one thing.", "another thing."])
    found = lineage(vault, result.parts[0].id)
    node = found.nodes[src.id]
    assert node.gone is False and node.memory.status == MemoryStatus.ARCHIVED


def test_a_memory_without_provenance(vault):
    a, b = vault.add("alone"), vault.add("friend")
    vault.relate(a.id, b.id, "related")
    found = lineage(vault, a.id[:5])
    assert list(found.nodes) == [a.id] and found.edges == []
    assert [r.relation_type for r in found.other_relations] == ["related"]


def test_unknown_key(vault):
    vault.add("something")
    with pytest.raises(UnknownIdError):
        lineage(vault, "no-such-memory")


def test_last_known_version(vault):
    a = vault.add("first words")
    vault.update(a.id, content="second words")
    vault.delete(a.id)
    gone = last_known_version(vault, a.id)
    assert gone is not None and gone.content == "second words"
    b = vault.add("alive")
    assert last_known_version(vault, b.id) == b
    assert last_known_version(vault, "never-existed") is None


def test_history_stays_readable(chain):
    """git log of a memory file shows its creation and its end; the commit messages of the
    lifecycle operations name every id involved."""
    vault, m = chain
    p1 = vault.history(m["p1"].id)
    assert [e.action for e in p1] == ["deleted", "created"]
    assert p1[1].operation == "split" and p1[0].operation == "consolidate"
    assert m["root"].id[:8] in p1[1].message and m["p1"].id[:8] in p1[1].message
    assert m["p2"].id[:8] in p1[1].message
    for name in ("p1", "p2", "merged"):
        assert m[name].id[:8] in p1[0].message
    merged = vault.history(m["merged"].id)
    assert [e.operation for e in merged] == ["split", "consolidate"]
    for name in ("merged", "q1", "q2"):
        assert m[name].id[:8] in merged[0].message


def test_lineage_survives_reopening(chain):
    vault, m = chain
    reopened = Vault.open(vault.root)
    found = lineage(reopened, m["q2"].id)
    assert {n.id for n in found.nodes.values()} == {m["q2"].id, m["merged"].id, m["p1"].id,
                                                    m["p2"].id, m["root"].id}


# -- what became of a gone end (end_state, relation_ends) ----------------------------------------
def test_a_gone_node_is_consumed_by_the_commit_that_removed_it(chain):
    from core.ops.provenance import end_state

    vault, m = chain
    found = lineage(vault, m["q1"].id)
    for name in ("root", "p1", "merged"):
        node = found.nodes[m[name].id]
        deleting = vault.history(m[name].id)[0]
        assert node.gone and deleting.action == "deleted"
        assert node.end is not None and node.end.state == "consumed"
        assert node.end.commit == deleting.commit and node.end.at == deleting.timestamp
        assert node.end.subject == deleting.message.splitlines()[0]
        assert node.end.label == f"consumed in {deleting.commit[:8]} ({node.end.subject})"
        assert end_state(vault, m[name].id) == node.end
    assert found.nodes[m["merged"].id].end.short_label.endswith("(split)")
    assert found.nodes[m["p1"].id].end.subject.startswith("consolidate: ")
    assert found.nodes[m["q1"].id].end is None  # living


def test_a_never_seen_end_is_not_in_this_vault(vault):
    from core import Relation
    from core.ops.provenance import end_state, relation_ends

    a = vault.add("a memory")
    vault.save_relations([
        Relation(id="r-lin", from_memory_id=a.id, to_memory_id="ghost-0001",
                 relation_type="split_from"),
        Relation(id="r-rel", from_memory_id="ghost-0002", to_memory_id=a.id,
                 relation_type="related")])
    state = end_state(vault, "ghost-0001")
    assert (state.state, state.commit, state.label) == ("absent", None, "not in this vault")
    assert end_state(vault, "../not-an-id").state == "absent"  # never a file name: no git
    found = lineage(vault, a.id)
    ghost = found.nodes["ghost-0001"]
    assert ghost.gone and ghost.memory is None and ghost.end.state == "absent"
    assert [r.id for r in found.other_relations] == ["r-rel"]
    assert found.other_ends["ghost-0002"].label == "not in this vault"
    ends = relation_ends(vault, a.id, vault.relations_of(a.id))
    assert set(ends) == {"ghost-0001", "ghost-0002"}  # living ends are left out


def test_one_git_log_per_missing_end(vault, monkeypatch):
    from core import Relation
    from core.ops.provenance import relation_ends

    a, b = vault.add("a"), vault.add("b")
    gone = vault.add("gone")
    vault.relate(a.id, b.id, "related")
    vault.save_relations([
        Relation(id="lin", from_memory_id=a.id, to_memory_id=gone.id,
                 relation_type="split_from")])
    vault.delete(gone.id)
    calls = []
    real = vault.journal.history.log
    monkeypatch.setattr(vault.journal.history, "log",
                        lambda path, limit=None: calls.append(path) or real(path, limit))
    ends = relation_ends(vault, a.id, vault.relations_of(a.id))
    assert list(ends) == [gone.id] and ends[gone.id].state == "consumed"
    assert len(calls) == 1


def test_an_end_in_history_but_not_loaded_is_neither_consumed_nor_absent(vault):
    from core import Vault
    from core.ops.provenance import end_state

    a = vault.add("a memory whose file is removed by hand, not committed")
    vault.layout.memory_path(a.id).unlink()
    view = Vault.open(vault.root, readonly=True)
    state = end_state(view, a.id)
    assert (state.state, state.label) == ("unloaded", "in history, not loaded")
