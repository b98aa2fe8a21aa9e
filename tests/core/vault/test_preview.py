"""A first look at a vault from its derived index (core.vault.preview): the summaries an open
writes beside the files' rows, read back read-only, as of the index's commit."""

from __future__ import annotations

import sqlite3

from core import Memory, MemoryMetadata, MemoryStatus, Vault
from core.search.index import SCHEMA_VERSION, index_path
from core.search.indexed_files import HEAD_CHARS
from core.vault.preview import read_preview


def _vault(tmp_path):
    vault = Vault.open(tmp_path / "v")
    vault.save_many([
        Memory(id="m-long", content="x" * (HEAD_CHARS + 50), created_at=10, last_used=20,
               use_count=3, strength=1.5, meta=MemoryMetadata(tags=["a", "b c"])),
        Memory(id="m-gist", content="the whole content", gist="the gist first", created_at=11,
               last_used=21, status=MemoryStatus.ARCHIVED),
        Memory(id="m-esc", content="ring \x1b]0;title\x07 bell", created_at=12, last_used=22,
               meta=MemoryMetadata(tags=["t\x1bag"])),
    ])
    return vault


def test_an_open_writes_summaries_the_preview_reads_back(tmp_path):
    vault = _vault(tmp_path)
    vault.pin("m-esc")
    Vault.open(vault.root)  # the open moves the index to HEAD, summaries included
    preview = read_preview(vault.root)
    assert preview is not None and preview.at_head
    by_id = {s.id: s for s in preview.memories}
    assert set(by_id) == {"m-long", "m-gist", "m-esc"}
    long = by_id["m-long"]
    assert (long.status, long.use_count, long.last_used, long.strength, long.created_at,
            long.tags) == (MemoryStatus.ACTIVE, 3, 20, 1.5, 10, ("a", "b c"))
    assert long.head == "x" * HEAD_CHARS and long.text == long.content == long.head
    assert long.meta.tags == ("a", "b c") and long.meta.source is None and long.gist is None
    assert not long.pinned and long.meta.extra == {}
    assert by_id["m-gist"].head == "the gist first"
    assert by_id["m-gist"].status is MemoryStatus.ARCHIVED
    assert by_id["m-esc"].head == "ring \\x1b]0;title\\x07 bell"  # for display: escaped
    assert by_id["m-esc"].tags == ("t\\x1bag",)
    assert by_id["m-esc"].pinned and by_id["m-esc"].meta.extra == {"pinned": True}


def test_the_preview_is_as_of_the_last_open_and_says_so(tmp_path):
    vault = _vault(tmp_path)
    Vault.open(vault.root)
    vault.archive("m-long")  # a commit the index has not seen
    preview = read_preview(vault.root)
    assert preview is not None and not preview.at_head
    assert {s.id: s.status for s in preview.memories}["m-long"] is MemoryStatus.ACTIVE
    Vault.open(vault.root)
    preview = read_preview(vault.root)
    assert preview.at_head
    assert {s.id: s.status for s in preview.memories}["m-long"] is MemoryStatus.ARCHIVED


def test_no_index_or_another_schema_gives_none_and_writes_nothing(tmp_path):
    vault = _vault(tmp_path)
    path = index_path(vault.root)
    Vault.open(vault.root)
    for suffix in ("", "-wal", "-shm"):
        (path.parent / (path.name + suffix)).unlink(missing_ok=True)
    assert read_preview(vault.root) is None
    assert not path.exists()  # read-only: no empty index made
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")
    conn.close()
    before = path.read_bytes()
    assert read_preview(vault.root) is None
    assert path.read_bytes() == before  # not rebuilt: the open does that


def test_a_memory_file_that_is_not_a_memory_has_no_summary(tmp_path):
    vault = _vault(tmp_path)
    bad = vault.root / "memories" / "m-bad.json"
    bad.write_text('["not", "a", "memory"]')
    Vault.open(vault.root)  # reports the bad file (the preview never shows a made-up row)
    preview = read_preview(vault.root)
    assert "m-bad" not in {s.id for s in preview.memories}


def test_not_a_repository_gives_none(tmp_path):
    assert read_preview(tmp_path) is None


def test_too_few_summaries_are_counted_not_read(tmp_path):
    vault = _vault(tmp_path)
    Vault.open(vault.root)
    assert read_preview(vault.root, at_least=4) is None
    assert len(read_preview(vault.root, at_least=3).memories) == 3


def test_the_summaries_are_read_with_the_cyclic_collector_paused(tmp_path, monkeypatch):
    """100k summaries are a few hundred thousand long-lived objects: the collector, run again
    and again by their allocations, only rescanned them (~0.3 s of CPU at 100k)."""
    import gc

    from core.search import indexed_files

    vault = _vault(tmp_path)
    Vault.open(vault.root)
    seen: list[bool] = []
    read = indexed_files.read_summaries

    def spy(*args, **kwargs):
        seen.append(gc.isenabled())
        return read(*args, **kwargs)

    monkeypatch.setattr(indexed_files, "read_summaries", spy)
    preview = read_preview(vault.root)
    assert preview is not None and len(preview.memories) == 3
    assert seen == [False] and gc.isenabled()
