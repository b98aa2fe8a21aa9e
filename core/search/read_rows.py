"""The search rows of the memories an open is reading, made as it reads them
(:class:`RowsWhileReading`), for the index in memory a search answers from while the index file
is first built (:mod:`.memory_index`); and the rows themselves (:func:`insert_rows`), the same
either way."""

from __future__ import annotations

import queue
import sqlite3
import threading
from collections.abc import Iterable, Mapping

from ..model.records import Memory
from .index import SearchIndex
from .transaction import transaction


def no_merging(conn: sqlite3.Connection) -> None:
    """No merging of FTS5's segments as the rows go in: made once and thrown away, the index is
    built a fifth quicker so, and searched as quickly (same rows, so the same bm25)."""
    conn.execute("INSERT INTO fts (fts, rank) VALUES ('automerge', 0)")


def insert_rows(conn: sqlite3.Connection, memories: Iterable[Memory], first: int) -> int:
    """The search rows of ``memories``, rowids from ``first`` on, in the caller's transaction;
    returns the next rowid."""
    records, texts = [], []
    for rowid, m in enumerate(memories, first):
        records.append((rowid, m.id))
        texts.append((rowid, m.content, m.gist or "", "\n".join(m.meta.tags),
                      "\n".join(m.entities)))
    # (no fingerprint: these rows are never compared with the memories again)
    conn.executemany("INSERT INTO records (rowid, id, fingerprint) VALUES (?, ?, '')", records)
    conn.executemany("INSERT INTO fts (rowid, content, gist, tags, entities) "
                     "VALUES (?, ?, ?, ?, ?)", texts)
    return first + len(records)


class RowsWhileReading:
    """The index in memory :func:`memory_index` makes, made while an open reads the files (the
    first search after a clone: ``memvault search``): the open hands over the memories of each
    folder as it loads them (:meth:`add`), and a thread of its own writes their rows, SQLite
    tokenising them with the interpreter's lock released, so the rows are made while the next
    files are read instead of after the last. :meth:`index_for` gives the index only when it
    holds the rows of exactly the memories the vault ended with, in their order (so the very
    rows and rowids :func:`memory_index` would make); otherwise (a memory with two files, a
    second load, a failure) None, and the caller makes it as usual."""

    def __init__(self) -> None:
        self._index = SearchIndex(None)
        self._conn = self._index.conn  # (made here: the thread only writes through it)
        no_merging(self._conn)
        self._fed: list[Memory] = []
        self._batches: queue.SimpleQueue[list[Memory] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._failed = False

    def add(self, memories: list[Memory]) -> None:
        """The next memories the open loaded, in its order."""
        if not memories:
            return
        self._fed.extend(memories)
        if self._thread is None:
            self._thread = threading.Thread(target=self._write, name="memvault-search-rows",
                                            daemon=True)
            self._thread.start()
        self._batches.put(memories)

    def _write(self) -> None:
        try:
            with transaction(self._conn):
                rowid = 1
                while (batch := self._batches.get()) is not None:
                    rowid = insert_rows(self._conn, batch, rowid)
        except Exception:  # noqa: BLE001 (the rows are made again from the memories)
            self._failed = True
            while self._batches.get() is not None:  # (drained: the open never waits on it)
                pass

    def index_for(self, memories: Mapping[str, Memory]) -> SearchIndex | None:
        """The index, once every row is written, when its rows are those of ``memories``."""
        if self._thread is None:
            return None
        self._batches.put(None)
        self._thread.join()
        self._thread = None
        fed, self._fed = self._fed, []
        if self._failed or len(fed) != len(memories):
            return None
        if any(m is not held for m, held in zip(fed, memories.values())):
            return None
        return self._index
