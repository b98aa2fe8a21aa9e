"""Shared fixtures: an isolated environment for every test, a fresh vault, and git helpers.

Every test runs with HOME, XDG_* and git's global config pointed into its own ``tmp_path`` (git's
system config is off too), so no state outside ``tmp_path`` is read or written and the suite runs
the same on a machine where git knows no ``user.name``. ``MEMVAULT_PATH`` and every
``CORTEXGRAPH_*`` variable are unset.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from vault_support import (
    FIXTURES,
    assert_consistent,
    blob_sha,
    commit_count,
    disk_tree,
    head_subject,
    head_tree,
    run_git,
    vault_status,
)

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


@pytest.fixture
def related_vault(vault):
    """The vault closed, its six memories a chain of five "related" relations, and one broken
    relation file beside them: (vault, the memories' ids in order)."""
    ids = [vault.add(f"memory {n}").id for n in range(6)]
    for a, b in zip(ids, ids[1:]):
        vault.relate(a, b, "related")
    vault.close()
    (vault.root / "relations" / "broken.json").write_text("{not json")
    return vault, ids


@pytest.fixture
def git() -> Callable[..., str]:
    """``git(cwd, *args)`` -> stdout."""
    return run_git


@pytest.fixture
def git_runs(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The argument lists of the git processes started while the test runs."""
    import subprocess

    started: list[list[str]] = []
    real = subprocess.Popen.__init__

    def spy(self, args, *rest, **kwargs):  # type: ignore[no-untyped-def]
        argv = [args] if isinstance(args, str) else [str(a) for a in args]
        if argv and argv[0].rsplit("/", 1)[-1] == "git":
            started.append(argv[1:])
        real(self, args, *rest, **kwargs)

    monkeypatch.setattr(subprocess.Popen, "__init__", spy)
    return started


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




@pytest.fixture
def cortexgraph_expected() -> dict:
    """The CortexGraph v1 fixture set: {"memories": {id: record}, "relations": {id: record}}."""
    import json

    return json.loads((FIXTURES / "cortexgraph-v1" / "expected.json").read_text("utf-8"))
