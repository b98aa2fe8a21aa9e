"""Word lists: for each common word of the index, its best memories in falling bm25 order,
kept beside FTS5 so that a search for a common word reads a page of them instead of having FTS5
score every memory that holds it (at 100k memories a common word is in half of them, and FTS5's
``ORDER BY bm25`` computes bm25 for each: ~50 ms, the floor of the bounded search in
:mod:`core.search.topk`).

For one word, FTS5's bm25 is ``idf * g`` where ``idf`` is the same for every memory and
``g = f * (k1 + 1) / (f + k1 * (1 - b + b * D / A))`` depends on the memory only through ``f``
(the word's occurrences weighted by column) and ``D`` (its length in tokens), and on the index
through ``A``, the average length. A list holds ``(token, impact, doc)`` rows with
``impact = g`` at the average ``A0`` of the time it was written, best first, for the
:data:`LIST_LENGTH` best memories, and a ``floor``: no memory left out of the list has an impact
above it. ``g`` at another average is at most ``impact * max(1, A / A0)`` (a longer average
only lifts long memories, by less than ``A / A0``), which bounds every memory not read yet.

The scores handed to the ranking are not the impacts: :class:`ExactBm25` works out, for the
memories read, the very bm25 FTS5 computes (its formula from ``fts5_aux.c``, operation for
operation in double precision, with FTS5's own row count, token total and per-memory length
read from its tables, and each word's weighted frequency from tokenizing the memory's stored
text with the same tokenizer), so a ranking that reads the lists equals, to the last bit, one
that asks FTS5 to score every match (``tests/core/search/test_wordlists.py``).

The lists are derived like the rest of the index: written when FTS5 rows are (a memory's rows
go and come back with it in :meth:`SearchIndex.sync`'s transaction), built for every word in
:data:`LIST_FROM` memories or more when the index is filled, and for one word when a search had
to fall back to FTS5 for it. Dropping them loses nothing: searches go to FTS5 until they are back.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from .transaction import transaction

#: A word held by fewer memories than this is ranked by FTS5 directly (a few milliseconds).
LIST_FROM = 5000
#: Memories kept per word (deeper: a lower floor, :mod:`.list_bounds`): past them, FTS5.
LIST_LENGTH = 4000
#: A sync rewriting more memories than this drops the lists and builds them again.
REWRITE_FROM = 20_000
PENDING_KEY = "word_lists"  # (``state``: the lists are still to be made, :mod:`.pending_lists`)
K1, B = 1.2, 0.75  # FTS5's bm25 constants (fts5_aux.c)
_COLUMNS = ("content", "gist", "tags", "entities")

def varints(data: bytes) -> list[int]:
    """The SQLite varints FTS5 stores its sizes in (big-endian 7-bit groups; a ninth byte
    carries 8 bits)."""
    out, value, count = [], 0, 0
    for byte in data:
        count += 1
        if count == 9:
            out.append((value << 8) | byte)
            value, count = 0, 0
        elif byte & 0x80:
            value = (value << 7) | (byte & 0x7F)
        else:
            out.append((value << 7) | byte)
            value, count = 0, 0
    return out


def impact(f: float, length: float, avgdl: float) -> float:
    """``g``: bm25 over idf, as FTS5 computes it for one word (fts5_aux.c, in its order)."""
    return (f * (K1 + 1.0)) / (f + K1 * (1 - B + B * length / avgdl))


def idf_of(rows: int, hits: int) -> float:
    idf = math.log((rows - hits + 0.5) / (hits + 0.5))
    return idf if idf > 0.0 else 1e-6  # as FTS5 clamps it


class Figures(NamedTuple):
    """FTS5's own totals: rows and tokens (its ``averages`` record)."""

    rows: int
    tokens: int

    @property
    def avgdl(self) -> float:
        return float(self.tokens) / float(self.rows) if self.rows else 0.0


def figures(conn: sqlite3.Connection) -> Figures:
    row = conn.execute("SELECT block FROM fts_data WHERE id = 1").fetchone()
    values = varints(row[0]) if row and row[0] else []
    return Figures(values[0], sum(values[1:])) if values else Figures(0, 0)


class Tokenizer:
    """FTS5's tokenizer run on text, through a scratch FTS5 table in the connection's temp
    schema (the same tokenizer as the index's, so the same tokens and lengths)."""

    def __init__(self, conn: sqlite3.Connection, tokenizer: str, weights: Sequence[float]):
        self.conn = conn
        self.weights = dict(zip(_COLUMNS, weights))
        conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.scratch USING fts5(content, gist, "
                     f"tags, entities, tokenize='{tokenizer}')")
        conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.scratch_words USING "
                     "fts5vocab(temp, 'scratch', 'instance')")

    def tokens(self, text: str) -> list[str]:
        """The tokens FTS5 makes of ``text``, in order."""
        self._fill([(1, text, "", "", "")])
        return [t for t, in self.conn.execute(
            "SELECT term FROM temp.scratch_words ORDER BY offset")]

    def weighted(self, docs: Sequence[tuple[int, str, str, str, str]], wanted: set[str]
                 ) -> dict[int, tuple[int, dict[str, float]]]:
        """doc -> (length in tokens, token -> occurrences weighted by column, for the tokens
        ``wanted`` it holds) of the rows ``(doc, content, gist, tags, entities)``."""
        self._fill(docs)
        conn, weights = self.conn, self.weights
        out: dict[int, tuple[int, dict[str, float]]] = {
            doc: (sum(varints(sz)), {}) for doc, sz in conn.execute(
                "SELECT id, sz FROM temp.scratch_docsize")}
        found: Iterable[tuple[int, str, str]]  # (doc, term, column name)
        if len(wanted) <= 16:  # a look-up per word
            found = (row for token in wanted for row in conn.execute(
                "SELECT doc, term, col FROM temp.scratch_words WHERE term = ?", (token,)))
        else:  # every token of the rows, kept when wanted
            found = conn.execute("SELECT doc, term, col FROM temp.scratch_words")
        for doc, term, col in found:
            if term in wanted:
                held = out[doc][1]
                held[term] = held.get(term, 0.0) + weights[col]
        return out

    def _fill(self, docs: Sequence[tuple[int, str, str, str, str]]) -> None:
        self.conn.execute("DELETE FROM temp.scratch")
        self.conn.executemany("INSERT INTO temp.scratch (rowid, content, gist, tags, entities) "
                              "VALUES (?, ?, ?, ?, ?)", docs)


def texts_of(conn: sqlite3.Connection, docs: Iterable[int]) -> list[tuple[int, str, str, str, str]]:
    """The stored text of these FTS5 rows, as ``(rowid, content, gist, tags, entities)``."""
    marks = ",".join(str(int(d)) for d in docs)
    return [(d, *(c or "" for c in cols)) for d, *cols in conn.execute(
        f"SELECT id, c0, c1, c2, c3 FROM fts_content WHERE id IN ({marks})")] if marks else []


class ExactBm25:
    """FTS5's bm25 of chosen rows for an OR of single-token phrases, worked out in Python to the
    last bit (see the module docstring), without FTS5 scoring every match."""

    def __init__(self, conn: sqlite3.Connection, tokenizer: Tokenizer, tokens: list[str],
                 hits: list[int]):
        self.conn, self.tokenizer, self.tokens = conn, tokenizer, tokens
        self.figures = figures(conn)
        self.avgdl = self.figures.avgdl
        self.idf = [idf_of(self.figures.rows, n) for n in hits]

    def scores(self, docs: list[int], known: dict[int, dict[str, float]]
               ) -> dict[int, tuple[float, int]]:
        """doc -> (bm25 as FTS5 gives it, negated so that higher is better; how many of the
        phrases the doc holds) for those of ``docs`` holding any phrase. ``known``: the
        weighted frequencies already known (from the lists); the others are counted."""
        if not docs:
            return {}
        marks = ",".join(str(int(d)) for d in docs)
        lengths = {d: sum(varints(sz)) for d, sz in self.conn.execute(
            f"SELECT id, sz FROM fts_docsize WHERE id IN ({marks})")}
        wanted = set(self.tokens)
        unknown = [d for d in docs if not wanted <= known.get(d, {}).keys()]
        if unknown:
            for doc, (_, freq) in self.tokenizer.weighted(texts_of(self.conn, unknown),
                                                          wanted).items():
                known[doc] = {t: freq.get(t, 0.0) for t in wanted}
        out: dict[int, tuple[float, int]] = {}
        avgdl = self.avgdl
        for doc in docs:
            freq = known.get(doc, {})
            length = float(lengths.get(doc, 0))
            score, held = 0.0, 0
            for token, idf in zip(self.tokens, self.idf):
                f = freq.get(token, 0.0)
                if f:
                    held += 1
                score += idf * impact(f, length, avgdl)
            if held:
                out[doc] = (max(score, 1e-9), held)  # as SearchIndex.match reads FTS5's -score
        return out


class WordList(NamedTuple):
    token: str
    avgdl: float  # the average length its impacts were worked out at
    floor: float  # no memory left out of the list has a higher impact

    def page(self, conn: sqlite3.Connection, start: int, size: int
             ) -> list[tuple[float, int, float]]:
        """(impact, doc, weighted frequency) rows ``start`` to ``start + size``, best first."""
        return conn.execute("SELECT impact, doc, f FROM wordlists WHERE token = ? "
                            "ORDER BY impact DESC, doc LIMIT ? OFFSET ?",
                            (self.token, size, start)).fetchall()

    def lift(self, avgdl: float) -> float:
        """How much more than its impact a memory's ``g`` can be at the average ``avgdl``."""
        return max(1.0, avgdl / self.avgdl) * (1 + 1e-9)  # and a margin for rounding


def lists_of(conn: sqlite3.Connection, tokens: Iterable[str]) -> dict[str, WordList]:
    wanted = sorted(set(tokens))
    if not wanted:
        return {}
    marks = ",".join("?" * len(wanted))
    return {t: WordList(t, a, f) for t, a, f in conn.execute(
        f"SELECT token, avgdl, floor FROM words WHERE token IN ({marks})", wanted)}


def write_list(conn: sqlite3.Connection, tokenizer: Tokenizer, token: str, expression: str,
               weights: str, lengths: dict[int, int] | None = None) -> bool:
    """Write the list of ``token`` from FTS5's own ranking of ``expression`` (the quoted word),
    inside the caller's transaction. False when FTS5 does not read the expression as exactly the
    memories holding ``token`` (then no list is kept). ``lengths``: the rows' lengths read so
    far (:func:`weighted_from_scores`), kept across the words of one build."""
    held = conn.execute("SELECT doc FROM temp.index_words WHERE term = ?", (token,)).fetchone()
    itself = tokenizer.tokens(token) == [token]  # (the query reads the very token)
    if held is None:
        return False
    if not (itself and expression == f'"{token}"'):  # (else: exactly the memories holding it)
        if held[0] != conn.execute("SELECT count(*) FROM fts WHERE fts MATCH ?",
                                   (expression,)).fetchone()[0]:
            return False
    hits = held[0]
    numbers = figures(conn)
    idf = idf_of(numbers.rows, hits)
    rows = conn.execute(f"SELECT rowid, -bm25(fts, {weights}) AS s FROM fts WHERE fts MATCH ? "
                        "ORDER BY s DESC, rowid LIMIT ?", (expression, LIST_LENGTH + 1)).fetchall()
    kept, rest = rows[:LIST_LENGTH], rows[LIST_LENGTH:]
    floor = rest[0][1] / idf if rest else 0.0
    counted = None
    if itself:  # (its scores say f)
        counted = weighted_from_scores(conn, tokenizer.weights, kept, idf, numbers.avgdl,
                                       {} if lengths is None else lengths)
    if counted is None:
        counted = held_weighted(conn, tokenizer.weights, token, [doc for doc, _ in kept])
    conn.execute("DELETE FROM wordlists WHERE token = ?", (token,))
    conn.executemany("INSERT INTO wordlists (token, impact, doc, f) VALUES (?, ?, ?, ?)",
                     [(token, s / idf, doc, counted.get(doc, 0.0)) for doc, s in kept])
    conn.execute("INSERT OR REPLACE INTO words (token, avgdl, floor) VALUES (?, ?, ?)",
                 (token, numbers.avgdl, floor * (1 + 1e-9)))
    return True


def held_weighted(conn: sqlite3.Connection, weights: dict[str, float], token: str,
                  docs: list[int]) -> dict[int, float]:
    """doc -> the occurrences of ``token`` in these rows, weighted by column, read from the
    index's own instances (:func:`open_vocabulary`): the tokens FTS5 made of the stored text
    when the row was written, so the same counts as tokenizing that text again
    (:meth:`Tokenizer.weighted`), without doing it (at 100k memories that was a third of
    filling a new index's word lists: ``docs/writes.md``)."""
    out: dict[int, float] = {}
    for start in range(0, len(docs), 500):
        marks = ",".join(str(int(d)) for d in docs[start:start + 500])
        for doc, col in conn.execute("SELECT doc, col FROM temp.index_instances "
                                     f"WHERE term = ? AND doc IN ({marks})", (token,)):
            out[doc] = out.get(doc, 0.0) + weights[col]
    return out


def weighted_from_scores(conn: sqlite3.Connection, weights: dict[str, float],
                         kept: list[tuple[int, float]], idf: float, avgdl: float,
                         lengths: dict[int, int]) -> dict[int, float] | None:
    """doc -> the word's weighted occurrences in each row of ``kept`` (``(doc, FTS5's bm25)``
    of a query FTS5 reads as that one token), worked back from its score: the one sum of
    column weights whose bm25
    (``idf * impact``, :class:`ExactBm25`'s formula) is that very score, to the last bit. None
    when a score does not come back exactly (the caller then reads the instances)."""
    quantum = next((q for q in (1.0, 0.5, 0.25, 0.125, 1 / 64)
                    if all((w / q).is_integer() for w in weights.values())), None)
    if quantum is None or not kept or idf <= 0 or not avgdl:
        return None
    todo = [doc for doc, _ in kept if doc not in lengths]
    for start in range(0, len(todo), 500):
        marks = ",".join(str(int(d)) for d in todo[start:start + 500])
        lengths.update((d, sum(varints(sz))) for d, sz in conn.execute(
            f"SELECT id, sz FROM fts_docsize WHERE id IN ({marks})"))
    out: dict[int, float] = {}
    top = K1 + 1.0
    for doc, score in kept:  # (impact() inlined, the same operations: a loop of 100k at 100k)
        length = float(lengths.get(doc, 0))
        g, k = score / idf, K1 * (1 - B + B * length / avgdl)
        if not 0 < g < top:
            return None
        f = round(g * k / (top - g) / quantum) * quantum
        if f <= 0 or idf * ((f * top) / (f + k)) != score:
            return None
        out[doc] = f
    return out


def common_tokens(conn: sqlite3.Connection) -> list[str]:
    """Tokens held by :data:`LIST_FROM` memories or more."""
    return [t for t, in conn.execute("SELECT term FROM temp.index_words WHERE doc >= ?",
                                     (LIST_FROM,))]


def open_vocabulary(conn: sqlite3.Connection) -> None:
    """The index's words (``temp.index_words``: how many rows hold each) and their
    instances (``temp.index_instances``: each occurrence's row and column)."""
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.index_words USING "
                  "fts5vocab(main, 'fts', 'row')")
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.index_instances USING "
                  "fts5vocab(main, 'fts', 'instance')")


def forget(conn: sqlite3.Connection, docs: list[int]) -> None:
    """Take these rows out of every list (they are gone, or about to be written again)."""
    for start in range(0, len(docs), 500):
        chunk = ",".join(str(int(d)) for d in docs[start:start + 500])
        conn.execute(f"DELETE FROM wordlists WHERE doc IN ({chunk})")


def add(conn: sqlite3.Connection, tokenizer: Tokenizer,
        docs: list[tuple[int, str, str, str, str]]) -> None:
    """Put freshly written rows into the lists of the words they hold, where their impact is
    above the list's floor (the floor stays a bound on everything left out)."""
    lists = {t: (a, f) for t, a, f in conn.execute("SELECT token, avgdl, floor FROM words")}
    if not lists or not docs:
        return
    rows = []
    for start in range(0, len(docs), 500):
        counted = tokenizer.weighted(docs[start:start + 500], set(lists))
        for doc, (length, freq) in counted.items():
            for token, f in freq.items():
                avgdl, floor = lists[token]
                value = impact(f, float(length), avgdl)
                if value > floor:
                    rows.append((token, value, doc, f))
    conn.executemany("INSERT OR REPLACE INTO wordlists (token, impact, doc, f) "
                     "VALUES (?, ?, ?, ?)", rows)


def drop_all(conn: sqlite3.Connection) -> None:
    conn.execute("DELETE FROM wordlists")
    conn.execute("DELETE FROM words")


class Words:
    """The word lists of one open index connection: the tokenizer, each query word's token,
    and the lists' upkeep (kept in ``SearchIndex.memo``: gone when the connection is)."""

    def __init__(self, conn: sqlite3.Connection, tokenizer: str, weights: Sequence[float]):
        self.conn = conn
        self.tokenizer = Tokenizer(conn, tokenizer, weights)
        self.weights = ", ".join(str(w) for w in weights)
        open_vocabulary(conn)
        self._tokens: dict[str, str | None] = {}

    def token_of(self, word: str) -> str | None:
        """The one token FTS5 makes of ``word``; None when it makes none or several."""
        if word not in self._tokens:
            tokens = self.tokenizer.tokens(word)
            self._tokens[word] = tokens[0] if len(tokens) == 1 else None
        return self._tokens[word]

    def lists(self, tokens: Iterable[str]) -> dict[str, WordList]:
        return lists_of(self.conn, tokens)

    def build(self, token: str, expression: str) -> WordList | None:
        """Write the list of one word now (one FTS5 ranking of it); None if it cannot be kept
        (FTS5 reads the word otherwise, or the index cannot be written now)."""
        try:
            with transaction(self.conn):
                if not write_list(self.conn, self.tokenizer, token, expression, self.weights):
                    return None
        except sqlite3.OperationalError:  # locked by another writer, a read-only disk
            return None
        return self.lists([token]).get(token)

    def keep_up(self, rewritten: list[int], written: list[tuple[int, str, str, str, str]]
                ) -> None:
        """Inside the sync's transaction: the rows ``rewritten`` (gone or written again) leave
        the lists, the ``written`` ones ``(rowid, content, gist, tags, entities)`` come back."""
        forget(self.conn, rewritten)
        add(self.conn, self.tokenizer, written)

    def build_common(self, progress: Callable[[int, int], None] | None = None,
                     pending: Callable[[], bool] | None = None) -> int:
        """Write the list of every word held by :data:`LIST_FROM` memories or more; 0 when the
        index cannot be written now (the lists are then made word by word as searched), or when
        ``pending()``, asked under the write lock, says they are made. ``progress(done, total)``
        is told after each word."""
        built, lengths = 0, dict[int, int]()
        try:
            with transaction(self.conn):
                tokens = common_tokens(self.conn) if pending is None or pending() else []
                for done, token in enumerate(tokens, 1):
                    built += write_list(self.conn, self.tokenizer, token, f'"{token}"',
                                        self.weights, lengths)
                    if progress is not None:
                        progress(done, len(tokens))
                self.conn.execute("DELETE FROM state WHERE key = ?", (PENDING_KEY,))
        except sqlite3.OperationalError:  # locked by another writer, a read-only disk
            return 0
        return built

