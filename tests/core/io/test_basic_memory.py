"""A basic-memory project folder <-> the vault (core.io.basic_memory,
core.io.basic_memory_export): the notes basic-memory wrote (tests/fixtures/basic-memory/notes)
against what basic-memory's own parser read from them (expected_graph.json), one memory per
note, export back to the same files, and the bad input: broken front matter, duplicate
permalinks, dangling links, non-finite numbers, files that are not text."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from vault_support import FIXTURES
from core import Vault, VaultError
from core.io.basic_memory import links_in, note_id, read_basic_memory
from core.io.basic_memory_export import export_basic_memory
from core.io.foreign_import import ImportRefusedError, import_snapshot
from migrate_support import assert_consistent

NOTES = FIXTURES / "basic-memory" / "notes"
EXPECTED = json.loads((FIXTURES / "basic-memory" / "expected_graph.json").read_text("utf-8"))
NOW = 1_790_000_000


def copy_notes(tmp_path: Path) -> Path:
    return Path(shutil.copytree(NOTES, tmp_path / "notes"))


def note(folder: Path, rel: str, text: str) -> Path:
    path = folder / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_the_notes_map_to_one_memory_each_as_basic_memory_reads_them(vault):
    report = import_snapshot(vault, read_basic_memory(NOTES, now=NOW))
    assert report.problems == [] and report.memories == len(EXPECTED)
    by_title = {m.entities[0]: m for m in vault.memories.values()}
    for expected in EXPECTED:
        m = by_title[expected["title"]]
        assert m.id == note_id(expected["permalink"])
        kind = [expected["type"]] if expected["type"] != "note" else []
        assert m.meta.tags == expected["tags"] + kind
        assert m.meta.extra["basic_memory"]["path"] == expected["path"]
        for _category, text, _tags, _context in expected["observations"]:
            assert text in m.content  # observations stay in the text search reads
        mtime = int(os.stat(NOTES / expected["path"]).st_mtime)
        assert m.created_at == mtime and m.last_used == max(mtime, NOW)
        relations = {(r.relation_type, r.metadata["basic_memory"]["target"])
                     for r in vault.relations.values() if r.from_memory_id == m.id}
        assert relations == {(kind_, target) for kind_, target, _ in expected["relations"]}
    (rid, why), = report.dangling.items()
    assert "inspired_by [[Tea Ceremony]]" in why and "kept dangling" in why
    grinder = by_title["Burr Grinder"]
    links = {(vault.memories[r.from_memory_id].entities[0], r.relation_type)
             for r in vault.relations.values() if r.to_memory_id == grinder.id}
    assert links == {("Morning Routine", "depends_on"), ("Coffee Brewing Methods", "requires")}
    assert_consistent(vault)


def test_export_writes_the_same_files_back(vault, tmp_path):
    import_snapshot(vault, read_basic_memory(NOTES, now=NOW))
    out = tmp_path / "out"
    report = export_basic_memory(vault, out)
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.md"))
    assert written == sorted(e["path"] for e in EXPECTED)
    for rel in written:
        assert (out / rel).read_bytes() == (NOTES / rel).read_bytes(), rel
        assert ((out / rel).stat().st_mode & 0o777) == 0o600
    assert report.renamed == {} and len(report.dangling) == 1
    other = Vault.open(tmp_path / "other")
    import_snapshot(other, read_basic_memory(out, now=NOW))
    assert set(other.memories) == set(vault.memories)
    assert set(other.relations) == set(vault.relations)
    with pytest.raises(VaultError, match="exists"):
        export_basic_memory(vault, out)


def test_export_adds_relations_and_memories_from_elsewhere_as_notes(vault, tmp_path):
    import_snapshot(vault, read_basic_memory(NOTES, now=NOW))
    origins = note_id("main/coffee/coffee-origins")
    vault.tag(origins, tags=["beans"])
    mine = vault.add("Decaf after noon\nonly", tags=["coffee"])
    vault.relate(mine.id, origins, "related")
    vault.relate(origins, mine.id, "supports")
    out = tmp_path / "out"
    export_basic_memory(vault, out)
    origins_text = (out / "coffee" / "Coffee Origins.md").read_text("utf-8")
    assert "tags:\n- coffee\n- beans\n" in origins_text
    assert origins_text.endswith("\n\n- supports [[Decaf after noon]]")
    mine_text = (out / "memvault" / "Decaf after noon.md").read_text("utf-8")
    assert mine_text.startswith("---\ntitle: Decaf after noon\ntype: memory\n"
                                f"permalink: memvault/{mine.id}\ntags:\n- coffee\n")
    assert mine_text.endswith("Decaf after noon\nonly\n\n- related [[Coffee Origins]]\n")
    snap = read_basic_memory(out, now=NOW)
    titles = {mine.id: "Decaf after noon", origins: "Coffee Origins"}
    again = {(titles[r.from_memory_id], r.relation_type, titles[r.to_memory_id])
             for r in snap.relations.values()
             if {r.from_memory_id, r.to_memory_id} <= set(titles)}
    assert {("Decaf after noon", "related", "Coffee Origins"),
            ("Coffee Origins", "supports", "Decaf after noon")} <= again
    assert snap.memories[mine.id].model_dump() == vault.memories[mine.id].model_dump()


def test_links_in_a_body():
    body = ("- depends_on [[A]] (why)\n- [fact] not a relation #x\nsee [[B|the b]] and `[[C]]`\n"
            "```\n- part_of [[D]]\n```\n- links_to [[B]]")
    assert links_in(body) == [("depends_on", "A", "why"), ("links_to", "B", None)]


@pytest.mark.parametrize("text, line, why", [
    ("---\ntitle: X\ntags: [a, b\n---\nbody", 3, "not YAML"),
    ("---\ntitle: X\nbody without an end", 1, "never closed"),
    ("---\n- a\n- b\n---\nbody", 1, "not a mapping"),
    ("---\ntitle: X\nweight: .nan\n---\nbody", 1, "not finite in the front matter at weight"),
])
def test_broken_front_matter_is_a_bad_record(vault, tmp_path, text, line, why):
    folder = copy_notes(tmp_path)
    note(folder, "broken.md", text)
    snap = read_basic_memory(folder, now=NOW)
    (problem,) = snap.problems
    assert (problem.file, problem.line) == ("broken.md", line) and why in problem.message
    head = vault.head
    with pytest.raises(ImportRefusedError, match="broken.md"):
        import_snapshot(vault, snap)
    assert vault.head == head and vault.memories == {}
    report = import_snapshot(vault, read_basic_memory(folder, now=NOW), skip_bad=True)
    assert len(vault.memories) == len(EXPECTED) and report.skipped_bad
    assert "broken.md" in {Path(p).name for p in
                           (vault.root / report.backup).rglob("*.md")}  # backed up all the same


def test_not_text_and_duplicate_permalinks_and_hidden_folders(tmp_path):
    folder = tmp_path / "n"
    note(folder, "a.md", "---\ntitle: A\npermalink: same\n---\none")
    note(folder, "b.md", "---\ntitle: B\npermalink: same\n---\ntwo [[A]]")
    note(folder, ".basic-memory/cache.md", "ignored")
    (folder / "c.md").write_bytes(b"\xff\xfe bad")
    os.symlink(folder / "a.md", folder / "link.md")
    snap = read_basic_memory(folder, now=NOW)
    assert [(p.file, p.message.split(" (")[0]) for p in snap.problems] == [("c.md",
                                                                           "not UTF-8 text")]
    assert sorted(snap.files) == ["a.md", "b.md", "c.md"]
    (dup,) = snap.notes
    assert dup.file == "b.md" and "also a.md's" in dup.message
    assert note_id("same") in snap.memories and len(snap.memories) == 2
    (link,) = snap.relations.values()
    assert link.to_memory_id == note_id("same")  # the first note of that name


def test_an_empty_or_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(VaultError, match="no folder"):
        read_basic_memory(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(VaultError, match="no markdown note"):
        read_basic_memory(tmp_path / "empty")


def test_front_matter_times_are_kept(tmp_path):
    folder = tmp_path / "n"
    note(folder, "a.md", "---\ntitle: A\ncreated: 2025-03-01T10:00:00+00:00\n"
                         "modified: 2025-04-01\n---\nbody")
    (m,) = read_basic_memory(folder, now=NOW).memories.values()
    assert m.created_at == 1_740_823_200 and m.last_used == NOW
    assert m.meta.extra["basic_memory"]["frontmatter"]["modified"] == "2025-04-01"


def test_an_import_at_a_time_whose_stamp_looks_like_a_secret_goes_through(vault):
    """The backup folder's name at that time (basic-memory-20261126T004935Z) scans as a
    high-entropy string; the commit message does not name it."""
    report = import_snapshot(vault, read_basic_memory(NOTES, now=NOW), now=1_795_654_175)
    assert report.commit and report.backup.endswith("-20261126T004935Z")


def test_each_export_names_the_others_memories_by_their_own_names(vault, tmp_path):
    from core.io.mcp_memory import read_mcp_memory
    from core.io.mcp_memory_export import export_mcp_memory

    import_snapshot(vault, read_basic_memory(NOTES, now=NOW))
    import_snapshot(vault, read_mcp_memory(FIXTURES / "mcp-memory" / "memory.jsonl", now=NOW))
    export_basic_memory(vault, tmp_path / "notes")
    assert (tmp_path / "notes" / "memvault" / "Ada_Lovelace.md").read_text("utf-8") \
        .startswith("---\ntitle: Ada_Lovelace\ntype: memory\n")
    export_mcp_memory(vault, tmp_path / "memory.jsonl")
    names = {json.loads(line)["name"] for line in
             (tmp_path / "memory.jsonl").read_text("utf-8").split("\n")
             if '"type":"entity"' in line}
    assert {e["title"] for e in EXPECTED} <= names


def test_a_link_matches_a_name_exactly_before_ignoring_case(tmp_path):
    folder = tmp_path / "n"
    note(folder, "a.md", "---\ntitle: coffee\n---\nlower")
    note(folder, "b.md", "---\ntitle: Coffee\n---\nupper")
    note(folder, "c.md", "---\ntitle: C\n---\n[[Coffee]] and [[coffee]] and [[COFFEE]]")
    snap = read_basic_memory(folder, now=NOW)
    ends = sorted((r.metadata["basic_memory"]["target"], snap.memories[r.to_memory_id].content)
                  for r in snap.relations.values())
    assert ends == [("COFFEE", "lower"), ("Coffee", "upper"), ("coffee", "lower")]


def test_a_secret_in_a_note_is_refused_and_named(vault, tmp_path):
    from core.secrets.policy import SecretRefusedError

    folder = copy_notes(tmp_path)
    note(folder, "ops.md", "---\ntitle: Ops\n---\n- [access] key AKIA" + "IOSFODNN7EXAMPLQ")
    head = vault.head
    with pytest.raises(SecretRefusedError, match="aws-key") as refused:
        import_snapshot(vault, read_basic_memory(folder, now=NOW))
    assert f"memory {note_id('ops')[:8]}" in str(refused.value)
    assert vault.head == head and vault.memories == {}
