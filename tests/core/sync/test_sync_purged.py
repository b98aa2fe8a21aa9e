"""Sync never takes back what ``memvault purge`` removed (core.sync.purged): a remote still
holding the purged history is refused until it is force-pushed; another clone whose history
still holds them is refused until it purges too; then both sync, and neither history nor tree
holds them anywhere."""

from __future__ import annotations

import pytest

from secrets_support import AWS, run_git
from sync_support import make_world

from core import Vault, VaultError
from core.secrets.purge import plan_purge, purge, purged_ids
from core.sync.memory_latest import merge


@pytest.fixture
def world(tmp_path):
    w = make_world(tmp_path, "root")
    a = w.a
    a.vault = Vault.open(a.vault_dir, secrets="allow")
    w.keep = a.vault.add("a keeper on both machines")
    w.bad = a.vault.add(f"synced by mistake {AWS}")
    a.sync()
    w.b.sync()
    assert w.bad.id in w.b.reopen().memories
    return w


def test_purged_memories_never_come_back(world):
    a, b, bad = world.a, world.b, world.bad
    report = purge(a.vault, plan_purge(a.vault, [bad.id]))
    [need] = [n for n in report.remotes if n.get("branch") == "main"]
    with pytest.raises(VaultError, match="still holds memories this vault purged"):
        a.sync()
    assert bad.id not in a.reopen().memories
    assert AWS not in a.git("log", "--all", "-p")
    a.git(*need["command"].split()[1:])  # the force push purge printed
    assert AWS not in run_git(world.remote, "log", "--all", "-p")
    a.vault.add("written after the purge")
    assert a.sync().pushed
    # B still has the old history: refused, told what the remote says, never told to purge
    with pytest.raises(VaultError, match=f"lists as purged 1 memory this vault holds and never "
                       f"purged \\({bad.id[:8]}\\).*never purges on a remote's word") as refused:
        b.sync()
    assert "purge --yes" not in str(refused.value)
    b.reopen()
    purge(b.vault, plan_purge(b.vault, [bad.id]))
    b.sync()
    a.sync()
    for m in (a, b):
        m.reopen()
        assert bad.id not in m.vault.memories
        assert world.keep.id in m.vault.memories
        assert AWS not in m.git("log", "--all", "-p")
        assert purged_ids(m.vault.meta)[0] == {bad.id}
        m.git("fsck", "--strict", "--no-progress")
    assert a.head() == b.head()


def test_the_purged_lists_of_both_sides_are_merged():
    base = b'{"storage_version": 2, "purged": {"memories": ["x"], "relations": []}}'
    ours = b'{"storage_version": 2, "purged": {"memories": ["x", "a"], "relations": []}}'
    theirs = b'{"storage_version": 2, "purged": {"memories": ["x", "b"], "relations": ["r"]}}'
    outcome = merge(base, ours, theirs, ".meta.json")
    assert outcome.clean
    import json

    assert json.loads(outcome.data)["purged"] == {"memories": ["a", "b", "x"],
                                                  "relations": ["r"]}


def test_a_remote_purge_list_naming_my_own_memory_never_leads_to_purging_it(world):
    """A remote's ``.meta.json`` lists one of A's own memories, never purged anywhere, as
    purged: sync refuses, says what happened, and tells no one to purge it."""
    a, b = world.a, world.b
    mine = a.vault.add("my own memory, never purged")
    assert a.sync().pushed
    b.sync()
    meta_path = b.vault_dir / ".meta.json"
    import json

    meta = json.loads(meta_path.read_text())
    meta["purged"] = {"memories": [mine.id], "relations": []}
    meta_path.write_text(json.dumps(meta, indent=2))
    b.git("-c", "user.name=Eve", "-c", "user.email=e@x", "commit", "-q", "-am", "list")
    b.git("push", "-q", "origin", "HEAD:main")
    head = a.head()
    with pytest.raises(VaultError, match="never purged.*never purges on a remote's word") as err:
        a.sync()
    assert "purge --yes" not in str(err.value) and mine.id[:8] in str(err.value)
    assert a.head() == head and mine.id in a.reopen().memories
