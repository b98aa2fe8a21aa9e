"""A batch of commits (core/git/batch.py, ``Journal.batch``): a new vault's history built through
one ``git fast-import``, as the demo builds its half year (issue 42: 300 git processes and 685
flushes for 94 commits). Each operation is still one commit, with its message, trailers and
date; the vault after the batch is as a vault committed one operation at a time."""

from __future__ import annotations

import os

import pytest

from core import JournalError, Vault


def _log(git, root):
    return git(root, "log", "--format=%at|%s|%(trailers:key=Memvault-Via,valueonly,separator=,)"
               ).splitlines()


def test_a_batch_commits_each_operation_through_one_git_process(vault, git, git_runs,
                                                                 consistent, monkeypatch):
    before = int(git(vault.root, "rev-list", "--count", "HEAD"))
    git_runs.clear()
    with vault.journal.batch():
        for n in range(10):
            monkeypatch.setenv("GIT_AUTHOR_DATE", f"{1_700_000_000 + n} +0000")
            monkeypatch.setenv("GIT_COMMITTER_DATE", f"{1_700_000_000 + n} +0000")
            vault.add(f"fact number {n}", memory_id=f"m{n}")
        vault.archive("m3")
        vault.acting_for(via="mcp/claude-code").delete("m4")
    # fast-import, then git's index from HEAD (read-tree, update-index); one commit at a time
    # ran commit-tree, update-ref and update-index for each of the 12
    assert [argv[0] for argv in git_runs] == ["fast-import", "read-tree", "update-index"]
    assert int(git(vault.root, "rev-list", "--count", "HEAD")) == before + 12
    log = _log(git, vault.root)
    assert log[0].split("|")[1].startswith("delete: ") and log[0].split("|")[2] == "mcp/claude-code"
    assert log[1].split("|")[1].startswith("archive: ")
    assert [int(line.split("|")[0]) for line in log[2:12]] == list(range(1_700_000_009,
                                                                          1_699_999_999, -1))
    assert vault.journal.head() == git(vault.root, "rev-parse", "HEAD")
    consistent(vault)  # cache == disk == HEAD, git status clean
    again = Vault.open(vault.root)
    assert set(again.memories) == set(vault.memories) and again.get("m3").status == "archived"
    assert git(vault.root, "fsck", "--strict") == ""
    again.close()


def test_a_commit_after_a_batch_goes_the_usual_way(vault, git, consistent):
    with vault.journal.batch():
        vault.add("one", memory_id="m1")
    vault.add("two", memory_id="m2")
    assert git(vault.root, "log", "-2", "--format=%s").splitlines()[1].startswith("add: ")
    consistent(vault)


def test_nothing_to_change_makes_no_commit_in_a_batch(vault, git):
    vault.add("one", memory_id="m1")
    head = vault.journal.head()
    with vault.journal.batch():
        vault.save(vault.get("m1"))
    assert git(vault.root, "rev-parse", "HEAD") == head


def test_an_error_inside_a_batch_leaves_the_branch_where_it_was(vault, git):
    vault.add("one", memory_id="m1")
    head = git(vault.root, "rev-parse", "HEAD")
    with pytest.raises(ZeroDivisionError), vault.journal.batch():
        vault.add("two", memory_id="m2")
        raise ZeroDivisionError
    assert git(vault.root, "rev-parse", "HEAD") == head
    assert (vault.root / "memories" / "m2.json").exists()  # the file stays: nothing is lost
    again = Vault.open(vault.root)  # and the next open commits it as a person's edit
    assert "m2" in again.memories
    assert git(vault.root, "log", "-1", "--format=%s").startswith("external: ")
    again.close()


def test_a_batch_needs_head_on_a_branch(vault, git):
    vault.add("one", memory_id="m1")
    git(vault.root, "checkout", "-q", "--detach")
    with pytest.raises(JournalError), vault.journal.batch():
        pass
    assert os.path.exists(vault.root / "memories" / "m1.json")
