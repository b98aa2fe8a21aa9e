"""Foreign files read safely (core.io.foreign_read, through the readers of
core.io.basic_memory, core.io.mcp_memory and core.io.mem0): a YAML alias bomb or an alias to
itself, JSON nested 50,000 deep, a fifo named ``*.md``, a name that is not UTF-8, a symbolic link:
each a clear bad record or error naming the file, never a traceback, a hang or gigabytes; and
a dry run refuses what the import refuses."""

from __future__ import annotations

import json
import os
import threading
import tracemalloc
from pathlib import Path

import pytest

from core import VaultError
from core.io.basic_memory import read_basic_memory
from core.io.foreign_import import ImportRefusedError, import_snapshot
from core.io.mcp_memory import read_mcp_memory
from core.io.mem0 import read_mem0

NOW = 1_790_000_000
DEEP = 50_000


def bomb(levels: int) -> str:
    """A note whose front matter's last alias names 10**levels copies of "x"."""
    lines = ["---", "title: bomb", "a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for n in range(1, levels):
        lines.append(f"a{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * 10) + "]")
    return "\n".join(lines + ["---", "body", ""])


def folder_with(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "notes"
    root.mkdir()
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_a_yaml_alias_bomb_is_a_bad_record_read_without_expanding(tmp_path):
    root = folder_with(tmp_path, {"bomb.md": bomb(5), "good.md": "plain note\n"})
    read_basic_memory(root, now=NOW)  # the modules it imports, before memory is counted
    tracemalloc.start()
    try:
        snap = read_basic_memory(root, now=NOW)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [(p.file, p.line) for p in snap.problems] == [("bomb.md", 3)]  # the value an alias names
    assert "alias" in snap.problems[0].message
    assert len(snap.memories) == 1  # the good note
    assert peak < 2_000_000, peak  # 100,000 copies of "x" were never made


def test_an_alias_to_itself_is_a_bad_record_not_a_recursion_error(tmp_path):
    root = folder_with(tmp_path, {"self.md": "---\na: &a [*a]\n---\nbody\n"})
    snap = read_basic_memory(root, now=NOW)
    assert [(p.file, p.line) for p in snap.problems] == [("self.md", 2)]
    assert "alias" in snap.problems[0].message


def test_yaml_nested_too_deep_is_a_bad_record(tmp_path):
    deep = "\n".join(f"{'  ' * n}k{n}:" for n in range(150)) + " end"
    root = folder_with(tmp_path, {"deep.md": f"---\n{deep}\n---\nbody\n"})
    snap = read_basic_memory(root, now=NOW)
    assert len(snap.problems) == 1 and "nested deeper than 100" in snap.problems[0].message


def test_a_dry_run_refuses_the_note_the_import_refuses(tmp_path, vault):
    # a note whose memory would be larger than a vault file may be: the import refuses it,
    # and the dry run says so (it said "1 new")
    root = folder_with(tmp_path, {"big.md": "---\ntitle: big\n---\n" + '"' * 9_000_000})
    dry = import_snapshot(None, read_basic_memory(root, now=NOW), dry_run=True)
    assert dry.refused and dry.new_memories == []
    assert "would be a file of" in dry.problems[0].message and dry.problems[0].file == "big.md"
    head = vault.head
    with pytest.raises(ImportRefusedError, match="big.md"):
        import_snapshot(vault, read_basic_memory(root, now=NOW))
    assert vault.head == head and vault.memories == {}


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_json_nested_50000_deep_is_a_bad_record_in_every_json_reader(tmp_path):
    entity = ('{"type":"entity","name":"A","entityType":"x","observations":[],"deep":'
              + nested(DEEP) + "}")
    mcp = tmp_path / "memory.jsonl"
    mcp.write_text(entity + '\n{"type":"entity","name":"B","entityType":"x"}\n', "utf-8")
    snap = read_mcp_memory(mcp, now=NOW)
    assert [(p.line, p.message) for p in snap.problems] == [
        (1, "a JSON value nested deeper than 100 levels")]
    assert [m.entities for m in snap.memories.values()] == [["B"]]
    lines = tmp_path / "mem0.jsonl"
    lines.write_text('{"memory":"a","deep":' + nested(DEEP) + '}\n{"memory":"b"}\n', "utf-8")
    snap = read_mem0(lines, now=NOW)
    assert [(p.line, p.message) for p in snap.problems] == [
        (1, "a JSON value nested deeper than 100 levels")]
    assert [m.content for m in snap.memories.values()] == ["b"]
    document = tmp_path / "mem0.json"
    document.write_text('[{"memory":"b"},\n{"memory":"a","deep":' + nested(DEEP) + "}]", "utf-8")
    snap = read_mem0(document, now=NOW)
    assert [p.line for p in snap.problems] == [2]
    assert "nested deeper than 100 levels" in snap.problems[0].message
    assert [m.content for m in snap.memories.values()] == ["b"]


def test_a_long_json_line_is_read_whole(tmp_path):
    # a line longer than the piece it is read in (64 KiB) is one item, not two broken ones
    lines = tmp_path / "mem0.jsonl"
    lines.write_text(json.dumps({"memory": "x" * 100_000}) + "\n", "utf-8")
    snap = read_mem0(lines, now=NOW)
    assert snap.problems == [] and [len(m.content) for m in snap.memories.values()] == [100_000]


def test_a_fifo_named_md_is_a_bad_record_not_a_hang(tmp_path):
    root = folder_with(tmp_path, {"good.md": "plain note\n"})
    fifo = root / "pipe.md"
    os.mkfifo(fifo)
    found: list[object] = []
    reader = threading.Thread(target=lambda: found.append(read_basic_memory(root, now=NOW)),
                              daemon=True)
    reader.start()
    reader.join(timeout=30)
    if reader.is_alive():  # the old reader waits for a writer: let it go, then fail
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(timeout=30)
        pytest.fail("reading a fifo named *.md hung")
    snap = found[0]
    assert [(p.file, p.message) for p in snap.problems] == [  # type: ignore[attr-defined]
        ("pipe.md", "is not a regular file (a fifo, a device or a folder)")]
    assert "pipe.md" not in snap.files  # type: ignore[attr-defined]


def test_a_file_name_that_is_not_utf8_is_named_and_refused(tmp_path):
    root = folder_with(tmp_path, {"good.md": "plain note\n"})
    Path(os.fsdecode(bytes(root) + b"/caf\xe9.md")).write_text("a note\n", "utf-8")
    snap = read_basic_memory(root, now=NOW)
    assert [(p.file, p.message) for p in snap.problems] == [
        ("caf\\xe9.md", "its name is not UTF-8 text (rename it)")]
    assert list(snap.files) == ["good.md"]
    odd = Path(os.fsdecode(bytes(tmp_path) + b"/mem\xe9.jsonl"))
    odd.write_text('{"memory": "a"}\n', "utf-8")
    with pytest.raises(VaultError, match=r"mem\\xe9.jsonl is not named in UTF-8 text"):
        read_mem0(odd, now=NOW)
    with pytest.raises(VaultError, match=r"mem\\xe9.jsonl is not named in UTF-8 text"):
        read_mcp_memory(odd, now=NOW)


def test_a_source_file_that_is_a_link_or_a_folder_is_refused(tmp_path):
    real = tmp_path / "memory.jsonl"
    real.write_text('{"type":"entity","name":"A","entityType":"x"}\n', "utf-8")
    (tmp_path / "link.jsonl").symlink_to(real)
    with pytest.raises(VaultError, match="link.jsonl is a symbolic link"):
        read_mcp_memory(tmp_path / "link.jsonl", now=NOW)
    with pytest.raises(VaultError, match="is not a regular file"):
        read_mem0(tmp_path, now=NOW)
