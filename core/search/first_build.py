"""The first build of the search index (after a clone, a ``reindex``, an index deleted by hand):
the search rows and the near-duplicate keys of every memory, written in transactions of
:data:`CHUNK` memories with a report of progress after each, then the word lists.

One transaction for 100k memories held the index's write lock for the whole build, and a search
meanwhile (the app's filter, another process, the MCP server) waited for it or wrote the same rows
itself. Here each chunk is committed as it is done, and ``state('search_build')`` says a build is
under way (which process, how far): a search then answers from the rows written so far, and says
so (:func:`building`), instead of waiting or writing rows too. A build that stopped (killed, its
process gone, or silent for :data:`STALE_AFTER` seconds) is no build: the next search brings
the index level as usual, from the rows the build had written.

The rows are those :meth:`core.search.index.SearchIndex.sync` writes (the same ``records`` and
``fts`` rows, the same near-duplicate keys, the same word lists), so what the index holds after
a build equals what one transaction would have made (``tests/core/search/test_first_build.py``).
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..git.lock import process_alive
from ..model.records import Memory
from .row_sources import MadeRow
from .transaction import transaction

#: Memories written per transaction (a fraction of a second each at 100k: a search in between
#: reads what is done).
CHUNK = 2000
#: A sync with this many memories or more to write into an index without rows builds it in
#: chunks; fewer are written in one transaction as any other sync.
FIRST_BUILD_FROM = 5000
BUILD_KEY = "search_build"
#: A build whose record was not moved on for this long (seconds) has stopped.
STALE_AFTER = 120.0

#: ``progress(what, done, total)``: ``what`` is "search index" (memories) or "word lists" (words).
Progress = Callable[[str, int, int], None]
PHASE_ROWS = "search index"
PHASE_WORDS = "word lists"


@dataclass(frozen=True)
class BuildState:
    """A first build under way: its process, and how many of how many memories are written."""

    pid: int
    done: int
    total: int
    at: float

    @property
    def note(self) -> str:
        return building_note(self.done, self.total)


def building_note(done: int, total: int) -> str:
    """What a search says while a first build runs elsewhere."""
    return (f"the search index is being built ({done:,} of {total:,} memories so far): "
            "these results are from those; search again when it is done")


def building(conn: sqlite3.Connection) -> BuildState | None:
    """The first build under way in the index of ``conn``, if one is: its process alive and its
    record moved on within :data:`STALE_AFTER` (a build of this very process counts: a search
    on another connection answers from its rows too)."""
    try:
        row = conn.execute("SELECT value FROM state WHERE key = ?", (BUILD_KEY,)).fetchone()
    except sqlite3.Error:
        return None
    if row is None:
        return None
    try:
        found = json.loads(row[0])
        state = BuildState(int(found["pid"]), int(found["done"]), int(found["total"]),
                           float(found["at"]))
    except (ValueError, TypeError, KeyError):
        return None
    if time.time() - state.at > STALE_AFTER or not process_alive(state.pid):
        return None
    return state


class Builder:
    """The chunked first build of the index on ``conn`` (see the module docstring), from its
    parts: ``made(memories, id)`` is the index's own (the memory, its fingerprint and the blob
    id of the bytes it was parsed from: :meth:`.row_sources.RowSources.made`),
    ``build_word_lists(progress)`` writes its word lists (:meth:`.wordlists.Words.build_common`)."""

    def __init__(self, conn: sqlite3.Connection,
                 made: Callable[[Mapping[str, Memory], str], MadeRow],
                 build_word_lists: Callable[[Callable[[int, int], None]], int],
                 progress: Progress | None = None):
        self.conn = conn
        self.made = made
        self.build_word_lists = build_word_lists
        self.progress = progress

    def run(self, memories: Mapping[str, Memory]) -> int:
        """Write the rows of every memory of ``memories`` the index has no row for, chunk by
        chunk, then the near-duplicate keys they share and the word lists. Returns how many
        rows were written. The caller checked that the index has no rows, or only rows this
        builder can add to (their near-duplicate keys current)."""
        from .near_dupes import STATE_KEY, NearDuplicateRows, note_all_shared, params

        conn = self.conn
        ids = list(memories)
        total = len(ids)
        dupes = NearDuplicateRows(conn)
        with transaction(conn):
            held = {i for i, in conn.execute("SELECT id FROM records")}
            if not held:
                dupes.reset()
            # the keys are marked current only when every row has its keys and the shared
            # ones are found: a build that stops leaves them to be made again by the next sync
            conn.execute("DELETE FROM state WHERE key = ?", (STATE_KEY,))
            _drop_word_lists(conn)
            self._mark(conn, len(held), total)
        written = 0
        todo = [i for i in ids if i not in held]
        try:
            for start in range(0, len(todo), CHUNK):
                chunk = todo[start:start + CHUNK]
                with transaction(conn):
                    written += self._write(conn, memories, chunk)
                    self._mark(conn, len(held) + start + len(chunk), total)
                self._report(PHASE_ROWS, len(held) + start + len(chunk), total)
            with transaction(conn):
                note_all_shared(conn)
                conn.execute("INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)",
                             (STATE_KEY, params()))
                conn.execute("DELETE FROM state WHERE key = ?", (BUILD_KEY,))
        finally:
            self._unmark(conn)
        self._report(PHASE_ROWS, total, total)
        self.build_word_lists(lambda done, n: self._report(PHASE_WORDS, done, n))
        return written

    def _write(self, conn: sqlite3.Connection, memories: Mapping[str, Memory],
               chunk: list[str]) -> int:
        """The rows of ``chunk`` that have none yet (another writer may have written some since
        the build began), inside the caller's transaction."""
        from .near_dupes import put_unshared

        marks = ",".join("?" * len(chunk))
        present = {i for i, in conn.execute(f"SELECT id FROM records WHERE id IN ({marks})",
                                            chunk)}
        rowid = conn.execute("SELECT coalesce(max(rowid), 0) FROM records").fetchone()[0]
        records, texts = [], []
        for memory_id in chunk:
            if memory_id in present:
                continue
            m, fp, source = self.made(memories, memory_id)
            rowid += 1
            records.append((rowid, memory_id, fp, source))
            texts.append((rowid, m.content, m.gist or "", "\n".join(m.meta.tags),
                          "\n".join(m.entities)))
        conn.executemany("INSERT INTO records (rowid, id, fingerprint, source) "
                         "VALUES (?, ?, ?, ?)", records)
        conn.executemany("INSERT INTO fts (rowid, content, gist, tags, entities) "
                         "VALUES (?, ?, ?, ?, ?)", texts)
        put_unshared(conn, [(t[0], t[1]) for t in texts])
        return len(records)

    def _mark(self, conn: sqlite3.Connection, done: int, total: int) -> None:
        conn.execute("INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)", (
            BUILD_KEY, json.dumps({"pid": os.getpid(), "done": done, "total": total,
                                   "at": time.time()})))

    @staticmethod
    def _unmark(conn: sqlite3.Connection) -> None:
        """The build's record goes, however the build ended (best effort: a record left behind
        by a killed process is no build, see :func:`building`)."""
        try:
            if conn.in_transaction:
                return  # (rolled back by the transaction that raised)
            with transaction(conn):
                conn.execute("DELETE FROM state WHERE key = ?", (BUILD_KEY,))
        except sqlite3.Error:
            pass

    def _report(self, what: str, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress(what, done, total)


def _drop_word_lists(conn: sqlite3.Connection) -> None:
    from . import wordlists

    wordlists.drop_all(conn)
