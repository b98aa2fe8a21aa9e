"""Shared fixtures: an isolated environment for every test, a fresh vault, and git helpers.

Every test runs with HOME, XDG_* and git's global config pointed into its own ``tmp_path`` (git's
system config is off too), so no state outside ``tmp_path`` is read or written and the suite runs
the same on a machine where git knows no ``user.name``. ``MEMVAULT_PATH`` and every
``CORTEXGRAPH_*`` variable are unset.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

_GIT_VARS = (
    "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR",
    "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE",
    "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE",
    "GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CEILING_DIRECTORIES",
    "EMAIL",
)


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """HOME, XDG dirs and git's global config inside tmp_path; no memvault/CortexGraph settings."""
    home = tmp_path / "home"
    home.mkdir()
    gitconfig = tmp_path / "gitconfig-empty"
    gitconfig.write_text("")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(gitconfig))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_TERMINAL_PROMPT", "0")
    for var in list(os.environ):
        if var.startswith("CORTEXGRAPH_") or var == "MEMVAULT_PATH" or var in _GIT_VARS:
            monkeypatch.delenv(var, raising=False)
    return tmp_path


@pytest.fixture
def vault_path(tmp_path: Path) -> Path:
    return tmp_path / "vault"


@pytest.fixture
def vault(vault_path: Path):
    from core import Vault

    v = Vault.open(vault_path)
    yield v
    v.close()


# -- git helpers --------------------------------------------------------------------------------
def run_git(cwd: Path | str, *args: str, check: bool = True, input: bytes | None = None) -> str:
    """Run git in ``cwd``; return stdout as text (stripped of the final newline)."""
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, input=input)
    if check and proc.returncode != 0:
        raise AssertionError(
            f"git {' '.join(args)} failed ({proc.returncode}): "
            f"{proc.stderr.decode(errors='replace')}")
    return proc.stdout.decode("utf-8", "surrogateescape").rstrip("\n")


@pytest.fixture
def git() -> Callable[..., str]:
    """``git(cwd, *args)`` -> stdout."""
    return run_git


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


@pytest.fixture
def consistent() -> Callable[..., None]:
    """``consistent(vault)`` asserts cache == disk == HEAD and a clean git status."""
    return assert_consistent


@pytest.fixture
def git_tools():
    """The module-level helpers, for tests that want several of them."""
    import types

    return types.SimpleNamespace(
        run=run_git, blob_sha=blob_sha, commit_count=commit_count, head_subject=head_subject,
        status=vault_status, head_tree=head_tree, disk_tree=disk_tree,
        assert_consistent=assert_consistent,
    )


FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def cortexgraph_expected() -> dict:
    """The CortexGraph v1 fixture set: {"memories": {id: record}, "relations": {id: record}}."""
    import json

    return json.loads((FIXTURES / "cortexgraph-v1" / "expected.json").read_text("utf-8"))
