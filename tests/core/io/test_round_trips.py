"""Export then import changes nothing (core.io.kept_fields with the three exports: CortexGraph
JSONL, the MCP memory server's file, a basic-memory folder): a generated vault, written out
and read into an empty vault, gives the same memories, field for field (content, gist, tags,
status, strength, times, counts, meta), and the same relations, dangling ones included; what a
format cannot hold is named in the export's report and kept beside it."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import Memory, MemoryMetadata, MemoryStatus, Vault, VaultError
from core.io.basic_memory import read_basic_memory
from core.io.basic_memory_export import export_basic_memory
from core.io.export import export_jsonl
from core.io.foreign_import import ImportRefusedError, import_snapshot
from core.io.mcp_memory import read_mcp_memory
from core.io.mcp_memory_export import export_mcp_memory
from core.io.migrate import migrate_jsonl
from core.model.records import Relation
from core.vault import Plan

WORDS = ["shellfish", "allergic", "atlas", "plan", "tea", "[[Atlas]]", "- item", "#tag", "`code`",
         "Ünïcode", "  indented", "- [fact] an observation", "- related [[Plan]]", "---", "é",
         "trailing  ", "tab\there", "cr\r", "\x1b[31mred", "{\"json\": 1}", "a: b"]
EPOCH = st.integers(1_500_000_000, 1_900_000_000)


def _text(draw: st.DrawFn) -> str:
    lines = draw(st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=4)
                          .map(" ".join), min_size=1, max_size=3))
    return "\n".join(lines)


@st.composite
def memories(draw: st.DrawFn, n: int) -> Memory:
    """One memory of every kind of origin: memvault's own, the MCP memory server's, a
    basic-memory note's."""
    origin = draw(st.sampled_from(["own", "own", "mcp", "basic"]))
    created = draw(EPOCH)
    extra: dict = {}
    content = _text(draw)
    if origin == "mcp":
        extra = {"mcp_memory": {"name": f"Entity {n}", "entityType": "person"}}
        content = f"Entity {n} (person)\n- " + content.replace("\n", "\n- ")
    elif origin == "basic":
        extra = {"basic_memory": {"path": f"notes/n{n}.md", "frontmatter": {
            "title": f"Note {n}", "type": draw(st.sampled_from(["note", "plan"])),
            "permalink": f"notes/n{n}", "tags": ["atlas", "plan"]}}}
    if draw(st.booleans()):
        extra["pinned"] = True
    return Memory(
        id=f"{n:08d}-0000-4000-8000-000000000000", content=content,
        gist=draw(st.none() | st.just("a gist")),
        meta=MemoryMetadata(tags=draw(st.lists(st.sampled_from(["health", "plan", "atlas",
                                                                  "memory", "x y"]),
                                               unique=True, max_size=3)),
                            source=draw(st.none() | st.just("cli")), extra=extra),
        created_at=created, last_used=created + draw(st.integers(0, 10**6)),
        use_count=draw(st.integers(0, 9)), strength=draw(st.sampled_from([1.0, 1.5, 0.25])),
        status=draw(st.sampled_from(list(MemoryStatus))), entities=draw(st.lists(
            st.sampled_from(["Ada", "Bob"]), unique=True, max_size=2)))


@st.composite
def vaults(draw: st.DrawFn) -> tuple[list[Memory], list[Relation]]:
    """Memories and relations between them, some to a memory the vault lacks."""
    count = draw(st.integers(1, 5))
    found = [draw(memories(n)) for n in range(count)]
    ids = [m.id for m in found] + ["ffffffff-0000-4000-8000-000000000000"]
    relations = []
    for n in range(draw(st.integers(0, 4))):
        source = draw(st.sampled_from(ids[:-1]))
        relations.append(Relation(
            id=f"{n:08d}-1111-4000-8000-000000000000", from_memory_id=source,
            to_memory_id=draw(st.sampled_from(ids)),
            relation_type=draw(st.sampled_from(["related", "supports", "consolidated_from"])),
            strength=draw(st.sampled_from([1.0, 0.5])), created_at=draw(EPOCH),
            metadata=draw(st.sampled_from([{}, {"why": "because"}]))))
    return found, relations


def _export_import(fmt: str, vault: Vault, where: Path) -> Vault:
    other = Vault.open(where / "other")
    if fmt == "jsonl":
        export_jsonl(vault, where / "out")
        migrate_jsonl(other, where / "out")
    elif fmt == "mcp-memory":
        report = export_mcp_memory(vault, where / "memory.jsonl")
        assert "times" in report.kept_fields and report.kept_file.endswith(".memvault.json")
        import_snapshot(other, read_mcp_memory(where / "memory.jsonl"))
    else:
        export_basic_memory(vault, where / "notes")
        for note in (where / "notes").rglob("*.md"):
            assert note.read_text("utf-8").endswith("\n") or "notes/" in note.as_posix()
        import_snapshot(other, read_basic_memory(where / "notes"))
    return other


def _records(vault: Vault) -> tuple[dict, dict]:
    return ({k: m.model_dump(mode="json") for k, m in vault.memories.items()},
            {k: r.model_dump(mode="json") for k, r in vault.relations.items()})


@pytest.mark.parametrize("fmt", ["jsonl", "mcp-memory", "basic-memory"])
@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(generated=vaults())
def test_export_then_import_gives_the_same_memories(fmt, generated):
    found, relations = generated
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        vault = Vault.open(where / "vault")
        vault.apply(Plan("put: generated", put_memories=found, put_relations=relations))
        other = _export_import(fmt, vault, where)
        assert _records(other) == _records(vault)


def _small_vault(tmp_path: Path) -> tuple[Vault, Memory, Memory]:
    vault = Vault.open(tmp_path / "vault")
    allergy = vault.add("Is allergic to shellfish", tags=["health"])
    plan = vault.add("Atlas plan\nship in May", tags=["atlas"])
    vault.archive(allergy.id)
    vault.relate(allergy.id, plan.id, "related")
    return vault, vault.memories[allergy.id], vault.memories[plan.id]


def test_a_memory_from_elsewhere_comes_back_as_it_was_from_the_mcp_memory_server(tmp_path):
    vault, allergy, _ = _small_vault(tmp_path)
    report = export_mcp_memory(vault, tmp_path / "memory.jsonl")
    assert {"status", "tags", "times"} <= set(report.kept_fields)
    assert (tmp_path / "memory.jsonl.memvault.json").is_file()
    other = Vault.open(tmp_path / "other")
    import_snapshot(other, read_mcp_memory(tmp_path / "memory.jsonl"))
    back = other.memories[allergy.id]
    assert back.content == "Is allergic to shellfish"
    assert back.meta.tags == ["health"] and back.status == MemoryStatus.ARCHIVED
    assert _records(other) == _records(vault)


def test_an_entity_changed_by_the_server_keeps_its_change_and_the_rest(tmp_path):
    vault, allergy, _ = _small_vault(tmp_path)
    export_mcp_memory(vault, tmp_path / "memory.jsonl")
    lines = (tmp_path / "memory.jsonl").read_text("utf-8").split("\n")
    at = next(n for n, line in enumerate(lines) if "Is allergic" in line)
    entity = json.loads(lines[at])
    entity["observations"].append("Carries an epipen")  # add_observations, by the server
    lines[at] = json.dumps(entity)
    (tmp_path / "memory.jsonl").write_text("\n".join(lines), "utf-8")
    other = Vault.open(tmp_path / "other")
    import_snapshot(other, read_mcp_memory(tmp_path / "memory.jsonl"))
    back = other.memories[allergy.id]
    assert back.content.endswith("- Carries an epipen")
    assert back.status == MemoryStatus.ARCHIVED and back.meta.tags == ["health"]


def test_a_basic_memory_note_comes_back_without_a_memory_tag_or_relation_lines(tmp_path):
    vault, allergy, plan = _small_vault(tmp_path)
    export_basic_memory(vault, tmp_path / "notes")
    text = (tmp_path / "notes" / "memvault" / "Is allergic to shellfish.md").read_text("utf-8")
    assert text.endswith("- related [[Atlas plan]]\n")  # basic-memory sees the relation
    other = Vault.open(tmp_path / "other")
    import_snapshot(other, read_basic_memory(tmp_path / "notes"))
    back = other.memories[allergy.id]
    assert back.meta.tags == ["health"] and back.status == MemoryStatus.ARCHIVED
    assert back.content == "Is allergic to shellfish"
    assert other.memories[plan.id].meta.tags == ["atlas"]


def test_a_note_edited_in_basic_memory_keeps_the_edit_and_the_rest(tmp_path):
    vault, allergy, plan = _small_vault(tmp_path)
    vault.apply(Plan("put: a gist", put_memories=[allergy.model_copy(update={"gist": "g"})]))
    export_basic_memory(vault, tmp_path / "notes")
    path = tmp_path / "notes" / "memvault" / "Is allergic to shellfish.md"
    text = path.read_text("utf-8").replace("- health\n", "- health\n- food\n")
    path.write_text(text.replace("Is allergic to shellfish\n\n", "Is allergic to all shellfish"
                                 "\n\n"), "utf-8")
    other = Vault.open(tmp_path / "other")
    import_snapshot(other, read_basic_memory(tmp_path / "notes"))
    back = other.memories[allergy.id]
    assert back.content.startswith("Is allergic to all shellfish\n")
    assert back.meta.tags == ["health", "food"] and back.status == MemoryStatus.ARCHIVED
    assert back.gist is None  # it summed up the content as it was
    assert set(other.relations) == set(vault.relations)


def test_a_dangling_relation_is_never_written_as_a_uuid_link(tmp_path):
    vault, allergy, _ = _small_vault(tmp_path)
    gone = "ffffffff-0000-4000-8000-000000000000"
    vault.apply(Plan("put: dangling", put_relations=[Relation(
        id="eeeeeeee-0000-4000-8000-000000000000", from_memory_id=allergy.id,
        to_memory_id=gone, relation_type="consolidated_from")]))
    export_basic_memory(vault, tmp_path / "notes")
    report = export_mcp_memory(vault, tmp_path / "memory.jsonl")
    assert report.kept_beside == ["eeeeeeee-0000-4000-8000-000000000000"]
    for path in [tmp_path / "memory.jsonl", *(tmp_path / "notes").rglob("*.md")]:
        assert gone not in path.read_text("utf-8"), path
    for read in (read_mcp_memory(tmp_path / "memory.jsonl"),
                 read_basic_memory(tmp_path / "notes")):
        assert read.relations["eeeeeeee-0000-4000-8000-000000000000"].to_memory_id == gone


def test_a_note_typed_plan_and_tagged_plan_keeps_its_plan_tag(tmp_path):
    source = tmp_path / "source"
    (source).mkdir()
    note = "---\ntitle: Atlas\ntype: plan\npermalink: atlas\ntags:\n- atlas\n- plan\n---\n\nShip it"
    (source / "atlas.md").write_text(note, "utf-8")
    vault = Vault.open(tmp_path / "vault")
    import_snapshot(vault, read_basic_memory(source))
    export_basic_memory(vault, tmp_path / "out")
    assert (tmp_path / "out" / "atlas.md").read_text("utf-8") == note


def test_a_kept_file_that_is_not_memvaults_refuses_the_import_and_writes_nothing(tmp_path):
    vault, _, _ = _small_vault(tmp_path)
    export_mcp_memory(vault, tmp_path / "memory.jsonl")
    (tmp_path / "memory.jsonl.memvault.json").write_text('{"memories": [1]}', "utf-8")
    other = Vault.open(tmp_path / "other")
    head = other.head
    with pytest.raises(ImportRefusedError, match="memory.jsonl.memvault.json.*not a file of kept"):
        import_snapshot(other, read_mcp_memory(tmp_path / "memory.jsonl"))
    assert other.head == head and other.memories == {}
    shutil.rmtree(tmp_path / "notes", ignore_errors=True)
    export_basic_memory(vault, tmp_path / "notes")
    with pytest.raises(VaultError, match="exists"):
        export_basic_memory(vault, tmp_path / "notes")


def test_an_export_read_back_into_its_own_vault_changes_nothing(tmp_path):
    vault, _, _ = _small_vault(tmp_path)
    head = vault.head
    export_mcp_memory(vault, tmp_path / "memory.jsonl")
    export_basic_memory(vault, tmp_path / "notes")
    for snap in (read_mcp_memory(tmp_path / "memory.jsonl"),
                 read_basic_memory(tmp_path / "notes")):
        report = import_snapshot(vault, snap)
        assert not report.changed and report.commit is None
        assert (report.unchanged_memories, report.unchanged_relations) == (2, 1)
    assert vault.head == head


def test_a_note_from_basic_memory_edited_there_keeps_its_new_front_matter(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    (source / "atlas.md").write_text("---\ntitle: Atlas\npermalink: atlas\n---\n\nShip it\n",
                                     "utf-8")
    vault = Vault.open(tmp_path / "vault")
    import_snapshot(vault, read_basic_memory(source))
    (mid,) = vault.memories
    vault.pin(mid)
    vault.archive(mid)
    export_basic_memory(vault, tmp_path / "notes")
    note = tmp_path / "notes" / "atlas.md"
    note.write_text(note.read_text("utf-8").replace("title: Atlas", "title: Atlas v2"), "utf-8")
    other = Vault.open(tmp_path / "other")
    import_snapshot(other, read_basic_memory(tmp_path / "notes"))
    back = other.memories[mid]
    assert back.meta.extra["basic_memory"]["frontmatter"]["title"] == "Atlas v2"
    assert back.meta.extra["pinned"] is True and back.status == MemoryStatus.ARCHIVED
    export_basic_memory(other, tmp_path / "again")
    assert (tmp_path / "again" / "atlas.md").read_text("utf-8") == note.read_text("utf-8")
