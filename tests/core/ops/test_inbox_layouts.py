"""The review inbox (core/ops/inbox.py) and the event log (core/io/eventlog.py) across a layout
migration: a memory's files in both layouts are one record."""

from __future__ import annotations

from vault_support import run_git

from core import Vault
from core.io.eventlog import events
from core.ops.inbox import inbox, reject


def test_an_assistant_change_before_and_after_the_move_is_one_entry_and_rejects(
        vault_path, consistent):
    vault = Vault.open(vault_path)
    memory = vault.add("as the person wrote it")
    Vault.open(vault_path, via="mcp/test").update(memory.id, content="assistant, before")
    Vault.open(vault_path).migrate_layout("sharded")
    Vault.open(vault_path, via="mcp/test").update(memory.id, content="assistant, after")
    [entry] = inbox(Vault.open(vault_path))
    assert entry.memory_id == memory.id and entry.exists and entry.blocked is None
    assert [(c.before, c.after) for c in entry.changes] == [
        ("as the person wrote it", "assistant, after")]
    reject(Vault.open(vault_path), memory.id[:8])
    vault = Vault.open(vault_path)
    assert vault.memories[memory.id].content == "as the person wrote it"
    consistent(vault)


def test_an_assistant_write_that_moves_a_straggler_is_shown_as_a_change(vault_path):
    vault = Vault.open(vault_path)
    memory = vault.add("a memory")
    vault.migrate_layout("sharded")
    sharded = vault.layout.memory_path(memory.id)
    run_git(vault_path, "mv", str(sharded), str(vault.layout.memory_path(memory.id, "flat")))
    run_git(vault_path, "-c", "user.name=p", "-c", "user.email=p@x", "commit", "-qm", "by hand")
    Vault.open(vault_path, via="mcp/test").update(memory.id, content="assistant edit")
    assert sharded.exists()  # the write moved it back into the vault's layout
    [entry] = inbox(Vault.open(vault_path))
    assert [(c.before, c.after) for c in entry.changes] == [("a memory", "assistant edit")]


def test_the_event_log_shows_a_move_as_one_change(vault_path):
    vault = Vault.open(vault_path)
    memory = vault.add("a memory")
    vault.migrate_layout("sharded")
    *_, move = events(vault, objects=True)
    assert move.operation == "layout"
    changes = {(c.kind, c.id): c for c in move.changes}
    assert changes[("memory", memory.id)].action == "moved"
    assert changes[("memory", memory.id)].before == changes[("memory", memory.id)].after
    assert len(move.changes) == 2  # the memory and .meta.json
