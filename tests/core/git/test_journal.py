"""The git journal: a vault inside a larger repository, identity, external edits, crash recovery
(injected faults and killed processes) and the write lock."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from core import JournalError, LockTimeoutError, Vault
from core.git.journal import Journal


# -- a vault inside a larger repository --------------------------------------------------------
def _outer_repo(tmp_path, git, *, with_commit=True, branch="main"):
    outer = tmp_path / "outer"
    outer.mkdir()
    git(outer, "init", "-q", "-b", branch)
    if with_commit:
        (outer / "README.md").write_text("my notes\n")
        git(outer, "add", "README.md")
        git(outer, "-c", "user.name=Person", "-c", "user.email=person@example.com",
            "commit", "-q", "-m", "person: first")
    (outer / "notes").mkdir()
    (outer / "notes" / "todo.md").write_text("- buy milk\n")
    git(outer, "add", "notes/todo.md")
    return outer


def _memvault_commits(outer, git):
    return [c for c in git(outer, "log", "--format=%H %s").splitlines()
            if not c.split(" ", 1)[1].startswith("person:")]


@pytest.mark.parametrize("with_commit", [True, False], ids=["outer-has-history", "outer-unborn"])
def test_vault_inside_larger_repo(tmp_path, git, git_tools, with_commit):
    outer = _outer_repo(tmp_path, git, with_commit=with_commit)
    if with_commit:
        (outer / "README.md").write_text("my notes, edited but not staged\n")
    (outer / "untracked.txt").write_text("not for git\n")
    stm = outer / "notes" / ".cortexgraph" / "stm"
    v = Vault.open(stm, inside_repo=True)
    assert not (stm / ".git").exists()  # the outer repository is used
    assert v.journal.worktree == outer.resolve()
    a, b = v.add("alpha"), v.add("beta")
    v.relate(a.id, b.id, "related")
    v.touch(a.id)
    v.archive(b.id)
    v.delete(a.id)
    v.restore(a.id)
    git_tools.assert_consistent(v)

    # the person's staged file is still staged, and never committed by memvault
    assert git(outer, "diff", "--cached", "--name-only") == "notes/todo.md"
    assert git(outer, "ls-tree", "-r", "--name-only", "HEAD", "--", "notes/todo.md") == ""
    status = git(outer, "status", "--porcelain").splitlines()
    assert "A  notes/todo.md" in status
    assert "?? untracked.txt" in status
    if with_commit:
        assert " M README.md" in status
    assert not any(".cortexgraph" in line for line in status)
    # every memvault commit touches only the vault's paths
    commits = _memvault_commits(outer, git)
    assert len(commits) == 8  # init, add, add, relate, touch, archive, delete, restore
    for line in commits:
        sha = line.split()[0]
        names = git(outer, "show", "--name-only", "--format=", sha).splitlines()
        assert names, line
        assert all(n.startswith("notes/.cortexgraph/stm/") for n in names), (line, names)
    git(outer, "fsck", "--strict")


def test_person_can_still_commit_their_staged_file(tmp_path, git):
    outer = _outer_repo(tmp_path, git)
    v = Vault.open(outer / "notes" / ".cortexgraph" / "stm", inside_repo=True)
    v.add("a memory")
    git(outer, "-c", "user.name=Person", "-c", "user.email=person@example.com",
        "commit", "-q", "-m", "person: todo")
    assert git(outer, "show", "--name-only", "--format=", "HEAD") == "notes/todo.md"
    assert git(outer, "status", "--porcelain") == ""


def test_branch_ref_moves(tmp_path, git):
    outer = _outer_repo(tmp_path, git, branch="trunk")
    v = Vault.open(outer / "stm", inside_repo=True)
    v.add("x")
    assert git(outer, "rev-parse", "refs/heads/trunk") == git(outer, "rev-parse", "HEAD")
    assert git(outer, "symbolic-ref", "HEAD") == "refs/heads/trunk"


def test_vault_path_with_spaces_and_unicode(tmp_path, git_tools):
    v = Vault.open(tmp_path / "my notes" / "ünïcödé vault")
    m = v.add("x")
    v.touch(m.id)
    v.delete(m.id)
    v.restore(m.id)
    git_tools.assert_consistent(v)
    assert len(v.history(m.id)) == 4


def test_vault_subfolder_of_its_own_repo(tmp_path, git, git_tools):
    root = tmp_path / "repo"
    Vault.open(root / "a").add("in a")  # repo created at root/a
    v = Vault.open(root / "a" / "nested", inside_repo=True)  # a vault folder inside that repo
    v.add("in nested")
    git_tools.assert_consistent(v)
    outer_vault = Vault.open(root / "a")
    assert len(outer_vault.memories) == 1  # the nested vault's files are not its memories
    assert outer_vault.problems == []


def test_hooks_and_signing_config_do_not_interfere(tmp_path, git):
    outer = _outer_repo(tmp_path, git)
    hook = outer / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\necho refused >&2\nexit 1\n")
    hook.chmod(0o755)
    git(outer, "config", "commit.gpgsign", "true")
    v = Vault.open(outer / "stm", inside_repo=True)
    v.add("x")
    assert git(outer, "log", "-1", "--format=%s").startswith("add: ")


# -- identity ------------------------------------------------------------------------------
def test_commits_as_memvault_without_git_identity(tmp_path, git):
    gitconfig = Path(os.environ["GIT_CONFIG_GLOBAL"])
    assert subprocess.run(["git", "config", "--global", "user.name"],
                          capture_output=True).returncode != 0
    path = tmp_path / "vault"
    v = Vault.open(path)
    local_config = (path / ".git" / "config").read_bytes()
    m = v.add("x")
    v.touch(m.id)
    v.delete(m.id)
    idents = set(git(path, "log", "--format=%an|%ae|%cn|%ce").splitlines())
    assert idents == {"memvault|memvault@localhost|memvault|memvault@localhost"}
    assert gitconfig.read_bytes() == b""
    assert (path / ".git" / "config").read_bytes() == local_config
    assert subprocess.run(["git", "config", "user.name"], cwd=path,
                          capture_output=True).returncode != 0


def test_commits_as_the_person_when_git_knows_them(tmp_path, git):
    gitconfig = Path(os.environ["GIT_CONFIG_GLOBAL"])
    gitconfig.write_text("[user]\n\tname = Ada Lovelace\n\temail = ada@example.com\n")
    before = gitconfig.read_bytes()
    path = tmp_path / "vault"
    Vault.open(path).add("x")
    assert set(git(path, "log", "--format=%an|%ae").splitlines()) == {"Ada Lovelace|ada@example.com"}
    assert gitconfig.read_bytes() == before


def test_outer_repo_config_unchanged(tmp_path, git):
    outer = _outer_repo(tmp_path, git)
    before = (outer / ".git" / "config").read_bytes()
    v = Vault.open(outer / "stm", inside_repo=True)
    v.touch(v.add("x").id)
    assert (outer / ".git" / "config").read_bytes() == before


# -- external edits ---------------------------------------------------------------------------
def test_external_edit_committed_at_open(vault_path, git_tools):
    v = Vault.open(vault_path)
    m = v.add("original text")
    keep = v.add("untouched")
    v.close()
    path = vault_path / "memories" / f"{m.id}.json"
    data = json.loads(path.read_text())
    data["content"] = "edited in an editor"
    path.write_text(json.dumps(data, indent=4))
    before = git_tools.commit_count(vault_path)

    v = Vault.open(vault_path)
    assert git_tools.commit_count(vault_path) == before + 1
    subject = git_tools.head_subject(vault_path)
    assert subject.startswith("external: ") and f"memories/{m.id}.json" in subject
    assert v.report.external_paths == [f"memories/{m.id}.json"]
    assert v.get(m.id).content == "edited in an editor"
    assert v.get(keep.id) == keep
    assert path.read_text() == json.dumps(data, indent=4)  # committed as written, not rewritten
    git_tools.assert_consistent(v, exact_bytes=False)
    assert v.history(m.id)[0].operation == "external"
    # nothing more to adopt at the next open
    Vault.open(vault_path)
    assert git_tools.commit_count(vault_path) == before + 1


def test_external_delete_and_new_file(vault_path, git_tools):
    v = Vault.open(vault_path)
    a, b = v.add("a"), v.add("b")
    v.relate(a.id, b.id, "related")
    v.close()
    (vault_path / "memories" / f"{a.id}.json").unlink()
    # its times are given: a missing created_at is read as "now", which differs between the
    # vault's read and the consistency check's when a second passes between them
    new = {"id": "handmade-1", "content": "written by hand", "created_at": 1_700_000_000,
           "last_used": 1_700_000_000}
    (vault_path / "memories" / "handmade-1.json").write_text(json.dumps(new))
    v = Vault.open(vault_path)
    assert git_tools.head_subject(vault_path).startswith("external: 2 files")
    assert a.id not in v.memories
    assert v.get("handmade-1").content == "written by hand"
    git_tools.assert_consistent(v, exact_bytes=False)


def test_foreign_files_in_vault_folder_not_committed(vault_path, git, git_tools):
    v = Vault.open(vault_path)
    v.add("x")
    v.close()
    (vault_path / "NOTES.txt").write_text("mine\n")
    (vault_path / "memories" / "readme.md").write_text("not a memory\n")
    count = git_tools.commit_count(vault_path)
    v = Vault.open(vault_path)
    assert git_tools.commit_count(vault_path) == count
    tracked = git(vault_path, "ls-files").splitlines()
    assert "NOTES.txt" not in tracked and "memories/readme.md" not in tracked
    v.add("y")
    tracked = git(vault_path, "ls-files").splitlines()
    assert "NOTES.txt" not in tracked and "memories/readme.md" not in tracked
    assert (vault_path / "NOTES.txt").read_text() == "mine\n"


def test_commit_requires_lock(vault):
    with pytest.raises(RuntimeError):
        vault.journal.commit("x: y", {vault.root / "memories" / "a.json": b"{}"})


# -- injected faults in a multi-file operation -------------------------------------------------
STEPS = ["write", "stage", "write-tree", "commit-tree", "update-ref"]


def _fault_at(step, occurrence=1):
    seen = {"n": 0}

    def hook(name):
        if name == step:
            seen["n"] += 1
            if seen["n"] == occurrence:
                raise RuntimeError(f"injected fault at {name}")
    return hook


def _snapshot(v, git_tools):
    return (git_tools.disk_tree(v), v.journal.head(),
            {k: m.model_dump() for k, m in v.memories.items()},
            {k: r.model_dump() for k, r in v.relations.items()}, dict(v.meta))


@pytest.fixture
def related_vault(vault):
    ids = [vault.add(f"memory {i}").id for i in range(4)]
    vault.relate(ids[0], ids[1], "related")
    vault.relate(ids[2], ids[0], "supports")
    vault.relate(ids[1], ids[2], "causes")
    from core.model.records import now_epoch
    for i in ids[1:3]:
        vault.update(i, last_used=now_epoch() - 300 * 86400)
    return vault, ids


OPS = {
    "delete": lambda v, ids: v.delete(ids[0], ids[3]),
    "gc": lambda v, ids: v.gc(),
    "gc-archive": lambda v, ids: v.gc(archive=True),
    "touch": lambda v, ids: v.touch(*ids),
}


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("step,occurrence", [(s, 1) for s in STEPS] + [("write", 2), ("write", 3)])
def test_fault_before_commit_point_changes_nothing(related_vault, git_tools, op, step, occurrence):
    v, ids = related_vault
    before = _snapshot(v, git_tools)
    count = git_tools.commit_count(v.root)
    v.journal.faults.hook = _fault_at(step, occurrence)
    with pytest.raises(RuntimeError, match="injected fault"):
        OPS[op](v, ids)
    v.journal.faults.hook = None
    assert _snapshot(v, git_tools) == before
    assert git_tools.commit_count(v.root) == count
    assert not v.journal.recovery.has_intent()
    git_tools.assert_consistent(v)
    # the vault still works, and the same operation succeeds now
    OPS[op](v, ids)
    git_tools.assert_consistent(v)
    assert git_tools.commit_count(v.root) == count + 1
    reopened = Vault.open(v.root)
    assert reopened.memories == v.memories and reopened.relations == v.relations
    assert git_tools.commit_count(v.root) == count + 1


@pytest.mark.parametrize("op", OPS)
def test_fault_after_commit_point(related_vault, git_tools, op):
    """A failure while updating git's own index: the commit has landed; all is consistent."""
    v, ids = related_vault
    count = git_tools.commit_count(v.root)
    v.journal.faults.hook = _fault_at("index")
    try:
        OPS[op](v, ids)
    except RuntimeError:
        pass
    v.journal.faults.hook = None
    assert git_tools.commit_count(v.root) == count + 1
    assert v.journal.head() == git_tools.run(v.root, "rev-parse", "HEAD")
    assert git_tools.disk_tree(v) == git_tools.head_tree(v)
    reopened = Vault.open(v.root)
    assert git_tools.commit_count(v.root) == count + 1  # no external: commit
    assert reopened.memories == v.memories and reopened.relations == v.relations
    git_tools.assert_consistent(reopened)


def test_index_fault_then_more_commits_in_same_process(related_vault, git_tools):
    v, ids = related_vault
    v.journal.faults.hook = _fault_at("index")
    v.delete(ids[0])
    v.journal.faults.hook = None
    v.add("another")
    git_tools.assert_consistent(v)


# -- a killed process --------------------------------------------------------------------------
KILL_SCRIPT = textwrap.dedent("""
    import os, sys
    from core import Vault
    path, op, step, occurrence = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    v = Vault.open(path)
    seen = [0]
    def hook(name):
        if name == step:
            seen[0] += 1
            if seen[0] == occurrence:
                os._exit(17)
    v.journal.faults.hook = hook
    ids = sorted(v.memories)
    if op == "delete":
        v.delete(*[i for i in ids if i.startswith("m0") or i.startswith("m3")])
    elif op == "gc":
        v.gc()
    elif op == "touch":
        v.touch(*ids)
    print("finished without reaching the step")
    sys.exit(3)
""")


@pytest.fixture
def killable_vault(vault):
    from core.model.records import now_epoch
    for i in range(4):
        vault.add(f"memory {i}", memory_id=f"m{i}")
    vault.relate("m0", "m1", "related")
    vault.relate("m2", "m0", "supports")
    vault.relate("m1", "m2", "causes")
    for i in ("m1", "m2"):
        vault.update(i, last_used=now_epoch() - 300 * 86400)
    return vault


@pytest.mark.parametrize("op", ["delete", "gc", "touch"])
@pytest.mark.parametrize("step,occurrence", [(s, 1) for s in STEPS] + [("write", 2), ("index", 1)])
def test_killed_process_recovered_at_open(killable_vault, git_tools, op, step, occurrence):
    v = killable_vault
    before = _snapshot(v, git_tools)
    pre = v.journal.head()
    count = git_tools.commit_count(v.root)
    proc = subprocess.run([sys.executable, "-c", KILL_SCRIPT, str(v.root), op, step,
                           str(occurrence)], capture_output=True, text=True)
    assert proc.returncode == 17, proc.stdout + proc.stderr
    assert v.journal.recovery.has_intent()

    reopened = Vault.open(v.root)
    assert reopened.report.recovered
    assert reopened.report.external_commit is None
    subjects = git_tools.run(v.root, "log", "--format=%s").splitlines()
    assert not any(s.startswith("external:") for s in subjects)
    if step == "index":  # the commit had landed: fully after
        assert git_tools.commit_count(v.root) == count + 1
        assert git_tools.run(v.root, "rev-parse", "HEAD~1") == pre
        assert subjects[0].startswith(f"{op}: ")
        assert _snapshot(reopened, git_tools) != before
    else:  # fully before
        assert git_tools.commit_count(v.root) == count
        assert reopened.journal.head() == pre
        assert _snapshot(reopened, git_tools) == before
    assert not reopened.journal.recovery.has_intent()
    leftovers = [p for p in v.root.rglob(".tmp-*") if ".git" not in p.parts]
    assert leftovers == []
    git_tools.assert_consistent(reopened)
    # and it keeps working
    reopened.add("after the crash")
    git_tools.assert_consistent(reopened)


def _write_intent(v, paths, message, pre):
    state = Path(v.journal.repo.git_dir) / "memvault"
    state.mkdir(exist_ok=True)
    (state / "intent.json").write_text(json.dumps(
        {"pre_head": pre, "paths": paths, "message": message, "pid": 999999, "time": 0}))


def test_hand_made_crash_is_rolled_back(vault_path, git_tools):
    v = Vault.open(vault_path)
    a, b = v.add("a memory"), v.add("b memory")
    v.close()
    before = git_tools.disk_tree(v)
    count = git_tools.commit_count(vault_path)
    # a crashed "delete a + add c + change b": some files half-done
    (vault_path / "memories" / f"{a.id}.json").unlink()
    (vault_path / "memories" / f"{b.id}.json").write_bytes(b'{"id": "' + b.id.encode() + b'", "con')
    (vault_path / "memories" / "c-new.json").write_text('{"id": "c-new", "content": "c"}')
    (vault_path / "memories" / ".tmp-abc123").write_bytes(b"partial")
    _write_intent(v, [f"memories/{a.id}.json", f"memories/{b.id}.json", "memories/c-new.json"],
                  "delete: crashed", v.journal.head())

    v2 = Vault.open(vault_path)
    assert v2.report.recovered and "rolled back" in v2.report.recovered
    assert v2.report.external_commit is None
    assert git_tools.commit_count(vault_path) == count
    assert git_tools.disk_tree(v2) == before
    assert not (vault_path / "memories" / ".tmp-abc123").exists()
    assert set(v2.memories) == {a.id, b.id}
    git_tools.assert_consistent(v2)


def test_hand_made_crash_after_commit_is_completed(vault_path, git, git_tools):
    v = Vault.open(vault_path)
    a = v.add("a memory")
    pre = v.journal.head()
    v.touch(a.id)
    # pretend the process died right after update-ref: intent left, git's index not updated
    git(vault_path, "update-index", "--cacheinfo",
        f"100644,{git(vault_path, 'rev-parse', f'{pre}:memories/{a.id}.json')},memories/{a.id}.json")
    msg = git(vault_path, "log", "-1", "--format=%B")
    _write_intent(v, [f"memories/{a.id}.json"], msg, pre)
    count = git_tools.commit_count(vault_path)
    v2 = Vault.open(vault_path)
    assert v2.report.recovered and "completed" in v2.report.recovered
    assert git_tools.commit_count(vault_path) == count
    assert v2.get(a.id).use_count == 1
    git_tools.assert_consistent(v2)


def test_unreadable_intent_is_discarded(vault_path, git_tools):
    v = Vault.open(vault_path)
    v.add("x")
    (Path(v.journal.repo.git_dir) / "memvault" / "intent.json").write_text("{not json")
    count = git_tools.commit_count(vault_path)
    v2 = Vault.open(vault_path)
    assert v2.report.recovered
    assert git_tools.commit_count(vault_path) == count
    git_tools.assert_consistent(v2)


# -- the write lock ----------------------------------------------------------------------------
def test_lock_held_by_another_journal_times_out(vault_path, git_tools):
    v = Vault.open(vault_path, lock_timeout=0.2)
    m = v.add("x")
    before = _snapshot(v, git_tools)
    count = git_tools.commit_count(vault_path)
    other = Journal(vault_path)
    with other.lock():
        with pytest.raises(LockTimeoutError) as info:
            v.add("y")
        assert "pid" in str(info.value)
        with pytest.raises(LockTimeoutError):
            v.touch(m.id)
        with pytest.raises(LockTimeoutError):
            v.gc()
    assert _snapshot(v, git_tools) == before
    assert git_tools.commit_count(vault_path) == count
    # released: writes go through, nothing was lost
    v.add("y")
    v.touch(m.id)
    assert git_tools.commit_count(vault_path) == count + 2
    git_tools.assert_consistent(v)


def test_lock_waits_for_the_holder(vault_path, git_tools):
    v = Vault.open(vault_path, lock_timeout=30)
    other = Journal(vault_path)
    held, release = threading.Event(), threading.Event()

    def holder():
        with other.lock():
            held.set()
            release.wait(10)

    t = threading.Thread(target=holder)
    t.start()
    held.wait(10)
    result = {}

    def writer():
        result["m"] = v.add("waited for the lock")

    w = threading.Thread(target=writer)
    w.start()
    w.join(0.3)
    assert w.is_alive()  # still waiting while the lock is held
    release.set()
    w.join(20)
    t.join(10)
    assert not w.is_alive()
    assert result["m"].id in v.memories
    git_tools.assert_consistent(v)


def test_lock_is_reentrant_and_released(vault_path):
    j = Journal(vault_path)
    j.repo  # noqa: B018  (creates the repository)
    with j.lock():
        with j.lock():
            assert j.locked
        assert j.locked
    assert not j.locked
    other = Journal(vault_path)
    with other.lock(timeout=0.1):
        pass


def test_lock_across_processes(vault_path, git_tools):
    v = Vault.open(vault_path, lock_timeout=0.2)
    script = textwrap.dedent("""
        import sys, time
        from core.git.journal import Journal
        j = Journal(sys.argv[1])
        with j.lock():
            print("locked", flush=True)
            sys.stdin.readline()
    """)
    proc = subprocess.Popen([sys.executable, "-c", script, str(vault_path)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "locked"
        with pytest.raises(LockTimeoutError):
            v.add("refused while another process writes")
    finally:
        proc.stdin.write("\n")
        proc.stdin.close()
        proc.wait(20)
    v.add("now it works")
    assert len(v.memories) == 1
    git_tools.assert_consistent(v)


def test_bare_repository_refused(tmp_path, git):
    bare = tmp_path / "bare.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    with pytest.raises(JournalError):
        Vault.open(bare / "stm")


def test_fsck_clean_after_operations(vault, git):
    ids = [vault.add(f"m{i}").id for i in range(5)]
    vault.relate(ids[0], ids[1], "related")
    vault.touch(*ids)
    vault.delete(ids[0])
    vault.restore(ids[0])
    git(vault.root, "fsck", "--strict")


def test_edit_while_open_is_not_lost(vault_path, git):
    v = Vault.open(vault_path)
    m = v.add("original")
    path = vault_path / "memories" / f"{m.id}.json"
    data = json.loads(path.read_text())
    data["content"] = "edited by hand while the vault is open"
    path.write_text(json.dumps(data))
    v.touch(m.id)
    everything = git(vault_path, "log", "-p", "--format=%s")
    assert "edited by hand while the vault is open" in everything
    subjects = git(vault_path, "log", "--format=%s").splitlines()
    assert subjects[0].startswith("touch:")
    assert subjects[1].startswith("external: 1 file changed outside memvault while the vault was open")


def test_write_after_failed_commit_makes_no_external_commit(vault_path, git):
    v = Vault.open(vault_path)
    m = v.add("original")

    def boom(step):
        if step == "commit-tree":
            raise OSError("disk full")
    v.journal.faults.hook = boom
    with pytest.raises(JournalError, match="disk full"):  # a VaultError, not a bare OSError
        v.touch(m.id)
    v.journal.faults.hook = None
    v.touch(m.id)
    subjects = git(vault_path, "log", "--format=%s").splitlines()
    assert [s.split(":")[0] for s in subjects[:2]] == ["touch", "add"]


# -- commits made by other tools while the vault is open -----------------------------------------
PERSON = ("-c", "user.name=Person", "-c", "user.email=person@example.com")


def test_person_commit_between_vault_writes_is_kept(tmp_path, git, git_tools):
    outer = _outer_repo(tmp_path, git)
    v = Vault.open(outer / "notes" / ".cortexgraph" / "stm", inside_repo=True)
    v.add("before")
    git(outer, *PERSON, "commit", "-q", "-m", "person: todo")
    person_commit = git(outer, "rev-parse", "HEAD")
    v.add("after")
    assert git(outer, "rev-parse", "HEAD~1") == person_commit
    assert "notes/todo.md" in git(outer, "ls-tree", "-r", "--name-only", "HEAD").splitlines()
    assert git(outer, "status", "--porcelain") == ""
    git_tools.assert_consistent(v)


def test_revert_and_reset_by_person_are_picked_up(vault_path, git, git_tools):
    v = Vault.open(vault_path)
    keep = v.add("keep")
    gone = v.add("reverted by the person")
    git(vault_path, *PERSON, "revert", "--no-edit", "HEAD")
    v.touch(keep.id)  # the write catches up with HEAD first
    assert gone.id not in v.memories
    git_tools.assert_consistent(v)
    later = v.add("undone by a reset")
    git(vault_path, "reset", "-q", "--hard", "HEAD~1")
    v.touch(keep.id)
    assert later.id not in v.memories and v.get(keep.id).use_count == 2
    git_tools.assert_consistent(v)


def test_packed_refs_and_gc(vault_path, git, git_tools):
    v = Vault.open(vault_path)
    v.add("one")
    git(vault_path, "gc", "-q")
    git(vault_path, "pack-refs", "--all")
    head = git(vault_path, "rev-parse", "HEAD")
    count = git_tools.commit_count(vault_path)
    v.add("two")
    assert git(vault_path, "rev-parse", "HEAD~1") == head
    assert git_tools.commit_count(vault_path) == count + 1
    v2 = Vault.open(vault_path)
    assert len(v2.memories) == 2
    git_tools.assert_consistent(v2)
