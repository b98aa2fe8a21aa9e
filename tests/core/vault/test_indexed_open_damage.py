"""A damaged copy in the derived index (``.git/memvault/index.sqlite``, table ``files``) is never
a source of truth: a row whose bytes are not those of the blob it names (a body changed inside the
SQLite file, which SQLite's own integrity check cannot see) is not used, the file is read instead,
a one-line notice says so, and a read-write open writes the row again. Every write (touch, update,
use records) and every search answer carries the file's bytes, never the row's."""

from __future__ import annotations

import sqlite3

import pytest

from core import Vault
from core.search import search
from core.search.index import index_path
from core.vault import indexed_open

TRUE, FALSE = b"Tuesday", b"Fridayy"  # the same length: the record stays valid JSON


def _tampered(tmp_path):
    """A vault of a few memories whose open index is level with HEAD, then the copy of one
    memory's file in the index changed from "Tuesday" to "Fridayy" (SQLite still says ok)."""
    vault = Vault.open(tmp_path / "v")
    target = vault.add("We meet on Tuesday about the 1200 euros", tags=["money"])
    for i in range(3):
        vault.add(f"note {i} about the garden")
    vault.close()
    Vault.open(tmp_path / "v").close()  # the open index moved to HEAD
    path = index_path(vault.root)
    conn = sqlite3.connect(path)
    try:
        (body,) = conn.execute("SELECT body FROM files WHERE record_id = ?",
                               (target.id,)).fetchone()
        assert TRUE in body
        conn.execute("UPDATE files SET body = ? WHERE record_id = ?",
                     (body.replace(TRUE, FALSE), target.id))
        conn.commit()
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        conn.close()
    return vault.root, target.id


def _file(root, memory_id) -> bytes:
    vault = Vault.open(root, readonly=True)
    return vault.layout.memory_path(memory_id).read_bytes()


def _row_body(root, memory_id) -> bytes:
    conn = sqlite3.connect(index_path(root))
    try:
        return conn.execute("SELECT body FROM files WHERE record_id = ?", (memory_id,)).fetchone()[0]
    finally:
        conn.close()


def test_a_damaged_copy_is_not_shown_and_its_row_is_rebuilt(tmp_path):
    root, memory_id = _tampered(tmp_path)
    vault = Vault.open(root)
    assert "Tuesday" in vault.get(memory_id).content
    assert len(vault.notices) == 1 and "damaged copy" in vault.notices[0]
    assert "\n" not in vault.notices[0]
    assert _row_body(root, memory_id) == _file(root, memory_id)  # the row written again
    again = Vault.open(root)
    assert again.notices == [] and "Tuesday" in again.get(memory_id).content


def test_touch_commits_the_files_bytes_not_the_copy(tmp_path):
    root, memory_id = _tampered(tmp_path)
    vault = Vault.open(root)
    vault.touch(memory_id)
    data = _file(root, memory_id)
    assert TRUE in data and FALSE not in data


def test_update_commits_the_files_bytes_not_the_copy(tmp_path):
    root, memory_id = _tampered(tmp_path)
    vault = Vault.open(root)
    vault.update(memory_id, tags=["money", "meeting"])
    data = _file(root, memory_id)
    assert TRUE in data and FALSE not in data


def test_a_use_record_commits_the_files_bytes_not_the_copy(tmp_path):
    root, memory_id = _tampered(tmp_path)
    vault = Vault.open(root)
    vault.record_use([memory_id])
    assert vault.flush_use() is not None
    data = _file(root, memory_id)
    assert TRUE in data and FALSE not in data


@pytest.mark.parametrize("readonly", [False, True])
def test_a_search_answers_with_the_files_bytes(tmp_path, monkeypatch, readonly):
    monkeypatch.setattr(indexed_open, "READONLY_INDEX_FROM", 1)  # a read-only open uses it too
    root, memory_id = _tampered(tmp_path)
    vault = Vault.open(root, readonly=readonly)
    assert vault.state.opened_from_index
    assert not search(vault, "Fridayy", mode="bm25").hits
    hits = search(vault, "Tuesday", mode="bm25").hits
    assert [h.memory.id for h in hits] == [memory_id]
    assert "Tuesday" in hits[0].memory.content and "Fridayy" not in hits[0].snippet.text
    assert any("damaged copy" in n for n in vault.notices)
    if readonly:  # nothing written: the row waits for a read-write open
        assert FALSE in _row_body(root, memory_id)


def test_a_row_naming_another_blob_is_read_from_disk(tmp_path):
    root, memory_id = _tampered(tmp_path)
    conn = sqlite3.connect(index_path(root))
    conn.execute("UPDATE files SET blob = 'not a blob id' WHERE record_id = ?", (memory_id,))
    conn.commit()
    conn.close()
    vault = Vault.open(root)
    assert "Tuesday" in vault.get(memory_id).content
    assert _row_body(root, memory_id) == _file(root, memory_id)


def test_damaged_pages_of_the_files_table_are_built_again(tmp_path):
    root, memory_id = _tampered(tmp_path)
    path = index_path(root)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    (root_page,) = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'files'"
                                ).fetchone()
    conn.close()
    with open(path, "r+b") as fh:  # the table's first page overwritten: SQLite finds it malformed
        fh.seek((root_page - 1) * page_size)
        fh.write(b"\xa5" * page_size)
    vault = Vault.open(root)
    assert "Tuesday" in vault.get(memory_id).content and len(vault.memories) == 4
    assert any("damaged" in n and "built again" in n for n in vault.notices)
    again = Vault.open(root)
    assert again.state.opened_from_index and again.notices == []
    assert "Tuesday" in again.get(memory_id).content
