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
