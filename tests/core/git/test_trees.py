"""Commits whose tree is built from the parent commit's trees (core/git/trees.py) are the very
commits the private index made: the same operations run through both paths on two copies of a
vault, with the same clock, ids and commit dates, give the same commit ids (so the same trees,
messages, trailers and parents), and git's own index ends the same."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

import fault_support as fs
from core import Memory, Vault
from core.git.trees import NeedsIndex, TreeWriter, parse_tree, tree_bytes
from core.git import tree_order
from core.git import trees as trees_module
from core.ops.revert import undo

DATE = "1700000000 +0000"


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True,
                          check=True).stdout


def _history(root: Path) -> list[str]:
    return _git(root, "log", "--format=%H %T %P%n%B%x1e").split("\x1e")


def _index(root: Path) -> str:
    return _git(root, "ls-files", "-s", "--debug")


def _index_entries(root: Path) -> str:
    return _git(root, "ls-files", "-s")


def _sequence(v: Vault, root: Path) -> None:
    """Every kind of operation, one after the other, with person's edits between."""
    for op in ("add", "update", "touch", "restore", "split"):
        fs.run_op(v, op)
    undo(v)
    fs.run_op(v, "archive")
    undo(v)
    fs.run_op(v, "consolidate")
    undo(v)
    fs.run_op(v, "delete")
    undo(v)
    fs.run_op(v, "gc")
    fs.person_edits(root)
    (root / "memories" / "runnable.json").write_text(
        (root / "memories" / f"{fs.PERSON_MEMORY_ID}.json").read_text().replace(
            fs.PERSON_MEMORY_ID, "runnable"))
    os.chmod(root / "memories" / "runnable.json", 0o700)  # adopted with git's mode 100755
    v.load()
    v.migrate_layout("sharded")  # every memory moves into a new shard folder
    v.add("A memory in the sharded layout.", tags=["sharded"])
    v.save_many([Memory(id=f"bulk{i}", content=f"Bulk memory number {i}.") for i in range(30)])
    v.archive(*[f"bulk{i}" for i in range(30)])
    v.delete(*[f"bulk{i}" for i in range(30)])  # their shard folders go again
    undo(v)
    v.migrate_layout("flat")
    v.acting_for(via="mcp/test-client", tool="save_memory").add("A memory an assistant saved.")
    undo(v)


def _run(template: Path, now: int, dest: Path, from_index: bool) -> Path:
    root = fs.fresh_copy(template, dest)
    with fs.deterministic(now):
        v = fs.open_vault(root)
        v.journal.trees_from_index = from_index
        try:
            _sequence(v, root)
        finally:
            fs.release(v)
    return root


@pytest.mark.parametrize("ordered_from", [tree_order.ORDERED_FROM, 0],
                         ids=["big-trees-ordered", "every-tree-ordered"])
def test_trees_from_parent_make_the_same_commits_as_the_index(tmp_path, monkeypatch,
                                                              ordered_from):
    """Over a long run of operations. With every tree kept in its ordered, encoded form
    (:mod:`core.git.tree_order`), each folder a commit changes is written from it."""
    for var in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
        monkeypatch.setenv(var, DATE)
    monkeypatch.setattr(trees_module, "ORDERED_FROM", ordered_from)
    template = tmp_path / "template"
    now = fs.build_template(template)
    old = _run(template, now, tmp_path / "index", from_index=True)
    new = _run(template, now, tmp_path / "trees", from_index=False)
    old_history, new_history = _history(old), _history(new)
    assert len(old_history) > 20
    assert new_history == old_history
    assert _index_entries(new) == _index_entries(old)
    assert " 100755 " in _git(new, "log", "--raw", "--format=")  # the executable file adopted
    for root in (old, new):
        assert _git(root, "status", "--porcelain", "--untracked-files=all") == ""
        assert fs.fsck_problems(root) == ""


def test_an_operation_reads_only_the_trees_on_its_paths(tmp_path):
    """A commit of one file in the sharded layout reads the root, ``memories/`` and one shard
    (and writes those three trees), whatever else the vault holds."""
    v = Vault.open(tmp_path / "vault")
    v.migrate_layout("sharded")
    v.save_many([Memory(id=f"{i:02x}{i}", content=f"Memory {i}.") for i in range(200)])
    v.close()
    v = Vault.open(tmp_path / "vault")  # a new process: no tree known yet
    read: list[str] = []
    written: list[int] = []
    make = v.journal.committer.tree_writer

    def counting() -> TreeWriter:
        writer = make()
        original_read, original_write = writer.read_tree, writer.write_trees
        writer.read_tree = lambda oid: read.append(oid) or original_read(oid)
        writer.write_trees = lambda trees: written.append(len(trees)) or original_write(trees)
        return writer

    v.journal.committer.tree_writer = counting
    v.archive("0a10")
    assert len(read) == 3 and written == [3]
    assert _git(v.root, "status", "--porcelain") == ""
    # the next commit starts from the trees this one left: the root and memories/ are not
    # read again, only the other shard folder it changes
    v.archive("0b11")
    assert len(read) == 4 and written == [3, 3]
    assert _git(v.root, "status", "--porcelain") == ""
    assert fs.fsck_problems(v.root) == ""
    v.close()


def test_a_link_goes_through_the_index(tmp_path):
    """What the trees cannot do as the index does (a symbolic link adopted) is committed
    through the private index, and lands the same."""
    v = Vault.open(tmp_path / "vault")
    v.add("One memory.")
    (tmp_path / "vault" / "link").symlink_to("memories")
    writer = v.journal.committer.tree_writer()
    with pytest.raises(NeedsIndex):
        writer.build(None, v.journal.worktree, ["link"])
    with v.journal.lock():
        v.journal.commit("external: a link", adopt=[tmp_path / "vault" / "link"])
    assert _git(v.root, "ls-tree", "HEAD", "link").startswith("120000 blob")
    v.close()


def test_a_tree_read_is_written_back_byte_for_byte(tmp_path):
    v = Vault.open(tmp_path / "vault")
    v.save_many([Memory(id=f"m{i}", content=f"Memory {i}.") for i in range(50)])
    tree = _git(v.root, "rev-parse", "HEAD:memories").strip()
    data = subprocess.run(["git", "cat-file", "tree", tree], cwd=v.root, capture_output=True,
                          check=True).stdout
    entries = parse_tree(data, 20)
    assert len(entries) == 50
    assert tree_bytes(entries, in_order=True) == data == tree_bytes(entries)
    with pytest.raises(ValueError):
        parse_tree(data[:-3], 20)
    v.close()


def test_a_commit_after_another_process_committed_builds_on_its_trees(tmp_path):
    """The trees the last commit left are only a shortcut: when another process committed
    since, the next commit starts from the new HEAD's trees, and keeps its change."""
    ours = Vault.open(tmp_path / "vault")
    first = ours.add("The first memory.").id
    with Vault.open(tmp_path / "vault") as other:
        second = other.add("The second memory, from another process.").id
    third = ours.add("The third memory.").id
    names = _git(ours.root, "ls-tree", "--name-only", "HEAD", "memories/").splitlines()
    assert {f"memories/{m}.json" for m in (first, second, third)} <= set(names)
    assert _git(ours.root, "status", "--porcelain") == ""
    assert fs.fsck_problems(ours.root) == ""
    ours.close()
