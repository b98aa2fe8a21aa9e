"""git's own index after a commit (core/git/git_index.py): at once, or just after the commit
(``later``, the MCP server's choice) with the intent record as the durable marker until then;
kept split when big."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

import core.git.git_index as git_index_module
from core import Vault
from vault_support import assert_consistent, run_git, vault_status


def _intents(root: Path) -> list[Path]:
    return sorted((root / ".git" / "memvault" / "intents").glob("*.json"))


def _index_behind(root: Path) -> list[str]:
    """Paths whose entry in git's index differs from HEAD's."""
    return run_git(root, "diff", "--cached", "--name-only", "HEAD").splitlines()


def _until(done, what: str, timeout: float = 20.0) -> None:
    """Wait until ``done()`` holds: a state of the follower thread the test reads next."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def _until_settled(v: Vault) -> None:
    _until(lambda: not v.journal.git_index.waiting, "git's index was not brought level")


@pytest.fixture
def later(vault: Vault) -> Vault:
    vault.journal.git_index.later = True
    return vault


def test_at_once_by_default(vault):
    memory = vault.add("A memory committed with git's index at once.")
    assert not vault.journal.git_index.waiting
    assert _intents(vault.root) == []
    assert _index_behind(vault.root) == []
    assert vault.layout.memory_path(memory.id).exists()
    assert_consistent(vault)


def test_later_the_commit_returns_before_the_index_follows(later):
    v = later
    with v.journal.lock():  # the follower waits for the lock: the index stays behind meanwhile
        memory = v.add("A memory whose index entry follows the commit.")
        rel = v.layout.memory_path(memory.id).relative_to(v.root).as_posix()
        assert _index_behind(v.root) == [rel]
        assert len(_intents(v.root)) == 1  # the durable marker
        assert not v.journal.recovery.has_intent()  # this process's own: not a crash
    _until_settled(v)
    assert _intents(v.root) == []
    assert _index_behind(v.root) == []
    assert_consistent(v)


def test_later_commits_back_to_back_share_one_index_update(later, monkeypatch):
    v = later
    calls: list[list[str]] = []
    original = v.journal.commands.with_paths

    def counted(args, rels, env=None):
        # git's own index (changed on a copy under index.lock), not the private one
        if "update-index" in args and (env is None or "git-index-next" in env["GIT_INDEX_FILE"]):
            calls.append(list(rels))
        return original(args, rels, env)

    monkeypatch.setattr(v.journal.commands, "with_paths", counted)
    with v.journal.lock():
        saved = [v.add(f"Memory number {i} saved back to back.") for i in range(3)]
        assert len(_intents(v.root)) == 3
        assert calls == []
    _until_settled(v)
    assert len(calls) == 1 and len(calls[0]) == 3
    assert {Path(p).stem for p in calls[0]} == {m.id for m in saved}
    assert _intents(v.root) == []
    assert_consistent(v)


def test_later_a_persons_staged_work_is_kept(later, tmp_path):
    v = later
    notes = v.root / "notes.txt"  # a file of the person's, beside the vault's own
    notes.write_text("staged by the person\n")
    run_git(v.root, "add", "notes.txt")
    v.add("A memory saved while the person has work staged.")
    _until_settled(v)
    assert run_git(v.root, "diff", "--cached", "--name-only", "HEAD") == "notes.txt"
    assert run_git(v.root, "show", ":notes.txt") == "staged by the person"
    assert notes.read_text() == "staged by the person\n"


def test_later_a_persons_edit_since_the_commit_is_not_staged(later):
    v = later
    with v.journal.lock():
        memory = v.add("A memory the person edits before git's index follows.")
        path = v.layout.memory_path(memory.id)
        committed = path.read_bytes()
        edited = committed.replace(b"edits before", b"EDITED before")
        path.write_bytes(edited)
    _until_settled(v)
    rel = path.relative_to(v.root).as_posix()
    assert _index_behind(v.root) == []  # the index holds the commit's version
    assert run_git(v.root, "status", "--porcelain", "--", rel) == f" M {rel}"
    assert path.read_bytes() == edited  # the person's edit is on disk, unstaged


def test_later_close_brings_the_index_level(later, monkeypatch):
    v = later
    monkeypatch.setattr(v.journal.git_index, "_wake", lambda: None)  # no follower
    v.add("A memory whose index entry waits for close.")
    assert len(_intents(v.root)) == 1
    v.close()
    assert _intents(v.root) == [] and _index_behind(v.root) == []
    assert vault_status(v) == ""


def test_later_another_writer_finishes_a_waiting_record(later, monkeypatch):
    """Two writers: the other one takes the lock before this one's follower; it finds the
    landed commit's record, brings the index level (never rolls it back), and this one's
    follower then finds nothing left to do."""
    v = later
    monkeypatch.setattr(v.journal.git_index, "_wake", lambda: None)
    first = v.add("Saved by the first writer.")
    other = Vault.open(v.root)
    try:
        second = other.add("Saved by the second writer.")
        assert other.report.recovered and "had landed" in other.report.recovered
        assert _intents(v.root) == [] and _index_behind(v.root) == []
        v.journal.git_index.settle()  # its record is gone: nothing to do, nothing raised
        assert not v.journal.git_index.waiting
        v.refresh()
        assert first.id in v.memories and second.id in v.memories
        assert_consistent(v)
        assert_consistent(other)
    finally:
        other.close()


def test_later_two_processes_saving_at_once(later, tmp_path):
    script = textwrap.dedent("""
        import sys
        from core import Vault
        v = Vault.open(sys.argv[1])
        v.journal.git_index.later = True
        for i in range(15):
            v.add(f"saved by the other process, number {i}")
        v.close()
    """)
    other = subprocess.Popen([sys.executable, "-c", script, str(later.root)],
                             cwd=Path(__file__).resolve().parents[3])
    for i in range(15):
        later.add(f"saved by this process, number {i}")
    assert other.wait(timeout=120) == 0
    _until_settled(later)
    later.refresh()
    assert len(later.memories) == 30
    assert _intents(later.root) == [] and _index_behind(later.root) == []
    assert_consistent(later)


KILLED_BEFORE_THE_INDEX = textwrap.dedent("""
    import os, sys, threading
    from core import Vault
    v = Vault.open(sys.argv[1])
    v.journal.git_index.later = True
    def hook(step):
        if step == "index":
            os._exit(17)  # kill -9 between the commit and git's index
    v.journal.faults.hook = hook
    v.add("saved just before the process was killed")
    threading.Event().wait(60)  # the follower kills the process
    sys.exit(3)
""")


def test_later_killed_before_the_index_is_repaired_at_open(vault, tmp_path):
    root = vault.root
    vault.close()
    proc = subprocess.run([sys.executable, "-c", KILLED_BEFORE_THE_INDEX, str(root)],
                          cwd=Path(__file__).resolve().parents[3], capture_output=True, text=True)
    assert proc.returncode == 17, proc.stdout + proc.stderr
    assert len(_intents(root)) == 1 and _index_behind(root) != []
    assert run_git(root, "log", "-1", "--format=%s").startswith("add: ")
    reopened = Vault.open(root)
    try:
        assert "had landed" in (reopened.report.recovered or "")
        assert reopened.report.external_commit is None
        assert any(m.content == "saved just before the process was killed"
                   for m in reopened.memories.values())
        assert _intents(root) == [] and _index_behind(root) == []
        assert_consistent(reopened)
    finally:
        reopened.close()


def test_later_killed_before_the_index_is_repaired_by_a_read_only_open(vault, tmp_path):
    """Was: after ``list``, ``search``, ``stats`` or ``show`` git's status still showed
    ``D memories/<id>.json`` and ``?? memories/<id>.json``, and a person's commit then deleted
    the memory. A read-only open now brings git's index level and removes the killed process's
    ``index.lock``, rolling nothing back."""
    root = vault.root
    vault.close()
    proc = subprocess.run([sys.executable, "-c", KILLED_BEFORE_THE_INDEX, str(root)],
                          cwd=Path(__file__).resolve().parents[3], capture_output=True, text=True)
    assert proc.returncode == 17, proc.stdout + proc.stderr
    assert len(_intents(root)) == 1 and _index_behind(root) != []
    viewed = Vault.open(root, readonly=True)
    assert any(m.content == "saved just before the process was killed"
               for m in viewed.memories.values())
    assert _intents(root) == [] and _index_behind(root) == []
    assert not (root / ".git" / "index.lock").exists()
    assert run_git(root, "status", "--porcelain") == ""
    run_git(root, "-c", "user.name=A Person", "-c", "user.email=p@example.org", "commit", "-q",
            "--allow-empty", "-m", "the person's own commit")
    assert run_git(root, "show", "--name-status", "--format=", "HEAD") == ""  # deletes nothing


def test_later_killed_before_the_index_is_repaired_by_the_next_commit(vault, tmp_path):
    vault.add("A memory before the other process starts.")
    proc = subprocess.run([sys.executable, "-c", KILLED_BEFORE_THE_INDEX, str(vault.root)],
                          cwd=Path(__file__).resolve().parents[3], capture_output=True, text=True)
    assert proc.returncode == 17, proc.stdout + proc.stderr
    vault.add("A memory after the other process was killed.")  # a long-lived vault writes
    assert _intents(vault.root) == [] and _index_behind(vault.root) == []
    assert len(vault.memories) == 3
    assert_consistent(vault)


def test_a_big_index_is_kept_split_and_git_reads_it(tmp_path, monkeypatch):
    monkeypatch.setattr(git_index_module, "SPLIT_INDEX_FROM", 0)
    root = tmp_path / "vault"
    v = Vault.open(root)
    v.add("One memory.")
    v.add("Two memories.")
    assert list((root / ".git").glob("sharedindex.*"))
    assert run_git(root, "status", "--porcelain") == ""
    assert len(run_git(root, "ls-files").splitlines()) == 3  # two memories and .meta.json
    v.close()


def test_the_persons_split_index_setting_is_followed(tmp_path, monkeypatch):
    monkeypatch.setattr(git_index_module, "SPLIT_INDEX_FROM", 0)
    root = tmp_path / "vault"
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    run_git(root, "config", "core.splitIndex", "false")
    v = Vault.open(root)
    v.add("One memory.")
    assert not list((root / ".git").glob("sharedindex.*"))
    assert run_git(root, "status", "--porcelain") == ""
    v.close()


def test_later_the_follower_ends_when_idle_and_starts_again(later, monkeypatch):
    v = later
    monkeypatch.setattr(git_index_module, "FOLLOWER_IDLE_SECONDS", 0.05)
    v.add("A memory before the follower rests.")
    _until_settled(v)
    _until(lambda: not v.journal.git_index.following, "the follower did not end")
    v.add("A memory after it rested.")
    _until_settled(v)
    assert _intents(v.root) == [] and _index_behind(v.root) == []
    assert_consistent(v)


def test_later_the_follower_waits_while_paused(later, monkeypatch):
    v = later
    events: list[str] = []
    settle = v.journal.git_index._settle

    def noted() -> None:
        events.append("settled")
        settle()

    monkeypatch.setattr(v.journal.git_index, "_settle", noted)
    with v.journal.git_index.paused():  # (the MCP server: one tool call)
        v.add("A memory saved while the caller still works.")
        v.add("Another one in the same call.")
        events.append("call over")
    _until_settled(v)
    assert events == ["call over", "settled"]
    assert_consistent(v)


def test_later_the_follower_does_the_work_after_a_follow_up_once_the_call_is_over(later):
    """``after_follow`` (the MCP server: the search index's checkpoint) runs in the follower
    thread after it brings git's index level, once no call works; a failure of one is no
    failure of the others."""
    v = later
    events: list[str] = []
    worked = threading.Event()

    def fails() -> None:
        events.append("failing work")
        raise RuntimeError("a failing after-work")

    def works() -> None:
        events.append("work")
        worked.set()

    v.journal.git_index.after_follow.extend([fails, works])
    with v.journal.git_index.paused():
        v.add("A memory whose follow-up has work after it.")
        events.append("call over")
    assert worked.wait(20), "the work after the follow-up did not run"
    assert events == ["call over", "failing work", "work"]
    assert not v.journal.git_index.waiting and _index_behind(v.root) == []
    assert_consistent(v)
