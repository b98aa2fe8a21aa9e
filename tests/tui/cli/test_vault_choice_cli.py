"""Which vault a command means: ``--vault``, else the vault the current folder is in, else
``MEMVAULT_PATH`` (docs/configuration.md). docs/sync.md's recipe runs as written: clone, ``cd``
into the clone, ``memvault sync install``, ``sync``, ``sync status``, ``sync designate``, with
no ``--vault`` (and a ``MEMVAULT_PATH`` naming another vault, as the README sets it)."""

from __future__ import annotations

import json

from cli_support import cli_env, run, vdir  # noqa: F401  (fixtures)
from sync_support import make_world
from vault_support import run_git


def test_the_sync_recipe_runs_as_written_in_the_clone(run, tmp_path, monkeypatch):
    world = make_world(tmp_path, second=False)
    other = tmp_path / "memories"
    assert run("--vault", str(other), "init", vault=False)[0] == 0
    monkeypatch.setenv("MEMVAULT_PATH", str(other))  # the README's export
    run_git(tmp_path, "clone", "-q", str(world.remote), "notes")
    clone = tmp_path / "notes"
    monkeypatch.chdir(clone)
    other_head = run_git(other, "rev-parse", "HEAD")
    for argv in (["sync", "install"], ["sync"], ["sync", "status"],
                 ["sync", "designate", "laptop"]):
        code, out, err = run(*argv, vault=False)
        assert code == 0, (argv, out, err)
    assert "memory-latest" in run_git(clone, "config", "--get-regexp", "merge")
    assert json.loads((clone / ".meta.json").read_text())["maintenance_machine"] == "laptop"
    assert run_git(other, "rev-parse", "HEAD") == other_head  # MEMVAULT_PATH's vault untouched
    code, out, _ = run("sync", vault=False)  # designate's commit goes to the remote
    assert code == 0 and run_git(clone, "rev-parse", "HEAD") == \
        run_git(world.remote, "rev-parse", "main")


def test_a_folder_inside_a_vault_means_that_vault_and_vault_wins(run, tmp_path, monkeypatch):
    here, there = tmp_path / "here", tmp_path / "there"
    for folder in (here, there):
        assert run("--vault", str(folder), "init", vault=False)[0] == 0
    assert run("--vault", str(there), "add", "only there", vault=False)[0] == 0
    monkeypatch.chdir(here / "memories")
    code, out, _ = run("tui", "--json", vault=False)
    assert code == 0 and json.loads(out)["vault"] == str(here)
    code, out, _ = run("--vault", str(there), "list", vault=False)
    assert code == 0 and "only there" in out


def test_a_folder_of_another_repository_falls_back_to_memvault_path(run, tmp_path,
                                                                     monkeypatch):
    vault = tmp_path / "memories"
    assert run("--vault", str(vault), "init", vault=False)[0] == 0
    project = tmp_path / "project"
    project.mkdir()
    run_git(project, "init", "-q")
    (project / "memories").mkdir()  # a folder of that name in a project is no vault
    monkeypatch.setenv("MEMVAULT_PATH", str(vault))
    monkeypatch.chdir(project)
    code, out, _ = run("tui", "--json", vault=False)
    assert code == 0 and json.loads(out)["vault"] == str(vault)
