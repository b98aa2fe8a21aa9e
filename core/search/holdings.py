"""A question's top read by what each memory holds: its memories grouped by exactly which of
its words each one holds, each group bounded by those words' idf, and only the groups that can
reach the top ranked, a batch of chosen groups in one statement.

Each word's matches are known (:meth:`core.search.index_reading.IndexReading.rowid_bits`,
remembered while the index does not change), so every memory's set ``S`` of the question's
words is known exactly, without a statement. A memory holding exactly ``S`` has text ``bm25 *
|S| / n`` with ``bm25`` at most the sum of the caps of ``S`` (``(k1 + 1) * idf`` a word:
:mod:`core.search.topk`), so a group whose bound is below the ``top``-th best score read so far
(times the best text) is never read; a memory holding only a word held by half the vault has
next to no bm25 and is left unread, where a level's bound (its ``k`` largest caps) would open
it. The memories holding every word are one group among the others (no statement of their AND
first). The groups of a batch are ranked together in one statement: every phrase once and in
the OR's order (so each row gets the OR's very bm25, the same the full ranking reads), in runs
ANDed together that each of the groups holds a word of (:func:`covering`: FTS5 hands the filter
only the memories holding a word of every run, not every memory holding one), filtered to
their rows (:meth:`~core.search.index_reading.IndexReading.ranked_among`: FTS5 scores only
those), best bm25 first, so their text order is their bm25 order. FTS5 scores every row of a
batch for any page, so a batch is ranked once and its rows kept: a deeper page reads them.

Used for three to :data:`MOST_HELD` words some memory holds, matching at most
:data:`MOST_HELD_ROWS` rows in all; past that :mod:`core.search.levels` reads the levels as
expressions after the AND of the words.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from . import list_bounds, wordlists
from .bitsets import rowids_of
from .index import SearchIndex
from .settling import Settled, TextHit, decided, settle

#: The most rows the held words may match in all for their matches to be grouped here (each
#: word's matches are the bits of an integer, 12.5 KB at 100k memories, remembered between
#: searches: :data:`core.search.index_reading.KEPT_BITS`).
MOST_HELD_ROWS = 1_000_000
#: The most phrases some memory holds for a question to be read here (a group for each set of
#: them some memory holds: at most 2 ** MOST_HELD).
MOST_HELD = 10
#: Rows of a batch of groups read at first; a batch that leaves the top open is read four
#: times deeper (of its rows kept: no statement).
FIRST_PAGE = 64
#: The first batch holds the groups of the highest bounds up to this many rows (nothing read
#: yet, no group is below the top's floor: FTS5 would score every row of the groups the
#: bounds do not rule out; 6k memories, CPU a question p95 against 2,048 rows: -20%).
FIRST_BATCH_ROWS = 512
#: A later batch holds up to this many rows, or the held words' rows over
#: :data:`WALK_SHARE` when more: each statement walks its words' matches (at 6k memories about
#: as much as scoring a thousand rows; at 100k, four common words, ~15 ms, as much as scoring
#: ~2,000), so the walk is paid for by many rows; 100k memories, in one process, 1,024 rows
#: a batch against a 16th of the held rows: p95 129.9 -> 89.9 ms CPU a question (a 32nd and
#: a 64th: 107.5, 122.7 ms; an 8th and a 4th as a 16th).
BATCH_ROWS = 1024
WALK_SHARE = 16
#: A part of a group: the phrases' mask, and -1 for its rows in no list of one of its words
#: (bounded by their lists' floors), else which of the combinations of its words' lists'
#: tiers its rows are in (:func:`core.search.list_bounds.parts`).
Part = tuple[int, int]


@dataclass
class _Batch:
    """The memories of some groups, by how many of the words they hold (-> their rowids), the
    expression they are read with (:func:`covering`), all their rows best text first (bm25
    times how many, read in one statement) and how many of them are read so far (``page``:
    the rows a settling looks at; all of them when ``exhausted``)."""

    by_holds: dict[int, list[int]]
    expression: str
    page: int
    ranked: list[tuple[str, float, int]] = field(default_factory=list)
    hits: list[TextHit] = field(default_factory=list)  # the allowed rows of the first ``made``
    made: int = 0

    def read(self, index: SearchIndex) -> None:
        """Every row of them by the bm25 of the expression (each phrase once, in the OR's
        order: the OR's very bm25) times how many phrases each holds, best first: FTS5 scores
        each of them for any page, so all are kept and a deeper page asks nothing again."""
        self.ranked = index.reading.ranked_among(
            self.expression, self.by_holds, sum(len(r) for r in self.by_holds.values()))

    @property
    def rows(self) -> list[tuple[str, float, int]]:
        """The rows read so far: the first ``page``."""
        return self.ranked[:self.page]

    def hits_read(self, allowed: Callable[[str], bool], n: int) -> list[TextHit]:
        """The allowed rows read so far (the first ``page``) as hits of text ``bm25 * holds /
        n``, each made once: a deeper page adds the rows below (no row made again)."""
        upto = min(self.page, len(self.ranked))
        if self.made < upto:
            self.hits.extend(TextHit(i, bm25, bm25 * holds / n)
                             for i, bm25, holds in self.ranked[self.made:upto] if allowed(i))
            self.made = upto
        return self.hits

    @property
    def exhausted(self) -> bool:
        """Whether every row of them is read."""
        return self.page >= len(self.ranked)

    def bound(self, n: int) -> float:
        """The most text a memory of these not read yet can have (a bm25 below FTS5's floor
        of 1e-9 is read as 1e-9, as :meth:`~core.search.index_reading.IndexReading.match`
        does)."""
        if self.exhausted or not self.page:
            return 0.0
        _, bm25, holds = self.ranked[self.page - 1]
        return max(bm25 * holds / n, 1e-9 * max(self.by_holds) / n)


def groups_of(index: SearchIndex, phrases: list[str], held: list[int], most: int
              ) -> dict[int, int]:
    """The rows holding at most ``most`` of the ``held`` phrases, by which they hold (a bit a
    phrase, by its position), each group as the bits of its rowids: the regions the phrases'
    matches (:meth:`~core.search.index_reading.IndexReading.rowid_bits`) cut, split a phrase at
    a time with integer bit operations (no step of Python a row)."""
    regions: dict[int, int] = {}
    seen = 0  # every row matching a phrase split by so far
    for i in held:
        bit, matching = 1 << i, index.reading.rowid_bits(phrases[i])
        split: dict[int, int] = {}
        for mask, members in regions.items():
            if inside := members & matching:
                split[mask | bit] = inside
            if outside := members & ~matching:
                split[mask] = outside
        if fresh := matching & ~seen:
            split[bit] = fresh
        seen |= matching
        regions = split
    return {mask: members for mask, members in regions.items()
            if mask.bit_count() <= most}


def counts_of(index: SearchIndex, phrases: list[str]) -> list[int]:
    """How many rows each of ``phrases`` matches. For a question read here whatever its words'
    counts (three to :data:`MOST_HELD` phrases, too few rows in the index to reach
    :data:`MOST_HELD_ROWS`), each phrase's rowid bits are made first and counted, so a word not
    asked before costs one walk of its matches, not a count and then its bits."""
    if 3 <= len(phrases) <= MOST_HELD and index.row_count() * len(phrases) <= MOST_HELD_ROWS:
        for phrase in phrases:
            index.reading.rowid_bits(phrase)
    return [index.reading.count(p) for p in phrases]


def applies(counts: list[int]) -> bool:
    """Whether a query whose phrases match ``counts`` rows is read here: three phrases or more
    some memory holds (two: the AND and a bound settle it), at most :data:`MOST_HELD`, matching
    at most :data:`MOST_HELD_ROWS` rows in all."""
    held = [c for c in counts if c]
    return 3 <= len(held) <= MOST_HELD and sum(held) <= MOST_HELD_ROWS


def from_holdings(index: SearchIndex, phrases: list[str], counts: list[int],
                  allowed: Callable[[str], bool], top: int,
                  score_of: Callable[[str, float], float], most: int,
                  known: list[TextHit]) -> Settled | None:
    """The ``top`` of the OR of ``phrases`` (their ``counts`` of rows), once every allowed
    memory holding more than ``most`` of them is ``known``; None when the held words match
    more than :data:`MOST_HELD_ROWS` rows (the caller reads levels of expressions)."""
    if not applies(counts):
        return None
    held = [i for i, c in enumerate(counts) if c]
    n, rows = len(phrases), index.row_count()
    caps = [(wordlists.K1 + 1) * wordlists.idf_of(rows, c) if c else 0.0 for c in counts]
    cut = list_bounds.parts(groups_of(index, phrases, held, most),
                            list_bounds.bounds(index, phrases, counts, caps))
    groups = {part: bits for part, (bits, _) in cut.items()}
    unopened = {part: bm25 * part[0].bit_count() / n * (1 + 1e-9)  # (a margin for rounding)
                for part, (_, bm25) in cut.items()}
    first = max(FIRST_PAGE, 4 * top)
    batch_rows = max(BATCH_ROWS, sum(counts[i] for i in held) // WALK_SHARE)
    batches: list[_Batch] = []
    while True:
        read = list(known)
        for batch in batches:
            read.extend(batch.hits_read(allowed, n))
        outside = max(unopened.values(), default=0.0)
        deepest = max(batches, key=lambda batch: batch.bound(n), default=None)
        inside = deepest.bound(n) if deepest is not None else 0.0
        best = max((h.text for h in read), default=0.0)
        above, scored = max(outside, inside), sum(min(b.page, len(b.ranked)) for b in batches)
        settled, floor = decided(read, best, above, top, score_of, scored) if best else \
            (settle(read, above, top, score_of, scored), 0.0)
        if settled is not None:
            return settled
        if deepest is not None and inside > outside:
            deepest.page *= 4
            continue
        if not unopened:
            return None  # (not reached: with nothing unread the bound is 0 and settles)
        parts = chosen(groups, unopened, floor, batch_rows if batches else FIRST_BATCH_ROWS)
        batch = _Batch(by_holds(groups, parts),
                       covering(phrases, counts, rows, [mask for mask, _ in parts]), first)
        batch.read(index)
        batches.append(batch)


def chosen(groups: dict[Part, int], unopened: dict[Part, float], floor: float,
           most_rows: int) -> list[Part]:
    """The groups read next, taken out of ``unopened`` (group -> bound): the highest bound
    first, then the next ones while they make at most ``most_rows`` rows in all and their
    bound is not below ``floor`` (such a group cannot reach the top: it is read only if it is
    the highest left)."""
    taken: list[Part] = []
    rows = 0
    for mask in sorted(unopened, key=lambda mask: -unopened[mask]):
        size = groups[mask].bit_count()
        if taken and (rows + size > most_rows or unopened[mask] < floor):
            break
        taken.append(mask)
        rows += size
        del unopened[mask]
    return taken


def by_holds(groups: dict[Part, int], parts: list[Part]) -> dict[int, list[int]]:
    """The rowids of the groups' ``parts`` by how many of the words they hold."""
    members: dict[int, int] = {}
    for part in parts:
        k = part[0].bit_count()
        members[k] = members.get(k, 0) | groups[part]
    return {k: rowids_of(bits) for k, bits in members.items()}


def covering(phrases: list[str], counts: list[int], rows: int, masks: list[int]) -> str:
    """The expression the groups ``masks`` are read with: every phrase once and in the OR's
    order (so FTS5 gives each row the OR's very bm25), cut in runs ANDed together, ``(a OR b)
    AND (c OR d OR e)``, so that FTS5 hands the statement's filter only the memories holding a
    word of every run, not every memory holding one (at 100k memories, five common words: a
    third of the rows against most of them). Of the cuts every group holds a word of each run
    of, the one the words' shares (``counts`` of ``rows``) predict to match fewest rows; with
    no cut, the OR. A run begins at a held word (a phrase no memory holds joins the run before
    it)."""
    held = [i for i, c in enumerate(counts) if c]
    if len(held) < 2 or not rows:
        return " OR ".join(phrases)
    h = len(held)
    every = (1 << h) - 1
    absent = {every & ~sum(1 << j for j in range(h) if mask >> held[j] & 1) for mask in masks}
    share = [min(1.0, counts[i] / rows) for i in held]
    runs: dict[tuple[int, int], float | None] = {}  # held words a..b-1 -> its share, or None
    for a in range(h):
        for b in range(a + 1, h + 1):
            run = ((1 << b) - 1) & ~((1 << a) - 1)
            missed = any(miss & run == run for miss in absent)  # a group holds none of it
            runs[a, b] = None if missed else 1 - math.prod(1 - p for p in share[a:b])
    best: tuple[float, list[int]] = (2.0, [])
    for cut in range(1 << (h - 1)):  # a bit a place between two held words
        starts = [0] + [j for j in range(1, h) if cut >> (j - 1) & 1]
        parts = [runs[a, b] for a, b in zip(starts, [*starts[1:], h])]
        if any(p is None for p in parts):
            continue
        estimate = math.prod(p for p in parts if p is not None)
        if estimate < best[0]:
            best = (estimate, starts)
    bounds = [0] + [held[j] for j in best[1][1:]] + [len(phrases)]
    if len(bounds) == 2:
        return " OR ".join(phrases)
    return " AND ".join("(" + " OR ".join(phrases[a:b]) + ")" for a, b in zip(bounds, bounds[1:]))
