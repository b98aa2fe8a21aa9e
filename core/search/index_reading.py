"""Reading the search index: FTS5 matches with their bm25, the best ones, counts, and the word
lists (:mod:`core.search.wordlists`). A part of :class:`core.search.index.SearchIndex`
(``index.reading``), handed how to reach the index's connection, rows, memo and generation."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .bitsets import bits_of, bits_of_json
from .sql_values import int_value

if TYPE_CHECKING:  # imported when a search first asks (an open reads the index's files only)
    from .wordlists import Words

#: bm25 weight of each FTS column (content, gist, tags, entities): a gist repeats its content's
#: words, so it counts for less; tags and entities are short and chosen, so a hit counts more.
COLUMN_WEIGHTS = (1.0, 0.5, 1.5, 1.5)
TOKENIZER = "porter unicode61 remove_diacritics 2"
#: What FTS5 pays to look up one rowid in a MATCH (``MATCH ? AND rowid IN (...)``: it opens
#: every term's doclists again for each rowid), in rows of a whole match read: a word's look-up
#: ~20 us a rowid against ~0.3 us a row of its whole match, an OR of 9 words ~500 us a rowid
#: (6k memories). So a look-up is used only when the rows asked for are that many times fewer
#: than the rows the expression matches (a filter to a few memories of a big vault).
LOOKUP_COST = 64
#: The most ids :meth:`IndexReading.ids_matching` keeps, over all the expressions it remembers
#: (a question asks the same words' matches again for each page of candidates it reads).
KEPT_IDS = 1_000_000
#: The most bytes of rowid bits :meth:`IndexReading.rowid_bits` keeps (a word's are 12.5 KB at
#: 100k memories: about 2,600 words' worth).
KEPT_BITS = 32 * 1024 * 1024


@dataclass(frozen=True)
class _RowidMemo:
    """rowid -> id, made from the index's rows ``known`` (kept while they are the same)."""

    known: dict[str, tuple[int, str]]
    by_rowid: dict[int, str]


@dataclass(frozen=True)
class _CountMemo:
    """expression -> how many rows match it, at the index's ``generation``."""

    generation: int
    counts: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class _ListedMemo:
    """(token, depths) -> its word list's rows as bits and its tiers, at the index's
    ``generation``."""

    generation: int
    lists: dict[tuple[str, tuple[int, ...]], tuple[int, list[tuple[int, float]]]] = field(
        default_factory=dict)


@dataclass
class _MatchMemo:
    """expression -> the ids of the rows matching it, at the index's ``generation`` and for the
    rows ``by_rowid`` (at most :data:`KEPT_IDS` ids in all)."""

    generation: int
    by_rowid: dict[int, str]
    found: dict[str, frozenset[str]] = field(default_factory=dict)
    size: int = 0


class IndexReading:
    """What a search reads of the index: the connection, the rows (id -> (rowid, fingerprint)),
    the memo and the generation are the index's own, read through what it hands in."""

    def __init__(self, conn: Callable[[], sqlite3.Connection], memo: dict[str, object],
                 generation: Callable[[], int],
                 load_known: Callable[[], dict[str, tuple[int, str]]]) -> None:
        self._conn = conn
        self.memo = memo
        self._generation = generation
        self._load_known = load_known

    @property
    def conn(self) -> sqlite3.Connection:
        return self._conn()

    def ids_by_rowid(self) -> dict[int, str]:
        known = self._load_known()
        memo = self.memo.get("ids_by_rowid")
        if isinstance(memo, _RowidMemo) and memo.known is known:
            return memo.by_rowid
        by_rowid = {rowid: i for i, (rowid, _) in known.items()}
        self.memo["ids_by_rowid"] = _RowidMemo(known, by_rowid)
        return by_rowid

    def words(self) -> Words:
        """The word lists of this connection (:mod:`core.search.wordlists`)."""
        from .wordlists import Words

        words = self.memo.get("words")
        if not isinstance(words, Words) or words.conn is not self.conn:
            words = self.memo["words"] = Words(self.conn, TOKENIZER, COLUMN_WEIGHTS)
        return words

    def match(self, expression: str) -> dict[str, float]:
        """id -> relevance (FTS5's bm25 with :data:`COLUMN_WEIGHTS`, negated: higher is
        better, always > 0) of every row matching the FTS5 ``expression``."""
        weights = ", ".join(str(w) for w in COLUMN_WEIGHTS)
        ids = self.ids_by_rowid()
        rows = self.conn.execute(f"SELECT rowid, bm25(fts, {weights}) FROM fts WHERE fts MATCH ?",
                                 (expression,))
        return {ids[rowid]: max(-rank, 1e-9) for rowid, rank in rows if rowid in ids}

    def match_among(self, expression: str, among: list[str]) -> dict[str, float]:
        """:meth:`match`, for the rows of the ids ``among`` only: a look-up each when they are
        far fewer than the rows it matches (:data:`LOOKUP_COST`), else the whole match kept
        to them (the same scores: bm25 reads the index's totals, not the rows asked for)."""
        words = expression.count(" OR ") + 1  # a look-up opens each word's doclists
        if not self._looked_up(len(among) * words, expression):
            wanted = set(among)
            return {i: s for i, s in self.match(expression).items() if i in wanted}
        known = self._load_known()
        rowids = ",".join(str(known[i][0]) for i in among if i in known)  # integers: no quoting
        if not rowids:
            return {}
        weights = ", ".join(str(w) for w in COLUMN_WEIGHTS)
        ids = self.ids_by_rowid()
        rows = self.conn.execute(f"SELECT rowid, bm25(fts, {weights}) FROM fts WHERE fts MATCH ? "
                                 f"AND rowid IN ({rowids})", (expression,))
        return {ids[rowid]: max(-rank, 1e-9) for rowid, rank in rows if rowid in ids}

    def _looked_up(self, lookups: int, expression: str) -> bool:
        """Whether ``lookups`` rowid look-ups cost less than reading every match of
        ``expression`` (its count asked only when the index is big enough for them to)."""
        if not lookups or lookups * LOOKUP_COST >= len(self._load_known()):
            return False
        return lookups * LOOKUP_COST < self.count(expression)

    def ranked(self, expression: str, limit: int) -> list[tuple[str, float]]:
        """The ``limit`` rows matching ``expression`` with the best bm25 (as :meth:`match`
        gives it), best first: scored and sorted inside SQLite."""
        weights = ", ".join(str(w) for w in COLUMN_WEIGHTS)
        ids = self.ids_by_rowid()
        rows = self.conn.execute(
            f"SELECT rowid, bm25(fts, {weights}) AS r FROM fts WHERE fts MATCH ? "
            "ORDER BY r, rowid LIMIT ?", (expression, limit))
        return [(ids[rowid], max(-r, 1e-9)) for rowid, r in rows if rowid in ids]

    def ranked_among(self, expression: str, by_holds: dict[int, list[int]], limit: int
                     ) -> list[tuple[str, float, int]]:
        """The ``limit`` best of the rows ``by_holds`` (how many phrases they hold -> their
        rowids) by bm25 times that many, best first: (id, bm25 as :meth:`match` gives it, how
        many). Each gets the very bm25 the whole ``expression`` gives it: FTS5 walks the
        expression's matches (no rowid look-up: ``+rowid`` keeps the filter out of FTS5) and
        scores only those the filter lets through (SQLite tests the WHERE clause before it
        computes ``bm25``), so a few hundred rows of a wide OR cost a bm25 each, not one for
        every match."""
        holds = sorted(by_holds, reverse=True)
        if not holds:
            return []
        weights = ", ".join(str(w) for w in COLUMN_WEIGHTS)
        each = "SELECT value FROM json_each(?)"
        times = " ".join(f"WHEN +rowid IN ({each}) THEN {int(k)}" for k in holds[:-1])
        times = f"CASE {times} ELSE {int(holds[-1])} END" if times else str(int(holds[-1]))
        ids = self.ids_by_rowid()
        rows = self.conn.execute(
            f"SELECT rowid, bm25(fts, {weights}) AS r, {times} AS k FROM fts "
            f"WHERE fts MATCH ? AND +rowid IN ({each}) ORDER BY r * k, rowid LIMIT ?",
            [*(json.dumps(by_holds[k]) for k in holds[:-1]), expression,
             json.dumps([r for k in holds for r in by_holds[k]]), limit])
        return [(ids[rowid], 1e-9 if 1e-9 > -r else -r, k)  # (max(-r, 1e-9), inlined)
                for rowid, r, k in rows if rowid in ids]

    def _kept_memo(self, name: str) -> _CountMemo:
        """The memo ``name`` of this generation of the index (a new one when it changed, or
        past 4,096 entries)."""
        memo = self.memo.get(name)
        if not isinstance(memo, _CountMemo) or memo.generation != self._generation() \
                or len(memo.counts) > 4096:
            memo = self.memo[name] = _CountMemo(self._generation())
        return memo

    def rowid_bits(self, expression: str) -> int:
        """The rows matching ``expression`` as the bits of an integer (bit ``r`` for rowid
        ``r``: 12.5 KB at 100k rows), kept until the index's generation changes (at most
        :data:`KEPT_BITS` bytes of them). The rowids come as one JSON array, made into the
        integer with no step of Python a row (:mod:`core.search.bitsets`)."""
        memo = self._kept_memo("bits")
        found = memo.counts.get(expression)
        if found is None:
            found = bits_of_json(self.conn.execute(
                "SELECT json_group_array(rowid) FROM fts WHERE fts MATCH ?",
                (expression,)).fetchone()[0])
            if sum(b.bit_length() for b in memo.counts.values()) + found.bit_length() \
                    > 8 * KEPT_BITS:
                memo.counts.clear()
            memo.counts[expression] = found
        return found

    def listed_tiers(self, token: str, depths: tuple[int, ...]
                     ) -> tuple[int, list[tuple[int, float]]]:
        """The rows of ``token``'s word list (:mod:`core.search.wordlists`) as the bits of an
        integer (0: no list), and the list cut at ``depths`` (best first) in tiers: each tier's
        rows as bits and the impact of its first row; kept until the index's generation changes
        (every sync, and another process's writes, change it; a list is written again only from
        the same rows within one)."""
        memo = self.memo.get("listed")
        if not isinstance(memo, _ListedMemo) or memo.generation != self._generation():
            memo = self.memo["listed"] = _ListedMemo(self._generation())
        found = memo.lists.get((token, depths))
        if found is None:
            rows = self.conn.execute("SELECT doc, impact FROM wordlists WHERE token = ? "
                                     "ORDER BY impact DESC, doc", (token,)).fetchall()
            cuts = [0, *(d for d in depths if d < len(rows)), len(rows)]
            tiers = [(bits_of([doc for doc, _ in rows[a:b]]), rows[a][1])
                     for a, b in zip(cuts, cuts[1:]) if b > a]
            found = memo.lists[token, depths] = (bits_of([doc for doc, _ in rows]), tiers)
        return found

    def count(self, expression: str) -> int:
        """How many rows match ``expression`` (kept until the index's generation changes; its
        rowid bits' count when they are kept: no statement)."""
        memo = self._kept_memo("counts")
        found = memo.counts.get(expression)
        if found is None and (bits := self._kept_memo("bits").counts.get(expression)) is not None:
            found = memo.counts[expression] = bits.bit_count()
        if found is None:
            found = memo.counts[expression] = int_value(
                self.conn, "SELECT count(*) FROM fts WHERE fts MATCH ?", (expression,))
        return found

    def ids_matching_among(self, expression: str, among: list[str]) -> set[str]:
        """Those of ``among`` that match ``expression``: a look-up each when they are far fewer
        than its matches (:data:`LOOKUP_COST`), else its whole match (remembered)."""
        if not self._looked_up(len(among), expression):
            return set(among) & self.ids_matching(expression) if among else set()
        known = self._load_known()
        rowids = ",".join(str(known[i][0]) for i in among if i in known)  # integers: no quoting
        if not rowids:
            return set()
        ids = self.ids_by_rowid()
        return {ids[r] for (r,) in self.conn.execute(
            f"SELECT rowid FROM fts WHERE fts MATCH ? AND rowid IN ({rowids})", (expression,))
            if r in ids}

    def ids_matching_scanned(self, expression: str, among: list[str]) -> set[str]:
        """Those of ``among`` (a few) that match ``expression``, in one statement: FTS5 reads
        its match and SQLite keeps the rows asked for (``+rowid``: no look-up a rowid, which
        costs :data:`LOOKUP_COST` rows each), nothing of it made into Python objects."""
        known = self._load_known()
        rowids = [known[i][0] for i in among if i in known]
        if not rowids or not expression:
            return set()
        ids = self.ids_by_rowid()
        return {ids[r] for (r,) in self.conn.execute(
            "SELECT rowid FROM fts WHERE fts MATCH ? AND +rowid IN (SELECT value FROM "
            "json_each(?))", (expression, json.dumps(rowids))) if r in ids}

    def ids_matching(self, expression: str) -> frozenset[str]:
        """The ids of the rows matching the FTS5 ``expression`` (no ranking), remembered while
        the index's generation and rows are the same (:data:`KEPT_IDS` at most)."""
        ids = self.ids_by_rowid()
        memo = self.memo.get("matches")
        if not isinstance(memo, _MatchMemo) or memo.generation != self._generation() \
                or memo.by_rowid is not ids:
            memo = self.memo["matches"] = _MatchMemo(self._generation(), ids)
        found = memo.found.get(expression)
        if found is None:
            found = frozenset(ids[r] for (r,) in self.conn.execute(
                "SELECT rowid FROM fts WHERE fts MATCH ?", (expression,)) if r in ids)
            if memo.size + len(found) > KEPT_IDS:
                memo.found.clear()
                memo.size = 0
            if len(found) <= KEPT_IDS:
                memo.found[expression] = found
                memo.size += len(found)
        return found
