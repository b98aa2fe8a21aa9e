"""Sync between a flat clone and a sharded one (core/sync/moves.py): a memory edited on one clone
while the other moved it into the sharded layout ends at its sharded path with the edit kept,
one file per id, whether or not git's own rename detection paired the files. Two real clones
of one bare remote (tests/sync_support.py)."""

from __future__ import annotations

import pytest
from vault_support import run_git
from sync_support import T0, assert_consistent, at, make_world, new

from core import Vault


def _files(vault: Vault) -> list[str]:
    return sorted(p.relative_to(vault.root).as_posix()
                  for p in vault.layout.memories_dir.rglob("*.json"))


def _settle(world) -> None:
    a, b = world.a, world.b
    a.sync()
    b.sync()
    a.sync()
    assert a.head() == b.head() == run_git(world.remote, "rev-parse", "main")
    for m in (a, b):
        assert_consistent(m.vault)
        fresh = Vault.open(m.vault_dir)
        assert fresh.memories == m.vault.memories and fresh.problems == []
        assert m.vault.layout.name == "sharded"


@pytest.fixture(params=["renames", "no-renames"])
def world(request, tmp_path):
    w = make_world(tmp_path)
    if request.param == "no-renames":  # the outcome must not depend on git pairing the files
        for m in (w.a, w.b):
            m.git("config", "merge.renames", "false")
    return w


def test_an_edit_on_the_flat_clone_lands_at_the_sharded_path(world, monkeypatch):
    a, b = world.a, world.b
    mid = "ab000000-0000-4000-8000-000000000001"
    new(a, mid, "first words")
    new(a, "cd000000-0000-4000-8000-000000000002", "another")
    a.sync()
    b.sync()
    b.vault.migrate_layout("sharded")
    assert b.sync().outcome == "pushed"
    a.vault.update(mid, content="edited on the flat clone")  # a has not seen the move
    report = a.sync()
    assert report.outcome == "merged", report
    assert _files(a.vault) == [f"memories/ab/{mid}.json",
                               "memories/cd/cd000000-0000-4000-8000-000000000002.json"]
    assert a.vault.memories[mid].content == "edited on the flat clone"
    _settle(world)
    assert b.reopen().memories[mid].content == "edited on the flat clone"
    assert _files(b.vault) == _files(a.vault)
    # the memory's history runs through both layouts on both clones
    actions = [e.action for e in b.vault.history(mid)]
    assert "moved" in actions and actions[-1] == "created"


def test_the_clone_that_moved_merges_an_edit_pushed_before_it(world):
    a, b = world.a, world.b
    mid = "ef000000-0000-4000-8000-000000000003"
    new(a, mid, "first words")
    a.sync()
    b.sync()
    a.vault.update(mid, content="edited and pushed first")
    a.sync()
    b.vault.migrate_layout("sharded")  # b moves without having seen the edit
    assert b.sync().outcome == "merged"
    assert _files(b.vault) == [f"memories/ef/{mid}.json"]
    assert b.vault.memories[mid].content == "edited and pushed first"
    _settle(world)


def test_both_sides_changed_the_memory_the_driver_merges_at_the_new_path(world, monkeypatch):
    a, b = world.a, world.b
    mid = "12000000-0000-4000-8000-000000000004"
    new(a, mid, "first words")
    a.sync()
    b.sync()
    b.vault.migrate_layout("sharded")
    at(monkeypatch, T0 + 100)
    b.vault.touch(mid)  # moved and used on b
    b.sync()
    a.vault.update(mid, content="edited on a")  # edited on a, still flat
    report = a.sync()
    if report.outcome == "conflict":  # without rename detection git cannot pair the files
        assert world.a.git("config", "merge.renames") == "false"
        [waiting] = report.conflicts
        assert waiting["vault_path"] == f"memories/12/{mid}.json"
        return
    assert report.outcome == "merged", report
    memory = a.vault.memories[mid]
    assert memory.content == "edited on a" and memory.use_count == 1  # both changes kept
    assert _files(a.vault) == [f"memories/12/{mid}.json"]
    _settle(world)


def test_a_memory_deleted_on_the_flat_clone_stays_deleted_after_the_move(world):
    a, b = world.a, world.b
    mid = "34000000-0000-4000-8000-000000000005"
    keep = "56000000-0000-4000-8000-000000000006"
    new(a, mid, "to delete")
    new(a, keep, "to keep")
    a.sync()
    b.sync()
    b.vault.migrate_layout("sharded")
    b.sync()
    a.vault.delete(mid)
    assert a.sync().outcome == "merged"
    assert _files(a.vault) == [f"memories/56/{keep}.json"]
    _settle(world)


def test_a_memory_added_on_the_flat_clone_comes_in_flat_and_migrate_tidies_it(world):
    a, b = world.a, world.b
    new(a, "78000000-0000-4000-8000-000000000007", "old")
    a.sync()
    b.sync()
    b.vault.migrate_layout("sharded")
    b.sync()
    added = new(a, "9a000000-0000-4000-8000-000000000008", "added flat")
    a.sync()
    assert a.vault.memories[added.id].content == "added flat"  # read where it is
    assert f"memories/{added.id}.json" in _files(a.vault)
    report = a.vault.migrate_layout("sharded")  # already sharded: moves the straggler
    assert report.moved == 1 and report.before == "sharded"
    assert _files(a.vault) == ["memories/78/78000000-0000-4000-8000-000000000007.json",
                               f"memories/9a/{added.id}.json"]
    _settle(world)
