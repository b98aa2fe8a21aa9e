"""Finding a vault's repository without GitPython (``core.git.runner.locate``) in every shape git
allows, the reads that run through the journal's own runner, and GitPython (opened for a write)
agreeing with it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from core import JournalError, Vault
from core.git.journal import Journal
from core.git.runner import GitRunner, locate


def _repo_with_commit(path: Path, git) -> Path:
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "main")
    (path / "README.md").write_text("hello\n")
    git(path, "add", "README.md")
    git(path, "-c", "user.name=P", "-c", "user.email=p@example.com", "commit", "-q", "-m", "first")
    return path


def _check_writes_land_in(vault: Vault, git_tools) -> None:
    """A write (GitPython's ``repo.git``) uses the repository the journal found."""
    vault.add("a memory")
    assert Path(vault.journal.repo.git_dir).resolve() == vault.journal.git_dir
    git_tools.assert_consistent(vault)


def test_no_repository_gets_one_at_the_vault_folder(tmp_path):
    root = tmp_path / "plain"
    root.mkdir()
    assert locate(root) is None
    v = Vault.open(root)
    assert v.journal.location.git_dir == root.resolve() / ".git"
    assert v.journal.common_dir == root.resolve() / ".git"
    assert v.journal.worktree == root.resolve()
    assert v.report.initialised


def test_vault_deep_inside_a_repository(tmp_path, git, git_tools):
    outer = _repo_with_commit(tmp_path / "outer", git)
    deep = outer / "a" / "b" / "c" / "vault"
    deep.mkdir(parents=True)
    found = locate(deep)
    assert found is not None and not found.bare
    assert (found.git_dir, found.common_dir, found.worktree) == (
        outer.resolve() / ".git", outer.resolve() / ".git", outer.resolve())
    v = Vault.open(deep, inside_repo=True)
    assert not (deep / ".git").exists()
    assert v.journal.relpath(deep / "memories" / "x.json") == "a/b/c/vault/memories/x.json"
    _check_writes_land_in(v, git_tools)


def test_vault_in_a_linked_worktree(tmp_path, git, git_tools):
    """A ``.git`` file (``gitdir: ...``) and a ``commondir``: HEAD is the linked work tree's own,
    objects and refs the main repository's."""
    main = _repo_with_commit(tmp_path / "main", git)
    linked = tmp_path / "linked"
    git(main, "worktree", "add", "-q", "-b", "side", str(linked))
    v = Vault.open(linked / "notes", inside_repo=True)
    assert v.journal.git_dir == main.resolve() / ".git" / "worktrees" / "linked"
    assert v.journal.common_dir == main.resolve() / ".git"
    assert v.journal.worktree == linked.resolve()
    _check_writes_land_in(v, git_tools)
    assert v.journal.head() == git(linked, "rev-parse", "side")
    assert git(main, "rev-parse", "HEAD") != v.journal.head()  # main's branch did not move
    again = Vault.open(linked / "notes")
    assert set(again.memories) == set(v.memories)


def test_vault_in_a_submodule(tmp_path, git, git_tools):
    """A submodule's ``.git`` file points into the superproject's ``.git/modules``."""
    source = _repo_with_commit(tmp_path / "source", git)
    outer = _repo_with_commit(tmp_path / "outer", git)
    git(outer, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(source), "sub")
    assert (outer / "sub" / ".git").is_file()
    v = Vault.open(outer / "sub" / "memvault", inside_repo=True)
    assert v.journal.git_dir == outer.resolve() / ".git" / "modules" / "sub"
    assert v.journal.worktree == (outer / "sub").resolve()
    _check_writes_land_in(v, git_tools)


def test_bare_repository_refused_with_its_message(tmp_path, git):
    bare = tmp_path / "bare.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    (bare / "stm").mkdir()
    found = locate(bare / "stm")
    assert found is not None and found.bare and found.worktree is None
    with pytest.raises(JournalError, match="is inside a bare git repository; a vault needs a "
                                           "work tree"):
        Vault.open(bare / "stm")


def test_git_dir_in_the_environment_does_not_redirect_the_vault(tmp_path, git, git_tools,
                                                                monkeypatch):
    """GIT_DIR set (as inside a git hook) naming another repository: the vault folder still
    names its repository, for reads and writes alike, and the other repository is untouched."""
    other = _repo_with_commit(tmp_path / "other", git)
    before = git(other, "rev-parse", "HEAD")
    root = tmp_path / "vault"
    Vault.open(root).add("first")
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    v = Vault.open(root)
    assert v.journal.git_dir == root.resolve() / ".git"
    assert len(v.memories) == 1
    v.add("second")
    monkeypatch.delenv("GIT_DIR")
    assert git(other, "rev-parse", "HEAD") == before
    assert len(Vault.open(root).memories) == 2
    git_tools.assert_consistent(v)


def test_a_repository_git_cannot_use_is_an_error_not_a_new_repository(tmp_path):
    broken = tmp_path / "broken"
    (broken / "inside").mkdir(parents=True)
    (broken / ".git").write_text("gitdir: /nowhere/at/all\n")
    with pytest.raises(JournalError, match="git rev-parse failed"):
        locate(broken / "inside")
    assert not (broken / "inside" / ".git").exists()


def test_runner_output_and_errors(vault, git):
    """The own runner returns what GitPython would (one trailing newline stripped, bytes when
    asked, stderr without its newline); a failing command is a JournalError with git's words."""
    m = vault.add("hello")
    journal = vault.journal
    assert not journal.locked
    assert journal.commands.output("rev-parse", "HEAD") == git(vault.root, "rev-parse", "HEAD")
    blob = journal.commands.output_bytes("cat-file", "blob", f"HEAD:memories/{m.id}.json")
    assert blob == (vault.root / "memories" / f"{m.id}.json").read_bytes()
    status, out, err = journal.commands.run("rev-parse", "--verify", "-q", "no-such-ref", check=False)
    assert (status, out) == (1, "")
    with pytest.raises(JournalError, match=r"^git cat-file failed: fatal: "):
        journal.commands.output("cat-file", "-p", "no-such-object")


def test_reads_outside_the_lock_use_the_own_runner_writes_gitpython(vault, monkeypatch):
    """The one decision (``GitCommands.runner``): the write lock held means GitPython."""
    used: list[str] = []
    original = GitRunner.run

    def run(self, args, *a, **k):
        used.append(args[0])
        return original(self, args, *a, **k)

    monkeypatch.setattr(GitRunner, "run", run)
    vault.journal.commands.output("rev-parse", "--git-dir")
    assert used == ["rev-parse"]
    with vault.journal.lock():
        vault.journal.commands.output("rev-parse", "--git-dir")
    assert used == ["rev-parse"]
    vault.add("a write")
    assert "update-ref" not in used and "commit-tree" not in used


def test_journal_alone_creates_its_repository(vault_path):
    j = Journal(vault_path)
    assert j.worktree == vault_path.resolve()
    assert (vault_path / ".git").is_dir()
    assert j.head() is None


def test_git_missing_is_a_journal_error(vault, monkeypatch):
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent / "no-such-folder"))
    with pytest.raises(JournalError, match="git could not be started"):
        vault.journal.commands.output("rev-parse", "HEAD")


def test_locate_ignores_a_git_dir_variable_git_itself_would_follow(tmp_path, monkeypatch):
    """GIT_DIR naming a folder that is no repository changes nothing for locate."""
    root = tmp_path / "v"
    Vault.open(root)
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "missing"))
    found = locate(root)
    assert found is not None and found.git_dir == root.resolve() / ".git"
    assert subprocess.run(["git", "status"], cwd=root, capture_output=True,
                          env={**os.environ}).returncode != 0  # git itself would follow it


def test_a_started_command_leaves_no_pipe_open_when_read_or_abandoned(vault):
    """``finish`` reads a started command's output and closes its pipes; ``abandon`` stops
    one whose output is not wanted (an open that failed after starting git status) and closes
    them too: nothing is left for the collector to warn about."""
    from core.git.plumbing import abandon, finish

    commands = vault.journal.commands
    started = commands.start("rev-parse", "--is-inside-work-tree")
    proc = getattr(started, "proc", started)
    assert finish(started).strip() == b"true"
    assert proc.stdout.closed and proc.returncode == 0
    started = commands.start("cat-file", "--batch")  # waits on its stdin: never ends alone
    proc = getattr(started, "proc", started)
    abandon(started)
    assert proc.returncode is not None and proc.stdout.closed


def test_an_open_that_fails_after_starting_git_status_ends_it(vault_path, monkeypatch):
    from core.git import plumbing
    from core.vault.indexed_open import OpenIndex

    Vault.open(vault_path).close()
    abandoned: list[object] = []
    original = plumbing.abandon
    monkeypatch.setattr("core.git.status.abandon",
                        lambda started: abandoned.append(started) or original(started))

    def fails(self, *args, **kwargs):
        raise RuntimeError("a failure while the files are read")

    monkeypatch.setattr(OpenIndex, "files_index", fails)
    with pytest.raises(RuntimeError, match="while the files are read"):
        Vault.open(vault_path)
    assert len(abandoned) == 1
    proc = getattr(abandoned[0], "proc", abandoned[0])
    assert proc.returncode is not None and proc.stdout.closed
