"""A question's top read by what each memory holds: its memories grouped by exactly which of
its words each one holds, each group bounded by those words' idf, and only the groups that can
reach the top ranked, a level's chosen groups in one statement.

Each word's matches are known (:meth:`core.search.index_reading.IndexReading.ids_matching`,
remembered while the index does not change), so every memory's set ``S`` of the question's
words is known exactly, without a statement. A memory holding exactly ``S`` has text ``bm25 *
|S| / n`` with ``bm25`` at most the sum of the caps of ``S`` (``(k1 + 1) * idf`` a word:
:mod:`core.search.topk`), so a group whose bound is below the ``top``-th best score read so far
(times the best text) is never read; a memory holding only a word held by half the vault has
next to no bm25 and is left unread, where a level's bound (its ``k`` largest caps) would open
it. The groups of one level (``|S| = k``) chosen are ranked together in one statement: the OR of
every phrase (so each row gets the OR's very bm25, the same statement the full ranking reads)
filtered to their rows (:meth:`~core.search.index_reading.IndexReading.ranked_among`: FTS5
scores only those), best bm25 first and as deep as the top needs, so their text order is their
bm25 order. A question of five words settles in a statement or three where the levels of
:mod:`core.search.levels` ask up to 16.

Used while the held words match at most :data:`MOST_HELD_ROWS` rows in all (grouping them costs
Python a step a row); past that :mod:`core.search.levels` reads the levels as expressions.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from . import wordlists
from .index import SearchIndex
from .settling import Settled, TextHit, choose, settle

#: The most rows the held words may match in all for their matches to be grouped here (about
#: a millisecond of Python a 10,000 rows, each word's matches remembered between searches).
MOST_HELD_ROWS = 40_000
_ONE = re.compile("1")
#: The most phrases some memory holds for a question to be read here (a group for each set of
#: them some memory holds: at most 2 ** MOST_HELD).
MOST_HELD = 10
#: Rows asked of a batch of groups at first; a batch that leaves the top open is asked four
#: times deeper.
FIRST_PAGE = 64
#: A batch holds the groups of the highest bounds up to this many rows: each statement walks
#: the whole OR's matches (at 6k memories about as much as scoring a thousand rows), so a batch
#: takes most of a level at once; 512 asked a fifth more statements, no bound 10% more CPU.
BATCH_ROWS = 2048


@dataclass
class _Batch:
    """The memories of some groups, by how many of the words they hold (-> their rowids), and
    their rows read so far, best text first (bm25 times how many), all when ``exhausted``."""

    by_holds: dict[int, list[int]]
    page: int
    rows: list[tuple[str, float, int]] = field(default_factory=list)
    exhausted: bool = False

    def read(self, index: SearchIndex, expression: str) -> None:
        """Their best ``page`` rows by the bm25 of ``expression`` (the OR of every phrase)
        times how many phrases each holds."""
        self.rows = index.reading.ranked_among(expression, self.by_holds, self.page)
        self.exhausted = len(self.rows) < self.page

    def bound(self, n: int) -> float:
        """The most text a memory of these not read yet can have (a bm25 below FTS5's floor
        of 1e-9 is read as 1e-9, as :meth:`~core.search.index_reading.IndexReading.match`
        does)."""
        if self.exhausted or not self.rows:
            return 0.0
        _, bm25, holds = self.rows[-1]
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


def rowids_of(bits: int) -> list[int]:
    """The rowids whose bits are set."""
    text = format(bits, "b")
    last = len(text) - 1
    return [last - m.start() for m in _ONE.finditer(text)]


def needed(read: list[TextHit], top: int, score_of: Callable[[str, float], float]) -> float:
    """The text an unread memory must be able to reach to matter: the ``top``-th best score
    read so far times the best text (0 while fewer than ``top`` are read). It only grows as
    more is read (a score times the best text is the text times the memory's own factor)."""
    best = max((h.text for h in read), default=0.0)
    if not best:
        return 0.0
    chosen = choose(read, best, top, score_of)
    if len(chosen) < top:
        return 0.0
    last = chosen[-1]
    return score_of(last.memory_id, last.text / best) * best * (1 - 1e-9)


def from_holdings(index: SearchIndex, phrases: list[str], counts: list[int],
                  allowed: Callable[[str], bool], top: int,
                  score_of: Callable[[str, float], float], most: int,
                  known: list[TextHit]) -> Settled | None:
    """The ``top`` of the OR of ``phrases`` (their ``counts`` of rows), once every allowed
    memory holding more than ``most`` of them is ``known``; None when the held words match
    more than :data:`MOST_HELD_ROWS` rows (the caller reads levels of expressions)."""
    held = [i for i, c in enumerate(counts) if c]
    if not held or len(held) > MOST_HELD or sum(counts[i] for i in held) > MOST_HELD_ROWS:
        return None
    n, rows = len(phrases), index.row_count()
    caps = [(wordlists.K1 + 1) * wordlists.idf_of(rows, c) if c else 0.0 for c in counts]
    groups = groups_of(index, phrases, held, most)
    unopened = {mask: sum(caps[i] for i in held if mask >> i & 1) * mask.bit_count() / n
                * (1 + 1e-9) for mask in groups}  # (and a margin for rounding)
    expression = " OR ".join(phrases)
    first = max(FIRST_PAGE, 4 * top)
    batches: list[_Batch] = []
    while True:
        read = known + [TextHit(i, bm25, bm25 * holds / n) for batch in batches
                        for i, bm25, holds in batch.rows if allowed(i)]
        outside = max(unopened.values(), default=0.0)
        deepest = max(batches, key=lambda batch: batch.bound(n), default=None)
        inside = deepest.bound(n) if deepest is not None else 0.0
        settled = settle(read, max(outside, inside), top, score_of,
                         sum(len(batch.rows) for batch in batches))
        if settled is not None:
            return settled
        if deepest is not None and inside > outside:
            deepest.page *= 4
            deepest.read(index, expression)
            continue
        if not unopened:
            return None  # (not reached: with nothing unread the bound is 0 and settles)
        batch = _Batch(chosen(groups, unopened, needed(read, top, score_of)), first)
        batch.read(index, expression)
        batches.append(batch)


def chosen(groups: dict[int, int], unopened: dict[int, float], floor: float
           ) -> dict[int, list[int]]:
    """The groups read next, taken out of ``unopened`` (group -> bound), by how many words they
    hold: the highest bound first, then the next ones while they make at most
    :data:`BATCH_ROWS` rows in all and their bound is not below ``floor`` (such a group cannot
    reach the top: it is read only if it is the highest left)."""
    by_holds: dict[int, list[int]] = {}
    taken = 0
    for mask in sorted(unopened, key=lambda mask: -unopened[mask]):
        members = groups[mask]
        size = members.bit_count()
        if taken and (taken + size > BATCH_ROWS or unopened[mask] < floor):
            break
        by_holds.setdefault(mask.bit_count(), []).extend(rowids_of(members))
        taken += size
        del unopened[mask]
    return by_holds
