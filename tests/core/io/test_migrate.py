"""CortexGraph 1.2.1 JSONL -> vault (core.io.migrate): the shared fixture against what CortexGraph
itself loads from it (expected.json), field by field; replay edge cases (last line wins,
tombstones, resurrection, dangling relations, malformed lines); one commit; idempotence."""

from __future__ import annotations

import json
import shutil
import uuid
from pathlib import Path

import pytest

from core import LINEAGE_RELATION_TYPES, Memory, MemoryStatus, Relation, Vault, VaultError
from core.io.migrate import FORMAT, ID_NAMESPACE, migrate_jsonl, read_jsonl, vault_id
from migrate_support import (
    assert_consistent,
    memory_line,
    relation_line,
    tombstone,
    write_store,
)

from vault_support import FIXTURES  # noqa: E402  (tests/fixtures, wherever this test lives)

FIXTURE = FIXTURES / "cortexgraph-v1"


@pytest.fixture
def fixture_dir(tmp_path: Path) -> Path:
    """A private copy of the shared fixture (the migration must not need to write there)."""
    target = tmp_path / "cortexgraph"
    target.mkdir()
    for name in ("memories.jsonl", "relations.jsonl"):
        shutil.copyfile(FIXTURE / name, target / name)
    return target


# -- the shared fixture ------------------------------------------------------------------------
def test_fixture_loads_exactly_what_cortexgraph_loads(vault, fixture_dir, cortexgraph_expected):
    report = migrate_jsonl(vault, fixture_dir)
    expected_m, expected_r = cortexgraph_expected["memories"], cortexgraph_expected["relations"]
    assert set(vault.memories) == set(expected_m)
    # what CortexGraph loads, less the relations of deleted memories that are not lineage:
    # they go with their memory (the one rule, core.model.relation_rule)
    left_out = {i for i, r in expected_r.items()
                if r["relation_type"] not in LINEAGE_RELATION_TYPES
                and not {r["from_memory_id"], r["to_memory_id"]} <= set(expected_m)}
    assert len(left_out) == 65 and set(report.dropped_relations) == left_out
    expected_r = {i: r for i, r in expected_r.items() if i not in left_out}
    assert set(vault.relations) == set(expected_r)
    for mid, record in expected_m.items():
        got = vault.memories[mid].model_dump(mode="json")
        for key, value in record.items():
            assert got[key] == value, (mid, key)
        assert got["gist"] is None  # CortexGraph 1.2.1 has no gists: made later, on request
        assert set(got) == set(record) | {"gist"}
    for rid, record in expected_r.items():
        got = vault.relations[rid].model_dump(mode="json")
        for key, value in record.items():
            assert got[key] == value, (rid, key)
        assert set(got) == set(record)
    # and the files on disk hold the same (a fresh read-only open)
    again = Vault.open(vault.root, readonly=True)
    assert {k: m.model_dump(mode="json") for k, m in again.memories.items()} == {
        k: m.model_dump(mode="json") for k, m in vault.memories.items()}
    assert report.memories == len(expected_m) and report.relations == len(expected_r) + 65
    assert report.problems == [] and report.notes == []
    assert_consistent(vault)


def test_fixture_report_counts_replay(vault, fixture_dir, cortexgraph_expected):
    report = migrate_jsonl(vault, fixture_dir)
    memories = set(cortexgraph_expected["memories"])
    dangling = {rid for rid, r in cortexgraph_expected["relations"].items()
                if r["from_memory_id"] not in memories or r["to_memory_id"] not in memories}
    # of those, the lineage ones are migrated (dangling), the others left out
    lineage = {rid for rid in dangling
               if cortexgraph_expected["relations"][rid]["relation_type"] in LINEAGE_RELATION_TYPES}
    assert lineage and set(report.dangling) == lineage
    assert set(report.dropped_relations) == dangling - lineage
    lines = [json.loads(x) for x in (fixture_dir / "memories.jsonl").read_text().splitlines()
             if x.strip()]
    rel_lines = [json.loads(x) for x in (fixture_dir / "relations.jsonl").read_text().splitlines()
                 if x.strip()]
    assert report.tombstones == sum(1 for x in lines + rel_lines if x.get("_deleted"))
    assert report.resurrected and set(report.resurrected) <= memories
    assert not set(report.deleted) & memories
    assert report.without_gist == len(memories)
    assert report.new_memories == sorted(memories)


def test_a_backup_stamped_like_a_secret_does_not_stop_the_migration(vault, fixture_dir):
    """At 07:49:35 UTC the backup's folder name (jsonl-v1-20261126T074935Z) scans as a
    high-entropy string: the commit message names no folder, so the secret check lets it by."""
    report = migrate_jsonl(vault, fixture_dir, now=1_795_679_375)
    assert report.commit and report.backup == ".backup/jsonl-v1-20261126T074935Z"
    assert "source backed up under .backup/" in vault.journal.repo.head.commit.message


def test_fixture_is_one_commit_with_meta_and_backup(vault, fixture_dir, git_tools):
    before = git_tools.commit_count(vault.root)
    report = migrate_jsonl(vault, fixture_dir, now=1_800_000_000)
    assert git_tools.commit_count(vault.root) == before + 1
    subject = git_tools.head_subject(vault.root)
    assert subject.startswith(f"migrate: {report.memories} memories, {report.relations} "
                              f"relations from jsonl-v1 (")
    assert report.commit == vault.journal.head()
    meta = json.loads((vault.root / ".meta.json").read_text())
    assert meta["migrated_from"] == "jsonl-v1"
    assert meta["migrations"][-1]["sha256"] and meta["migrations"][-1]["memories"] == 45
    assert report.backup == ".backup/jsonl-v1-20270115T080000Z"
    for name in ("memories.jsonl", "relations.jsonl"):
        backup = vault.root / report.backup / name
        assert backup.read_bytes() == (fixture_dir / name).read_bytes()
    tree = git_tools.head_tree(vault)
    assert f"{report.backup}/memories.jsonl" in tree  # committed in the same commit
    changed = git_tools.run(vault.root, "show", "--name-only", "--format=", "HEAD").split("\n")
    assert f"{report.backup}/relations.jsonl" in changed and ".meta.json" in changed
    assert git_tools.status(vault) == ""
    # the sources were only read
    assert (fixture_dir / "memories.jsonl").read_bytes() == (FIXTURE / "memories.jsonl").read_bytes()


def test_running_again_changes_nothing(vault, fixture_dir, git_tools):
    migrate_jsonl(vault, fixture_dir)
    head = vault.journal.head()
    again = migrate_jsonl(vault, fixture_dir)
    assert again.already_migrated and again.commit is None
    assert vault.journal.head() == head
    # not even after the migrated memories were used in memvault
    some = sorted(vault.memories)[0]
    vault.touch(some)
    head = vault.journal.head()
    assert migrate_jsonl(vault, fixture_dir).already_migrated
    assert vault.journal.head() == head
    assert vault.memories[some].use_count >= 1
    # a reopened vault knows too
    reopened = Vault.open(vault.root)
    assert migrate_jsonl(reopened, fixture_dir).already_migrated
    assert reopened.journal.head() == head


def test_force_writes_only_what_differs(vault, fixture_dir, git_tools):
    migrate_jsonl(vault, fixture_dir)
    head = vault.journal.head()
    report = migrate_jsonl(vault, fixture_dir, force=True)  # nothing differs: no commit
    assert not report.already_migrated and report.commit is None and not report.changed
    assert report.unchanged_memories == 45 and vault.journal.head() == head
    some = sorted(vault.memories)[0]
    vault.touch(some)
    report = migrate_jsonl(vault, fixture_dir, force=True)
    assert report.updated_memories == [some] and report.new_memories == []
    assert report.commit == vault.journal.head() != head
    assert "1 updated" in git_tools.head_subject(vault.root)


def test_a_changed_source_brings_only_the_changes(vault, tmp_path, git_tools):
    src = write_store(tmp_path / "src", [memory_line("m1"), memory_line("m2")])
    migrate_jsonl(vault, src)
    with open(src / "memories.jsonl", "a") as fh:
        fh.write(json.dumps(memory_line("m2", "changed")) + "\n")
        fh.write(json.dumps(memory_line("m3")) + "\n")
    report = migrate_jsonl(vault, src)
    assert report.new_memories == ["m3"] and report.updated_memories == ["m2"]
    assert report.unchanged_memories == 1
    assert vault.memories["m2"].content == "changed"
    changed = git_tools.run(vault.root, "show", "--name-only", "--format=", "HEAD").split("\n")
    assert "memories/m1.json" not in changed and "memories/m3.json" in changed
    assert len(json.loads((vault.root / ".meta.json").read_text())["migrations"]) == 2


def test_dry_run_writes_nothing(vault, fixture_dir, git_tools):
    head = vault.journal.head()
    report = migrate_jsonl(vault, fixture_dir, dry_run=True)
    assert report.dry_run and report.commit is None and len(report.new_memories) == 45
    assert vault.journal.head() == head and vault.memories == {}
    assert not (vault.root / ".backup").exists()
    assert git_tools.status(vault) == ""
    # without a vault at all
    report = migrate_jsonl(None, fixture_dir, dry_run=True)
    assert len(report.new_memories) == 45 and report.memories == 45
    with pytest.raises(VaultError):
        migrate_jsonl(None, fixture_dir)


def test_progress_reports_each_phase(vault, fixture_dir):
    calls = []
    migrate_jsonl(vault, fixture_dir, progress=lambda *a: calls.append(a))
    phases = {c[0] for c in calls}
    assert phases == {"memory", "relation", "commit"}
    last = {c[0]: c for c in calls}
    assert last["memory"][1] == last["memory"][2] > 0
    assert last["commit"] == ("commit", 1, 1)


# -- replay edge cases -------------------------------------------------------------------------
def test_last_line_for_an_id_wins(tmp_path):
    src = write_store(tmp_path / "s", [memory_line("a", "one"), memory_line("b"),
                                       memory_line("a", "two"), memory_line("a", "three",
                                                                            use_count=4)])
    snap = read_jsonl(src)
    assert snap.memories["a"].content == "three" and snap.memories["a"].use_count == 4
    assert snap.replaced == 2 and set(snap.memories) == {"a", "b"}


def test_tombstones_and_resurrection(tmp_path):
    src = write_store(tmp_path / "s", [
        memory_line("gone"), tombstone("gone"),                        # deleted
        memory_line("back", "v1"), tombstone("back"), memory_line("back", "v2"),  # resurrected
        memory_line("twice"), tombstone("twice"), memory_line("twice"), tombstone("twice"),
        tombstone("never-existed"),                                   # harmless
        tombstone("early"), memory_line("early", "after"),            # tombstone first
        {"id": "truthy", "content": "x", "_deleted": 1},              # any truthy marker
        memory_line("keeps", _deleted=False),                         # a falsy marker: a record
        {**memory_line("fat"), "_deleted": True},                     # a whole record, deleted
    ])
    snap = read_jsonl(src)
    assert set(snap.memories) == {"back", "early", "keeps"}
    assert snap.memories["back"].content == "v2" and snap.memories["early"].content == "after"
    assert "_deleted" not in snap.memories["keeps"].model_dump()
    assert snap.resurrected == ["back", "early"]
    assert set(snap.deleted) == {"gone", "twice", "never-existed", "truthy", "fat"}
    assert snap.tombstones == 8
    assert snap.problems == []


def test_relation_tombstones_and_dangling_relations(tmp_path, vault):
    src = write_store(tmp_path / "s",
                      [memory_line("a"), memory_line("b"), memory_line("c"), tombstone("c")],
                      [relation_line("r1", "a", "b"),
                       relation_line("r2", "a", "c"),          # c was deleted: goes with it
                       relation_line("r3", "a", "nowhere"),    # never existed: dangling
                       relation_line("r4", "b", "a"), tombstone("r4"),
                       relation_line("r5", "b", "a"), tombstone("r5"),
                       relation_line("r5", "b", "a", "supports")])
    report = migrate_jsonl(vault, src)
    assert set(vault.relations) == {"r1", "r3", "r5"}
    assert vault.relations["r5"].relation_type == "supports"
    assert report.dangling == ["r3"] and report.dropped_relations == ["r2"]
    assert report.relations == 4 and report.tombstones == 3
    assert vault.journal.head() == report.commit
    message = vault.journal.history.log(vault.layout.meta_path)[0].message
    assert "1 dangling relation kept; 1 relation of deleted memories left out" in message
    # a dangling relation stays put in the vault, and shows up for its living end
    assert {r.id for r in vault.relations_of("a")} == {"r1", "r3", "r5"}


def test_lineage_relations_of_deleted_memories_are_kept(tmp_path, vault):
    """CortexGraph's consolidation: the merged memory, consolidated_from relations to the
    sources, then the sources deleted. The lineage outlives them; their other relations go
    with them (as memvault's own delete does), and stay in the committed backup."""
    src = write_store(tmp_path / "s",
                      [memory_line("s1"), memory_line("s2"), memory_line("m"),
                       memory_line("x"), tombstone("s1"), tombstone("s2")],
                      [relation_line("c1", "m", "s1", "consolidated_from"),
                       relation_line("c2", "m", "s2", "consolidated_from"),
                       relation_line("p1", "x", "s1", "split_from"),
                       relation_line("o1", "s1", "x", "related"),
                       relation_line("o2", "x", "s2", "supports")])
    report = migrate_jsonl(vault, src)
    assert set(vault.relations) == {"c1", "c2", "p1"}
    assert report.dangling == ["c1", "c2", "p1"] and report.dropped_relations == ["o1", "o2"]
    assert report.to_json()["dropped_relations"] == ["o1", "o2"]
    backup = (vault.root / report.backup / "relations.jsonl").read_text()
    assert '"o1"' in backup and '"o2"' in backup  # nothing lost: the source is committed
    # a memory the vault holds is not gone: its relations are migrated
    again = write_store(tmp_path / "t", [memory_line("x"), memory_line("y"), tombstone("y")],
                        [relation_line("o3", "x", "y", "related"),
                         relation_line("o4", "x", "m", "related")])
    vault.add("y is here", memory_id="y")
    second = migrate_jsonl(vault, again)
    assert second.dropped_relations == [] and {"o3", "o4"} <= set(vault.relations)


def test_malformed_lines_are_reported_and_skipped(tmp_path, vault):
    src = write_store(tmp_path / "s", [
        memory_line("ok1"),                                    # 1
        "{not json",                                           # 2
        "",                                                    # 3 blank: skipped silently
        "[1, 2]",                                              # 4
        b"\xff\xfe{}",                                         # 5 not UTF-8
        json.dumps({"id": "x"}),                               # 6 no content
        json.dumps({"_deleted": True}),                        # 7 tombstone without id
        json.dumps(memory_line("ok1", "bad", strength=-1)),    # 8 invalid: ok1 stays v1
        "   ",                                                 # 9
        json.dumps(memory_line("ok2", status="forgotten")),    # 10 unknown status
        json.dumps(memory_line("ok3")),                        # 11
        json.dumps(tombstone(5) | {"id": 5}),                  # 12 non-string id
    ], [relation_line("r1", "ok1", "ok3"), "null", json.dumps({"id": "r2"})])
    report = migrate_jsonl(vault, src)
    assert set(vault.memories) == {"ok1", "ok3"} and vault.memories["ok1"].content == "text"
    assert set(vault.relations) == {"r1"}
    where = [(p.file, p.line) for p in report.problems]
    assert where == [("memories.jsonl", 2), ("memories.jsonl", 4), ("memories.jsonl", 5),
                     ("memories.jsonl", 6), ("memories.jsonl", 7), ("memories.jsonl", 8),
                     ("memories.jsonl", 10), ("memories.jsonl", 12),
                     ("relations.jsonl", 2), ("relations.jsonl", 3)]
    messages = {(p.file, p.line): p.message for p in report.problems}
    assert "not valid JSON" in messages[("memories.jsonl", 2)]
    assert "not a JSON object" in messages[("memories.jsonl", 4)]
    assert "not UTF-8" in messages[("memories.jsonl", 5)]
    assert "content" in messages[("memories.jsonl", 6)]
    assert "deletion marker" in messages[("memories.jsonl", 7)]
    assert "strength" in messages[("memories.jsonl", 8)]
    assert str(report.problems[0]).startswith("memories.jsonl:2: ")
    assert "10 lines skipped" in vault.journal.history.log(vault.layout.meta_path)[0].message


def test_line_endings_bom_and_blank_lines(tmp_path):
    folder = tmp_path / "s"
    folder.mkdir()
    a, b = json.dumps(memory_line("a")), json.dumps(memory_line("b"))
    (folder / "memories.jsonl").write_bytes(b"\xef\xbb\xbf" + a.encode() + b"\r\n\r\n  \n"
                                            + b.encode())  # no final newline
    snap = read_jsonl(folder)
    assert set(snap.memories) == {"a", "b"} and snap.problems == []
    assert snap.lines["memories.jsonl"] == 2


def test_values_memvault_refuses_are_read_with_a_note(tmp_path, vault):
    src = write_store(tmp_path / "s", [memory_line("a", use_count=-3, review_count=-1)])
    report = migrate_jsonl(vault, src)
    assert vault.memories["a"].use_count == 0 and vault.memories["a"].review_count == 0
    assert [str(n) for n in report.notes] == [
        "memories.jsonl:1: use_count -3 is below 0; read as 0",
        "memories.jsonl:1: review_count -1 is below 0; read as 0"]


def test_unsafe_ids_get_stable_new_ids(tmp_path, vault):
    src = write_store(tmp_path / "s", [memory_line("notes/a"), memory_line("..")],
                      [relation_line("r/1", "notes/a", ".."),
                       relation_line("r2", "notes/a", "elsewhere/x")])
    report = migrate_jsonl(vault, src)
    new_a = str(uuid.uuid5(ID_NAMESPACE, "notes/a"))
    assert vault_id("notes/a") == new_a and vault_id("plain-id") == "plain-id"
    assert new_a in vault.memories and vault_id("..") in vault.memories
    assert vault.memories[new_a].meta.extra["cortexgraph_ids"] == {"id": "notes/a"}
    r1 = vault.relations[vault_id("r/1", "relation")]
    assert (r1.from_memory_id, r1.to_memory_id) == (new_a, vault_id(".."))
    assert r1.metadata["cortexgraph_ids"] == {"id": "r/1", "from_memory_id": "notes/a",
                                              "to_memory_id": ".."}
    r2 = vault.relations["r2"]
    assert r2.to_memory_id == vault_id("elsewhere/x") and r2.id == "r2"
    assert report.remapped["notes/a"] == new_a and len(report.notes) == 4
    assert_consistent(vault)
    # the same ids on another run, elsewhere
    other = Vault.open(tmp_path / "other")
    migrate_jsonl(other, src)
    assert set(other.memories) == set(vault.memories)
    assert set(other.relations) == set(vault.relations)


def test_unknown_keys_and_gist_are_kept(tmp_path, vault):
    src = write_store(tmp_path / "s", [memory_line("a", gist="short", future_field={"x": 1},
                                                   meta={"tags": ["t"], "source": None,
                                                         "context": None, "extra": {},
                                                         "colour": "red"})])
    report = migrate_jsonl(vault, src)
    m = vault.memories["a"]
    assert m.gist == "short" and m.model_dump()["future_field"] == {"x": 1}
    assert m.meta.model_dump()["colour"] == "red"
    assert report.unknown_keys == ["future_field", "meta.colour"]
    assert report.without_gist == 0


def test_status_kept_aside_by_the_export_comes_back(tmp_path, vault):
    extra = {"k": 1, "memvault_status": "superseded"}
    src = write_store(tmp_path / "s", [memory_line("a", status="archived",
                                                   meta={"tags": [], "source": None,
                                                         "context": None, "extra": extra})])
    migrate_jsonl(vault, src)
    assert vault.memories["a"].status == MemoryStatus.SUPERSEDED
    assert vault.memories["a"].meta.extra == {"k": 1}


def test_only_relations_or_nothing(tmp_path, vault):
    folder = tmp_path / "rels"
    folder.mkdir()
    (folder / "relations.jsonl").write_text(json.dumps(relation_line("r", "a", "b")) + "\n")
    report = migrate_jsonl(vault, folder)
    assert report.memories == 0 and set(vault.relations) == {"r"} and report.dangling == ["r"]
    assert report.backup and (vault.root / report.backup / "relations.jsonl").exists()
    assert not (vault.root / report.backup / "memories.jsonl").exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(VaultError, match="nothing to migrate"):
        migrate_jsonl(vault, empty)
    with pytest.raises(VaultError, match="no folder"):
        migrate_jsonl(vault, tmp_path / "missing")


def test_into_a_vault_that_already_has_memories(vault, fixture_dir):
    mine = vault.add("my own memory, made before the migration")
    report = migrate_jsonl(vault, fixture_dir)
    assert mine.id in vault.memories and len(vault.memories) == 46
    assert len(report.new_memories) == 45
    meta = json.loads((vault.root / ".meta.json").read_text())
    assert meta["migrated_from"] == FORMAT and meta["storage_version"] == 2


def test_records_are_plain_vault_records(vault, fixture_dir):
    migrate_jsonl(vault, fixture_dir)
    for path in (vault.root / "memories").iterdir():
        m = Memory.model_validate_json(path.read_bytes())
        assert vault.layout.encode(m) == path.read_bytes()
    for path in (vault.root / "relations").iterdir():
        r = Relation.model_validate_json(path.read_bytes())
        assert vault.layout.encode(r) == path.read_bytes()


def test_plain_files_of_a_change_set_stay_out_of_records_and_git(vault):
    from core.vault import Plan

    for bad in ("memories/x.json", "relations/r.json", ".meta.json", "../outside",
                ".git/config", "/abs", "a//b", "./a", ""):
        with pytest.raises(VaultError, match="plain vault file"):
            vault.apply(lambda v, bad=bad: Plan("test: bad", put_files={bad: b"x"}))
    assert not (vault.root.parent / "outside").exists()
    change = vault.apply(lambda v: Plan("test: ok", put_files={".backup/a/b.txt": b"x"}))
    assert (vault.root / ".backup" / "a" / "b.txt").read_bytes() == b"x"
    assert change.commit == vault.journal.head()
