"""``memvault init --layout`` and ``memvault migrate-layout`` (tui/cli/layout.py), and the note a
flat vault above the threshold gets on ``list`` and ``stats``."""

from __future__ import annotations

import json

from cli_support import cli_env, run, vdir  # noqa: F401  (fixtures)
from vault_support import commit_count, run_git


def _memory_files(vdir) -> list[str]:
    return sorted(p.relative_to(vdir).as_posix() for p in (vdir / "memories").rglob("*.json"))


def test_init_sharded_then_add_writes_into_a_shard_folder(run, vdir):
    assert run.json("init", "--layout", "sharded")["layout"] == "sharded"
    mid = run.add("hello")
    assert _memory_files(vdir) == [f"memories/{mid[:2]}/{mid}.json"]
    assert run.json("stats")["layout"] == "sharded"
    assert "sharded" in run.ok("init")  # an existing vault: says which layout it has
    err = run.fails("init", "--layout", "flat")
    assert "migrate-layout --to flat" in err


def test_migrate_layout_is_one_commit_of_renames_and_history_shows_the_versions_before(run, vdir):
    first = run.add("first")
    second = run.add("second")
    before = commit_count(vdir)
    report = run.json("migrate-layout")
    assert commit_count(vdir) == before + 1
    assert report["before"] == "flat" and report["after"] == "sharded" and report["moved"] == 2
    assert report["commit"] == run_git(vdir, "rev-parse", "HEAD")
    assert _memory_files(vdir) == sorted(f"memories/{i[:2]}/{i}.json" for i in (first, second))
    statuses = run_git(vdir, "show", "-M", "--name-status", "--format=", "HEAD").splitlines()
    assert sorted(s.split("\t")[0] for s in statuses) == ["M", "R100", "R100"]
    history = run.json("history", first)
    assert [e["action"] for e in history] == ["moved", "created"]
    shown = run.json("show", first)
    assert shown["content"] == "first"
    out = run.ok("migrate-layout")
    assert "already in the sharded layout" in out
    assert commit_count(vdir) == before + 1
    out = run.ok("migrate-layout", "--to", "flat")
    assert out.startswith("moved 2 memories (sharded -> flat) in commit ")
    assert _memory_files(vdir) == sorted(f"memories/{i}.json" for i in (first, second))


def test_a_flat_vault_over_the_threshold_is_told_on_list_and_stats(run, monkeypatch):
    monkeypatch.setattr("core.store.shards.SHARD_SUGGESTED_ABOVE", 2)
    for n in range(3):
        run.add(f"memory {n}")
    code, out, err = run("list")
    assert code == 0 and "memvault migrate-layout" in err and "3 memories" in err
    assert "memvault migrate-layout" in run("stats")[2]
    json.loads(run.ok("migrate-layout", "--json"))
    assert "migrate-layout" not in run("list")[2]  # sharded now: no note


def test_a_jsonl_migration_into_a_flat_vault_over_the_threshold_tells_of_migrate_layout(
        run, tmp_path, monkeypatch):
    from migrate_support import memory_line, write_store

    monkeypatch.setattr("core.store.shards.SHARD_SUGGESTED_ABOVE", 2)
    store = write_store(tmp_path / "jsonl", [memory_line(f"m{n}", f"memory {n}")
                                             for n in range(3)])
    code, out, err = run("migrate", "--from", "jsonl", str(store))
    assert code == 0 and "memvault migrate-layout" in err
    assert run.json("migrate-layout")["moved"] == 3
