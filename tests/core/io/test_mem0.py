"""A mem0 / OpenMemory export -> the vault (core.io.mem0): get_all's answer and the platform's
item list (tests/fixtures/mem0), JSON lines, and the bad input: a document cut short, a bad
line, non-finite numbers, items without a text, repeated ids, times that are no ISO time, a
big file read as a stream."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest

from vault_support import FIXTURES
from core import VaultError
from core.io.foreign_import import ImportRefusedError, import_snapshot
from core.io.mem0 import epoch, memory_id, read_mem0
from migrate_support import assert_consistent

GET_ALL = FIXTURES / "mem0" / "get_all.json"
PLATFORM = FIXTURES / "mem0" / "platform_export.json"
NOW = 1_790_000_000


def test_get_all_answer_maps_one_memory_per_item_and_keeps_every_key(vault):
    report = import_snapshot(vault, read_mem0(GET_ALL, now=NOW))
    assert (report.memories, report.problems, report.import_time) == (3, [], 0)
    source = json.loads(GET_ALL.read_text("utf-8"))["results"]
    for item in source:
        m = vault.memories[item["id"]]
        assert m.content == item["memory"]
        assert m.meta.source == "mem0"
        assert m.meta.extra["mem0"] == {k: v for k, v in item.items() if k != "memory"}
        assert m.created_at == epoch(item["created_at"]) and m.last_used == NOW
    first = vault.memories[source[0]["id"]]
    assert first.entities == ["alice"] and first.created_at == 1_784_566_931
    assert vault.memories[source[1]["id"]].entities == ["alice", "travel-assistant"]
    assert_consistent(vault)


def test_platform_items_bring_their_categories_as_tags(vault):
    import_snapshot(vault, read_mem0(PLATFORM, now=NOW))
    marathon = vault.memories["f3e2d1c0-b9a8-4765-8432-10fedcba9876"]
    assert marathon.meta.tags == ["health", "sports"] and marathon.entities == ["bob"]
    assert marathon.meta.extra["mem0"]["hash"] == "fedcba98765432100123456789abcdef"


def test_a_rerun_changes_nothing(vault):
    first = import_snapshot(vault, read_mem0(GET_ALL, now=NOW))
    again = import_snapshot(vault, read_mem0(GET_ALL, now=NOW + 10))
    assert again.already_imported and vault.head == first.commit
    forced = import_snapshot(vault, read_mem0(GET_ALL, now=NOW + 10), force=True)
    assert not forced.changed and vault.head == first.commit


def write_items(path: Path, items: list) -> Path:
    path.write_text("[\n" + ",\n".join(i if isinstance(i, str) else json.dumps(i)
                                         for i in items) + "\n]", encoding="utf-8")
    return path


def item(n: int, **fields) -> dict:
    return {"id": f"m{n}", "memory": f"fact {n}", "created_at": "2026-01-01T00:00:00Z",
            **fields}


def test_a_document_cut_short_refuses_and_skip_bad_imports_what_came_before(vault, tmp_path):
    whole = write_items(tmp_path / "x.json", [item(1), item(2), item(3)]).read_text()
    cut = tmp_path / "cut.json"
    cut.write_text(whole[: whole.index('"fact 3"') + 4], encoding="utf-8")
    snap = read_mem0(cut, now=NOW)
    (problem,) = snap.problems
    assert problem.line == 4 and "not JSON" in problem.message
    head = vault.head
    with pytest.raises(ImportRefusedError, match=r"cut\.json:4"):
        import_snapshot(vault, snap)
    assert vault.head == head and vault.memories == {}
    import_snapshot(vault, read_mem0(cut, now=NOW), skip_bad=True)
    assert sorted(vault.memories) == ["m1", "m2"]


def test_a_syntax_error_is_reported_on_its_line(tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"results": [\n' + json.dumps(item(1)) + ",\n" +
                    '{"id": "m2", "memory": "x", "score": NaN},\n' + json.dumps(item(3)) +
                    "\n]}", encoding="utf-8")
    snap = read_mem0(path, now=NOW)
    assert [p.line for p in snap.problems] == [3] and list(snap.memories) == ["m1"]


@pytest.mark.parametrize("bad, why", [
    ('{"id": "m9", "memory": "x", "metadata": {"score": 1e999}}', "not finite at metadata.score"),
    ({"id": "m9", "text": "no memory key"}, "without a text 'memory'"),
    (["a list"], "not a JSON object"),
])
def test_bad_items_are_named_and_the_rest_reads(tmp_path, bad, why):
    path = write_items(tmp_path / "x.json", [item(1), bad, item(2)])
    snap = read_mem0(path, now=NOW)
    (problem,) = snap.problems
    assert problem.line == 3 and why in problem.message
    assert sorted(snap.memories) == ["m1", "m2"]


def test_json_lines_report_each_bad_line(vault, tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text("\n".join([json.dumps(item(1)), '{"id": "m2", "memo', "",
                               '{"id": "m3", "memory": "y", "v": Infinity}',
                               json.dumps(item(4))]), encoding="utf-8")
    snap = read_mem0(path, now=NOW)
    assert [(p.line, p.message.split(":")[0]) for p in snap.problems] == \
        [(2, "cut short, not JSON"), (4, "not JSON")]
    assert "Infinity is not a number JSON allows" in snap.problems[1].message
    assert sorted(snap.memories) == ["m1", "m4"]


def test_repeated_ids_bad_times_and_unsafe_ids(tmp_path):
    path = write_items(tmp_path / "x.json", [
        item(1), item(1, memory="fact 1, again"), item(2, created_at="last tuesday"),
        item(3, created_at="0001-01-01T00:00:00Z"),
        {"memory": "no id", "hash": "abc"}, {"id": "../escape", "memory": "odd id"}])
    snap = read_mem0(path, now=NOW)
    assert snap.problems == []
    assert snap.memories["m1"].content == "fact 1, again"
    notes = [(n.line, n.message) for n in snap.notes]
    assert notes[0][0] == 3 and "repeats the item ending on line 2" in notes[0][1]
    assert notes[1][0] == 4 and "'last tuesday' is no ISO time from 1970 on; the import" in notes[1][1]
    assert snap.memories["m2"].created_at == NOW and "m2" in snap.import_time
    assert snap.memories["m3"].created_at == NOW and "'0001-01-01T00:00:00Z' is no ISO time from" \
        in snap.notes[2].message
    assert "m1" not in snap.import_time
    assert memory_id({"memory": "no id", "hash": "abc"}) in snap.memories
    odd = memory_id({"id": "../escape"})
    assert odd != "../escape" and snap.memories[odd].meta.extra["mem0"]["id"] == "../escape"


def test_graph_relations_are_left_out_with_a_note(tmp_path):
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"results": [item(1)], "relations": [
        {"source": "alice", "relationship": "lives_in", "destination": "rotterdam"},
        {"source": "alice", "relationship": "works_at", "destination": "acme"}]}))
    snap = read_mem0(path, now=NOW)
    assert list(snap.memories) == ["m1"] and snap.relations == {}
    assert [n.message for n in snap.notes] == [
        "2 graph relations (between entities, not memories) left out; the backup keeps them"]


def test_openmemory_backup_shape_and_empty_exports(tmp_path):
    path = tmp_path / "memories.json"
    path.write_text(json.dumps({"user": {"id": "u"}, "memories": [
        {"id": "om1", "content": "likes tea", "created_at": "2026-02-02T00:00:00"}]}))
    snap = read_mem0(path, now=NOW)
    assert snap.memories["om1"].content == "likes tea"
    assert snap.memories["om1"].created_at == 1_769_990_400  # no zone: UTC
    with pytest.raises(VaultError, match="no file"):
        read_mem0(tmp_path / "missing.json")


def test_a_big_export_is_read_as_a_stream(tmp_path):
    """About 24 MB: a few items with long metadata; reading holds what the items keep plus a
    line, never the whole document parsed at once."""
    path = tmp_path / "big.json"
    with open(path, "w", encoding="utf-8") as f:
        f.write('{"results": [\n')
        for n in range(6000):
            f.write(json.dumps({"id": "same", "memory": "x", "metadata": {"pad": "p" * 4000}})
                    + ",\n")
        f.write(json.dumps(item(1)) + "\n]}")
    tracemalloc.start()
    try:
        snap = read_mem0(path, now=NOW)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert sorted(snap.memories) == ["m1", "same"]
    assert path.stat().st_size > 20_000_000 and peak < path.stat().st_size // 4, peak


def test_a_secret_in_a_memory_is_refused_and_named(vault, tmp_path):
    from core.secrets.policy import SecretRefusedError

    path = write_items(tmp_path / "x.json", [item(1), item(2, memory="my password: hunter2x9Q")])
    head = vault.head
    with pytest.raises(SecretRefusedError, match="memory m2") as refused:
        import_snapshot(vault, read_mem0(path, now=NOW))
    assert "password" in str(refused.value)
    assert vault.head == head and vault.memories == {}


def test_an_item_the_record_model_refuses_is_a_bad_record_not_a_crash(tmp_path, monkeypatch):
    import core.io.mem0 as mem0

    real = mem0.memory_id
    monkeypatch.setattr(mem0, "memory_id", lambda i: 7 if i.get("id") == "m2" else real(i))
    snap = read_mem0(write_items(tmp_path / "x.json", [item(1), item(2)]), now=NOW)
    (problem,) = snap.problems
    assert problem.line == 3 and problem.message == \
        "not a memory the vault can hold: id: Input should be a valid string"
    assert list(snap.memories) == ["m1"]
