"""The one rule for relations when a memory goes, on the command line: ``delete`` keeps the
lineage relations (and says so), ``gc`` too, and ``show`` (plain and ``--json``) names an end
that is gone as consumed, with the commit that removed it, or as not in this vault when no
commit of this vault ever held it."""

from __future__ import annotations

from core import Relation, Vault

from cli_support import Run, cli_env, run, vdir  # noqa: F401  (fixtures)


def _split_then_delete(run):
    """A memory split (kept archived), then deleted by hand, with a bystander related to it."""
    root = run.add("Tomatoes need sun. Basil needs water.")
    p1, p2 = run.ok("split", root, "--part", "Tomatoes need sun.",
                    "--part", "Basil needs water.").split()
    friend = run.add("a friend of the original")
    run.ok("relate", root, friend, "related")
    report = run.json("delete", root, "--yes")
    deleting = run.json("history", root)[0]["commit"]
    return root, p1, p2, friend, report, deleting


def test_delete_keeps_lineage_and_removes_the_rest(run, vdir):
    root, p1, p2, friend, report, deleting = _split_then_delete(run)
    vault = Vault.open(vdir, readonly=True)
    assert report["memories"] == [root] and len(report["relations"]) == 1
    assert len(report["kept_relations"]) == 2
    assert {vault.relations[r].relation_type for r in report["kept_relations"]} == {"split_from"}
    assert all(vault.relations[r].to_memory_id == root for r in report["kept_relations"])
    assert report["relations"][0] not in vault.relations  # the "related" went with it
    assert vault.relations_of(friend) == []


def test_delete_says_what_it_kept(run):
    root = run.add("Tomatoes need sun. Basil needs water.")
    run.ok("split", root, "--part", "Tomatoes need sun.", "--part", "Basil needs water.")
    friend = run.add("a friend")
    run.ok("relate", root, friend, "related")
    out = run.ok("delete", root, "--yes")
    assert "deleted 1 relation with them" in out
    assert "kept 2 lineage relations" in out


def test_show_names_a_consumed_end_with_its_commit(run, vdir):
    root, p1, p2, friend, report, deleting = _split_then_delete(run)
    subject = run.json("history", root)[0]["message"].splitlines()[0]
    data = run.json("show", p1)
    [rel] = data["relations"]
    assert rel["relation_type"] == "split_from" and rel["direction"] == "out"
    assert rel["other"] == root
    assert rel["end"]["state"] == "consumed" and rel["end"]["commit"] == deleting
    assert rel["end"]["subject"] == subject and subject.startswith("delete: ")
    out = run.ok("show", p1)
    assert f"consumed in {deleting[:8]} (delete: " in out
    assert "(missing)" not in out and "deleted" not in out.split("relations", 1)[1]


def test_show_names_a_never_seen_end_not_in_this_vault(run, vdir):
    a = run.add("a memory with a relation to nowhere")
    vault = Vault.open(vdir)  # the vault API writes any relation record (CortexGraph's does)
    vault.save_relations([Relation(id="r-nowhere", from_memory_id=a,
                                   to_memory_id="never-here-0000", relation_type="related")])
    data = run.json("show", a)
    [rel] = data["relations"]
    assert rel["other"] == "never-here-0000"
    assert rel["end"] == {"state": "absent", "commit": None, "subject": None, "at": None,
                          "label": "not in this vault"}
    out = run.ok("show", a)
    assert "(not in this vault)" in out
    assert "consumed" not in out and "deleted" not in out


def test_show_json_marks_living_ends(run):
    a, b = run.add("one side"), run.add("other side")
    run.ok("relate", a, b, "supports")
    [rel] = run.json("show", b)["relations"]
    assert rel["direction"] == "in" and rel["other"] == a and rel["end"] == {"state": "living"}


def test_gc_keeps_lineage_relations(run, vdir):
    root = run.add("Tomatoes need sun. Basil needs water.")
    p1, _ = run.ok("split", root, "--part", "Tomatoes need sun.",
                   "--part", "Basil needs water.").split()
    friend = run.add("a friend")
    run.ok("relate", p1, friend, "related")
    vault = Vault.open(vdir)
    vault.update(p1, strength=0.0)  # p1 fades below the threshold at once
    data = run.json("gc")
    assert p1 in [m["id"] for m in data["candidates"]]
    assert [r["relation_type"] for r in data["relations_kept"]] == ["split_from"]
    assert "related" in [r["relation_type"] for r in data["relations_removed"]]
    [kept] = data["relations_kept"]
    assert kept["id"] in Vault.open(vdir, readonly=True).relations
