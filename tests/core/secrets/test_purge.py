"""``purge``: every version of the memories and of the relations that touched them leaves all of
history; ``git log --all -p`` and ``git fsck --lost-found`` find none of the secrets after, fsck
is clean, every other memory keeps its full history (same commits for its path, same contents),
memvault's state forgets them, a crash half-way loses nothing and the next purge finishes it."""

from __future__ import annotations

import json
import os

import pytest

from secrets_support import AWS, GITHUB, run_git

from core import Vault, VaultError
from core.secrets import purge as purge_module
from core.secrets.history import scan_history
from core.secrets.purge import pending, plan_purge, purge, purged_ids, resume


def history_of(root, path: str) -> list[str]:
    """The blob of each version of ``path`` in history (every ref), oldest first."""
    out = run_git(root, "log", "--all", "--reverse", "--format=", "--raw", "--no-abbrev",
                  "--no-renames", "--", path)
    return [line.split()[3] for line in out.splitlines() if line.startswith(":")]


def build(vault_path):
    vault = Vault.open(vault_path, secrets="allow")
    keep = vault.add("keep me: the coffee order is oat flat white")
    vault.update(keep.id, content="keep me: the coffee order is a cortado now")
    other = vault.add("another keeper about tabs")
    bad = vault.add(f"the deploy key is {AWS} for prod", tags=["ops"])
    vault.update(bad.id, content=f"the deploy token is {GITHUB} now")
    doomed = vault.relate(keep.id, bad.id, "related")
    kept = vault.relate(keep.id, other.id, "related")
    vault.touch(keep.id, other.id)
    vault.update(bad.id, content="scrubbed, but history remembers")
    vault.delete(bad.id)
    return vault, keep, other, bad, doomed, kept


def test_purge_removes_every_version_and_keeps_the_rest(vault_path):
    vault, keep, other, bad, doomed, kept = build(vault_path)
    paths = [f"memories/{keep.id}.json", f"memories/{other.id}.json", f"relations/{kept.id}.json"]
    before = {p: history_of(vault_path, p) for p in paths}
    assert AWS in run_git(vault_path, "log", "--all", "-p")
    plan = plan_purge(vault, [bad.id[:6]])
    assert plan.memories == [bad.id] and plan.relations == [doomed.id]
    report = purge(vault, plan)
    log = run_git(vault_path, "log", "--all", "-p")
    assert AWS not in log and GITHUB not in log and bad.id[:8] in log  # the purge commit names it
    assert "history remembers" not in log
    assert run_git(vault_path, "fsck", "--lost-found", "--no-progress") == ""
    lost = vault_path / ".git" / "lost-found"
    for folder, _dirs, files in os.walk(lost):
        for name in files:
            assert AWS.encode() not in open(os.path.join(folder, name), "rb").read()
    run_git(vault_path, "fsck", "--strict", "--no-progress")
    assert {p: history_of(vault_path, p) for p in paths} == before
    assert history_of(vault_path, f"memories/{bad.id}.json") == []
    assert history_of(vault_path, f"relations/{doomed.id}.json") == []
    assert purged_ids(vault.meta) == ({bad.id}, {doomed.id})
    assert run_git(vault_path, "log", "-1", "--format=%s").startswith("purge: 1 memory")
    assert report.commit == run_git(vault_path, "rev-parse", "HEAD")
    assert run_git(vault_path, "status", "--porcelain") == ""
    assert scan_history(Vault.open(vault_path)).findings == []
    fresh = Vault.open(vault_path)
    assert set(fresh.memories) == {keep.id, other.id} and set(fresh.relations) == {kept.id}
    assert run_git(vault_path, "reflog").count("\n") <= 1


def test_a_living_memory_is_purged_from_the_work_tree_too(vault_path):
    vault = Vault.open(vault_path, secrets="allow")
    m = vault.add(f"still here {AWS}")
    purge(vault, plan_purge(vault, [m.id]))
    assert not (vault_path / "memories" / f"{m.id}.json").exists()
    assert m.id not in vault.memories
    assert run_git(vault_path, "status", "--porcelain") == ""
    assert AWS not in run_git(vault_path, "log", "--all", "-p")


def test_dry_run_plan_changes_nothing_and_unknown_ids_are_refused(vault_path):
    vault, *_rest, bad, _doomed, _kept = build(vault_path)
    head = run_git(vault_path, "rev-parse", "HEAD")
    plan = plan_purge(vault, [bad.id])
    assert plan.commits >= 4
    assert run_git(vault_path, "rev-parse", "HEAD") == head
    with pytest.raises(VaultError, match="no memory in this vault's history"):
        plan_purge(vault, ["ffffffff"])
    with pytest.raises(VaultError, match="no memory ids"):
        plan_purge(vault, [])


def test_memvault_state_forgets_the_purged(vault_path):
    vault, keep, _other, bad, _doomed, _kept = build(vault_path)
    state = vault.journal.state_dir
    (state / "index.sqlite").write_bytes(b"derived index holding " + AWS.encode())
    aside = state / "quarantine" / "20260101T000000Z-1" / "memories"
    aside.mkdir(parents=True)
    (aside / f"{bad.id}.json").write_text(AWS)
    (state / "inbox-accepted.json").write_text(json.dumps(
        {"accepted": {bad.id: "0" * 40, keep.id: "1" * 40}}))
    purge(vault, plan_purge(vault, [bad.id]))
    assert not (state / "index.sqlite").exists()
    assert not aside.exists()
    accepted = json.loads((state / "inbox-accepted.json").read_text())["accepted"]
    assert list(accepted) == [keep.id]
    assert not (state / "purge.json").exists()


def test_a_crash_half_way_loses_nothing_and_the_next_purge_finishes(vault_path, monkeypatch):
    vault, keep, other, bad, _doomed, kept = build(vault_path)
    paths = [f"memories/{keep.id}.json", f"memories/{other.id}.json", f"relations/{kept.id}.json"]
    before = {p: history_of(vault_path, p) for p in paths}

    def crash(*_args):
        raise OSError("power cut")

    monkeypatch.setattr(purge_module, "_settle_work_tree", crash)
    with pytest.raises(OSError):
        purge(vault, plan_purge(vault, [bad.id]))
    assert pending(Vault.open(vault_path)) is not None
    for p in paths:  # nothing of the others lost
        assert history_of(vault_path, p) == before[p]
    monkeypatch.undo()
    fresh = Vault.open(vault_path)
    report = resume(fresh)
    assert report is not None and report.resumed
    assert pending(fresh) is None
    assert AWS not in run_git(vault_path, "log", "--all", "-p")
    assert {p: history_of(vault_path, p) for p in paths} == before
    run_git(vault_path, "fsck", "--strict", "--no-progress")


def test_a_person_s_uncommitted_work_elsewhere_in_the_repository_is_kept(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    run_git(repo, "init", "-q", "-b", "main")
    (repo / "notes.txt").write_text("committed\n")
    run_git(repo, "add", "notes.txt")
    run_git(repo, "-c", "user.name=p", "-c", "user.email=p@x", "commit", "-q", "-m", "notes")
    vault = Vault.open(repo / "vault", secrets="allow", inside_repo=True)
    m = vault.add(f"inside a folder {AWS}")
    (repo / "notes.txt").write_text("my uncommitted edit\n")
    (repo / "scratch.txt").write_text("untracked\n")
    purge(vault, plan_purge(vault, [m.id]))
    assert (repo / "notes.txt").read_text() == "my uncommitted edit\n"
    assert (repo / "scratch.txt").read_text() == "untracked\n"
    assert AWS not in run_git(repo, "log", "--all", "-p")


def test_each_remote_is_told_its_force_push(vault_path, tmp_path):
    remote = tmp_path / "remote.git"
    run_git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    vault = Vault.open(vault_path, secrets="allow")
    keep = vault.add("a keeper")
    bad = vault.add(f"pushed by mistake {AWS}")
    branch = run_git(vault_path, "branch", "--show-current")
    run_git(vault_path, "remote", "add", "origin", str(remote))
    run_git(vault_path, "push", "-q", "origin", f"{branch}:main")
    run_git(vault_path, "fetch", "-q", "origin")
    report = purge(vault, plan_purge(vault, [bad.id]))
    [need] = report.remotes
    assert need["remote"] == "origin" and need["needs"] == "a force push"
    assert need["command"].startswith("git push --force-with-lease=main:")
    run_git(vault_path, *need["command"].split()[1:])
    assert AWS not in run_git(remote, "log", "--all", "-p")
    assert keep.id[:8] in run_git(remote, "log", "--all", "--format=%s")


def test_a_vault_open_elsewhere_during_the_purge_goes_on_working(vault_path):
    vault, keep, _other, bad, _doomed, _kept = build(vault_path)
    app = Vault.open(vault_path)  # the app or an MCP server, open while the purge runs
    assert bad.id not in app.memories and keep.id in app.memories
    purge(vault, plan_purge(vault, [bad.id]))
    assert app.touch(keep.id)[0].use_count == vault.get(keep.id).use_count + 1
    assert purged_ids(app.meta)[0] == {bad.id}


def test_refs_without_a_reflog_are_rewritten_and_nothing_of_the_secret_stays(vault_path):
    """Tags and ``refs/memvault/reviewed`` have no reflog: the purge finishes all the same, and
    no object holding the secret is left, reachable or dangling."""
    vault, keep, _other, bad, _doomed, _kept = build(vault_path)
    run_git(vault_path, "tag", "light")
    run_git(vault_path, "-c", "user.name=p", "-c", "user.email=p@x", "tag", "-a", "annotated",
            "-m", "a release")
    run_git(vault_path, "update-ref", "refs/memvault/reviewed", "HEAD")
    assert not (vault_path / ".git" / "logs" / "refs" / "tags" / "light").exists()
    purge(vault, plan_purge(vault, [bad.id]))
    assert pending(vault) is None
    assert AWS not in run_git(vault_path, "log", "--all", "-p")
    unreachable = run_git(vault_path, "fsck", "--unreachable", "--no-reflogs", "--no-progress")
    for line in unreachable.splitlines():
        sha = line.split()[-1]
        assert AWS not in run_git(vault_path, "cat-file", "-p", sha)
    assert run_git(vault_path, "count-objects", "-v").find("count: 0") >= 0
    run_git(vault_path, "fsck", "--strict", "--no-progress")
    assert keep.id in Vault.open(vault_path).memories


def test_a_vault_whose_reflogs_are_off_purges_too(vault_path):
    vault, _keep, _other, bad, _doomed, _kept = build(vault_path)
    run_git(vault_path, "config", "core.logAllRefUpdates", "false")
    run_git(vault_path, "reflog", "expire", "--expire=now", "--all")
    import shutil
    shutil.rmtree(vault_path / ".git" / "logs")
    purge(vault, plan_purge(vault, [bad.id]))
    assert pending(vault) is None
    assert AWS not in run_git(vault_path, "log", "--all", "-p")
