"""The first build of the search index (after a clone, a ``reindex``, an index deleted by hand):
the search rows of every memory, written in transactions of :data:`CHUNK` memories with a report
of progress after each.

The common words' lists and the near-duplicate keys of the rows are left pending
(:mod:`.pending_lists`, :meth:`.near_dupes.NearDuplicateRows.defer`): a search needs neither.
Their first reader makes them from the rows (a search that can write, the list of the one word
it ranks), or a verb that leaves the index complete (:func:`.completion.complete`).

One transaction for 100k memories held the index's write lock for the whole build, and a search
meanwhile (the app's filter, another process, the MCP server) waited for it or wrote the same rows
itself. Here each chunk is committed as it is done, and ``state('search_build')`` says a build is
under way (which process, how far, since when). A search meanwhile waits for it within a bound
(:func:`wait_for`, :data:`WAIT_ENV`, 2 s by default) and, past it, answers from every memory it
holds, made into an index in memory (:mod:`.memory_index`), saying so with how far the build is
(:func:`building_note`): never from the rows so far alone, which would leave out the memories
not written yet (a memory its own process just saved among them). A build that stopped (killed, its
process gone, or silent for :data:`STALE_AFTER` seconds) is no build: the next search brings
the index level as usual, from the rows the build had written.

The rows are those :meth:`core.search.index.SearchIndex.sync` writes (the same ``records`` and
``fts`` rows; the same word lists and near-duplicate keys once made), so what the index holds
after a build, made complete, equals what one transaction would have made
(``tests/core/search/test_first_build.py``).
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..git.lock import process_alive
from .row_sources import MadeRow
from .transaction import transaction
from .word_forms import indexed

if TYPE_CHECKING:
    from ..model.records import Memory

#: Memories written per transaction (a fraction of a second each at 100k: a search in between
#: reads what is done).
CHUNK = 2000
#: A sync with this many memories or more to write into an index without rows builds it in
#: chunks; fewer are written in one transaction as any other sync.
FIRST_BUILD_FROM = 5000
#: SQLite's page cache during a first build (``PRAGMA cache_size``: KiB when negative): the
#: FTS5 segments being merged stay in memory (2 MB by default).
BUILD_CACHE = -65536
BUILD_KEY = "search_build"
#: A build whose record was not moved on for this long (seconds) has stopped.
STALE_AFTER = 120.0
#: How long a search waits for a first build under way (seconds; 0: not at all) before it
#: answers from the memories themselves: ``$MEMVAULT_SEARCH_WAIT``, else :data:`DEFAULT_WAIT`.
WAIT_ENV = "MEMVAULT_SEARCH_WAIT"
DEFAULT_WAIT = 2.0
#: How often a waiting search looks at the build's record again (seconds).
POLL = 0.02

#: ``progress(what, done, total)``: ``what`` is "search index" (memories), "word lists" (words)
#: or "near-duplicate keys" (memories).
Progress = Callable[[str, int, int], None]
PHASE_ROWS = "search index"
#: (the lists and the keys: made after the search is ready, by :func:`.completion.complete`)
PHASE_WORDS = "word lists"
PHASE_KEYS = "near-duplicate keys"


@dataclass(frozen=True)
class BuildState:
    """A first build under way: its process, and how many of how many memories are written."""

    pid: int
    done: int
    total: int
    at: float
    #: when the build began, and how many rows the index held then (for :attr:`eta`)
    since: float | None = None
    start: int = 0

    @property
    def eta(self) -> float | None:
        """Seconds until the rows are all written, at the pace so far (None: no pace yet)."""
        if self.since is None or self.done <= self.start or self.at <= self.since:
            return None
        rate = (self.done - self.start) / (self.at - self.since)
        return max(0.0, (self.total - self.done) / rate - (time.time() - self.at))

    @property
    def note(self) -> str:
        return building_note(self.done, self.total, self.eta)


#: How the note of a search during another's first build begins (:func:`building_note`).
NOTE_START = "the search index is still being built"


def building_note(done: int, total: int, eta: float | None = None) -> str:
    """What a search says when it answered from the memories themselves because the index's
    first build (``done`` of ``total`` rows written, ``eta`` seconds left) was not done within
    the wait (:func:`wait_for`)."""
    left = "" if eta is None else f", about {max(1, round(eta)):,} s left"
    return (f"{NOTE_START} ({done:,} of {total:,} memories so far"
            f"{left}): this search read every memory itself, with the same ranking")


def building_json(building: tuple[int, int, float | None] | None) -> dict[str, object] | None:
    """A search's ``index_building`` in JSON: None when it answered from the index file,
    level; else how far the first build is (rows ``done`` of ``total``, ``eta_seconds``) while
    the answer came from every memory, read in memory (``complete``: nothing left out)."""
    if building is None:
        return None
    done, total, eta = building
    return {"done": done, "total": total,
            "eta_seconds": None if eta is None else round(eta, 1), "complete": True}


def search_wait() -> float:
    """The wait of a search for a first build under way (:data:`WAIT_ENV`), in seconds.
    Raises ValueError, saying what is wrong, for a value that is not a number of seconds."""
    raw = os.environ.get(WAIT_ENV, "").strip()
    if not raw:
        return DEFAULT_WAIT
    try:
        wait = float(raw)
    except ValueError:
        wait = -1.0
    if not 0 <= wait < float("inf"):
        raise ValueError(f"{WAIT_ENV} must be a number of seconds, 0 or more (not {raw!r})")
    return wait


def _pause(seconds: float) -> None:
    """The pause between two looks of a waiting search (a hook for tests)."""
    time.sleep(seconds)


def waited(conn: sqlite3.Connection, bound: float | None) -> BuildState | None:
    """The first build under way in the index of ``conn`` (:func:`building`), once waited for
    within ``bound`` seconds (None: :func:`search_wait`): None when there is none (any more)."""
    if building(conn) is None:
        return None
    return wait_for(conn, search_wait() if bound is None else bound)


def wait_for(conn: sqlite3.Connection, bound: float) -> BuildState | None:
    """Wait until no first build is under way in the index of ``conn`` (:func:`building`), for
    at most ``bound`` seconds: None once there is none, else the build still under way."""
    deadline = time.monotonic() + bound
    while True:
        state = building(conn)
        left = deadline - time.monotonic()
        if state is None or left <= 0:
            return state
        _pause(min(POLL, left))


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
        since = found.get("since")
        state = BuildState(int(found["pid"]), int(found["done"]), int(found["total"]),
                           float(found["at"]), None if since is None else float(since),
                           int(found.get("start", 0)))
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    if time.time() - state.at > STALE_AFTER or not process_alive(state.pid):
        return None
    return state


class Builder:
    """The chunked first build of the index on ``conn`` (see the module docstring), from its
    parts: ``made(memories, id)`` is the index's own (the memory, its fingerprint and the blob
    id of the bytes it was parsed from: :meth:`.row_sources.RowSources.made`)."""

    def __init__(self, conn: sqlite3.Connection,
                 made: Callable[[Mapping[str, Memory], str], MadeRow],
                 progress: Progress | None = None):
        self.conn = conn
        self.made = made
        self.progress = progress
        self._began: tuple[float, int] | None = None

    def run(self, memories: Mapping[str, Memory]) -> int:
        """Write the rows of every memory of ``memories`` the index has no row for, chunk by
        chunk (the word lists and their near-duplicate keys left pending). Returns how many
        rows were written. The caller checked that the index has no rows, or only rows this
        builder can add to (their near-duplicate keys current or pending)."""
        from . import pending_lists
        from .near_dupes import NearDuplicateRows

        conn = self.conn
        ids = list(memories)
        total = len(ids)
        dupes = NearDuplicateRows(conn)
        with transaction(conn):
            held = {i for i, in conn.execute("SELECT id FROM records")}
            if not held:
                dupes.reset()
            # the rows written here get no near-duplicate keys: they are left pending, made
            # from the rows when first asked (a search needs none of them)
            dupes.defer(conn.execute("SELECT coalesce(max(rowid), 0) FROM records").fetchone()[0])
            pending_lists.defer(conn)  # (made after the rows: a search needs none)
            self._began = (time.time(), len(held))
            self._mark(conn, len(held), total)
        written = 0
        todo = [i for i in ids if i not in held]
        cache = conn.execute("PRAGMA cache_size").fetchone()[0]
        conn.execute(f"PRAGMA cache_size = {BUILD_CACHE}")
        try:
            for start in range(0, len(todo), CHUNK):
                chunk = todo[start:start + CHUNK]
                with transaction(conn):
                    written += self._write(conn, memories, chunk)
                    self._mark(conn, len(held) + start + len(chunk), total)
                self._report(PHASE_ROWS, len(held) + start + len(chunk), total)
            with transaction(conn):
                conn.execute("DELETE FROM state WHERE key = ?", (BUILD_KEY,))
        finally:
            self._unmark(conn)
            conn.execute(f"PRAGMA cache_size = {int(cache)}")
        self._report(PHASE_ROWS, total, total)
        return written

    def _write(self, conn: sqlite3.Connection, memories: Mapping[str, Memory],
               chunk: list[str]) -> int:
        """The rows of ``chunk`` that have none yet (another writer may have written some since
        the build began), inside the caller's transaction."""
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
            records.append((rowid, memory_id, fp, source, m.created_at))
            texts.append((rowid, indexed(m.content), m.gist or "", "\n".join(m.meta.tags),
                          "\n".join(m.entities)))
        conn.executemany("INSERT INTO records (rowid, id, fingerprint, source, created_at) "
                         "VALUES (?, ?, ?, ?, ?)", records)
        conn.executemany("INSERT INTO fts (rowid, content, gist, tags, entities) "
                         "VALUES (?, ?, ?, ?, ?)", texts)
        return len(records)

    def _mark(self, conn: sqlite3.Connection, done: int, total: int) -> None:
        since, start = self._began or (time.time(), done)
        conn.execute("INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)", (
            BUILD_KEY, json.dumps({"pid": os.getpid(), "done": done, "total": total,
                                   "at": time.time(), "since": since, "start": start})))

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

