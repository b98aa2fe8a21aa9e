"""The common words' lists (:mod:`.wordlists`) left **pending** by a first build, as its
near-duplicate keys are (:meth:`.near_dupes.NearDuplicateRows.defer`).

A search does not need them to answer: without a word's list FTS5 ranks the word itself (the
same hits and scores: the lists only spare it the bm25 of every memory holding a common word),
and a search that can write makes a word's list the first time it is searched
(:meth:`.wordlists.Words.build`). Making every list was more than half of a new index's CPU at
100,000 memories (FTS5's bm25 of every match of some 200 common words), so a first build writes
the rows alone and notes the lists pending in the same transaction; whatever leaves the index
complete (:func:`.completion.complete`: the background builder after ``memvault search``, the
app's build, ``init``, ``migrate``, ``import``, ``reindex``, the MCP server) makes them after
the rows, in one transaction that also clears the note. A build killed at any point leaves
either the note (lists made later) or the lists whole.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from .wordlists import PENDING_KEY, Words, drop_all


def defer(conn: sqlite3.Connection) -> None:
    """Inside the caller's transaction: every list dropped and the lists noted pending."""
    drop_all(conn)
    conn.execute("INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)",
                 (PENDING_KEY, "pending"))


def pending(conn: sqlite3.Connection) -> bool:
    """True when the lists are noted pending (:func:`defer`) and not made since."""
    found = conn.execute("SELECT 1 FROM state WHERE key = ?", (PENDING_KEY,)).fetchone()
    return found is not None


def make_pending(conn: sqlite3.Connection, words: Callable[[], Words],
                 progress: Callable[[int, int], None] | None = None) -> int:
    """The pending lists made now (:meth:`.wordlists.Words.build_common`, which clears the
    note in its transaction), ``progress(done, total)`` told after each word. Returns how
    many were made: 0 when none are pending (asked again under the write lock: another
    process may have made them while this one waited for it), or when the index cannot be
    written now (they stay pending)."""
    try:
        if not pending(conn):
            return 0
    except sqlite3.OperationalError:  # (no state table: not an index of this version)
        return 0
    return words().build_common(progress, lambda: pending(conn))
