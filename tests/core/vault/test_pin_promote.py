"""Pin (kept out of gc by the rule in Vault.gc, stored in meta.extra so CortexGraph keeps it) and
promote: one commit each, refused when there is nothing to do, undoable."""

from __future__ import annotations

import pytest

from core import Memory, MemoryStatus, Vault, VaultError
from core.model.records import is_pinned
from core.cortexgraph_storage.classes import as_record
from core.ops.revert import undo

from vault_support import commit_count, head_subject

DAY = 86400


def faded(vault: Vault, text: str) -> Memory:
    m = vault.add(text)
    return vault.save(m.model_copy(update={"last_used": m.last_used - 400 * DAY,
                                           "created_at": m.created_at - 400 * DAY}))


def test_pin_and_unpin_are_one_commit_each_and_refuse_twice(vault, vault_path, consistent):
    m = vault.add("keep me", tags=["t"])
    before = commit_count(vault_path)
    [p] = vault.pin(m.id[:8])
    assert is_pinned(p) and p.meta.extra == {"pinned": True}
    assert head_subject(vault_path).startswith(f"pin: {m.id[:8]}")
    with pytest.raises(VaultError, match="already pinned"):
        vault.pin(m.id)
    [u] = vault.unpin(m.id)
    assert not is_pinned(u) and u.meta.extra == {}
    assert head_subject(vault_path).startswith(f"unpin: {m.id[:8]}")
    with pytest.raises(VaultError, match="not pinned"):
        vault.unpin(m.id)
    assert commit_count(vault_path) == before + 2
    undo(vault)  # the unpin taken back: pinned again
    assert is_pinned(vault.get(m.id))
    consistent(vault)


def test_gc_never_deletes_or_archives_a_pinned_memory(vault):
    keep, drop = faded(vault, "pinned and faded"), faded(vault, "faded only")
    vault.pin(keep.id)
    preview = vault.gc(dry_run=True)
    assert [m.id for m, _ in preview.candidates] == [drop.id]
    assert [m.id for m, _ in preview.pinned_kept] == [keep.id]
    archived = vault.gc(archive=True)
    assert [m.id for m, _ in archived.candidates] == [drop.id] and len(archived.pinned_kept) == 1
    assert vault.get(keep.id).status == MemoryStatus.ACTIVE
    vault.unarchive(drop.id)
    report = vault.gc()
    assert [m.id for m, _ in report.candidates] == [drop.id]
    assert vault.find(keep.id) is not None and vault.find(drop.id) is None
    vault.unpin(keep.id)
    assert [m.id for m, _ in vault.gc(dry_run=True).candidates] == [keep.id]


def test_the_pin_survives_cortexgraphs_classes(vault, vault_path):
    """CortexGraph's MemoryMetadata carries ``extra``: a record handed back as CortexGraph's
    JSON form (what its update_memory sends) keeps the pin."""
    m = vault.add("pinned")
    [p] = vault.pin(m.id)
    data = p.model_dump(mode="json")
    data.pop("gist")  # CortexGraph's Memory has no gist
    back = as_record(data, Memory, stored=p)
    assert is_pinned(back)
    from core import PerFileStorage

    storage = PerFileStorage(storage_path=vault_path, models="memvault")
    storage.connect()
    got = storage.get_memory(m.id)
    assert is_pinned(got)
    storage.update_memory(m.id, use_count=got.use_count + 1)
    assert is_pinned(storage.get_memory(m.id))


def test_promote_is_one_commit_and_only_for_an_active_memory(vault, vault_path):
    m = vault.add("promote me")
    [p] = vault.promote(m.id)
    assert p.status == MemoryStatus.PROMOTED and p.promoted_at is not None
    assert head_subject(vault_path).startswith(f"promote: {m.id[:8]}")
    with pytest.raises(VaultError, match="only an active memory"):
        vault.promote(m.id)
    vault.archive(m.id)
    [back] = vault.unarchive(m.id)  # the promotion survives an archive
    assert back.status == MemoryStatus.PROMOTED
    undo(vault)
    undo(vault)
    undo(vault)
    assert vault.get(m.id).status == MemoryStatus.ACTIVE


def test_has_pin_finds_pinned_memories(vault):
    from core.search.query import parse, select

    a, b = vault.add("pinned one"), vault.add("loose one")
    vault.pin(a.id)
    memories = list(vault.memories.values())

    def found(text: str) -> list[str]:
        chosen = select(parse(text), memories, 0, score_of=lambda m: 1.0,
                        relations_of=lambda m: 0)
        return [m.id for m in chosen]

    assert found("has:pin") == [a.id] and found("-has:pin") == [b.id]
