"""The two layouts of a vault's memories (core/store/shards.py, core/store/layout.py): flat
``memories/{id}.json`` and sharded ``memories/{shard}/{id}.json``; readers accept both at once,
writers leave one file per id, two files for one id lose nothing."""

from __future__ import annotations

import json
import os

import pytest

from vault_support import commit_count, run_git

from core import Memory, Vault
from core.store.layout import Layout, UnknownLayoutError
from core.store.shards import newer_copy, shard_of


def _id(n: int) -> str:
    return f"{n:02x}c0ffee-0000-4000-8000-{n:012x}"


def _memory(n: int, **fields) -> Memory:
    fields.setdefault("created_at", 1_700_000_000)
    fields.setdefault("last_used", 1_700_000_000)
    fields.setdefault("content", f"memory {n}")
    return Memory(id=_id(n), **fields)


def _files(vault: Vault) -> list[str]:
    return sorted(p.relative_to(vault.root).as_posix() for p in vault.layout.memories_dir.rglob("*")
                  if p.is_file())


@pytest.mark.parametrize(("record_id", "shard"), [
    ("3f2a9c1e-0000-4000-8000-000000000000", "3f"),
    ("AB12", "ab"), ("a", "a_"), ("m1", "m1"), ("-x", "_x"), ("a.b", "a_"), ("éa", "_a"),
    ("_9", "_9"),
])
def test_the_shard_is_the_first_two_characters_lower_cased_and_always_a_safe_name(record_id, shard):
    assert shard_of(record_id) == shard


def test_paths_and_classify_in_both_layouts(tmp_path):
    layout = Layout(tmp_path, "sharded")
    mid = _id(0xAB)
    assert layout.memory_path(mid) == tmp_path / "memories" / "ab" / f"{mid}.json"
    assert layout.memory_path(mid, "flat") == tmp_path / "memories" / f"{mid}.json"
    assert layout.memory_paths(mid) == [layout.memory_path(mid), layout.memory_path(mid, "flat")]
    assert layout.classify(f"memories/ab/{mid}.json") == ("memory", mid)
    assert layout.classify(f"memories/{mid}.json") == ("memory", mid)
    assert layout.classify(f"memories/cd/{mid}.json") is None  # another id's shard
    assert layout.classify(f"memories/ab/x/{mid}.json") is None
    assert layout.classify("relations/ab/r1.json") is None  # relations stay flat
    assert layout.classify("relations/r1.json") == ("relation", "r1")
    with pytest.raises(Exception, match="unknown layout"):
        Layout(tmp_path, "deep")


def test_a_vault_created_sharded_writes_into_shard_folders(vault_path, consistent):
    vault = Vault.open(vault_path, layout="sharded")
    memory = vault.save(_memory(0xAB))
    assert json.loads((vault_path / ".meta.json").read_text())["layout"] == "sharded"
    assert _files(vault) == [f"memories/ab/{memory.id}.json"]
    consistent(vault)
    again = Vault.open(vault_path)  # an existing vault keeps its own layout
    assert again.layout.name == "sharded" and set(again.memories) == {memory.id}
    again.update(memory.id, content="changed")
    assert _files(again) == [f"memories/ab/{memory.id}.json"]
    consistent(again)
    readonly = Vault.open(vault_path, readonly=True)
    assert readonly.memories[memory.id].content == "changed"


def test_an_existing_flat_vault_stays_flat_whatever_the_open_asks(vault_path):
    Vault.open(vault_path).save(_memory(1))
    vault = Vault.open(vault_path, layout="sharded")
    assert vault.layout.name == "flat"
    assert _files(vault) == [f"memories/{_id(1)}.json"]


def test_a_mixed_vault_reads_both_and_a_write_moves_the_memory_in_the_same_commit(
        vault_path, consistent):
    vault = Vault.open(vault_path)
    flat = vault.save(_memory(1))
    vault.migrate_layout("sharded")
    # a straggler: a flat file committed after the move (a clone in the flat layout synced it)
    path = vault_path / "memories" / f"{_id(2)}.json"
    path.write_bytes(Layout.encode(_memory(2)))
    run_git(vault_path, "add", "memories")
    run_git(vault_path, "-c", "user.name=p", "-c", "user.email=p@x", "commit", "-qm", "straggler")
    vault = Vault.open(vault_path)
    assert set(vault.memories) == {flat.id, _id(2)} and vault.problems == []
    before = commit_count(vault_path)
    vault.touch(_id(2))
    assert commit_count(vault_path) == before + 1  # one commit: written sharded, flat removed
    assert _files(vault) == sorted([f"memories/01/{_id(1)}.json", f"memories/02/{_id(2)}.json"])
    changed = run_git(vault_path, "show", "--name-status", "--no-renames", "--format=", "HEAD")
    assert sorted(changed.splitlines()) == [f"A\tmemories/02/{_id(2)}.json",
                                            f"D\tmemories/{_id(2)}.json"]
    consistent(vault)
    vault.delete(flat.id)  # a deletion finds the file wherever it is
    assert _files(vault) == [f"memories/02/{_id(2)}.json"]
    consistent(vault)


def test_two_files_for_one_id_keep_the_newer_report_the_other_and_lose_neither(
        vault_path, consistent):
    vault = Vault.open(vault_path, layout="sharded")
    old = vault.save(_memory(3, last_used=1_700_000_000))
    newer = _memory(3, content="the newer copy", last_used=1_700_000_500)
    flat = vault_path / "memories" / f"{old.id}.json"
    flat.write_bytes(Layout.encode(newer))  # e.g. a merge of a flat clone and a sharded one
    run_git(vault_path, "add", "memories")
    run_git(vault_path, "-c", "user.name=p", "-c", "user.email=p@x", "commit", "-qm", "both")
    vault = Vault.open(vault_path)
    assert vault.memories[old.id].content == "the newer copy"
    [problem] = vault.problems
    assert problem.path == vault_path / "memories" / "03" / f"{old.id}.json"
    assert "a second file for memory" in problem.reason
    assert problem.path.exists() and flat.exists()  # nothing touched by reading
    vault.touch(old.id)  # the next write: one file, the other copy in the quarantine
    assert _files(vault) == [f"memories/03/{old.id}.json"]
    assert vault.memories[old.id].content == "the newer copy"
    [notice] = vault.notices
    assert "set it aside" in notice
    copies = list((vault.journal.state_dir / "quarantine").rglob(f"{old.id}.json"))
    assert [Memory.model_validate_json(c.read_bytes()).content for c in copies] == ["memory 3"]
    consistent(vault)


def test_the_rule_for_two_copies_is_the_same_whichever_comes_first():
    a, b = _memory(4, last_used=10), _memory(4, last_used=20)
    assert newer_copy(b, a, False) and not newer_copy(a, b, True)
    same_a, same_b = _memory(4, use_count=1), _memory(4, use_count=1)
    assert newer_copy(same_a, same_b, True) and not newer_copy(same_a, same_b, False)


def test_files_in_a_wrong_shard_folder_or_a_linked_shard_folder_are_problems_never_read(
        vault_path, tmp_path):
    vault = Vault.open(vault_path, layout="sharded")
    vault.save(_memory(5))
    wrong = vault_path / "memories" / "ff" / f"{_id(6)}.json"
    wrong.parent.mkdir()
    wrong.write_bytes(Layout.encode(_memory(6)))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / f"{_id(7)}.json").write_bytes(Layout.encode(_memory(7)))
    os.symlink(elsewhere, vault_path / "memories" / "07")
    memories, problems = Layout(vault_path).load_folder("memory")
    assert [m.id for m in memories] == [_id(5)]
    reasons = {p.path.relative_to(vault_path).as_posix(): p.reason for p in problems}
    assert "shard folder ff/" in reasons[f"memories/ff/{_id(6)}.json"]
    assert "symbolic link" in reasons["memories/07"]


def test_a_layout_this_memvault_does_not_know_refuses_writes_but_reads(vault_path):
    vault = Vault.open(vault_path)
    memory = vault.save(_memory(8))
    meta = json.loads((vault_path / ".meta.json").read_text())
    (vault_path / ".meta.json").write_text(json.dumps({**meta, "layout": "deep"}))
    vault = Vault.open(vault_path, readonly=True)
    assert set(vault.memories) == {memory.id}
    with pytest.raises(UnknownLayoutError, match="'deep'"):
        Vault.open(vault_path).touch(memory.id)
    assert _files(vault) == [f"memories/{memory.id}.json"]


def test_another_process_that_migrated_is_caught_up_with(vault_path, consistent):
    first = Vault.open(vault_path)
    ids = [first.save(_memory(n)).id for n in (0x10, 0x20)]
    other = Vault.open(vault_path)
    other.migrate_layout("sharded")
    assert first.refresh()
    assert set(first.memories) == set(ids)  # removals are reloaded before the new paths
    first.touch(ids[0])
    assert _files(first) == sorted(f"memories/{i[:2]}/{i}.json" for i in ids)
    consistent(first)


def test_a_use_record_of_a_memory_at_the_other_layouts_path_moves_it_in_one_commit(
        vault_path, consistent):
    vault = Vault.open(vault_path)
    memory = vault.save(_memory(9))
    vault.migrate_layout("sharded")
    sharded = vault.layout.memory_path(memory.id)
    run_git(vault_path, "mv", str(sharded), str(vault.layout.memory_path(memory.id, "flat")))
    run_git(vault_path, "-c", "user.name=p", "-c", "user.email=p@x", "commit", "-qm", "by hand")
    vault = Vault.open(vault_path)
    vault.record_use([memory.id])  # would leave two files if written without a commit
    assert _files(vault) == [f"memories/09/{memory.id}.json"]
    assert vault.memories[memory.id].use_count == 1
    consistent(vault)
