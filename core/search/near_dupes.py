"""The near-duplicate rows of the derived index: for each memory, the keys of a MinHash
locality-sensitive hash over its content terms (the terms :func:`core.ops.similarity.similarity`
compares: :func:`core.wording.terms`, so that rewordings of the same terms share every key), so
that the memories likely similar to one text, or every pair likely similar, are found without
comparing every pair.

A MinHash signature (``rensa``'s ``RMinHash``, :data:`PERMS` values) is cut into :data:`BANDS`
bands of :data:`ROWS` values; each band is hashed into one 63-bit key. Two memories whose token
sets have Jaccard ``J`` share at least one key with probability ``1 - (1 - J**ROWS)**BANDS``:
0.99 at the 0.76 a link of the consolidate clusters needs at least, 0.68 at 0.6, one in ten
thousand at the 0.13 two unrelated notes of a common vocabulary share. A key only names
candidates: the caller computes the exact similarity of each (:mod:`core.ops.near_duplicates`).

Tables (beside the search rows, written in the same transaction by
:meth:`core.search.index.SearchIndex.sync`, keyed by the record's rowid):
``dupe_docs(doc, keys)`` the keys of each memory, packed (what a change removes), and
``dupe_bands(key, doc)`` the memories of each key, and ``dupe_shared(key)`` the keys two memories
or more share (what a search for every likely pair reads: a few thousand keys, not the table).
A memory without a content token has no row
(nothing to be similar on). ``state('near_dupes')`` names the parameters the rows were made
with; rows of other parameters (or none: an index written before these tables) are dropped and
made again from the memories on the next sync, without touching the search rows.

A first build of the index (:mod:`core.search.first_build`) writes the search rows alone and
leaves the keys **pending** (``state('near_dupes')`` = :data:`PENDING` + the parameters, and
``state('near_dupes_made_to')``: the rows up to that rowid have their keys): a search is ready
without them. They are made from the rows' stored content, chunk by chunk, by the first reader
(:meth:`NearDuplicateRows.make_pending`, called by
:meth:`core.search.index.SearchIndex.near_duplicates`) or by :mod:`core.search.completion`;
meanwhile a sync keeps what is made level (:meth:`NearDuplicateRows.kept`).
"""

from __future__ import annotations

import functools
import sqlite3
import struct
from collections import Counter
from collections.abc import Callable, Iterable
from itertools import combinations, groupby
from operator import itemgetter
from typing import TYPE_CHECKING

from ..wording import terms
from .word_forms import content_of

if TYPE_CHECKING:
    from rensa import RMinHash

PERMS, BANDS, ROWS = 144, 24, 6
SEED = 0x6D656D76  # fixed: the keys are stored, so every process must hash alike
#: What the rows were made with (with the library's version: its hashing makes the stored
#: keys); other rows are made again.
PARAMS = f"rminhash/{PERMS}/{BANDS}x{ROWS}/{SEED}/shared/terms1"
STATE_KEY = "near_dupes"
#: The commit whose tree the rows (these and the search rows) are level with, when known.
LEVEL_KEY = "near_dupes_level_at"
#: A key shared by more memories than this (copies of one text, one-word notes) gives pairs
#: only between neighbours in id order, :data:`NEIGHBOURS` each: bounded work, and still
#: enough links for clusters of at most a dozen.
CROWDED, NEIGHBOURS = 64, 16
#: At most this many candidates of one text are compared with it: those sharing the most keys
#: (a memory of Jaccard 0.8 with the text shares 6 keys of 24 on average, one of 0.6 about one,
#: an unrelated note of common words one at most, by chance).
COMPARED = 200
_MASK = (1 << 63) - 1
_PRIME = 0x100000001B3
#: Each band's key after its first multiplication (the band's number + 1, times the prime).
_FIRST = [(band + 1) * _PRIME for band in range(BANDS)]
_PACK = struct.Struct(f"<{BANDS}q")

#: A write of more memories than this finds the shared keys again with one pass over the table.
BULK = 1000
#: The state of keys left to make from the rows (before :func:`params`), and the rowid up to
#: which they are made.
PENDING, MADE_TO_KEY = "pending:", "near_dupes_made_to"
#: Rows whose keys are made per transaction when pending keys are made.
MAKE_CHUNK = 5000
_TABLES = ("dupe_docs", "dupe_bands", "dupe_shared")
_SCHEMA = (
    "CREATE TABLE dupe_docs (doc INTEGER PRIMARY KEY, keys BLOB NOT NULL)",
    "CREATE TABLE dupe_bands (key INTEGER NOT NULL, doc INTEGER NOT NULL, "
    "PRIMARY KEY (key, doc)) WITHOUT ROWID",
    "CREATE TABLE dupe_shared (key INTEGER PRIMARY KEY)",
)


@functools.cache
def params() -> str:
    """:data:`PARAMS` and the version of ``rensa`` that makes the keys."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        made_by = version("rensa")
    except PackageNotFoundError:  # (run from a source tree without its metadata)
        made_by = "unknown"
    return f"rensa-{made_by}/{PARAMS}"


@functools.cache
def _min_hash() -> type[RMinHash]:
    """rensa's ``RMinHash``, imported when keys are first made: a search that only checks the
    rows are current (:meth:`NearDuplicateRows.kept`) does not load rensa."""
    from rensa import RMinHash as made

    kind: type[RMinHash] = made
    return kind


def band_keys(tokens: Iterable[str]) -> list[int]:
    """The :data:`BANDS` keys of a token set ([] for no token)."""
    words = tokens if isinstance(tokens, (set, frozenset)) else set(tokens)
    if not words:
        return []
    sketch = _min_hash()(num_perm=PERMS, seed=SEED)
    sketch.update(list(words))  # (a minimum over the tokens: their order does not matter)
    values = sketch.digest()
    if ROWS == 6:  # the loop below unrolled, the same keys (a fifth of a first build's keys)
        p, m = _PRIME, _MASK
        return [(((((((((((f ^ a) & m) * p ^ b) & m) * p ^ c) & m) * p ^ d) & m) * p ^ e) & m)
                 * p ^ g) & m for f, a, b, c, d, e, g in zip(
                     _FIRST, values[0::6], values[1::6], values[2::6], values[3::6],
                     values[4::6], values[5::6])]
    keys = []
    for band in range(BANDS):
        key = band + 1
        for value in values[band * ROWS:(band + 1) * ROWS]:
            key = ((key * _PRIME) ^ value) & _MASK
        keys.append(key)
    return keys


def keys_of_text(content: str) -> list[int]:
    """The keys of a text's content terms."""
    return band_keys(terms(content))


class NearDuplicateRows:
    """The near-duplicate tables on one index connection (the caller holds the transaction
    for the writes)."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    # -- writing (inside SearchIndex.sync's transaction) ------------------------------------
    def current(self) -> bool:
        """True when the rows were made with :func:`params` (none pending)."""
        return self._state() == params()

    def reset(self) -> None:
        """Drop every row and mark the tables as made with :func:`params` (the caller fills
        them in the same transaction)."""
        conn = self.conn
        for table in _TABLES:
            conn.execute(f"DROP TABLE IF EXISTS {table}")
        for statement in _SCHEMA:
            conn.execute(statement)
        conn.execute("INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)",
                     (STATE_KEY, params()))

    def pending(self) -> bool:
        """True when the keys of some rows are left to make (:meth:`make_pending`)."""
        return self._state() == PENDING + params()

    def kept(self) -> bool:
        """True when a sync keeps the rows as they are: made with :func:`params`, or pending."""
        return self._state() in (params(), PENDING + params())

    def _state(self) -> str | None:
        try:
            row = self.conn.execute("SELECT value FROM state WHERE key = ?",
                                    (STATE_KEY,)).fetchone()
        except sqlite3.OperationalError:
            return None
        return None if row is None else str(row[0])

    def made_to(self) -> int:
        """The rowid up to which pending keys are made (every rowid when not pending)."""
        if not self.pending():
            return 2**63 - 1
        row = self.conn.execute("SELECT value FROM state WHERE key = ?",
                                (MADE_TO_KEY,)).fetchone()
        return 0 if row is None else int(row[0])

    def defer(self, made_to: int) -> None:
        """Mark the keys of the rows past rowid ``made_to`` as left to make (in the caller's
        transaction); rows made with other parameters (or none) are dropped first."""
        if not self.kept():
            self.reset()
            made_to = 0
        elif self.pending():
            made_to = min(made_to, self.made_to())
        self.conn.execute("INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)",
                          (STATE_KEY, PENDING + params()))
        self.conn.execute("INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)",
                          (MADE_TO_KEY, str(made_to)))

    def make_pending(self, progress: Callable[[int, int], None] | None = None) -> int:
        """Make the keys left to make (:meth:`defer`) from the rows' stored content, in
        transactions of :data:`MAKE_CHUNK` rows, then note the shared keys and mark the rows
        current; ``progress(done, total)`` (rows) after each. Returns how many rows were read.
        A process that stops leaves them pending from where it was."""
        from .transaction import transaction

        conn, read = self.conn, 0
        if not self.pending():
            return 0
        total = conn.execute("SELECT count(*) FROM records").fetchone()[0]
        while True:
            with transaction(conn):
                if not self.pending():  # (made by another process meanwhile)
                    return read
                start = self.made_to()
                rows = conn.execute("SELECT id, c0 FROM fts_content WHERE id > ? ORDER BY id "
                                    "LIMIT ?", (start, MAKE_CHUNK)).fetchall()
                if not rows:
                    note_all_shared(conn)
                    conn.execute("INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)",
                                 (STATE_KEY, params()))
                    conn.execute("DELETE FROM state WHERE key = ?", (MADE_TO_KEY,))
                    return read
                put_unshared(conn, ((doc, content_of(content or "")) for doc, content in rows))
                conn.execute("INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)",
                             (MADE_TO_KEY, str(rows[-1][0])))
                read += len(rows)
                done = conn.execute("SELECT count(*) FROM records WHERE rowid <= ?",
                                    (rows[-1][0],)).fetchone()[0]
            if progress is not None:
                progress(done, total)

    def level_at(self) -> str | None:
        """The commit the rows were noted level with (:meth:`note_level_at`), if any."""
        row = self.conn.execute("SELECT value FROM state WHERE key = ?", (LEVEL_KEY,)).fetchone()
        return None if row is None else row[0]

    def note_level_at(self, commit: str | None) -> None:
        """Note (in the caller's transaction) that the rows are level with the vault's
        memories at ``commit``; None: that is not known (a sync of memories of no commit)."""
        if commit is None:
            self.conn.execute("DELETE FROM state WHERE key = ?", (LEVEL_KEY,))
        else:
            self.conn.execute("INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)",
                              (LEVEL_KEY, commit))

    def remove(self, docs: Iterable[int]) -> None:
        conn = self.conn
        for doc in docs:
            row = conn.execute("SELECT keys FROM dupe_docs WHERE doc = ?", (doc,)).fetchone()
            if row is None:
                continue
            keys = _PACK.unpack(row[0])
            conn.executemany("DELETE FROM dupe_bands WHERE key = ? AND doc = ?",
                             [(key, doc) for key in keys])
            conn.execute("DELETE FROM dupe_docs WHERE doc = ?", (doc,))
            for key in keys:  # a key left with one memory is shared no more
                if len(conn.execute("SELECT doc FROM dupe_bands WHERE key = ? LIMIT 2",
                                    (key,)).fetchall()) < 2:
                    conn.execute("DELETE FROM dupe_shared WHERE key = ?", (key,))

    def put(self, rows: Iterable[tuple[int, str]]) -> None:
        """Write the keys of ``(doc, content)`` rows whose doc has none (a changed memory is
        removed first), and note the keys now shared by two memories or more."""
        conn = self.conn
        docs, bands = put_unshared(conn, rows)
        if docs > BULK:  # one pass over the whole table
            note_all_shared(conn)
            return
        for key, doc in bands:
            if conn.execute("SELECT 1 FROM dupe_bands WHERE key = ? AND doc != ? LIMIT 1",
                            (key, doc)).fetchone():
                conn.execute("INSERT OR IGNORE INTO dupe_shared (key) VALUES (?)", (key,))

    # -- reading ----------------------------------------------------------------------------
    def candidates(self, keys: list[int], limit: int = COMPARED) -> list[int]:
        """The docs sharing a key with ``keys``, those sharing the most first (ties: the
        newest row first), at most ``limit``."""
        if not keys:
            return []
        marks = ", ".join("?" * len(keys))
        return [doc for doc, in self.conn.execute(
            f"SELECT doc FROM dupe_bands WHERE key IN ({marks}) GROUP BY doc "
            "ORDER BY count(*) DESC, doc DESC LIMIT ?", (*keys, limit))]

    def pairs(self, min_shared: int = 1) -> set[tuple[int, int]]:
        """The pairs of docs sharing at least ``min_shared`` keys (lower doc first); within a
        crowded key (:data:`CROWDED`) a doc shares it only with its :data:`NEIGHBOURS` next ones.

        Pairs sharing one key are mostly chance between short notes of common words, and their
        number grows with the square of the vault; so they are never listed for
        ``min_shared`` > 1: each doc's keys of at most :data:`CROWDED` docs are cut into their
        subsets of ``min_shared`` keys, and the docs holding one subset are paired (two docs
        share ``min_shared`` such keys exactly when they hold one subset alike). The work
        follows the docs, at most C(:data:`BANDS`, ``min_shared``) subsets each, not the
        pairs."""
        # (CROSS JOIN: the shared keys first, then each one's rows; without it SQLite scans
        # every row of dupe_bands, 17 times slower at 50k)
        rows = self.conn.execute("SELECT s.key, b.doc FROM dupe_shared s CROSS JOIN dupe_bands b "
                                 "ON b.key = s.key ORDER BY s.key, b.doc")
        keys_of: dict[int, list[int]] = {}  # doc -> its shared keys of a few docs, ascending
        crowded: Counter[tuple[int, int]] = Counter()
        for _key, group in groupby(rows, key=itemgetter(0)):
            docs = [doc for _, doc in group]
            if len(docs) > CROWDED:
                for x, a in enumerate(docs):
                    for b in docs[x + 1:x + 1 + NEIGHBOURS]:
                        crowded[(a, b)] += 1
            else:
                for doc in docs:
                    keys_of.setdefault(doc, []).append(_key)
        holders: dict[tuple[int, ...], list[int]] = {}
        need = max(1, min_shared)
        for doc, keys in keys_of.items():
            if len(keys) >= need:
                for subset in combinations(keys, need):
                    holders.setdefault(subset, []).append(doc)
        found: set[tuple[int, int]] = set()
        for sharing in {tuple(sorted(d)) for d in holders.values() if len(d) > 1}:
            for x, a in enumerate(sharing):
                found.update((a, b) for b in sharing[x + 1:])
        for (a, b), count in crowded.items():
            if count < need:
                count += len(set(keys_of.get(a, ())).intersection(keys_of.get(b, ())))
            if count >= need:
                found.add((a, b))
        return found


# -- a first build (:mod:`core.search.first_build`): keys chunk by chunk, shared keys at the end --
def put_unshared(conn: sqlite3.Connection, rows: Iterable[tuple[int, str]]
                 ) -> tuple[int, list[tuple[int, int]]]:
    """The keys of ``(doc, content)`` rows whose doc has none, without noting which keys are
    shared (:func:`note_all_shared` does, once every row is in); how many docs got keys, and
    the ``(key, doc)`` rows written."""
    docs: list[tuple[int, bytes]] = []
    bands: list[tuple[int, int]] = []
    for doc, content in rows:
        keys = keys_of_text(content)
        if keys:
            docs.append((doc, _PACK.pack(*keys)))
            bands.extend((key, doc) for key in keys)
    conn.executemany("INSERT INTO dupe_docs (doc, keys) VALUES (?, ?)", docs)
    bands.sort()
    conn.executemany("INSERT OR IGNORE INTO dupe_bands (key, doc) VALUES (?, ?)", bands)
    return len(docs), bands


def note_all_shared(conn: sqlite3.Connection) -> None:
    """Note every key two memories or more share (one pass over the table)."""
    conn.execute("INSERT OR IGNORE INTO dupe_shared (key) SELECT key FROM dupe_bands "
                 "GROUP BY key HAVING count(*) > 1")
