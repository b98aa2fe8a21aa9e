"""The MCP memory server's file <-> the vault (core.io.mcp_memory, core.io.mcp_memory_export,
core.io.foreign_import): the file the real server wrote (tests/fixtures/mcp-memory), one memory
per entity, relations between them, export back to the same graph, and the bad input: cut
lines, invalid JSON, non-finite numbers, duplicate names, dangling relations, a secret, a big
file read in bounded memory."""

from __future__ import annotations

import json
import shutil
import tracemalloc
from pathlib import Path

import pytest

from vault_support import FIXTURES
from core import VaultError
from core.io.foreign_import import ImportRefusedError, import_snapshot
from core.io.mcp_memory import (
    entity_id,
    observations_of,
    read_mcp_memory,
    render,
)
from core.io.mcp_memory_export import export_mcp_memory
from core.secrets.policy import SecretRefusedError
from migrate_support import assert_consistent

FIXTURE = FIXTURES / "mcp-memory" / "memory.jsonl"
NOW = 1_790_000_000


def graph_of(path: Path) -> tuple[dict[str, tuple[str, list[str]]], set[tuple[str, str, str]]]:
    """The graph a file holds, read as the server's loadGraph reads it (entities by name)."""
    entities, relations = {}, set()
    for line in path.read_text(encoding="utf-8").split("\n"):
        if not line.strip():
            continue
        item = json.loads(line)
        if item["type"] == "entity":
            entities[item["name"]] = (item["entityType"], item["observations"])
        elif item["type"] == "relation":
            relations.add((item["from"], item["relationType"], item["to"]))
    return entities, relations


def write_lines(path: Path, lines: list) -> Path:
    path.write_text("\n".join(line if isinstance(line, str) else json.dumps(line)
                              for line in lines), encoding="utf-8")
    return path


def entity(name: str, kind: str = "person", *observations: str) -> dict:
    return {"type": "entity", "name": name, "entityType": kind, "observations": list(observations)}


def relation(a: str, b: str, kind: str = "knows") -> dict:
    return {"type": "relation", "from": a, "to": b, "relationType": kind}


def test_the_servers_file_maps_to_one_memory_per_entity(vault):
    report = import_snapshot(vault, read_mcp_memory(FIXTURE, now=NOW))
    assert (report.memories, report.relations, report.problems) == (5, 5, [])
    ada = vault.memories[entity_id("Ada_Lovelace")]
    assert ada.content == ("Ada_Lovelace (person)\n- Prefers tea over coffee\n"
                           "- Works on the analytical engine notes")
    assert ada.entities == ["Ada_Lovelace"] and ada.meta.tags == ["person"]
    assert ada.meta.extra["mcp_memory"] == {"name": "Ada_Lovelace", "entityType": "person"}
    assert ada.created_at == ada.last_used == NOW  # the file has no times: the import's
    assert report.import_time == 5
    loom = vault.memories[entity_id("Jacquard loom")]
    assert observations_of(loom.content) == ["Weaves patterns from a chain of cards\n"
                                             "with one card a row"]
    london = vault.memories[entity_id("London")]
    assert london.content == "London (place)" and observations_of(london.content) == []
    ends = {(vault.memories[r.from_memory_id].entities[0], r.relation_type,
             vault.memories[r.to_memory_id].entities[0]) for r in vault.relations.values()}
    assert ends == graph_of(FIXTURE)[1]
    assert_consistent(vault)


def test_one_commit_with_the_source_backed_up_and_a_rerun_changes_nothing(vault, tmp_path):
    source = shutil.copyfile(FIXTURE, tmp_path / "memory.jsonl")
    before = vault.head
    report = import_snapshot(vault, read_mcp_memory(source, now=NOW), now=NOW)
    assert report.commit and vault.head == report.commit
    assert vault.journal.repo.git.rev_list("--count", f"{before}..HEAD") == "1"
    backup = vault.root / report.backup / "memory.jsonl"
    assert backup.read_bytes() == FIXTURE.read_bytes()
    assert vault.meta["imports"][-1]["format"] == "mcp-memory"
    again = import_snapshot(vault, read_mcp_memory(source, now=NOW + 500))
    assert again.already_imported and again.commit is None and vault.head == report.commit
    forced = import_snapshot(vault, read_mcp_memory(source, now=NOW + 500), force=True)
    assert not forced.changed and forced.unchanged_memories == 5  # import time kept
    assert vault.head == report.commit


def test_a_changed_source_writes_only_what_differs_and_keeps_what_it_does_not_state(vault,
                                                                                      tmp_path):
    source = write_lines(tmp_path / "m.jsonl", [entity("Bo", "person", "likes jazz"),
                                               entity("Cy", "person", "plays chess")])
    import_snapshot(vault, read_mcp_memory(source, now=NOW))
    vault.touch(entity_id("Bo"))
    used = vault.memories[entity_id("Bo")]
    write_lines(source, [entity("Bo", "person", "likes jazz", "hates noise"),
                         entity("Cy", "person", "plays chess")])
    report = import_snapshot(vault, read_mcp_memory(source, now=NOW + 99))
    assert report.updated_memories == [entity_id("Bo")] and report.unchanged_memories == 1
    bo = vault.memories[entity_id("Bo")]
    assert observations_of(bo.content) == ["likes jazz", "hates noise"]
    assert (bo.use_count, bo.last_used, bo.created_at) == (used.use_count, used.last_used, NOW)


def test_export_gives_the_same_graph_and_reimport_the_same_memories(vault, tmp_path):
    import_snapshot(vault, read_mcp_memory(FIXTURE, now=NOW))
    out = tmp_path / "out" / "memory.jsonl"
    report = export_mcp_memory(vault, out)
    assert graph_of(out) == graph_of(FIXTURE)
    assert (report.entities, report.relations, report.renamed) == (5, 5, {})
    assert (out.stat().st_mode & 0o777) == 0o600
    from core import Vault

    other = Vault.open(tmp_path / "other")
    import_snapshot(other, read_mcp_memory(out, now=NOW))
    assert {m.id: m.content for m in other.memories.values()} == \
        {m.id: m.content for m in vault.memories.values()}
    assert set(other.relations) == set(vault.relations)


def test_export_writes_edits_and_memories_of_other_origins(vault, tmp_path):
    import_snapshot(vault, read_mcp_memory(FIXTURE, now=NOW))
    ada = entity_id("Ada_Lovelace")
    vault.update(ada, content=vault.memories[ada].content + "\n- Writes poetry")
    note = vault.add("Deploys go out on Tuesdays\nafter the standup")
    vault.relate(note.id, ada, "related")
    out = tmp_path / "memory.jsonl"
    report = export_mcp_memory(vault, out)
    entities, relations = graph_of(out)
    assert entities["Ada_Lovelace"][1][-1] == "Writes poetry"
    assert entities["Deploys go out on Tuesdays"] == ("memory", [note.content])
    assert ("Deploys go out on Tuesdays", "related", "Ada_Lovelace") in relations
    assert report.renamed == {note.id: "Deploys go out on Tuesdays"}
    with pytest.raises(VaultError, match="exists"):
        export_mcp_memory(vault, out)
    export_mcp_memory(vault, out, force=True)


def test_render_and_read_back_any_observation():
    observations = ["plain", "", "  indented", "two\nlines", "- looks like a bullet",
                    "trailing  ", "a\n- b\n  c"]
    assert observations_of(render("N", "t", observations)) == observations
    assert observations_of("Header\nfree text added by hand\n- x") == \
        ["free text added by hand", "x"]
    assert render("a\nname", "", []) == "a name"


def test_a_cut_line_refuses_the_import_with_its_number_and_nothing_is_written(vault, tmp_path):
    source = write_lines(tmp_path / "m.jsonl", [entity("Bo"), entity("Cy"),
                                               '{"type":"entity","name":"Dee","entityT',
                                               relation("Bo", "Cy")])
    head = vault.head
    snap = read_mcp_memory(source, now=NOW)
    assert [(p.line, p.message.split(":")[0]) for p in snap.problems] == \
        [(3, "cut short, not JSON")]
    with pytest.raises(ImportRefusedError, match=r"m\.jsonl:3: cut short") as refused:
        import_snapshot(vault, snap)
    assert refused.value.report.refused
    assert vault.head == head and vault.memories == {}
    report = import_snapshot(vault, read_mcp_memory(source, now=NOW), skip_bad=True)
    assert report.skipped_bad and len(vault.memories) == 2 and len(vault.relations) == 1
    assert "1 bad record skipped" in vault.journal.repo.head.commit.message


@pytest.mark.parametrize("line, why", [
    ("not json at all", "not JSON"),
    ('["an", "array"]', "not a JSON object but list"),
    ('{"type":"entity","name":"X","entityType":"t","observations":[NaN]}',
     "NaN is not a number JSON allows"),
    ('{"type":"entity","name":"X","entityType":"t","observations":[],"w":1e999}',
     "not finite at w"),
    ('{"type":"entity","entityType":"t","observations":[]}', "without a text 'name'"),
    ('{"type":"entity","name":"X","entityType":"t","observations":"one"}', "not a list"),
    ('{"type":"relation","from":"a","relationType":"r"}', "without a text 'to'"),
    (b'{"type":"entity","name":"\xff","entityType":"t"}', "not UTF-8"),
])
def test_each_bad_line_is_reported_with_its_number(tmp_path, line, why):
    path = tmp_path / "m.jsonl"
    body = json.dumps(entity("Ok")).encode() + b"\n\n"
    path.write_bytes(body + (line if isinstance(line, bytes) else line.encode()) + b"\n")
    snap = read_mcp_memory(path, now=NOW)
    assert [p.line for p in snap.problems] == [3]
    assert why in snap.problems[0].message
    assert list(snap.memories) == [entity_id("Ok")]


def test_duplicate_names_and_relations_are_merged_with_a_note(tmp_path):
    source = write_lines(tmp_path / "m.jsonl", [
        entity("Bo", "person", "a", "b"), entity("Bo", "robot", "b", "c"),
        relation("Bo", "Bo", "self"), relation("Bo", "Bo", "self"),
        {"type": "comment", "text": "x"}])
    snap = read_mcp_memory(source, now=NOW)
    assert snap.problems == []
    bo = snap.memories[entity_id("Bo")]
    assert observations_of(bo.content) == ["a", "b", "c"] and bo.meta.tags == ["person"]
    notes = [(n.line, n.message) for n in snap.notes]
    assert notes[0][0] == 2 and "repeats line 1" in notes[0][1] and "'robot' differs" in \
        notes[0][1]
    assert notes[1][0] == 4 and "kept once" in notes[1][1]
    assert notes[2][0] == 5 and "left out" in notes[2][1]
    assert len(snap.relations) == 1


def test_relations_to_missing_entities_are_kept_dangling_and_said(vault, tmp_path):
    source = write_lines(tmp_path / "m.jsonl", [entity("Bo"), relation("Bo", "Nobody")])
    report = import_snapshot(vault, read_mcp_memory(source, now=NOW))
    (rid, why), = report.dangling.items()
    assert "'Nobody' is no entity of the file; kept dangling" in why and "m.jsonl:2" in why
    kept = vault.relations[rid]
    assert kept.to_memory_id == entity_id("Nobody")  # where that entity would land
    assert "1 dangling relation kept" in vault.journal.repo.head.commit.message
    out = tmp_path / "out.jsonl"
    assert export_mcp_memory(vault, out).dangling == [rid]
    assert graph_of(out)[1] == {("Bo", "knows", "Nobody")}
    # the entity arriving later links the relation up
    write_lines(source, [entity("Bo"), entity("Nobody"), relation("Bo", "Nobody")])
    assert import_snapshot(vault, read_mcp_memory(source, now=NOW)).dangling == {}


def test_a_secret_is_refused_named_and_nothing_written(vault, tmp_path):
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    source = write_lines(tmp_path / "m.jsonl", [entity("Bo", "person", f"deploy key {token}")])
    head = vault.head
    with pytest.raises(SecretRefusedError, match="github-token") as refused:
        import_snapshot(vault, read_mcp_memory(source, now=NOW))
    assert f"memory {entity_id('Bo')[:8]}" in str(refused.value)
    assert vault.head == head and vault.memories == {}
    assert not (vault.root / ".backup").exists()
    dry = import_snapshot(vault, read_mcp_memory(source, now=NOW), dry_run=True)
    assert dry.secrets == [f"memory {entity_id('Bo')[:8]} (github-token)"]


def test_a_dry_run_writes_nothing_and_needs_no_vault(vault):
    report = import_snapshot(None, read_mcp_memory(FIXTURE, now=NOW), dry_run=True)
    assert len(report.new_memories) == 5 and report.commit is None and report.backup
    head = vault.head
    report = import_snapshot(vault, read_mcp_memory(FIXTURE, now=NOW), dry_run=True)
    assert vault.head == head and vault.memories == {} and len(report.new_relations) == 5


def test_a_big_file_is_read_line_by_line(tmp_path):
    """About 24 MB of lines (one entity repeated, merged into one memory): reading it holds a
    line at a time, never the file."""
    path = tmp_path / "big.jsonl"
    line = (json.dumps(entity("Bo", "person", "x" * 2000)) + "\n").encode()
    with open(path, "wb") as f:
        for _ in range(12_000):
            f.write(line)
    tracemalloc.start()
    try:
        snap = read_mcp_memory(path, now=NOW)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(snap.memories) == 1 and len(snap.notes) == 11_999
    assert path.stat().st_size > 20_000_000 and peak < path.stat().st_size // 4, peak


def test_no_file_is_a_clear_error(tmp_path):
    with pytest.raises(VaultError, match="no file"):
        read_mcp_memory(tmp_path / "missing.jsonl")


def test_progress_is_reported_while_reading_and_committing(vault, tmp_path):
    path = write_lines(tmp_path / "m.jsonl", [entity(f"E{n}") for n in range(2500)])
    seen: list[tuple[str, int, int]] = []
    snap = read_mcp_memory(path, lambda *step: seen.append(step), now=NOW)
    import_snapshot(vault, snap, progress=lambda *step: seen.append(step))
    size = path.stat().st_size
    reads = [s for s in seen if s[0] == "read"]
    assert len(reads) == 3 and reads[-1] == ("read", size, size)
    assert [s[1] for s in reads] == sorted(s[1] for s in reads)
    assert seen[-2:] == [("commit", 0, 1), ("commit", 1, 1)]
