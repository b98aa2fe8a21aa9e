"""An open that reads the derived index's copies of the files on the cache's first use
(``Vault.open(..., copies_later=True)``, the app's: core/vault/later_copies.py, issue 43): the
open reads none, the first use reads them as the open would have (a damaged copy never used,
said, its row written again), and an index deleted or moved on by another process meanwhile
never makes the cache hold anything but the records of the commit it was opened at."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from core import Vault
from core.search.index import index_path

TRUE, FALSE = b"Tuesday", b"Fridayy"  # the same length: the record stays valid JSON


def _vault(root: Path) -> list[str]:
    """Four memories, two relations; opened again so that the index is level with HEAD."""
    with Vault.open(root, create=True) as vault:
        ids = [vault.add("We meet on Tuesday about the 1200 euros", tags=["money"]).id]
        ids += [vault.add(f"note {i} about the garden").id for i in range(3)]
        vault.relate(ids[0], ids[1], "related")
        vault.relate(ids[2], ids[3], "related")
    Vault.open(root).close()
    return ids


def _row_body(root: Path, memory_id: str) -> bytes:
    conn = sqlite3.connect(index_path(root))
    try:
        return conn.execute("SELECT body FROM files WHERE record_id = ?",
                            (memory_id,)).fetchone()[0]
    finally:
        conn.close()


def _tamper(root: Path, memory_id: str) -> None:
    """The index's copy of the memory's file changed ("Tuesday" -> "Fridayy"): SQLite says ok."""
    body = _row_body(root, memory_id)
    conn = sqlite3.connect(index_path(root))
    try:
        conn.execute("UPDATE files SET body = ? WHERE record_id = ?",
                     (body.replace(TRUE, FALSE), memory_id))
        conn.commit()
    finally:
        conn.close()


def test_the_open_reads_no_copy_and_the_first_use_reads_them_all(tmp_path):
    ids = _vault(tmp_path / "v")
    vault = Vault.open(tmp_path / "v", copies_later=True)
    assert vault.memories.due and vault.relations.due  # (was: every copy read and hashed)
    assert vault.state.opened_from_index and vault.problems == []
    assert "Tuesday" in vault.get(ids[0]).content
    assert not vault.memories.due and not vault.relations.due  # (both: one read)
    assert len(vault.memories) == 4 and len(vault.relations) == 2
    assert vault.copies_read() is False and vault.notices == []


def test_an_open_without_it_reads_the_copies_at_once(tmp_path):
    _vault(tmp_path / "v")
    vault = Vault.open(tmp_path / "v")
    assert not vault.memories.due and vault.memories.raw == 4


def test_a_damaged_copy_is_read_from_the_file_said_and_its_row_written_again(tmp_path):
    ids = _vault(tmp_path / "v")
    root = (tmp_path / "v").resolve()
    _tamper(root, ids[0])
    vault = Vault.open(root, copies_later=True)
    assert vault.notices == []  # (nothing read yet)
    vault.touch(ids[0])  # a write first: it waits for the copies, and writes the file's bytes
    data = vault.layout.memory_path(ids[0]).read_bytes()
    assert TRUE in data and FALSE not in data
    assert len(vault.notices) == 1 and "damaged copy" in vault.notices[0]
    assert vault.copies_read() is True and vault.copies_read() is False  # (said once)
    again = Vault.open(root, copies_later=True)
    assert "Tuesday" in again.get(ids[0]).content and again.notices == []
    assert FALSE not in _row_body(root, ids[0])  # (written again, then moved on by touch)


def test_the_index_deleted_before_the_first_use_means_every_file_read(tmp_path):
    ids = _vault(tmp_path / "v")
    root = (tmp_path / "v").resolve()
    vault = Vault.open(root, copies_later=True)
    for leftover in index_path(root).parent.glob("index.sqlite*"):
        leftover.unlink()
    assert sorted(vault.memories) == sorted(ids) and len(vault.relations) == 2
    assert "Tuesday" in vault.get(ids[0]).content
    assert not vault.state.opened_from_index and vault.copies_read() is True


def test_an_index_moved_on_by_another_process_never_shows_a_later_commit(tmp_path):
    ids = _vault(tmp_path / "v")
    root = (tmp_path / "v").resolve()
    vault = Vault.open(root, copies_later=True)
    head = vault.head
    with Vault.open(root) as other:  # another process commits, and its open moves the index on
        other.update(ids[0], content="changed elsewhere")
        other.delete(ids[3])
    Vault.open(root).close()
    assert "Tuesday" in vault.get(ids[0]).content and ids[3] in vault.memories
    assert vault.head == head and vault.copies_read() is False
    assert vault.refresh()  # caught up: the later commit now
    assert vault.get(ids[0]).content == "changed elsewhere" and ids[3] not in vault.memories
