"""The glance (core.vault.preview.read_glance): memories counted by status and by status and tag
from the derived index (``summary_tags`` and the summaries' status index), equal to the counts
of the summaries themselves, following every change an open moves the index to, read read-only."""

from __future__ import annotations

import os
import sqlite3
from collections import Counter

from core import Memory, MemoryMetadata, MemoryStatus, Vault
from core.search.index import SCHEMA_VERSION, index_path
from core.search.indexed_files import tag_rows
from core.vault.preview import read_glance, read_preview


def _vault(tmp_path, where="v"):
    vault = Vault.open(tmp_path / where)
    vault.save_many([
        Memory(id="m-one", content="one", created_at=10, last_used=20,
               meta=MemoryMetadata(tags=["a", "b c"])),
        Memory(id="m-two", content="two", created_at=11, last_used=21,
               status=MemoryStatus.ARCHIVED, meta=MemoryMetadata(tags=["a"])),
        Memory(id="m-three", content="three", created_at=12, last_used=22),
        Memory(id="m-esc", content="esc", created_at=13, last_used=23,
               status=MemoryStatus.PROMOTED, meta=MemoryMetadata(tags=["t\x1bag", "a"])),
        Memory(id="m-twice", content="twice", created_at=14, last_used=24,
               meta=MemoryMetadata(tags=["a", "a"])),
    ])
    return vault


def _counted(root):
    """What the glance must say, worked out from the summaries the preview reads: memories by
    status, and by (status, tag) with "" for those without tags (a tag named twice counts once)."""
    preview = read_preview(root)
    assert preview is not None
    statuses = Counter(m.status for m in preview.memories)
    tags = Counter((m.status, t) for m in preview.memories for t in (set(m.tags) or {""}))
    return len(preview.memories), dict(statuses), dict(tags)


def _glanced(root):
    glance = read_glance(root)
    assert glance is not None
    return glance.total, glance.statuses, glance.tags


def _tag_table(root):
    conn = sqlite3.connect(index_path(root))
    try:
        stored = sorted(conn.execute("SELECT status, tag, path FROM summary_tags"))
        wanted = sorted({row for path, status, tags in
                         conn.execute("SELECT path, status, tags FROM summaries")
                         for row in tag_rows(path, status, tags)})
    finally:
        conn.close()
    return stored, wanted


def test_the_glance_counts_what_the_summaries_hold(tmp_path):
    vault = _vault(tmp_path)
    Vault.open(vault.root)  # the open moves the index to HEAD
    glance = read_glance(vault.root)
    assert glance is not None and glance.at_head and glance.total == 5
    assert glance.statuses == {MemoryStatus.ACTIVE: 3, MemoryStatus.ARCHIVED: 1,
                               MemoryStatus.PROMOTED: 1}
    assert glance.tags == {
        (MemoryStatus.ACTIVE, "a"): 2, (MemoryStatus.ACTIVE, "b c"): 1,
        (MemoryStatus.ACTIVE, ""): 1, (MemoryStatus.ARCHIVED, "a"): 1,
        (MemoryStatus.PROMOTED, "a"): 1, (MemoryStatus.PROMOTED, "t\\x1bag"): 1}  # shown safe
    assert _glanced(vault.root) == _counted(vault.root)


def test_the_tag_rows_follow_every_change(tmp_path):
    vault = _vault(tmp_path)
    Vault.open(vault.root)
    new = vault.add("a new one", tags=["fresh", "a"])
    vault.add("a new one without tags")
    vault.tag("m-three", tags=["late"])  # untagged -> tagged
    vault.untag("m-one", tags=["a", "b c"])  # tagged -> untagged
    vault.update("m-two", meta=MemoryMetadata(tags=["other"]))
    vault.archive("m-esc")
    vault.promote(new.id)
    vault.delete("m-twice")
    assert not read_glance(vault.root).at_head  # the counts are as of the last open
    Vault.open(vault.root)
    glance = read_glance(vault.root)
    assert glance.at_head and _glanced(vault.root) == _counted(vault.root)
    assert glance.tags[(MemoryStatus.ACTIVE, "")] == 2  # m-one and the new untagged one
    assert (MemoryStatus.ACTIVE, "a") not in glance.tags
    assert glance.tags[(MemoryStatus.PROMOTED, "fresh")] == 1
    stored, wanted = _tag_table(vault.root)
    assert stored == wanted  # no row left behind by a change, none missing


def test_a_rewritten_index_has_the_same_tag_rows(tmp_path):
    vault = _vault(tmp_path)
    Vault.open(vault.root)
    before = _tag_table(vault.root)[0]
    for suffix in ("", "-wal", "-shm"):
        path = index_path(vault.root)
        (path.parent / (path.name + suffix)).unlink(missing_ok=True)
    Vault.open(vault.root)  # every row written anew (a replace)
    assert _tag_table(vault.root)[0] == before


def test_a_vault_in_a_folder_of_a_repository_counts_its_own_memories(tmp_path):
    outer = _vault(tmp_path, "repo")
    inner = Vault.open(outer.root / "inner", inside_repo=True)  # a folder of the same repository
    inner.add("inside", tags=["in"])
    inner.add("inside too", tags=["in", "a"])
    Vault.open(inner.root)
    Vault.open(outer.root)
    glance = read_glance(inner.root)
    assert glance.total == 2
    assert glance.tags == {(MemoryStatus.ACTIVE, "in"): 2, (MemoryStatus.ACTIVE, "a"): 1}
    assert _glanced(inner.root) == _counted(inner.root)
    assert _glanced(outer.root) == _counted(outer.root)


def test_no_index_or_another_schema_gives_none_and_writes_nothing(tmp_path):
    vault = _vault(tmp_path)
    path = index_path(vault.root)
    Vault.open(vault.root)
    before = (path.read_bytes(), os.stat(path).st_mtime_ns)
    assert read_glance(vault.root) is not None
    # read-only: nothing written (SQLite may leave the -shm and -wal of a reader, as for the
    # preview's read)
    assert (path.read_bytes(), os.stat(path).st_mtime_ns) == before
    for suffix in ("", "-wal", "-shm"):
        (path.parent / (path.name + suffix)).unlink(missing_ok=True)
    assert read_glance(vault.root) is None
    assert not path.exists()  # no empty index made
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")
    conn.close()
    before_bytes = path.read_bytes()
    assert read_glance(vault.root) is None
    assert path.read_bytes() == before_bytes  # not rebuilt: the open does that


def test_an_unreadable_index_or_no_repository_gives_none(tmp_path):
    vault = _vault(tmp_path)
    Vault.open(vault.root)
    path = index_path(vault.root)
    for suffix in ("-wal", "-shm"):
        (path.parent / (path.name + suffix)).unlink(missing_ok=True)
    path.write_bytes(b"not a database at all" * 100)
    assert read_glance(vault.root) is None
    assert read_glance(tmp_path / "nowhere") is None


def test_too_few_memories_give_none(tmp_path):
    vault = _vault(tmp_path)
    Vault.open(vault.root)
    assert read_glance(vault.root, at_least=6) is None
    assert read_glance(vault.root, at_least=5).total == 5
