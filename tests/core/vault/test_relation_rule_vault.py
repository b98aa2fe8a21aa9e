"""The one rule for relations when a memory goes, in the vault: delete and gc keep lineage
relations and remove the others in the same commit; any removal through the write path (undo
of an add, a plan that forgot them) takes the others along; undo of a delete and restore bring
back what the delete removed; a lineage relation made since a plan does not make it stale."""

from __future__ import annotations

from core import Relation, Vault
from core.ops.consolidate import apply_consolidation, plan_consolidation
from core.vault import Plan
from core.ops.revert import redo, revert, undo


def lineage_rel(rid: str, new: str, old: str, kind: str = "split_from") -> Relation:
    return Relation(id=rid, from_memory_id=new, to_memory_id=old, relation_type=kind)


def subject(vault: Vault) -> str:
    return vault.journal.commands.output("log", "-1", "--format=%s")


def test_delete_keeps_lineage_and_removes_the_rest_in_one_commit(vault, git_tools):
    orig, part, other = vault.add("orig"), vault.add("part"), vault.add("other")
    vault.save_relations([lineage_rel("lin", part.id, orig.id)])
    merged = vault.add("merged")
    vault.save_relations([lineage_rel("cons", merged.id, orig.id, "consolidated_from")])
    side = vault.relate(orig.id, other.id, "related")
    before = git_tools.commit_count(vault.root)
    report = vault.delete(orig.id)
    assert git_tools.commit_count(vault.root) == before + 1
    assert subject(vault).endswith("(+1 relation)")
    assert [r.id for r in report.relations] == [side.id]
    assert {r.id for r in report.kept_relations} == {"lin", "cons"}
    assert set(vault.relations) == {"lin", "cons"}
    assert (vault.root / "relations" / "lin.json").exists()
    assert not (vault.root / "relations" / f"{side.id}.json").exists()
    # the lineage relations are still found from the gone memory's id
    assert {r.id for r in vault.store.relations_of(orig.id)} == {"lin", "cons"}
    again = Vault.open(vault.root, readonly=True)
    assert set(again.relations) == {"lin", "cons"}
    git_tools.assert_consistent(vault)


def test_undo_of_a_delete_brings_back_what_it_removed(vault):
    a, b = vault.add("a"), vault.add("b")
    part = vault.add("part of a")
    vault.save_relations([lineage_rel("lin", part.id, a.id)])
    side = vault.relate(a.id, b.id, "supports")
    vault.delete(a.id)
    undo(vault)
    assert a.id in vault.memories
    assert set(vault.relations) == {"lin", side.id}  # lineage never left; the other is back
    redo(vault)
    assert a.id not in vault.memories and set(vault.relations) == {"lin"}


def test_restore_brings_back_the_relations_its_deletion_removed(vault):
    a, b = vault.add("a"), vault.add("b")
    part = vault.add("part of a")
    vault.save_relations([lineage_rel("lin", part.id, a.id)])
    side = vault.relate(a.id, b.id, "supports")
    vault.delete(a.id)
    report = vault.restore(a.id)
    assert [r.id for r in report.relations] == [side.id]
    assert set(vault.relations) == {"lin", side.id}


def test_gc_keeps_lineage_relations(vault):
    faded, part, friend = vault.add("faded"), vault.add("part"), vault.add("friend")
    vault.save_relations([lineage_rel("lin", part.id, faded.id)])
    side = vault.relate(friend.id, faded.id, "related")
    vault.update(faded.id, strength=0.0)
    report = vault.gc()
    assert [m.id for m, _ in report.candidates] == [faded.id]
    assert [r.id for r in report.relations_removed] == [side.id]
    assert [r.id for r in report.relations_kept] == ["lin"]
    assert set(vault.relations) == {"lin"}


def test_any_removal_takes_the_non_lineage_relations_along(vault):
    """Undo of an add after the memory was related: the relation goes with the memory, in
    the same commit (the write path enforces the rule), and redo brings both back."""
    a, b = vault.add("first"), vault.add("second")
    adding = vault.journal.head()
    side = vault.relate(a.id, b.id, "related")
    part = vault.add("made from b")
    vault.save_relations([lineage_rel("lin", part.id, b.id)])
    head = vault.journal.head()
    revert(vault, adding)  # takes back the add of b
    assert vault.journal.commands.output("rev-list", "--count", f"{head}..HEAD") == "1"
    assert b.id not in vault.memories
    assert set(vault.relations) == {"lin"}
    assert not (vault.root / "relations" / f"{side.id}.json").exists()
    redo(vault)  # takes the revert back
    assert b.id in vault.memories and set(vault.relations) == {side.id, "lin"}


def test_a_plan_that_forgets_the_relations_removes_them_all_the_same(vault):
    a, b = vault.add("a"), vault.add("b")
    part = vault.add("part of a")
    vault.save_relations([lineage_rel("lin", part.id, a.id)])
    side = vault.relate(b.id, a.id, "causes")
    plan = vault.apply(Plan("delete: by a plan", drop_memories=[a.id]))
    assert plan.drop_relations == [side.id]  # the plan says what its commit removed
    assert set(vault.relations) == {"lin"}
    assert set(Vault.open(vault.root, readonly=True).relations) == {"lin"}


def test_a_lineage_relation_made_since_a_plan_does_not_make_it_stale(vault):
    a = vault.add("The staging database lives on db-2 and is restored every night.")
    b = vault.add("Staging database: db-2, restored nightly from production backups.")
    preview = plan_consolidation(vault, [a.id, b.id], sources="delete")
    other = Vault.open(vault.root)
    part = other.add("db-2 is the staging database")
    other.save_relations([lineage_rel("lin", part.id, a.id)])
    other.close()
    apply_consolidation(vault, preview)  # not refused
    assert a.id not in vault.memories
    assert "lin" in vault.relations
