"""A search index in memory, made from the memories a process holds: what a search answers from
while the index file is first built by another process (:mod:`.background_build`).

It holds the same FTS5 rows as the index file will (every memory, every status, the same
columns and tokenizer), so bm25 sees the same documents, row counts and lengths, and the ranking
is the one the file will give. Only the search rows are made: no near-duplicate keys and no word
lists ahead (a common word's list is made in memory the first time it is searched), which is
what makes it much quicker than the file's first build (figures: docs/writes.md).
"""

from __future__ import annotations

import os
import queue
import sqlite3
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path

from ..model.records import Memory
from .index import SearchIndex
from .transaction import transaction


def memory_index(memories: Mapping[str, Memory]) -> SearchIndex:
    """An index in memory with the search rows of every memory of ``memories`` (never synced:
    made again for other memories)."""
    index = SearchIndex(None)
    _no_merging(index.conn)
    with transaction(index.conn):
        _insert_rows(index.conn, memories.values(), 1)
    return index


def _no_merging(conn: sqlite3.Connection) -> None:
    """No merging of FTS5's segments as the rows go in: made once and thrown away, the index is
    built a fifth quicker so, and searched as quickly (same rows, so the same bm25)."""
    conn.execute("INSERT INTO fts (fts, rank) VALUES ('automerge', 0)")


def _insert_rows(conn: sqlite3.Connection, memories: Iterable[Memory], first: int) -> int:
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
        _no_merging(self._conn)
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
                    rowid = _insert_rows(self._conn, batch, rowid)
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


class HandingOver:
    """A searcher's part that leaves the index's first build to a background builder
    (:mod:`.background_build`) and answers from an index in memory meanwhile, for the vault at
    ``root``: the index made once for the same memories, the builder's lock claimed during the
    search and the builder started by :meth:`close`, once the answer is out (so that it does
    not compete with it)."""

    def __init__(self, root: Path, read: RowsWhileReading | None = None):
        self.root = root
        #: the rows made while the open read the files, if any (used for its memories, once)
        self.read = read
        #: (the memories, their version) and the index in memory made from them
        self._made: tuple[Mapping[str, Memory], object, SearchIndex] | None = None
        self._claimed: int | None = None

    def index_for(self, index: SearchIndex, memories: Mapping[str, Memory]
                  ) -> tuple[SearchIndex, str] | None:
        """The index in memory to answer from and the note to give, while the file's first
        build is left to a builder; None when ``index`` is to be brought level as usual."""
        from .background_build import hand_over

        over = hand_over(index, memories, self.root)
        if over is None:
            return None
        note, claimed = over
        if claimed is not None:
            if self._claimed is None:
                self._claimed = claimed
            else:
                os.close(claimed)
        version = getattr(memories, "version", None)
        made = self._made
        if made is None or made[0] is not memories or version is None or made[1] != version:
            read, self.read = self.read, None
            index = read.index_for(memories) if read is not None else None
            made = self._made = (memories, version, index or memory_index(memories))
        return made[2], note

    def close(self) -> None:
        """Start the builder whose lock was claimed. The index in memory is left open: a
        result's lazy total may still count from it."""
        self._made = None
        if self._claimed is not None:
            from .background_build import launch

            fd, self._claimed = self._claimed, None
            launch(self.root, fd)
