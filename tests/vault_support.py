"""The tests' git and vault checks: run git, count commits, compare the cache, the files on disk
and git's HEAD tree. Imported by test modules (``from vault_support import run_git``) and by
conftest.py's fixtures; a module of its own so that no test imports a conftest (two conftests
are both named ``conftest``, and which one an import finds depends on the run)."""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"


def run_git(cwd: Path | str, *args: str, check: bool = True, input: bytes | None = None) -> str:
    """Run git in ``cwd``; return stdout as text (stripped of the final newline)."""
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, input=input)
    if check and proc.returncode != 0:
        raise AssertionError(
            f"git {' '.join(args)} failed ({proc.returncode}): "
            f"{proc.stderr.decode(errors='replace')}")
    return proc.stdout.decode("utf-8", "surrogateescape").rstrip("\n")


def blob_sha(data: bytes) -> str:
    """What ``git hash-object`` says for ``data``."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def commit_count(path: Path | str) -> int:
    return int(run_git(path, "rev-list", "--count", "HEAD"))


def head_subject(path: Path | str) -> str:
    return run_git(path, "log", "-1", "--format=%s")


def vault_status(vault) -> str:
    """``git status --porcelain`` for the vault's own folder (untracked files included)."""
    return run_git(vault.journal.worktree, "status", "--porcelain", "--untracked-files=all",
                   "--", str(vault.root))


def head_tree(vault) -> dict[str, str]:
    """Vault-relative path -> blob sha of every file under the vault folder at HEAD."""
    worktree = vault.journal.worktree
    rel_root = os.path.relpath(vault.root, worktree).replace(os.sep, "/")
    spec = [] if rel_root == "." else ["--", rel_root]
    out = run_git(worktree, "ls-tree", "-r", "-z", "HEAD", *spec)
    tree = {}
    for entry in out.split("\0"):
        if not entry:
            continue
        info, path = entry.split("\t", 1)
        _mode, _kind, sha = info.split()
        if rel_root != ".":
            path = path[len(rel_root) + 1:]
        tree[path] = sha
    return tree


def disk_tree(vault) -> dict[str, str]:
    """Vault-relative path -> blob sha of the vault's files on disk (memories, relations, meta)."""
    tree = {}
    for folder in ("memories", "relations"):
        d = vault.root / folder
        if d.is_dir():
            for p in d.iterdir():
                if p.is_dir() and folder == "memories":  # a shard folder (the sharded layout)
                    for q in p.iterdir():
                        tree[f"{folder}/{p.name}/{q.name}"] = blob_sha(q.read_bytes())
                    continue
                tree[f"{folder}/{p.name}"] = blob_sha(p.read_bytes())
    meta = vault.root / ".meta.json"
    if meta.exists():
        tree[".meta.json"] = blob_sha(meta.read_bytes())
    return tree


def assert_consistent(vault, *, exact_bytes: bool = True) -> None:
    """Cache == files on disk == git HEAD tree, and git status clean for the vault."""
    from core import Memory, Relation

    assert vault.problems == [], vault.problems
    disk = disk_tree(vault)
    head = head_tree(vault)
    assert disk == head, {"only_disk": sorted(set(disk) - set(head)),
                          "only_head": sorted(set(head) - set(disk)),
                          "differ": sorted(k for k in disk.keys() & head.keys()
                                           if disk[k] != head[k])}
    on_disk_memories = [vault.layout.classify(p)[1] for p in disk if p.startswith("memories/")]
    on_disk_relations = {p[len("relations/"):-5] for p in disk if p.startswith("relations/")}
    assert sorted(on_disk_memories) == sorted(vault.memories)  # one file per memory
    assert on_disk_relations == set(vault.relations)
    for mid, memory in vault.memories.items():
        data = vault.layout.memory_path(mid).read_bytes()  # in the vault's layout
        assert Memory.model_validate_json(data).model_dump() == memory.model_dump()
        if exact_bytes:
            assert vault.layout.encode(memory) == data
    for rid, relation in vault.relations.items():
        data = (vault.root / "relations" / f"{rid}.json").read_bytes()
        assert Relation.model_validate_json(data).model_dump() == relation.model_dump()
        if exact_bytes:
            assert vault.layout.encode(relation) == data
    assert vault_status(vault) == ""
