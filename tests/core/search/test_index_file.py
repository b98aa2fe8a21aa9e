"""The index file is never removed from under a connection: another process's ``memvault
reindex``, or an index of another schema, empties it in place, so a process that held it open
(the app, the MCP server) goes on reading and writing the one file everybody reads."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

from core import Vault
from core.search import SearchIndex, Searcher, index_path
from core.search.index_file import SCHEMA_VERSION


def _reindex_in_another_process(root) -> None:
    subprocess.run([sys.executable, "-m", "tui.cli", "reindex", "--vault", str(root)],
                   check=True, capture_output=True, text=True)


def test_a_reindex_elsewhere_leaves_a_connection_writing_the_file_everybody_reads(vault):
    first = vault.add("the garden needs water on mondays")
    held = SearchIndex.for_root(vault.root)  # as the app holds it
    try:
        held.sync(vault.memories)
        assert set(held.fingerprints()) == {first.id}
        inode = os.stat(index_path(vault.root)).st_ino
        _reindex_in_another_process(vault.root)
        later = vault.add("tomatoes in the garden")
        held.sync(vault.memories)
        with Searcher(vault, index=held, mode="bm25") as searcher:
            assert {h.memory.id for h in searcher.search("garden").hits} == {first.id, later.id}
    finally:
        held.close()
    reader = sqlite3.connect(index_path(vault.root))
    try:
        assert reader.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        ids = {i for i, in reader.execute("SELECT id FROM records")}
        assert ids == {first.id, later.id}  # the held connection's write is in the file
        hits = reader.execute("SELECT count(*) FROM fts WHERE fts MATCH 'tomatoes'").fetchone()
        assert hits == (1,)
    finally:
        reader.close()
    assert os.stat(index_path(vault.root)).st_ino == inode  # emptied in place, not replaced


def test_an_index_of_another_schema_is_made_new_in_place_for_every_connection(vault):
    vault.add("the garden needs water on mondays")
    path = index_path(vault.root)
    with SearchIndex.for_root(vault.root) as index:
        index.sync(vault.memories)
    older = sqlite3.connect(path, isolation_level=None)  # a connection of an older memvault
    try:
        older.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")
        inode = os.stat(path).st_ino
        with SearchIndex.for_root(vault.root) as index:
            assert index.sync(vault.memories).rebuilt == (
                f"schema {SCHEMA_VERSION - 1}, not {SCHEMA_VERSION}")
        assert os.stat(path).st_ino == inode
        assert older.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        assert older.execute("SELECT count(*) FROM records").fetchone() == (1,)
    finally:
        older.close()
    assert Vault.open(vault.root).memories  # and an open from it still works


def test_a_checkpoint_copies_the_log_into_the_file_while_a_connection_writes_on(vault, tmp_path):
    """``checkpoint`` (the MCP server's, after an answer): what the log held is in the index
    file itself, read from a copy of the file alone; the writing connection goes on."""
    import shutil

    from core.search.index_file import checkpoint

    searcher = Searcher(vault)
    searcher.search("anything")  # the index made
    path = index_path(vault.root)
    searcher.index.conn.execute("PRAGMA wal_autocheckpoint=0")  # (only ours copies)
    for i in range(5):
        vault.add(f"Checkpointed memory number {i}.")
        searcher.search("checkpointed")  # its rows written, to the log
    alone = tmp_path / "alone.sqlite"

    def rows_in_the_file_alone() -> int:
        shutil.copyfile(path, alone)  # the file without its -wal
        conn = sqlite3.connect(alone)
        try:
            return conn.execute("SELECT count(*) FROM records").fetchone()[0]
        finally:
            conn.close()

    before = rows_in_the_file_alone()
    busy, log, copied = checkpoint(path)
    assert busy == 0 and log > 0 and copied == log
    assert rows_in_the_file_alone() == before + 5
    vault.add("One more after the checkpoint.")
    assert searcher.search("checkpoint")  # the connection writes and reads on
    searcher.close()


def test_a_checkpoint_follows_no_link_and_needs_a_file(tmp_path):
    from core.search.index_file import checkpoint

    assert checkpoint(tmp_path / "missing.sqlite") is None
    (tmp_path / "elsewhere.sqlite").write_bytes(b"")
    (tmp_path / "link.sqlite").symlink_to(tmp_path / "elsewhere.sqlite")
    assert checkpoint(tmp_path / "link.sqlite") is None
