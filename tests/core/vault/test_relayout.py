"""``Vault.migrate_layout`` (core/vault/relayout.py): every memory into one layout in ONE commit of
pure renames, the layout in .meta.json; history, versions, restore and undo follow a memory
across the move."""

from __future__ import annotations

import json

import pytest

from vault_support import commit_count, run_git

from core import Memory, Vault, VaultError
from core.ops.revert import revert, undo_list


def _new(vault: Vault, n: int, content: str | None = None) -> Memory:
    return vault.save(Memory(id=f"{n:02x}aa0000-0000-4000-8000-{n:012x}",
                             content=content or f"memory {n}", created_at=1_700_000_000,
                             last_used=1_700_000_000))


def _memory_files(vault: Vault) -> list[str]:
    return sorted(p.relative_to(vault.root).as_posix()
                  for p in vault.layout.memories_dir.rglob("*.json"))


def test_migrate_is_one_commit_of_renames_and_history_follows(vault_path, consistent):
    vault = Vault.open(vault_path)
    a, b = _new(vault, 0x3F), _new(vault, 0xC2)
    vault.update(a.id, content="edited before the move")
    before = commit_count(vault_path)
    report = vault.migrate_layout("sharded")
    assert commit_count(vault_path) == before + 1
    assert (report.before, report.after, report.moved) == ("flat", "sharded", 2)
    assert _memory_files(vault) == [f"memories/3f/{a.id}.json", f"memories/c2/{b.id}.json"]
    assert json.loads((vault_path / ".meta.json").read_text())["layout"] == "sharded"
    renames = run_git(vault_path, "show", "-M", "--name-status", "--format=", "HEAD")
    assert sorted(renames.splitlines()) == [
        "M\t.meta.json", f"R100\tmemories/{a.id}.json\tmemories/3f/{a.id}.json",
        f"R100\tmemories/{b.id}.json\tmemories/c2/{b.id}.json"]
    assert run_git(vault_path, "log", "-1", "--format=%s") == \
        "layout: flat -> sharded (2 memories moved)"
    vault.touch(a.id)
    actions = [(e.action, e.message.split(":")[0]) for e in vault.history(a.id)]
    assert actions == [("changed", "touch"), ("moved", "layout"), ("changed", "update"),
                       ("created", "add")]
    first = vault.history(a.id)[-1].commit
    assert vault.version(a.id, first).content == "memory 63"  # a version from before the move
    assert vault.restore(a.id, at=vault.history(a.id)[3].commit).memory.content == \
        "memory 63"
    assert _memory_files(vault)[0] == f"memories/3f/{a.id}.json"
    consistent(vault)


def test_a_memory_deleted_before_the_move_is_restored_into_the_new_layout(vault_path, consistent):
    vault = Vault.open(vault_path)
    gone, kept = _new(vault, 0x11), _new(vault, 0x22)
    vault.delete(gone.id)
    vault.migrate_layout("sharded")
    assert vault.resolve_any(gone.id[:8]) == gone.id
    vault.restore(gone.id)
    assert _memory_files(vault) == [f"memories/11/{gone.id}.json", f"memories/22/{kept.id}.json"]
    consistent(vault)


def test_undo_takes_the_move_back_and_redo_makes_it_again(vault_path, consistent):
    vault = Vault.open(vault_path)
    a, b = _new(vault, 0x01), _new(vault, 0x02)
    vault.migrate_layout("sharded")
    vault.touch(b.id)  # a use after the move is kept by the undo
    touched = vault.memories[b.id]
    undo_list(vault)  # the move is an operation like the others
    report = revert(vault, run_git(vault_path, "log", "-1", "--skip=1", "--format=%H"))
    assert sorted(report.memories) == sorted([a.id, b.id])
    assert vault.layout.name == "flat"
    assert _memory_files(vault) == [f"memories/{a.id}.json", f"memories/{b.id}.json"]
    assert vault.memories[b.id].use_count == touched.use_count
    consistent(vault)
    again = Vault.open(vault_path)
    assert again.layout.name == "flat" and set(again.memories) == {a.id, b.id}


def test_back_to_flat_removes_the_empty_shard_folders(vault_path, consistent):
    vault = Vault.open(vault_path, layout="sharded")
    a = _new(vault, 0x7E)
    report = vault.migrate_layout("flat")
    assert report.moved == 1 and report.before == "sharded"
    assert sorted(p.name for p in vault.layout.memories_dir.iterdir()) == [f"{a.id}.json"]
    consistent(vault)


def test_nothing_to_move_is_no_commit_and_an_unknown_layout_is_refused(vault_path):
    vault = Vault.open(vault_path, layout="sharded")
    _new(vault, 0x05)
    before = commit_count(vault_path)
    assert vault.migrate_layout("sharded").commit is None
    assert commit_count(vault_path) == before
    with pytest.raises(VaultError, match="unknown layout"):
        vault.migrate_layout("deep")
    assert commit_count(vault_path) == before


def test_migrate_sets_a_second_copy_aside_and_leaves_unreadable_files(vault_path, consistent):
    from core.store.layout import Layout

    vault = Vault.open(vault_path)
    a = _new(vault, 0x0A)
    copy = vault_path / "memories" / "0a" / f"{a.id}.json"
    copy.parent.mkdir()
    copy.write_bytes(Layout.encode(a.model_copy(update={"content": "older copy",
                                                        "last_used": 1_600_000_000})))
    run_git(vault_path, "add", "memories")
    run_git(vault_path, "-c", "user.name=p", "-c", "user.email=p@x", "commit", "-qm", "copy")
    (vault_path / "memories" / "broken.json").write_text("{not json")
    vault = Vault.open(vault_path)
    report = vault.migrate_layout("sharded")
    assert report.set_aside == [f"memories/0a/{a.id}.json"]
    assert report.left == ["memories/broken.json"]
    assert vault.memories[a.id].content == "memory 10"
    assert copy.read_bytes() == Layout.encode(a)  # the loaded copy now at the sharded path
    quarantined = list((vault.journal.state_dir / "quarantine").rglob(f"{a.id}.json"))
    assert [Memory.model_validate_json(q.read_bytes()).content for q in quarantined] == \
        ["older copy"]
    (vault_path / "memories" / "broken.json").unlink()
    consistent(Vault.open(vault_path))


@pytest.mark.parametrize(("step", "occurrence"), [("write", 40), ("write", 75), ("stage", 1),
                                                  ("update-ref", 1)])
def test_a_migration_that_fails_half_way_puts_every_file_back(vault_path, consistent, step,
                                                              occurrence):
    """More than 64 files: written with one flush for all (core.store.files.write_atomic_many);
    a failure while writing them, or later before the commit point, leaves the vault as it was."""
    from fault_support import fault_hook, vault_files

    vault = Vault.open(vault_path)
    ids = [_new(vault, n).id for n in range(70)]
    before, head = vault_files(vault_path), run_git(vault_path, "rev-parse", "HEAD")
    vault.journal.faults.hook = fault_hook(step, occurrence)
    with pytest.raises(Exception, match="injected fault"):
        vault.migrate_layout("sharded")
    vault.journal.faults.hook = None
    assert run_git(vault_path, "rev-parse", "HEAD") == head
    assert vault_files(vault_path) == before  # no temp file left, nothing moved
    again = Vault.open(vault_path)
    assert again.layout.name == "flat" and sorted(again.memories) == sorted(ids)
    consistent(again)
    again.migrate_layout("sharded")
    assert all(p.parent.name == p.name[:2] for p in vault_path.glob("memories/*/*.json"))
    assert oct((vault_path / "memories" / ids[0][:2] / f"{ids[0]}.json").stat().st_mode & 0o777) \
        == "0o600"
    consistent(again)
