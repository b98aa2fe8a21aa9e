"""The repository's state and the vault's writes: no write while HEAD is detached or a person's
merge/rebase/cherry-pick is in progress (it would be lost when theirs ends); nothing under .git
readable by other users; read-only views never show an operation half-way."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from core import JournalError, Vault

PERSON = ("-c", "user.name=Person", "-c", "user.email=person@example.com")


def _outer_repo(tmp_path: Path, git) -> Path:
    """A notes repository with a vault in ``stm/`` and a file ``notes.txt`` that two branches
    change differently (so a merge, rebase or cherry-pick of ``other`` stops on a conflict)."""
    outer = tmp_path / "notes"
    outer.mkdir()
    git(outer, "init", "-q", "-b", "main")
    (outer / "notes.txt").write_text("base\n")
    git(outer, "add", "notes.txt")
    git(outer, *PERSON, "commit", "-qm", "base")
    v = Vault.open(outer / "stm", inside_repo=True)
    v.add("in the vault before the branches", memory_id="m1")
    git(outer, "switch", "-q", "-c", "other")
    (outer / "notes.txt").write_text("theirs\n")
    git(outer, *PERSON, "commit", "-qam", "theirs")
    git(outer, "switch", "-q", "main")
    (outer / "notes.txt").write_text("ours\n")
    git(outer, *PERSON, "commit", "-qam", "ours")
    return outer


def _state(outer: Path, git) -> tuple[str, str, list[str]]:
    files = sorted(str(p.relative_to(outer)) for p in (outer / "stm").rglob("*") if p.is_file())
    return (git(outer, "rev-parse", "HEAD"), git(outer, "status", "--porcelain"), files)


@pytest.mark.parametrize("start,names", [
    (("merge", "other"), ["git merge --abort"]),
    (("rebase", "other"), ["git rebase --continue", "git rebase --abort"]),
    (("cherry-pick", "other"), ["git cherry-pick --abort"]),
])
def test_no_write_during_a_persons_git_operation(tmp_path, git, start, names):
    outer = _outer_repo(tmp_path, git)
    git(outer, *PERSON, *start, check=False)  # stops on the conflict in notes.txt
    v = Vault.open(outer / "stm")
    before = _state(outer, git)
    with pytest.raises(JournalError) as info:
        v.add("would be lost when the rebase or merge ends")
    for name in names:
        assert name in str(info.value)
    with pytest.raises(JournalError):
        v.touch("m1")
    assert _state(outer, git) == before
    assert set(v.memories) == {"m1"}


def test_no_write_on_a_detached_head(tmp_path, git):
    outer = _outer_repo(tmp_path, git)
    git(outer, "checkout", "-q", "--detach", "HEAD")
    v = Vault.open(outer / "stm")
    before = _state(outer, git)
    with pytest.raises(JournalError, match="detached.*git switch"):
        v.archive("m1")
    assert _state(outer, git) == before
    assert v.get("m1").status == "active"


def test_outside_edit_waits_while_head_is_detached(tmp_path, git):
    outer = _outer_repo(tmp_path, git)
    git(outer, "checkout", "-q", "--detach", "HEAD")
    path = outer / "stm" / "memories" / "m1.json"
    edited = path.read_text().replace("before the branches", "edited by hand")
    path.write_text(edited)
    head = git(outer, "rev-parse", "HEAD")

    v = Vault.open(outer / "stm")  # opens (to read), commits nothing
    assert v.report.writes_refused and "git switch" in v.report.writes_refused
    assert v.get("m1").content == "in the vault edited by hand"
    assert git(outer, "rev-parse", "HEAD") == head
    assert path.read_text() == edited

    git(outer, "switch", "-q", "main")
    v2 = Vault.open(outer / "stm")
    assert v2.report.writes_refused is None
    assert v2.report.external_paths == ["memories/m1.json"]
    assert path.read_text() == edited


# -- nothing under .git readable by others ------------------------------------------------------
def _loose_modes(git_dir: Path) -> dict[str, int]:
    return {str(p.relative_to(git_dir)): stat.S_IMODE(p.lstat().st_mode)
            for p in [git_dir, *git_dir.rglob("*")] if not p.is_symlink()}


def test_a_new_vault_repository_is_private(vault_path):
    v = Vault.open(vault_path)
    m = v.add("a secret the assistant heard")
    v.touch(m.id)
    v.journal.objects.write_blob(b"scratch")
    v.delete(m.id)
    v.restore(m.id)
    git_dir = vault_path / ".git"
    open_to_others = {p: oct(mode) for p, mode in _loose_modes(git_dir).items() if mode & 0o077}
    assert open_to_others == {}
    assert v.journal.config_get("core.sharedRepository") == "0600"


def test_an_existing_repository_is_made_private_without_changing_its_config(tmp_path, git):
    outer = tmp_path / "notes"
    outer.mkdir()
    git(outer, "init", "-q")
    os.chmod(outer / ".git", 0o755)
    config = (outer / ".git" / "config").read_bytes()
    v = Vault.open(outer / "stm", inside_repo=True)
    v.add("x")
    assert stat.S_IMODE((outer / ".git").stat().st_mode) == 0o700
    assert (outer / ".git" / "config").read_bytes() == config
    state = outer / ".git" / "memvault"
    assert stat.S_IMODE(state.stat().st_mode) == 0o700
    assert stat.S_IMODE((state / "lock").stat().st_mode) == 0o600


def test_a_repository_shared_on_purpose_is_left_shared(tmp_path, git):
    outer = tmp_path / "team"
    outer.mkdir()
    git(outer, "init", "-q", "--shared=group")
    mode = stat.S_IMODE((outer / ".git").stat().st_mode)
    Vault.open(outer / "stm", inside_repo=True).add("x")
    assert stat.S_IMODE((outer / ".git").stat().st_mode) == mode


# -- read-only views ----------------------------------------------------------------------------
def test_read_only_view_never_shows_an_operation_half_way(vault_path):
    v = Vault.open(vault_path)
    for i in range(4):
        v.add(f"memory {i}", memory_id=f"m{i}")
    v.relate("m0", "m1", "related")
    before = {k: m.model_dump() for k, m in v.memories.items()}
    halfway, release = threading.Event(), threading.Event()

    def pause(step: str) -> None:
        if step == "stage":  # every file written, nothing committed yet
            halfway.set()
            assert release.wait(20)

    v.journal.faults.hook = pause
    worker = threading.Thread(target=v.delete, args=("m0", "m1", "m2"))
    worker.start()
    try:
        assert halfway.wait(20)
        assert not (vault_path / "memories" / "m0.json").exists()  # really half-way on disk
        view = Vault.open(vault_path, readonly=True)
        assert {k: m.model_dump() for k, m in view.memories.items()} == before
        assert len(view.relations) == 1
    finally:
        release.set()
        worker.join(20)
    after = Vault.open(vault_path, readonly=True)
    assert set(after.memories) == {"m3"} and after.relations == {}


def test_read_only_view_needs_no_git_when_nothing_is_under_way(vault_path, monkeypatch):
    Vault.open(vault_path).add("x", memory_id="m1")
    import git

    from core.git.runner import GitRunner

    def refuse(*args, **kwargs):
        raise AssertionError("a read-only open started git")
    monkeypatch.setattr(git.cmd.Git, "execute", refuse)
    monkeypatch.setattr(GitRunner, "run", refuse)
    monkeypatch.setattr(GitRunner, "start", refuse)
    monkeypatch.setattr("core.git.repository.locate", refuse)
    assert set(Vault.open(vault_path, readonly=True).memories) == {"m1"}
