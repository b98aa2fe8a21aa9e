"""Tiered markdown memories -> vault (core.io.markdown_import), and the metadata comment read as
YAML (core.io.markdown_meta) and checked by one model (core.io.markdown_schema): entries with every
field, with none, and malformed; MEMORY.md sections as promoted memories; one commit;
idempotence; the YAML surprises that are taken out."""

from __future__ import annotations

import os
import uuid
from datetime import datetime, timezone
from pathlib import Path

import pytest

from core import MemoryStatus, VaultError
from core.io.markdown_import import ID_NAMESPACE, import_markdown, vault_id
from core.io.markdown_meta import read_block
from migrate_support import assert_consistent

UTC = timezone.utc

FULL = """# 2026-01-29

## 14:30 - Auth Design Decision

Decided to use JWT with 15-minute expiry instead of session tokens. Refresh tokens will last 7 days.

<!--
id: mem_a1b2c3
importance: 0.75
tier: medium
entities: [jwt, session-tokens, refresh-tokens]
links: [{to: mem_xyz, type: alternative_to, weight: 0.8}, {to: mem_dep, type: depends_on}]
episode: {task: auth-design, project: zbooks, session: s-1, timestamp: "2026-01-29T14:30:00Z", trigger: "user: pick one", outcome: decision}
summary: JWT, 15-min expiry; 7-day refresh
status: active
tags: ["#jwt"]
retrieval: {access_count: 3, last_accessed: "2026-02-01T09:00:00Z", decay_rate: 0.05}
resurfacing: {enabled: false, schedule: [], completed: [], dismiss_count: 0}
-->

Tags: #auth #security #architecture

## 15:00 - Session tokens

Session tokens were the plan before JWT.

<!--
id: mem_xyz
superseded_by: mem_a1b2c3
-->
"""

MEMORY_MD = """# Long-term memory

Curated by hand.

## Preferences

- Dark mode in every app
- TypeScript over JavaScript

## Infrastructure

<!-- id: "mem/infra", importance: 1 -->

The queue runs on Redis Streams.

```
## not a heading: inside a code block
```
"""


def make_dir(tmp_path: Path, files: dict[str, str | bytes]) -> Path:
    root = tmp_path / "notes"
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode() if isinstance(text, str) else text)
    return root


def at(text: str) -> int:
    return int(datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp())


def test_an_entry_with_every_field(vault, tmp_path):
    root = make_dir(tmp_path, {"memory/2026-01-29.md": FULL})
    report = import_markdown(vault, root, tz=UTC)
    assert report.problems == []
    m = vault.memories["mem_a1b2c3"]
    assert m.content == ("Auth Design Decision\n\nDecided to use JWT with 15-minute expiry "
                         "instead of session tokens. Refresh tokens will last 7 days.")
    assert m.created_at == at("2026-01-29T14:30:00")
    assert m.last_used == at("2026-02-01T09:00:00") and m.use_count == 3
    assert m.strength == 1.75  # importance 0.75
    assert m.status == MemoryStatus.ACTIVE
    assert m.gist == "JWT, 15-min expiry; 7-day refresh"
    assert m.meta.tags == ["auth", "security", "architecture", "jwt"]
    assert m.entities == ["jwt", "session-tokens", "refresh-tokens"]
    assert m.meta.source == "markdown:memory/2026-01-29.md"
    extra = m.meta.extra
    assert extra["importance"] == 0.75 and extra["tier"] == "medium"
    assert extra["episode"] == {"task": "auth-design", "project": "zbooks", "session": "s-1",
                                "timestamp": "2026-01-29T14:30:00Z", "trigger": "user: pick one",
                                "outcome": "decision"}
    assert extra["retrieval"]["decay_rate"] == 0.05
    assert extra["resurfacing"] == {"enabled": False, "schedule": [], "completed": [],
                                    "dismiss_count": 0}
    # links: same type, weight as strength; superseded_by: a supersedes relation, status
    rels = {(r.from_memory_id, r.relation_type, r.to_memory_id): r
            for r in vault.relations.values()}
    assert set(rels) == {("mem_a1b2c3", "alternative_to", "mem_xyz"),
                         ("mem_a1b2c3", "depends_on", "mem_dep"),
                         ("mem_a1b2c3", "supersedes", "mem_xyz")}
    assert rels[("mem_a1b2c3", "alternative_to", "mem_xyz")].strength == 0.8
    assert rels[("mem_a1b2c3", "depends_on", "mem_dep")].strength == 1.0
    assert vault.memories["mem_xyz"].status == MemoryStatus.SUPERSEDED
    assert report.dangling == [rels[("mem_a1b2c3", "depends_on", "mem_dep")].id]
    assert_consistent(vault)


def test_an_entry_with_no_metadata(vault, tmp_path):
    root = make_dir(tmp_path, {"memory/2026-02-03.md": "## 09:05 - Standup\n\nNothing new.\n"
                                                       "\nTags: #team\n"})
    import_markdown(vault, root, tz=UTC)
    (m,) = vault.memories.values()
    assert m.id == str(uuid.uuid5(ID_NAMESPACE, "entry:memory/2026-02-03.md:09:05:00:Standup:0"))
    assert m.content == "Standup\n\nNothing new."
    assert m.meta.tags == ["team"] and m.entities == []
    assert m.strength == 1.5  # the schema's default importance for a short-term entry
    assert m.meta.extra == {} and m.gist is None
    assert m.created_at == m.last_used == at("2026-02-03T09:05:00")
    assert m.status == MemoryStatus.ACTIVE


def test_local_time_is_the_default_zone(vault, tmp_path):
    root = make_dir(tmp_path, {"memory/2026-02-03.md": "## 09:05 - Standup\n\nx\n"})
    import_markdown(vault, root)
    (m,) = vault.memories.values()
    assert m.created_at == int(datetime(2026, 2, 3, 9, 5).timestamp())


def test_memory_md_sections_become_promoted_memories(vault, tmp_path):
    root = make_dir(tmp_path, {"MEMORY.md": MEMORY_MD})
    os.utime(root / "MEMORY.md", (1_760_000_000, 1_760_000_000))
    report = import_markdown(vault, root, tz=UTC)
    assert report.problems == []
    assert len(vault.memories) == 2
    prefs = next(m for m in vault.memories.values() if m.content.startswith("Preferences"))
    assert prefs.content == "Preferences\n\n- Dark mode in every app\n- TypeScript over JavaScript"
    assert prefs.status == MemoryStatus.PROMOTED and prefs.promoted_to == "MEMORY.md"
    assert prefs.created_at == prefs.promoted_at == 1_760_000_000
    assert prefs.strength == 1.8  # long-term default importance 0.8
    infra = vault.memories[vault_id("mem/infra")]
    assert infra.meta.extra == {"original_id": "mem/infra", "importance": 1}
    assert infra.strength == 2.0
    assert infra.content == ("Infrastructure\n\nThe queue runs on Redis Streams.\n\n```\n"
                             "## not a heading: inside a code block\n```")
    assert report.remapped == {"mem/infra": infra.id}


def test_malformed_entries_are_reported_not_fatal(vault, tmp_path):
    daily = """## 10:00 - Good one

Kept.

## 10:15 - Broken metadata

Body survives.

<!--
id: mem_broken
importance: very
entities: [a, b
links: [{type: related_to}, {to: mem_good, weight: 7}, {to: mem_good, type: 9}]
episode: {outcome: maybe}
this is not yaml
status: lost
superseded_by: [1]
-->

## no time here

Still imported, at midnight.

##

## 11:00 - Unclosed

Text.

<!--
id: mem_never
"""
    root = make_dir(tmp_path, {"memory/2026-03-01.md": daily,
                               "memory/2026-02-30.md": "## 10:00 - x\n\ny\n",
                               "memory/2026-03-02.md": b"## 10:00 - x\n\n\xff\xfe\n",
                               "MEMORY.md": "## Fine\n\nok\n"})
    report = import_markdown(vault, root, tz=UTC)
    found = {(p.file, p.line): p for p in report.problems}
    skipped = {(p.file, p.line) for p in report.skipped}
    assert skipped == {("memory/2026-03-01.md", 24), ("memory/2026-03-01.md", 30),
                       ("memory/2026-02-30.md", 1), ("memory/2026-03-02.md", 1)}
    assert "never closed" in found[("memory/2026-03-01.md", 30)].message
    assert "neither a title nor text" in found[("memory/2026-03-01.md", 24)].message
    assert "not UTF-8" in found[("memory/2026-03-02.md", 1)].message
    assert "not a real date" in found[("memory/2026-02-30.md", 1)].message
    assert "read as 00:00" in found[("memory/2026-03-01.md", 20)].message
    assert "cannot read the value '[a, b': a [ is not closed" in found[
        ("memory/2026-03-01.md", 12)].message
    assert "'this is not yaml'" in found[("memory/2026-03-01.md", 15)].message
    def said(line: int) -> list[str]:  # each field's problem at the field's own line
        return [p.message for p in report.problems
                if p.file == "memory/2026-03-01.md" and p.line == line]

    assert said(11) == ["importance 'very' is not a number from 0 to 1; ignored"]
    assert [m.split(" (")[0].split(";")[0] for m in said(13)] == [
        "a link without `to`", "a link weight 7 is outside 0-1",
        "a link to mem_good has no usable type"]
    assert said(14) == ["episode outcome 'maybe' is not one of correction, decision, failure, "
                        "observation, success; kept as it is"]
    assert said(16) == ["status 'lost' is not one of active, archived, superseded; ignored"]
    assert said(17) == ["superseded_by is not an id; ignored"]
    # what could be read was imported
    broken = vault.memories["mem_broken"]
    assert broken.content == "Broken metadata\n\nBody survives."
    assert broken.strength == 1.5 and broken.status == MemoryStatus.ACTIVE
    assert broken.entities == [] and broken.meta.extra["episode"] == {"outcome": "maybe"}
    (link,) = [r for r in vault.relations.values() if r.from_memory_id == "mem_broken"]
    assert (link.relation_type, link.to_memory_id, link.strength) == ("related_to", "mem_good",
                                                                     1.0)
    midnight = [m for m in vault.memories.values() if m.content.startswith("no time here")]
    assert len(midnight) == 1 and midnight[0].created_at == at("2026-03-01T00:00:00")
    assert "mem_never" not in vault.memories
    assert len(vault.memories) == 4  # good one, broken metadata, no time, MEMORY.md's
    assert vault.journal.history.log(vault.layout.memories_dir)[0].message == (
        "import: 4 memories, 1 relation from markdown (4 files; 1 dangling relation kept; "
        "4 entries skipped)")


def test_one_commit_and_running_again_changes_nothing(vault, tmp_path, git_tools):
    root = make_dir(tmp_path, {"memory/2026-01-29.md": FULL, "MEMORY.md": MEMORY_MD})
    before = git_tools.commit_count(vault.root)
    report = import_markdown(vault, root, tz=UTC)
    assert git_tools.commit_count(vault.root) == before + 1
    assert git_tools.head_subject(vault.root) == (
        "import: 4 memories, 3 relations from markdown (2 files; 1 dangling relation kept)")
    assert report.commit == vault.journal.head()
    head = report.commit
    again = import_markdown(vault, root, tz=UTC)
    assert again.commit is None and not again.changed
    assert again.unchanged_memories == 4 and again.unchanged_relations == 3
    assert vault.journal.head() == head
    # memvault's own changes are not undone by importing again
    vault.touch("mem_xyz")
    vault.archive(vault_id("mem/infra"))
    head = vault.journal.head()
    import_markdown(vault, root, tz=UTC)
    assert vault.journal.head() == head
    assert vault.memories[vault_id("mem/infra")].status == MemoryStatus.ARCHIVED
    assert_consistent(vault)


def test_importing_an_edited_file_updates_only_what_changed(vault, tmp_path, git_tools):
    root = make_dir(tmp_path, {"memory/2026-01-29.md": FULL})
    import_markdown(vault, root, tz=UTC)
    vault.regenerate_gist("mem_xyz")
    path = root / "memory" / "2026-01-29.md"
    path.write_text(path.read_text().replace("Session tokens were the plan before JWT.",
                                             "Session tokens were the plan, before JWT.")
                    + "\n## 18:00 - New\n\nA new entry.\n")
    report = import_markdown(vault, root, tz=UTC)
    assert report.updated_memories == ["mem_xyz"] and len(report.new_memories) == 1
    assert report.unchanged_memories == 1
    assert vault.memories["mem_xyz"].content.endswith("the plan, before JWT.")
    assert vault.memories["mem_xyz"].gist is None  # the old gist described the old content
    assert "1 updated" in git_tools.head_subject(vault.root)


def test_dry_run_writes_nothing(vault, tmp_path, git_tools):
    root = make_dir(tmp_path, {"memory/2026-01-29.md": FULL})
    head = vault.journal.head()
    report = import_markdown(vault, root, dry_run=True, tz=UTC)
    assert report.dry_run and report.commit is None and len(report.new_memories) == 2
    assert vault.journal.head() == head and vault.memories == {}
    assert git_tools.status(vault) == ""
    assert len(import_markdown(None, root, dry_run=True).new_memories) == 2
    with pytest.raises(VaultError):
        import_markdown(None, root)


def test_duplicate_ids_later_wins_with_a_warning(vault, tmp_path):
    root = make_dir(tmp_path, {
        "memory/2026-01-01.md": "## 10:00 - First\n\nold\n\n<!-- id: mem_same -->\n",
        "MEMORY.md": "## Promoted\n\nnew\n\n<!-- id: mem_same -->\n"})
    report = import_markdown(vault, root, tz=UTC)
    assert vault.memories["mem_same"].content == "Promoted\n\nnew"
    assert vault.memories["mem_same"].status == MemoryStatus.PROMOTED
    (warning,) = report.problems
    assert warning.file == "MEMORY.md" and "also used at memory/2026-01-01.md:1" in warning.message


def test_daily_files_directly_in_the_folder_and_nothing_to_import(vault, tmp_path):
    root = make_dir(tmp_path, {"2026-01-05.md": "## 08:00 - Direct\n\nhere\n",
                               "notes.md": "## 08:00 - Not a daily file\n\nignored\n"})
    report = import_markdown(vault, root, tz=UTC)
    assert report.files == ["2026-01-05.md"] and len(vault.memories) == 1
    (tmp_path / "void").mkdir()
    with pytest.raises(VaultError, match="nothing to import"):
        import_markdown(vault, tmp_path / "void")


def test_heading_variants_and_plain_comments(vault, tmp_path):
    text = ("## 7:05 Quick\n\nno dash\n\n<!-- just a note to self -->\n\n"
            "## 21:45:30 — Em dash\n\nseconds too\n\nTags: not, hashtags\n")
    root = make_dir(tmp_path, {"memory/2026-04-01.md": text})
    report = import_markdown(vault, root, tz=UTC)
    assert report.problems == []
    by_title = {m.content.split("\n")[0]: m for m in vault.memories.values()}
    assert by_title["Quick"].created_at == at("2026-04-01T07:05:00")
    assert by_title["Quick"].content == "Quick\n\nno dash"  # the plain comment is left out
    assert by_title["Em dash"].created_at == at("2026-04-01T21:45:30")
    assert by_title["Em dash"].content.endswith("Tags: not, hashtags")  # not a tags line
    assert by_title["Em dash"].meta.tags == []


# -- the metadata reader -----------------------------------------------------------------------
def rows(text: str) -> list[tuple[int, str]]:
    return list(enumerate(text.splitlines(), 1))


def parse_block(rows):  # the reader's value and problems (its key lines are tested below)
    value, _, problems = read_block(rows)
    return value, problems


def flow(text: str):
    value, problems = parse_block([(1, "v: " + text)])
    assert problems == []
    return value["v"]


def test_flow_values():
    assert flow("[a, b, 'c d', \"e\\n\", 1, 2.5, true, null, ~]") == [
        "a", "b", "c d", "e\n", 1, 2.5, True, None, None]
    assert flow("{to: mem_x, type: related_to, weight: 0.8}") == {
        "to": "mem_x", "type": "related_to", "weight": 0.8}
    assert flow("{when: 2026-01-29T14:30:00Z, n: {m: [1, {k: v}]}}") == {
        "when": "2026-01-29T14:30:00Z", "n": {"m": [1, {"k": "v"}]}}
    assert flow("'it''s'") == "it's"
    assert flow("[]") == [] and flow("{}") == {}


def test_block_forms_and_json():
    value, problems = parse_block(rows(
        "id: mem_1\nlinks:\n  - {to: a}\n  - to: b\n    type: part_of\n"
        "episode:\n  task: t\n  outcome: success\n# a comment\n\n"
        "entities: [x,\n  y]\ntrigger: 'said: do it'  # why\nempty:\n"))
    assert problems == []
    assert value == {"id": "mem_1", "links": [{"to": "a"}, {"to": "b", "type": "part_of"}],
                     "episode": {"task": "t", "outcome": "success"}, "entities": ["x", "y"],
                     "trigger": "said: do it", "empty": None}
    value, problems = parse_block(rows('{"id": "m", "links": [{"to": "x", "weight": 1}]}'))
    assert value == {"id": "m", "links": [{"to": "x", "weight": 1}]} and problems == []
    # YAML differs from the old hand reader here: a plain value may not hold ': '
    value, problems = parse_block(rows("id: m\ntrigger: said: do it"))
    assert value == {"id": "m"}
    assert [(p.line, p.message) for p in problems] == [
        (2, "cannot read the value 'said: do it': mapping values are not allowed in this context; "
            "ignored")]


def test_unreadable_lines_are_reported_with_their_number():
    value, problems = parse_block(rows(
        "id: m\nnonsense line\n  child: of nonsense\nlinks: [{to: a}\nimportance: 0.5\n"
        "tags: ['open\n"))
    assert value == {"id": "m", "importance": 0.5}
    # one problem a field, at the line YAML stopped on (the field's lines 2-3 are left out)
    assert [p.line for p in problems] == [3, 4, 6]
    assert "cannot read 'nonsense line'" in problems[0].message
    assert "a [ is not closed" in problems[1].message
    assert "a quoted string is not closed" in problems[2].message
    value, problems = parse_block(rows("{id: m, broken"))
    assert value == {} and problems[0].line == 1


def test_key_lines_and_the_comment_line():
    value, lines, problems = read_block([(7, " id: m1"), (8, "links:"), (9, "  - a"),
                                         (10, "importance: 1 ")])
    assert value == {"id": "m1", "links": ["a"], "importance": 1} and problems == []
    assert lines == {"id": 7, "links": 8, "importance": 10}
    # a one-line comment of pairs without braces is the mapping it spells
    value, lines, problems = read_block([(3, ' id: "mem/infra", importance: 1 ')])
    assert value == {"id": "mem/infra", "importance": 1} and lines == {"id": 3,
                                                                        "importance": 3}
    value, lines, problems = read_block([(5, "")])
    assert (value, lines, problems) == ({}, {}, [])


def test_yaml_surprises_are_taken_out():
    value, problems = parse_block(rows(
        "a: yes\nb: no\nc: on\nd: off\ne: 0042\nf: 2026-01-29\ng: 2026-01-29T14:30:00Z\n"
        "h: 1:30\ni: 0x1F\nj: 1_000\nk: .inf\nl: =\n<<: x\nm: 1e5\nn: -0.5\no: 0\n"
        "p: True\nq: NULL\nr: [no, on, y]"))
    assert problems == []
    assert value == {"a": "yes", "b": "no", "c": "on", "d": "off", "e": "0042",
                     "f": "2026-01-29", "g": "2026-01-29T14:30:00Z", "h": "1:30", "i": "0x1F",
                     "j": "1_000", "k": ".inf", "l": "=", "<<": "x", "m": 100000.0,
                     "n": -0.5, "o": 0, "p": True, "q": None, "r": ["no", "on", "y"]}


def test_duplicate_keys_aliases_and_values_json_cannot_hold():
    value, problems = parse_block(rows("id: a\nimportance: 0.5\nid: b\nep: {x: 1, x: 2}"))
    assert value == {"id": "b", "importance": 0.5, "ep": {"x": 2}}
    assert [(p.line, p.message) for p in problems] == [
        (3, "id is given twice (also at line 1); the later one is used"),
        (4, "x is given twice (also at line 4); the later one is used")]
    value, problems = parse_block(rows(
        "id: m\nbase: &b {x: 1}\ncopy: *b\nraw: !!binary aGk=\nset: !!set {a}\n"
        "when: !!timestamp 2026-01-29\nobj: !!python/object:os.system x\n2: two"))
    assert value == {"id": "m", "base": {"x": 1}, "2": "two"}
    assert [p.line for p in problems] == [3, 4, 5, 6, 7]
    assert "an alias (*name) is not read" in problems[0].message
    assert "a value of type bytes" in problems[1].message
    assert all(p.message.endswith("; ignored") for p in problems)


def test_yaml_problems_point_at_the_markdown_line(vault, tmp_path):
    daily = ("## 10:00 - Decision\n\nWe chose x.\n\n<!--\nid: 007\ntags: [no, on]\n"
             "importance: 0.5\nimportance: 0.7\nepisode: {task: t,\n  outcome: [decision}\n"
             "retrieval: {created_at: 2026-01-29T14:30:00Z, last_accessed: 2026-02-01}\n-->\n")
    root = make_dir(tmp_path, {"memory/2026-01-15.md": daily})
    report = import_markdown(vault, root, tz=UTC)
    assert [(p.file, p.line) for p in report.problems] == [("memory/2026-01-15.md", 9),
                                                            ("memory/2026-01-15.md", 11)]
    assert report.problems[0].message == ("importance is given twice (also at line 8); the "
                                          "later one is used")
    assert report.problems[1].message.startswith("cannot read the value '{task: t,'")
    m = vault.memories["007"]  # the id keeps its leading zeros
    assert "episode" not in m.meta.extra and m.meta.extra["importance"] == 0.7
    assert m.meta.tags == ["no", "on"] and m.strength == 1.7
    assert m.last_used == at("2026-02-01T00:00:00")
    again = import_markdown(vault, root, tz=UTC)
    assert not again.changed and again.unchanged_memories == 1


def test_progress_reports_files_and_the_commit(vault, tmp_path):
    root = make_dir(tmp_path, {"memory/2026-01-29.md": FULL, "MEMORY.md": MEMORY_MD})
    calls = []
    import_markdown(vault, root, tz=UTC, progress=lambda *a: calls.append(a))
    assert calls == [("files", 1, 2), ("files", 2, 2), ("commit", 0, 1), ("commit", 1, 1)]
