"""Many paths never go on git's command line (issue: `OSError: Argument list too long` when a
command met thousands of outside edits): every git call memvault makes during the open, the
adoption of outside edits, a big commit, undo and history stays short, whatever the number of
files; the paths go on stdin or as the vault's folder."""

from __future__ import annotations

import json
import uuid

import git
import pytest

from core import Memory, Vault
from core.git.plumbing import ARGV_PATH_LIMIT
from core.git.runner import GitRunner
from core.ops.revert import undo

N = 600  # three times ARGV_PATH_LIMIT: a path list on argv would show


@pytest.fixture
def longest_git_command(monkeypatch):
    """The length of every git command line memvault runs, through GitPython (writes) or the
    journal's own runner (reads outside the write lock)."""
    seen: list[int] = []
    original = git.cmd.Git.execute

    def execute(self, command, *args, **kwargs):
        if isinstance(command, (list, tuple)):
            seen.append(len(command))
        return original(self, command, *args, **kwargs)

    monkeypatch.setattr(git.cmd.Git, "execute", execute)
    for name in ("run", "start"):
        def counted(self, args, *a, _original=getattr(GitRunner, name), **k):
            seen.append(1 + len(args))
            return _original(self, args, *a, **k)
        monkeypatch.setattr(GitRunner, name, counted)
    return seen


def test_thousands_of_outside_edits_are_adopted_with_short_git_commands(tmp_path,
                                                                        longest_git_command):
    vault = Vault.open(tmp_path / "v")
    made = vault.save_many([Memory(id=str(uuid.uuid4()), content=f"note {i}") for i in range(N)],
                           make_gists=False)
    for memory in made:  # a person (or a script) edits every file by hand
        path = vault.root / "memories" / f"{memory.id}.json"
        record = json.loads(path.read_bytes())
        record["content"] += " (edited)"
        path.write_text(json.dumps(record, indent=2))
    (vault.root / "memories" / f"{made[0].id}.json").unlink()  # and removes one
    longest_git_command.clear()
    again = Vault.open(tmp_path / "v")
    assert again.report.external_commit is not None
    assert len(again.report.external_paths) == N
    assert len(again.memories) == N - 1
    assert all(m.content.endswith("(edited)") for m in again.memories.values())
    assert max(longest_git_command) < ARGV_PATH_LIMIT
    longest_git_command.clear()
    again.archive(*[m.id for m in made[1:]])  # one big commit
    undo(again)
    assert max(longest_git_command) < ARGV_PATH_LIMIT
