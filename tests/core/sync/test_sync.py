"""`memvault sync` between machines (core.sync.engine), with real git only: a bare remote and two clones in
tmp_path, each with its own Vault, the vault at the clone's root or in a folder of a larger
repository. git runs the merge driver as installed (the ``memvault-merge-driver`` program next to
``sys.executable``, by its absolute path).

After every scenario: both clones sync until equal, no file anywhere holds conflict markers, no
write is lost, `git fsck` is clean, the caches match disk and HEAD, and one more sync on each
side changes nothing."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from vault_support import run_git
from sync_support import DAY, LAYOUTS, T0, Machine, assert_consistent, at, make_world, new

from core import JournalError, Memory, Relation, Vault, VaultError
from core.ops.consolidate import execute_consolidation
from core.ops.maintenance import MaintenanceRefused
from core.sync.conflict_markers import has_conflict_markers
from core.sync.engine import install, last_sync, status, sync
from tui import cli

@pytest.fixture(params=LAYOUTS)
def world(request, tmp_path):
    """``world.a``, ``world.b``: two machines on one bare remote, with a shared history."""
    return make_world(tmp_path, request.param)


def settle(world) -> None:
    """Sync until both clones are equal, then check everything the issue asks after a scenario."""
    a, b = world.a, world.b
    a.sync()
    b.sync()
    a.sync()
    assert a.head() == b.head() == run_git(world.remote, "rev-parse", "main")
    check_clean(world)
    # running sync again, on either side, changes nothing
    heads = (a.head(), b.head())
    for m in (a, b):
        count = m.git("rev-list", "--count", "--all")
        report = m.sync()
        assert report.outcome == "up-to-date", report
        assert not report.pushed and report.merge_commit is None
        assert m.git("rev-list", "--count", "--all") == count
    assert (a.head(), b.head()) == heads


def check_clean(world) -> None:
    a, b = world.a, world.b
    for m in (a, b):
        assert_consistent(m.vault)
        fresh = Vault.open(m.vault_dir)
        assert fresh.memories == m.vault.memories and fresh.relations == m.vault.relations
        m.git("fsck", "--strict", "--no-progress")
        for rel in m.git("ls-files", "-z").split("\0"):
            if rel:
                assert not has_conflict_markers((m.repo / rel).read_bytes()), rel
        assert not (m.vault_dir / "sync-conflicts").exists()
    run_git(world.remote, "fsck", "--strict", "--no-progress")
    assert a.vault.memories == b.vault.memories
    assert a.vault.relations == b.vault.relations
    assert (a.vault_dir / ".meta.json").read_bytes() == (b.vault_dir / ".meta.json").read_bytes()


def share(world, *memories: tuple[str, str]) -> None:
    """Memories made on A and synced to B before the scenario."""
    for memory_id, content in memories:
        new(world.a, memory_id, content)
    world.a.sync()
    world.b.sync()
    assert set(world.b.vault.memories) >= {m for m, _ in memories}


# -- install -------------------------------------------------------------------------------------
def test_install_writes_attributes_and_config_once(world):
    a = world.a
    prefix = "" if world.layout == "root" else "notes/vault/"
    lines = (a.repo / ".gitattributes").read_text().splitlines()
    assert f"{prefix}memories/*.json merge=memory-latest" in lines
    assert f"{prefix}relations/*.json merge=memory-latest" in lines
    assert f"{prefix}.meta.json merge=memory-latest" in lines
    driver = a.git("config", "--local", "merge.memory-latest.driver")
    # the installed program by its absolute path: nothing imported from the repository
    program = Path(sys.executable).parent / "memvault-merge-driver"
    assert driver == f"{program} %O %A %B %P" and program.is_file()
    assert "-m" not in driver.split()
    info = Path(a.git("rev-parse", "--git-common-dir"))
    pinned = (a.repo / info / "info" / "attributes").read_text().splitlines()
    assert (f"{prefix}memories/*.json merge=memory-latest -filter -text -ident "
            "-working-tree-encoding !diff") in pinned
    assert a.git("log", "--format=%s", "--", ".gitattributes") == "sync: install merge driver"
    for m in (a, world.b):
        assert m.git("check-attr", "merge", "--", f"{prefix}memories/x.json").endswith(
            "merge: memory-latest")
        before = m.head()
        assert not install(m.vault).changed  # idempotent: nothing written, no commit
        assert m.head() == before
    assert status(a.vault)["installed"]


def test_install_keeps_existing_attributes_and_refuses_uncommitted_edits(world):
    a = world.a
    path = a.repo / ".gitattributes"
    text = "*.png binary\n" + path.read_text()
    path.write_text(text)
    a.git("add", ".gitattributes")
    a.git("-c", "user.name=P", "-c", "user.email=p@e", "commit", "-q", "-m", "person: attrs")
    a.git("config", "--local", "--unset", "merge.memory-latest.driver")
    assert install(a.vault).config_changed == ["merge.memory-latest.driver"]
    assert path.read_text() == text
    # a vault in another folder of the same repository needs its own lines
    other = Vault.open(a.repo / "elsewhere", inside_repo=True)
    path.write_text(text + "# my uncommitted edit\n")
    with pytest.raises(VaultError, match="not committed"):
        install(other)
    path.write_text(text)
    report = install(other)
    assert report.added_lines and report.commit
    assert path.read_text().startswith("*.png binary\n")
    assert "elsewhere/memories/*.json merge=memory-latest" in path.read_text()


# -- scenarios -----------------------------------------------------------------------------------
def test_creates_on_both_sides(world):
    a, b = world.a, world.b
    new(a, "from-a", "made on the laptop")
    a.vault.relate("from-a", "from-a", "related")
    new(b, "from-b", "made on the server")
    assert a.sync().outcome == "pushed"
    report = b.sync()
    assert report.outcome == "merged" and report.pushed
    assert report.incoming["memories"]["added"] == 1
    assert report.incoming["relations"]["added"] == 1
    assert report.driver == []  # different files: nothing for the driver
    assert b.git("log", "-1", "--format=%s") == "sync: merge origin/main"
    assert len(b.git("log", "-1", "--format=%P").split()) == 2
    settle(world)
    assert {"from-a", "from-b"} <= set(a.vault.memories)


def test_same_memory_touched_on_both_sides(world, monkeypatch):
    share(world, ("shared", "the user prefers pytest"))
    a, b = world.a, world.b
    at(monkeypatch, T0 + 100)
    a.vault.touch("shared")
    a.vault.touch("shared")
    a.vault.update("shared", content="the user prefers pytest with plain assert")
    at(monkeypatch, T0 + 200)
    b.vault.touch("shared", boost=True)
    a.sync()
    report = b.sync()
    assert report.outcome == "merged"
    decisions = [d for d in report.driver if d["path"].endswith("memories/shared.json")]
    assert len(decisions) == 1 and decisions[0]["clean"]  # git ran the driver, once
    assert decisions[0]["decision"] == "merged" and "later last_used" in decisions[0]["reason"]
    settle(world)
    for m in (a, b):
        got = m.mem("shared")
        assert got.last_used == T0 + 200  # the later touch wins
        assert got.use_count == 3  # 2 touches here + 1 there: not lost
        assert got.strength == pytest.approx(1.1)  # the boost made there
        assert got.content == "the user prefers pytest with plain assert"  # the edit made here


@pytest.mark.parametrize("first", ["consolidator", "toucher"])
def test_consolidation_on_one_side_while_the_other_touched_a_source(world, monkeypatch, first):
    share(world, ("s1", "deploys happen on tuesdays after the standup"),
          ("s2", "deploys happen on tuesdays, after the standup meeting"),
          ("other", "an unrelated memory"))
    a, b = world.a, world.b
    a.vault.relate("s1", "other", "related")
    a.sync()
    b.sync()
    at(monkeypatch, T0 + 500)
    merged = execute_consolidation(a.vault, ["s1", "s2"]).merged
    at(monkeypatch, T0 + 900)
    b.vault.touch("s1")
    b.vault.relate("s2", "other", "supports")  # a new relation to a source
    order = (a, b) if first == "consolidator" else (b, a)
    order[0].sync()
    report = order[1].sync()
    assert report.outcome == "merged"
    assert [d["id"] for d in report.accepted_deletions] == ["s1"]
    assert report.accepted_deletions[0]["carried_to"] == [merged.id]
    assert report.kept == []
    assert [r["action"] for r in report.relations] == ["re-pointed"]
    settle(world)
    for m in (a, b):
        assert "s1" not in m.vault.memories and "s2" not in m.vault.memories
        got = m.mem(merged.id)
        assert got.last_used == T0 + 900  # the touch of a source reached the merged memory
        assert got.use_count == merged.use_count + 1
        supports = [r for r in m.vault.relations.values() if r.relation_type == "supports"]
        assert [(r.from_memory_id, r.to_memory_id) for r in supports] == [(merged.id, "other")]
        provenance = {r.to_memory_id for r in m.vault.relations.values()
                      if r.relation_type == "consolidated_from"}
        assert provenance == {"s1", "s2"}


def test_delete_versus_modify_without_provenance_keeps_the_memory(world, monkeypatch, capsys):
    share(world, ("kept", "a memory deleted on one side, used on the other"),
          ("friend", "its neighbour"))
    a, b = world.a, world.b
    a.vault.relate("kept", "friend", "related")
    a.sync()
    b.sync()
    a.vault.delete("kept")
    at(monkeypatch, T0 + 300)
    b.vault.touch("kept")
    b.sync()
    report = a.sync()
    assert report.outcome == "merged"
    assert [d["id"] for d in report.kept] == ["kept"]
    assert report.kept[0]["relations_restored"] == 1
    assert report.accepted_deletions == []
    from tui.cli.sync import print_report

    print_report(report.as_dict())
    assert "kept kept" in capsys.readouterr().out
    settle(world)
    for m in (a, b):
        assert m.mem("kept").use_count == 1 and m.mem("kept").last_used == T0 + 300
        assert [r.to_memory_id for r in m.vault.relations_of("kept")] == ["friend"]


def test_a_similar_new_memory_is_not_taken_for_the_deleted_one(world, monkeypatch):
    """git's rename detection pairs a deleted file with a similar new one; sync does not."""
    text = "the staging server is rebuilt every night at two from the main branch"
    share(world, ("old", text))
    a, b = world.a, world.b
    a.vault.delete("old")
    new(a, "look-alike", text + ".")
    at(monkeypatch, T0 + 30)
    b.vault.touch("old")
    a.sync()
    report = b.sync()
    assert [d["id"] for d in report.kept] == ["old"]
    assert all("look-alike" not in d["path"] for d in report.driver)
    settle(world)
    for m in (a, b):
        assert m.mem("old").use_count == 1 and m.mem("look-alike").use_count == 0
        assert m.mem("look-alike").content == text + "."


def test_gc_on_one_side_while_the_other_touched(world, monkeypatch):
    a, b = world.a, world.b
    new(a, "faded", "an old memory nobody used", last_used=T0 - 400 * DAY)
    new(a, "fresh", "a memory in use")
    a.sync()
    b.sync()
    at(monkeypatch, T0 + 60)
    b.vault.touch("faded")
    report = a.vault.gc(now=T0)
    assert [m.id for m, _ in report.candidates] == ["faded"]
    a.sync()
    result = b.sync()
    assert [(d["id"], d["reason"]) for d in result.accepted_deletions] == [("faded", "gc")]
    assert "memvault restore faded" in result.accepted_deletions[0]["note"]
    settle(world)
    assert "faded" not in a.vault.memories and "fresh" in a.vault.memories
    assert b.vault.version("faded", result.merge_commit + "^1").use_count == 1  # in history


def test_relation_files(world, monkeypatch):
    share(world, ("m1", "one"), ("m2", "two"), ("m3", "three"))
    a, b = world.a, world.b
    both = a.vault.relate("m1", "m2", "related", strength=0.5)
    doomed = a.vault.relate("m2", "m3", "related")
    a.sync()
    b.sync()
    # the same relation changed on both sides: field by field
    a.vault.save_relations([both.model_copy(update={"strength": 0.9})])
    b.vault.save_relations([both.model_copy(update={"metadata": {"why": "co-occur"}})])
    # removed here, changed there: both its memories live, so it is kept
    a.vault.unrelate(doomed.id)
    b.vault.save_relations([doomed.model_copy(update={"strength": 0.3})])
    # new relations on each side
    a.vault.relate("m1", "m3", "supports")
    b.vault.relate("m3", "m1", "contradicts")
    a.sync()
    report = b.sync()
    assert [d["decision"] for d in report.driver] == ["merged"]
    assert report.relations == [{"id": doomed.id, "action": "kept",
                                 "reason": report.relations[0]["reason"]}]
    settle(world)
    rels = a.vault.relations
    assert (rels[both.id].strength, rels[both.id].metadata) == (0.9, {"why": "co-occur"})
    assert rels[doomed.id].strength == 0.3
    assert sorted(r.relation_type for r in rels.values()) == [
        "contradicts", "related", "related", "supports"]


def test_a_corrupt_side_waits_for_a_person_and_nothing_broken_is_pushed(world, monkeypatch,
                                                                       capsys):
    share(world, ("victim", "this memory gets a bad edit on one machine"))
    a, b = world.a, world.b
    path_b = b.vault_dir / "memories" / "victim.json"
    path_b.write_bytes(b'{"id": "victim", "content": "half an edit", \n')  # a person's bad edit
    # memvault never commits a file it cannot read (it is reported); the person commits it
    b.git("add", "--", str(path_b))
    b.git("-c", "user.name=A Person", "-c", "user.email=person@example.com", "commit", "-q",
          "-m", "external: a person's bad edit")
    b.reopen()  # a problem file, reported
    assert b.vault.problems and b.git("log", "-1", "--format=%s").startswith("external:")
    at(monkeypatch, T0 + 50)
    a.vault.touch("victim")
    assert b.sync().outcome == "pushed"
    remote_before = run_git(world.remote, "rev-parse", "main")
    head_before = a.head()

    code = cli.main(["--vault", str(a.vault_dir), "sync"])
    out = capsys.readouterr().out
    assert code == 1
    assert "need a person" in out and "edit " in out
    record = last_sync(a.reopen())
    assert record["outcome"] == "conflict" and not record["pushed"]
    [conflict] = record["conflicts"]
    assert conflict["path"].endswith("memories/victim.json")
    assert "theirs is not a valid memory" in conflict["reason"]
    assert a.head() == head_before  # nothing committed
    assert run_git(world.remote, "rev-parse", "main") == remote_before  # nothing pushed
    assert a.git("status", "--porcelain") == ""
    marked = Path(conflict["file"])
    assert marked.is_relative_to(a.vault_dir / "sync-conflicts")
    text = marked.read_bytes()
    assert has_conflict_markers(text) and b"half an edit" in text and b'"victim"' in text
    assert not has_conflict_markers((a.vault_dir / "memories" / "victim.json").read_bytes())
    assert a.mem("victim").use_count == 1  # the vault goes on working meanwhile

    # syncing again without resolving: still waiting, the file as it was
    again = a.sync()
    assert again.outcome == "conflict" and "not resolved yet" in again.conflicts[0]["reason"]
    assert marked.read_bytes() == text

    # this machine moves on meanwhile: the untouched file is written anew, with the new version
    at(monkeypatch, T0 + 60)
    a.vault.touch("victim")
    assert a.sync().outcome == "conflict"
    text = marked.read_bytes()
    assert b'"use_count": 2' in text and has_conflict_markers(text)

    # the person starts resolving; a sync in between never overwrites their half-done edit
    ours = text.split(b"\n=======\n")[0].split(b"\n", 1)[1]
    fixed = json.loads(ours.split(b"||||||| ancestor")[0])
    fixed["content"] = "this memory, fixed by a person"
    half = json.dumps(fixed)[:-10]
    marked.write_text(half)
    at(monkeypatch, T0 + 70)
    a.vault.touch("victim")
    waiting = a.sync()
    assert waiting.outcome == "conflict" and "not a valid memory" in waiting.conflicts[0]["reason"]
    assert marked.read_text() == half
    with pytest.raises(VaultError):  # a failing sync keeps the waiting list
        a.sync(remote="nope")
    assert last_sync(a.vault)["conflicts"][0]["path"] == conflict["path"]

    marked.write_text(json.dumps(fixed))
    report = a.sync()
    assert report.outcome == "merged" and report.pushed
    assert report.resolved == [conflict["path"]]
    settle(world)
    for m in (a, b):
        assert m.mem("victim").content == "this memory, fixed by a person"
        assert m.mem("victim").use_count == 2  # the person's version, as they wrote it
        assert m.vault.problems == []


def test_local_changes_outside_the_vault_are_never_overwritten(world):
    """A person's files (beside the vault's records; in the root layout, in the vault's folder
    but not a record)."""
    a, b = world.a, world.b
    (a.repo / "TODO.md").write_text("my notes\n")
    a.git("add", "TODO.md")
    a.git("-c", "user.name=P", "-c", "user.email=p@e", "commit", "-q", "-m", "person: notes")
    a.sync()
    b.sync()
    new(a, "x", "a memory")
    (a.repo / "TODO.md").write_text("my notes, changed on a\n")
    a.git("-c", "user.name=P", "-c", "user.email=p@e", "commit", "-q", "-am", "person: edit")
    a.sync()
    new(b, "y", "another memory")
    (b.repo / "TODO.md").write_text("uncommitted edit on b\n")
    (b.repo / "scratch.txt").write_text("untracked\n")
    head = b.head()
    with pytest.raises(JournalError, match="not committed"):
        b.sync()
    assert b.head() == head
    assert (b.repo / "TODO.md").read_text() == "uncommitted edit on b\n"
    assert last_sync(b.vault)["outcome"] == "error"
    b.git("checkout", "TODO.md")
    assert b.sync().outcome == "merged"
    assert (b.repo / "TODO.md").read_text() == "my notes, changed on a\n"
    assert (b.repo / "scratch.txt").read_text() == "untracked\n"
    b.reopen()
    settle(world)


def test_pending_work_is_committed_first(world):
    a = world.a
    rel = "memories/hand.json"
    data = Vault.open(a.vault_dir).layout.encode(Memory(id="hand", content="written by hand"))
    (a.vault_dir / rel).write_bytes(data)
    report = a.sync()
    assert report.external_commit and report.pushed
    settle(world)
    assert "hand" in world.b.vault.memories


def test_a_crash_between_checkout_and_ref_is_rolled_back(world):
    a, b = world.a, world.b
    new(a, "one", "from a")
    a.sync()
    new(b, "two", "from b")

    def boom(step):
        if step == "advance-update-ref":
            raise RuntimeError("power cut")

    b.vault.journal.faults.hook = boom
    head = b.head()
    with pytest.raises(RuntimeError):
        b.sync()
    b.vault.journal.faults.hook = None
    assert b.head() == head
    b.reopen()
    assert_consistent(b.vault)
    assert "one" not in b.vault.memories
    settle(world)


def test_unrelated_histories_are_refused_unless_asked(tmp_path, world):
    c_repo = tmp_path / "c"
    c_repo.mkdir()
    run_git(c_repo, "init", "-q", "-b", "main")
    (c_repo / "c.txt").write_text("another machine's own first commit\n")
    run_git(c_repo, "add", "c.txt")
    run_git(c_repo, "-c", "user.name=C", "-c", "user.email=c@e", "commit", "-q", "-m", "c")
    run_git(c_repo, "remote", "add", "origin", str(world.remote))
    c = Machine("c", c_repo, c_repo if world.layout == "root" else c_repo / "notes" / "vault")
    new(c, "from-c", "a vault made separately")
    with pytest.raises(VaultError, match="share no"):
        c.sync()
    report = c.sync(allow_unrelated=True)
    assert report.outcome in ("merged",)
    assert report.pushed
    world.a.sync()
    assert "from-c" in world.a.vault.memories


# -- the maintenance machine ---------------------------------------------------------------------
def test_designated_machine_runs_gc_and_consolidation(world, monkeypatch, capsys):
    a, b = world.a, world.b
    monkeypatch.setenv("MEMVAULT_MACHINE_ID", "laptop")
    assert cli.main(["--vault", str(a.vault_dir), "sync", "designate"]) == 0
    assert "laptop" in capsys.readouterr().out
    a.vault.meta.clear()
    a.reopen()
    a.sync()
    b.sync()
    new(b, "c1", "deploys happen on tuesdays")
    new(b, "c2", "deploys happen on tuesdays!")
    new(b, "old", "faded", last_used=T0 - 400 * DAY)
    monkeypatch.setenv("MEMVAULT_MACHINE_ID", "vps-1")
    with pytest.raises(MaintenanceRefused, match="'laptop'.*'vps-1'"):
        b.vault.gc(now=T0)
    with pytest.raises(MaintenanceRefused, match="run it there"):
        execute_consolidation(b.vault, ["c1", "c2"])
    assert b.vault.gc(dry_run=True, now=T0).candidates  # looking is fine
    code = cli.main(["--vault", str(b.vault_dir), "gc"])
    err = capsys.readouterr().err
    assert code == 1 and "maintenance machine 'laptop'" in err and "--force" in err
    info = status(b.vault)
    assert info["maintenance_machine"] == "laptop" and not info["may_maintain"]
    assert b.vault.gc(now=T0, force=True).applied
    b.sync()
    monkeypatch.setenv("MEMVAULT_MACHINE_ID", "laptop")
    a.sync()
    execute_consolidation(a.vault, ["c1", "c2"])
    assert cli.main(["--vault", str(a.vault_dir), "sync", "designate", "--clear"]) == 0
    monkeypatch.setenv("MEMVAULT_MACHINE_ID", "vps-1")
    settle(world)
    assert b.vault.meta.get("maintenance_machine") is None
    assert b.vault.gc(now=T0).applied  # no designated machine: any may


# -- the CLI and the record ----------------------------------------------------------------------
def test_cli_sync_status_and_json(world, capsys):
    a, b = world.a, world.b
    new(b, "from-b", "x")
    assert cli.main(["--vault", str(b.vault_dir), "sync", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["outcome"] == "pushed" and data["remote"] == "origin" and data["branch"] == "main"
    new(a, "from-a", "y")
    assert cli.main(["--vault", str(a.vault_dir), "sync"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("merged 1 commit from origin/main") and "memories: 1 added" in out
    assert cli.main(["--vault", str(a.vault_dir), "sync", "status"]) == 0
    out = capsys.readouterr().out
    assert "merge driver: installed" in out and "0 ahead, 0 behind" in out
    assert "last sync" in out and "merged 1 commit" in out
    assert cli.main(["--vault", str(a.vault_dir), "sync", "status", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["last_sync"]["outcome"] == "merged" and info["installed"]
    assert cli.main(["--vault", str(a.vault_dir), "sync", "install"]) == 0
    assert "already installed" in capsys.readouterr().out
    assert cli.main(["--vault", str(a.vault_dir), "sync", "--remote", "nope"]) == 1
    assert "no remote named 'nope'" in capsys.readouterr().err
    # the record lives in the git directory, never in the tracked tree
    record = Path(a.vault.journal.repo.git_dir) / "memvault" / "last-sync.json"
    assert json.loads(record.read_text())["outcome"] == "error"
    assert last_sync(Vault.open(a.vault_dir, readonly=True))["outcome"] == "error"  # no git
    assert a.git("status", "--porcelain") == ""
    settle(world)


def test_last_sync_without_any(tmp_path):
    v = Vault.open(tmp_path / "alone")
    assert last_sync(v) is None
    with pytest.raises(VaultError, match="no remote"):
        sync(v)
    assert last_sync(v)["outcome"] == "error"


def test_sync_refuses_during_a_persons_merge(world):
    a = world.a
    (Path(a.vault.journal.repo.git_dir) / "MERGE_HEAD").write_text(a.head() + "\n")
    try:
        with pytest.raises(VaultError, match="in progress"):
            a.sync()
    finally:
        os.unlink(Path(a.vault.journal.repo.git_dir) / "MERGE_HEAD")


def test_relation_json_is_canonical_after_merge(world):
    share(world, ("p", "p"), ("q", "q"))
    a, b = world.a, world.b
    r = a.vault.relate("p", "q", "related")
    a.sync()
    b.sync()
    a.vault.save_relations([r.model_copy(update={"strength": 0.2})])
    b.vault.save_relations([r.model_copy(update={"strength": 0.7, "created_at": r.created_at + 5})])
    a.sync()
    b.sync()
    settle(world)
    got = a.vault.relations[r.id]
    assert isinstance(got, Relation) and got.strength == 0.7  # the later created_at


# -- the one rule for relations when a memory goes (core.model.relation_rule) ----------------------
def test_a_memory_deleted_with_its_lineage_kept_is_consumed_in_a_merge(world, monkeypatch):
    """A split original deleted by hand on one side keeps its split_from relations (lineage
    outlives it), so a touch of it on the other side does not bring it back: the deletion is
    accepted, the touch carried into the part. Its other relations went with it; one added on
    the other side meanwhile goes too, and a new lineage relation to it stays."""
    share(world, ("orig", "tomatoes need sun and basil needs water"),
          ("part", "tomatoes need sun"), ("friend", "a neighbour"), ("late", "made later"))
    a, b = world.a, world.b
    a.vault.save_relations([Relation(id="lin-1", from_memory_id="part", to_memory_id="orig",
                                     relation_type="split_from", created_at=T0)])
    a.vault.relate("orig", "friend", "related")
    a.sync()
    b.sync()
    report = a.vault.delete("orig")
    assert [r.relation_type for r in report.relations] == ["related"]
    assert [r.id for r in report.kept_relations] == ["lin-1"]
    at(monkeypatch, T0 + 600)
    b.vault.touch("orig")
    b.vault.relate("friend", "orig", "supports")  # a new relation to it, not lineage
    b.vault.save_relations([Relation(id="lin-2", from_memory_id="late", to_memory_id="orig",
                                     relation_type="split_from", created_at=T0 + 600)])
    a.sync()
    merged = b.sync()
    assert merged.outcome == "merged"
    assert [(d["id"], d["reason"]) for d in merged.accepted_deletions] == [
        ("orig", "split into late, part")]
    assert merged.kept == []
    # the new "supports" goes with the memory; the new lineage relation stays
    assert [(r["action"], r["reason"]) for r in merged.relations] == [
        ("deleted", "its memory was deleted on the other side")]
    settle(world)
    for m in (a, b):
        assert "orig" not in m.vault.memories
        assert m.mem("part").last_used == T0 + 600  # the touch reached what it became
        assert {r.id for r in m.vault.store.relations_of("orig")} == {"lin-1", "lin-2"}
        assert m.vault.relations_of("friend") == []


def test_a_split_consumed_on_one_side_is_named_split(world, monkeypatch):
    share(world, ("orig", "tomatoes need sun and basil needs water"),
          ("part", "tomatoes need sun"))
    a, b = world.a, world.b
    a.vault.save_relations([Relation(id="lin-1", from_memory_id="part", to_memory_id="orig",
                                     relation_type="split_from", created_at=T0)])
    a.sync()
    b.sync()
    a.vault.delete("orig")
    at(monkeypatch, T0 + 600)
    b.vault.touch("orig")
    a.sync()
    merged = b.sync()
    assert [(d["id"], d["reason"]) for d in merged.accepted_deletions] == [("orig", "split into part")]
    assert "deleted: orig (split into part, " in b.git("log", "-1", "--format=%B")
    settle(world)
