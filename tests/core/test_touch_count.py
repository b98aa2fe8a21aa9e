"""Every touch counts: two touches in the same second give use_count 2, through the CLI, one
Vault, two Vault objects, and the CortexGraph storage API, whose callers read a memory, add one
and write the count back (``get_memory`` then ``update_memory``)."""

from __future__ import annotations

from cli_support import cli_env, run, vdir  # noqa: F401 (fixtures)

from core import PerFileStorage, Vault
from core.model.records import now_epoch


def _uses(path, memory_id) -> int:
    return Vault.open(path, readonly=True).get(memory_id).use_count


def test_two_cli_touches_in_one_second(run, vdir, git_tools):
    memory_id = run.add("touch me twice")
    run.ok("touch", memory_id)
    run.ok("touch", memory_id)
    assert _uses(vdir, memory_id) == 2
    subjects = git_tools.run(vdir, "log", "--format=%H %s").splitlines()
    touches = [s for s in subjects if " touch: " in s]
    assert len(touches) == 2 and touches[0].split()[0] != touches[1].split()[0]


def test_two_touches_from_one_vault_and_from_two(vault_path):
    v = Vault.open(vault_path)
    m = v.add("x")
    v.touch(m.id)
    v.touch(m.id)
    assert v.get(m.id).use_count == 2
    a, b = Vault.open(vault_path), Vault.open(vault_path)  # both opened before either touches
    a.touch(m.id)
    assert b.touch(m.id)[0].use_count == 4
    assert _uses(vault_path, m.id) == 4


def test_storage_api_touches_from_two_connections_both_count(vault_path, git_tools):
    v = Vault.open(vault_path)
    m = v.add("touched through the CortexGraph API")
    first, second = PerFileStorage(vault_path), PerFileStorage(vault_path)
    first.connect()
    second.connect()  # both connected (and caching) before either touches
    commits = git_tools.commit_count(vault_path)
    for storage in (first, second):  # what CortexGraph's touch_memory does
        memory = storage.get_memory(m.id)
        storage.update_memory(m.id, last_used=now_epoch(), use_count=memory.use_count + 1)
    assert _uses(vault_path, m.id) == 2
    assert git_tools.commit_count(vault_path) == commits + 2  # no touch swallowed as a no-op
    assert first.get_memory(m.id).use_count == 2  # the first connection sees the second's
