"""The vault as CortexGraph 1.2.1 JSONL (core.io.export): every key, nulls included, one object a
line; what CortexGraph would load from it equals what it loaded from the original store; and
migrate -> export -> migrate round-trips. (The suite does not need CortexGraph installed: the
export is read back with CortexGraph's replay rules through core.io.migrate, and checked against
CortexGraph's record keys and statuses.)"""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest

from core import LINEAGE_RELATION_TYPES, MemoryStatus, Vault, VaultError
from core.io.export import export_jsonl
from core.io.markdown_import import import_markdown
from core.io.migrate import MEMORY_KEYS, META_KEYS, RELATION_KEYS, migrate_jsonl, vault_id
from migrate_support import memory_line, relation_line, tombstone, write_store

from vault_support import FIXTURES  # noqa: E402  (tests/fixtures, wherever this test lives)

FIXTURE = FIXTURES / "cortexgraph-v1"
CORTEXGRAPH_STATUSES = {"active", "promoted", "archived"}


@pytest.fixture
def migrated(tmp_path: Path) -> Vault:
    source = tmp_path / "cortexgraph"
    source.mkdir()
    for name in ("memories.jsonl", "relations.jsonl"):
        shutil.copyfile(FIXTURE / name, source / name)
    vault = Vault.open(tmp_path / "vault")
    migrate_jsonl(vault, source)
    return vault


def read_lines(path: Path) -> list[dict]:
    text = path.read_text("utf-8")
    assert text.endswith("\n") or text == ""
    lines = text.splitlines()
    records = [json.loads(line) for line in lines]
    assert all(isinstance(r, dict) for r in records)
    return records


def dump(vault: Vault) -> tuple[dict, dict]:
    return ({k: m.model_dump(mode="json") for k, m in vault.memories.items()},
            {k: r.model_dump(mode="json") for k, r in vault.relations.items()})


def test_every_key_one_object_a_line(migrated, tmp_path):
    out = tmp_path / "out"
    report = export_jsonl(migrated, out)
    # 105 in the source, less the 65 relations of deleted memories that are not lineage (the
    # one rule for relations when a memory goes: left out by the migration)
    assert report.memories == 45 and report.relations == 40
    memories = read_lines(out / "memories.jsonl")
    relations = read_lines(out / "relations.jsonl")
    assert len(memories) == 45 and len(relations) == 40
    for record in memories:
        assert list(record)[: len(MEMORY_KEYS)] == list(MEMORY_KEYS)  # CortexGraph's order
        assert list(record["meta"])[: len(META_KEYS)] == list(META_KEYS)
        assert "gist" in record  # memvault's own key, null included
        assert record["status"] in CORTEXGRAPH_STATUSES
    assert any(r["promoted_at"] is None for r in memories)  # nulls written, not dropped
    for record in relations:
        assert list(record) == list(RELATION_KEYS)
    created = [(r["created_at"], r["id"]) for r in memories]
    assert created == sorted(created)
    for name in ("memories.jsonl", "relations.jsonl"):
        assert stat.S_IMODE(os.stat(out / name).st_mode) == 0o600


def test_what_cortexgraph_loads_back_equals_its_original(migrated, tmp_path,
                                                         cortexgraph_expected):
    out = tmp_path / "out"
    export_jsonl(migrated, out)
    by_id = {r["id"]: r for r in read_lines(out / "memories.jsonl")}
    rel_by_id = {r["id"]: r for r in read_lines(out / "relations.jsonl")}
    assert set(by_id) == set(cortexgraph_expected["memories"])
    for mid, record in cortexgraph_expected["memories"].items():
        for key, value in record.items():  # CortexGraph ignores the extra gist key
            assert by_id[mid][key] == value, (mid, key)
    # every relation CortexGraph has, but those of its deleted memories that are not lineage
    # (they went with their memory, by memvault's one rule; the migration's backup keeps them)
    living = set(cortexgraph_expected["memories"])
    assert rel_by_id == {i: r for i, r in cortexgraph_expected["relations"].items()
                         if r["relation_type"] in LINEAGE_RELATION_TYPES
                         or {r["from_memory_id"], r["to_memory_id"]} <= living}


def test_migrate_export_migrate_round_trips(migrated, tmp_path):
    out = tmp_path / "out"
    export_jsonl(migrated, out)
    second = Vault.open(tmp_path / "second")
    report = migrate_jsonl(second, out)
    assert report.problems == [] and report.notes == []
    assert dump(second) == dump(migrated)
    again = tmp_path / "again"
    export_jsonl(second, again)
    for name in ("memories.jsonl", "relations.jsonl"):
        assert (again / name).read_bytes() == (out / name).read_bytes()


def test_superseded_and_remapped_ids_survive_the_round_trip(tmp_path):
    src = write_store(tmp_path / "src", [
        memory_line("plain", gist="a gist"),
        memory_line("notes/a", meta={"tags": ["x"], "source": None, "context": None,
                                     "extra": {"n": 1}}),
        memory_line("gone"), tombstone("gone"),
    ], [relation_line("r/1", "notes/a", "plain"), relation_line("r2", "plain", "dir/b")])
    vault = Vault.open(tmp_path / "vault")
    migrate_jsonl(vault, src)
    vault.update("plain", status=MemoryStatus.SUPERSEDED)
    out = tmp_path / "out"
    report = export_jsonl(vault, out)
    memories = {r["id"]: r for r in read_lines(out / "memories.jsonl")}
    relations = {r["id"]: r for r in read_lines(out / "relations.jsonl")}
    # CortexGraph gets its own ids back, and a status it knows
    assert set(memories) == {"plain", "notes/a"}
    assert memories["notes/a"]["meta"]["extra"] == {"n": 1}
    assert memories["plain"]["status"] == "archived"
    assert memories["plain"]["meta"]["extra"] == {"memvault_status": "superseded"}
    assert set(relations) == {"r/1", "r2"}
    assert relations["r/1"]["from_memory_id"] == "notes/a"
    assert relations["r/1"]["metadata"] == {}
    assert relations["r2"]["to_memory_id"] == "dir/b"
    assert report.restored_ids == {vault_id("notes/a"): "notes/a"}
    assert report.status_kept_aside == ["plain"]
    # and memvault gets its records back exactly
    second = Vault.open(tmp_path / "second")
    migrate_jsonl(second, out)
    assert dump(second) == dump(vault)
    assert second.memories["plain"].status == MemoryStatus.SUPERSEDED
    assert second.memories["plain"].gist == "a gist"


def test_markdown_imported_vault_exports_and_round_trips(tmp_path):
    md = tmp_path / "md"
    (md / "memory").mkdir(parents=True)
    (md / "memory" / "2026-01-29.md").write_text(
        "## 14:30 - Auth\n\nJWT it is.\n\n<!--\nid: mem_a\nimportance: 0.75\n"
        "links: [{to: mem_b, type: alternative_to, weight: 0.8}]\n"
        "episode: {task: auth, outcome: decision}\n-->\n\nTags: #auth\n\n"
        "## 15:00 - Sessions\n\nSession tokens.\n\n<!--\nid: mem_b\nsuperseded_by: mem_a\n-->\n")
    vault = Vault.open(tmp_path / "vault")
    import_markdown(vault, md)
    out = tmp_path / "out"
    export_jsonl(vault, out)
    assert all(r["status"] in CORTEXGRAPH_STATUSES for r in read_lines(out / "memories.jsonl"))
    second = Vault.open(tmp_path / "second")
    migrate_jsonl(second, out)
    assert dump(second) == dump(vault)


def test_existing_files_are_refused_unless_forced(migrated, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "memories.jsonl").write_text('{"id": "precious", "content": "x"}\n')
    with pytest.raises(VaultError, match="exists"):
        export_jsonl(migrated, out)
    assert (out / "memories.jsonl").read_text() == '{"id": "precious", "content": "x"}\n'
    assert not (out / "relations.jsonl").exists()
    export_jsonl(migrated, out, force=True)
    assert len(read_lines(out / "memories.jsonl")) == 45
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "memories.jsonl").write_text("")  # an empty file is fine
    export_jsonl(migrated, tmp_path / "empty")


def test_an_empty_vault_exports_empty_files(vault, tmp_path):
    report = export_jsonl(vault, tmp_path / "nested" / "out")
    assert report.memories == 0
    assert (tmp_path / "nested" / "out" / "memories.jsonl").read_bytes() == b""
    assert (tmp_path / "nested" / "out" / "relations.jsonl").read_bytes() == b""
