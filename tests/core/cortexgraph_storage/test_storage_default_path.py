"""Where PerFileStorage() and the CLI put the vault without a path: ``MEMVAULT_PATH``, then the
storage path configured for CortexGraph (read as CortexGraph 1.2.1 reads it), then ours."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

from core import PerFileStorage, default_vault_path
from core.model.cortexgraph_config import configured_storage_path


def _ours(home: Path) -> Path:
    return home / ".local" / "share" / "memvault" / "vault"


@pytest.fixture
def home(isolated_env, monkeypatch) -> Path:
    monkeypatch.chdir(isolated_env)
    return isolated_env / "home"


def test_without_anything_configured_our_default(home):
    assert configured_storage_path() is None
    assert PerFileStorage().storage_path == _ours(home)


def test_cortexgraphs_env_file_in_its_config_dir(home):
    env = home / ".config" / "cortexgraph" / ".env"
    env.parent.mkdir(parents=True)
    env.write_text("CORTEXGRAPH_STORAGE_PATH=~/cg-store\nOTHER=1\n")
    assert PerFileStorage().storage_path == home / "cg-store"


def test_the_current_folders_env_file_only_without_the_config_dirs(home, isolated_env):
    (isolated_env / ".env").write_text("CORTEXGRAPH_STORAGE_PATH=/from/cwd\n")
    assert default_vault_path() == Path("/from/cwd")
    config_env = home / ".config" / "cortexgraph" / ".env"
    config_env.parent.mkdir(parents=True)
    config_env.write_text("CORTEXGRAPH_DECAY_BETA=0.5\n")  # found first: ./.env is not read
    assert default_vault_path() == _ours(home)


def test_the_environment_wins_over_the_env_file_and_vars_expand(home, monkeypatch):
    env = home / ".config" / "cortexgraph" / ".env"
    env.parent.mkdir(parents=True)
    env.write_text("CORTEXGRAPH_STORAGE_PATH=/from/file\n")
    monkeypatch.setenv("SOMEWHERE", "/data")
    monkeypatch.setenv("CORTEXGRAPH_STORAGE_PATH", "$SOMEWHERE/cg")
    assert PerFileStorage().storage_path == Path("/data/cg")
    monkeypatch.setenv("CORTEXGRAPH_STORAGE_PATH", "")  # set but empty: CortexGraph's default
    assert PerFileStorage().storage_path == _ours(home)


def test_memvault_path_first_then_an_explicit_argument_over_all(home, monkeypatch, tmp_path):
    monkeypatch.setenv("CORTEXGRAPH_STORAGE_PATH", str(tmp_path / "cg"))
    monkeypatch.setenv("MEMVAULT_PATH", str(tmp_path / "mv"))
    assert PerFileStorage().storage_path == tmp_path / "mv"
    assert PerFileStorage(tmp_path / "given").storage_path == tmp_path / "given"


def test_a_configuration_cortexgraph_holds(home, monkeypatch, tmp_path):
    """A program that imported cortexgraph.config and set its storage path (set_config, or the
    environment when it first read it) is followed; its own default is not a configuration."""

    class Config:
        def __init__(self, path: Path, explicit: bool) -> None:
            self.storage_path = path
            self.model_fields_set = {"storage_path"} if explicit else set()

    module = types.ModuleType("cortexgraph.config")
    monkeypatch.setitem(sys.modules, "cortexgraph.config", module)
    module._config = None
    assert PerFileStorage().storage_path == _ours(home)
    module._config = Config(home / ".config" / "cortexgraph" / "jsonl", explicit=False)
    assert PerFileStorage().storage_path == _ours(home)
    module._config = Config(tmp_path / "set", explicit=True)
    monkeypatch.setenv("CORTEXGRAPH_STORAGE_PATH", str(tmp_path / "env-now"))
    assert PerFileStorage().storage_path == tmp_path / "set"


def test_an_env_file_in_a_git_work_tree_is_never_read(home, isolated_env, monkeypatch):
    """A vault or any clone: a remote can commit a ``.env`` there (``git pull``, ``memvault
    sync``), so the folder it names is never where memvault writes."""
    import subprocess

    clone = isolated_env / "clone"
    (clone / "deeper").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(clone)], check=True)
    for folder in (clone, clone / "deeper"):
        (folder / ".env").write_text("CORTEXGRAPH_STORAGE_PATH=/planted/by/a/remote\n")
        monkeypatch.chdir(folder)
        assert configured_storage_path() is None
        assert default_vault_path() == _ours(home)
    monkeypatch.chdir(isolated_env)  # outside any work tree: read, as CortexGraph does
    (isolated_env / ".env").write_text("CORTEXGRAPH_STORAGE_PATH=/from/cwd\n")
    assert default_vault_path() == Path("/from/cwd")
