"""What the change watcher learns a range of commits changed: the server's own commits as its
write path told them (git is not asked), any other commit from git's diff; both accounts agree."""

from __future__ import annotations

from pathlib import Path

from mcp.server.subscriptions import InMemorySubscriptionBus

from core import Vault
from core.git.commit import LandedCommit
from core.store.layout import Layout
from tui.mcp.changes import Changes, OwnCommits
from tui.mcp.notifications import ChangeWatcher


def _watcher(vault_dir: Path) -> tuple[ChangeWatcher, list[tuple[str, str]]]:
    """A watcher whose every question to git is written down."""
    watcher = ChangeWatcher(vault_dir, InMemorySubscriptionBus(), interval=3600)
    asked: list[tuple[str, str]] = []
    diff = watcher.refs.changes

    def counted(old: str, new: str) -> Changes:
        asked.append((old, new))
        return diff(old, new)

    watcher.refs.changes = counted  # type: ignore[method-assign]
    return watcher, asked


def _seeded(vault_dir: Path) -> tuple[str, str]:
    with Vault.open(vault_dir) as v:
        return v.add("Kites need wind.").id, v.add("Gliders need thermals.").id


async def test_the_servers_own_commits_are_told_not_diffed(tmp_path):
    vault_dir = tmp_path / "vault"
    a, b = _seeded(vault_dir)
    watcher, asked = _watcher(vault_dir)
    with Vault.open(vault_dir) as v:
        v.journal.landed.append(watcher.own.landed)  # as the server's access does
        before = v.journal.head()
        c = v.add("Balloons need calm air.").id
        v.update(a, content="Kites need steady wind.")
        v.relate(b, c, "related")
        after = v.journal.head()
    changes = await watcher.changes_between(before, after)
    assert asked == []  # git was not asked
    assert changes.memories == {a, b, c}  # the relation's two ends, from its bytes
    assert changes.came_or_went and changes.committed


async def test_another_process_commits_are_diffed(tmp_path):
    vault_dir = tmp_path / "vault"
    a, _b = _seeded(vault_dir)
    watcher, asked = _watcher(vault_dir)
    with Vault.open(vault_dir) as v:  # no listener: another process
        before = v.journal.head()
        v.update(a, content="Kites need gusts.")
        after = v.journal.head()
    changes = await watcher.changes_between(before, after)
    assert asked == [(before, after)]
    assert changes.memories == {a} and not changes.came_or_went


async def test_own_commits_then_a_foreign_one_ask_git_only_about_the_foreign_part(tmp_path):
    vault_dir = tmp_path / "vault"
    a, b = _seeded(vault_dir)
    watcher, asked = _watcher(vault_dir)
    with Vault.open(vault_dir) as other, Vault.open(vault_dir) as ours:
        ours.journal.landed.append(watcher.own.landed)
        start = ours.journal.head()
        ours.update(a, content="Kites need steady wind.")
        own_head = ours.journal.head()
        other.refresh()
        other.delete(b)  # a foreign commit on top of ours
        foreign_head = other.journal.head()
        ours.refresh()
        ours.update(a, content="Kites need strong wind.")  # ours again, on top of it
        last = ours.journal.head()
    changes = await watcher.changes_between(start, last)
    assert asked == [(start, foreign_head)]  # from the start to the newest commit not ours
    assert own_head != foreign_head
    assert changes.memories == {a, b} and changes.came_or_went


async def test_the_write_paths_account_equals_gits(tmp_path):
    """For every kind of change (add, update, relate, delete with its relations, archive), what
    the write path told is what git's diff of the same commit says."""
    vault_dir = tmp_path / "vault"
    a, b = _seeded(vault_dir)
    own = OwnCommits(Layout(vault_dir))
    watcher, _asked = _watcher(vault_dir)
    steps = [
        lambda v: v.add("Balloons need calm air."),
        lambda v: v.update(a, content="Kites need steady wind."),
        lambda v: v.relate(a, b, "related"),
        lambda v: v.archive(a),
        lambda v: v.delete(b),  # and its relation with a
    ]
    with Vault.open(vault_dir) as v:
        v.journal.landed.append(own.landed)
        for step in steps:
            before = v.journal.head()
            step(v)
            after = v.journal.head()
            told, stop = own.take(before, after)
            assert stop == before
            diffed = watcher.refs.changes(before, after)
            assert (told.memories, told.came_or_went) == (diffed.memories, diffed.came_or_went)
            assert told.memories  # every step changed a memory


def test_a_walk_never_passes_a_first_commit(tmp_path):
    """Back from a first commit (no parent) the walk stops: what lies between is git's to say."""
    own = OwnCommits(Layout(tmp_path))
    memory = "memories/3f2a.json"
    own.landed(LandedCommit(None, "1" * 40, (("A", memory, b"{}"),)))
    own.landed(LandedCommit("1" * 40, "2" * 40, (("M", memory, b"{}"),)))
    told, stop = own.take("0" * 40, "2" * 40)
    assert stop == "2" * 40 and not told.memories


def test_files_taken_as_they_are_are_left_to_git(tmp_path):
    own = OwnCommits(Layout(tmp_path))
    own.landed(LandedCommit("1" * 40, "2" * 40, (), adopted=("memories/3f2a.json",)))
    told, stop = own.take("1" * 40, "2" * 40)
    assert stop == "2" * 40 and not told.memories


def test_the_servers_access_tells_its_commits(tmp_path):
    """The server's door to the vault hands each commit it makes to the watcher's listener."""
    from tui.mcp.access import VaultAccess

    vault_dir = tmp_path / "vault"
    a, _b = _seeded(vault_dir)
    own = OwnCommits(Layout(vault_dir))
    access = VaultAccess(vault_dir, landed=own.landed)
    try:
        before = access.read(lambda v: v.journal.head())
        after = access.write("touch_memory", lambda v: (v.touch(a), v.journal.head())[1])
    finally:
        access.close()
    told, stop = own.take(before, after)
    assert stop == before and told.memories == {a}
