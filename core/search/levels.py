"""A question's top read level by level: the memories holding all but one of its words, then all
but two, ..., each set of them one FTS5 expression far smaller than the OR's matches.

A question is an OR of many words, and the coverage factor (``text = bm25 * k / n`` for a memory
holding ``k`` of the ``n`` words) puts the memories holding most of them on top; but FTS5 ranks
an expression by computing bm25 for every row it matches, so ranking the OR costs a bm25 of
nearly every memory (at 100k memories: most of 100k rows). Here the memories holding exactly
the words ``S`` of those some memory holds are one expression, ``(a AND b AND d) NOT (c OR
e)``: each phrase once, so FTS5 gives each of them the OR's very bm25 (a phrase left out adds
exactly 0.0 to the sum, and the others are summed in the OR's order), and every one of them has
text ``bm25 * |S| / n``. The sets of one level are read best bm25 first side by side, as deep
as needed; a memory of a level not opened yet (holding at most ``k`` words) has text at most
:func:`core.search.settling.unread_bound` of ``k`` caps. The next level is opened when that
bound is what leaves the top open, as long as its sets are few and small (as the words' shares
of the rows predict); otherwise the caller ranks a wider expression, knowing every memory of the
levels read whole.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations

from .index import SearchIndex
from .settling import Settled, TextHit, settle, unread_bound

#: The levels' sets are read while their rows, as the words' shares predict, are at most
#: 1 / LEVEL_ROWS of the OR's rows, all levels together.
LEVEL_ROWS = 2
#: The most sets (FTS5 expressions) read, all levels together: a level that would take more is
#: not opened (five words: the 5 sets of four and the 10 of three).
MOST_SETS = 16
#: Rows asked of each set at first; a set that leaves the top open is asked four times deeper.
FIRST_PAGE = 64


@dataclass
class _Set:
    """The memories holding exactly some of the words: an FTS5 expression, how many words it
    holds, and its rows read so far (best bm25 first), all of them when ``exhausted``."""

    expression: str
    holds: int
    page: int
    rows: list[tuple[str, float]] = field(default_factory=list)
    exhausted: bool = False

    def read(self, index: SearchIndex) -> None:
        """Its best ``page`` rows (FTS5 scores every row it matches, then keeps those)."""
        self.rows = index.reading.ranked(self.expression, self.page)
        self.exhausted = len(self.rows) < self.page

    def bound(self, n: int) -> float:
        """The most text a memory of this set not read yet can have."""
        return 0.0 if self.exhausted or not self.rows else self.rows[-1][1] * self.holds / n


def from_levels(index: SearchIndex, phrases: list[str], counts: list[int],
                allowed: Callable[[str], bool], top: int,
                score_of: Callable[[str, float], float], caps: list[float], most: int,
                known: list[TextHit]) -> tuple[Settled | None, int, list[TextHit]]:
    """The ``top`` of the OR of ``phrases`` (their ``counts`` of rows; ``caps``: what each held
    one adds to bm25 at most, largest first), once every allowed memory holding all ``most + 1``
    held words is ``known``. Returns the top or None, and the most words a memory not known can
    hold with the hits known (every allowed memory holding more: those of the levels read
    whole), for the caller's wider pass."""
    held = [i for i, c in enumerate(counts) if c]
    h, n, total = len(held), len(phrases), index.row_count()
    if h < 3 or most != h - 1 or not total:
        return None, most, known
    share = {i: counts[i] / total for i in held}
    budget = total * (1 - math.prod(1 - p for p in share.values())) / LEVEL_ROWS
    levels: list[list[_Set]] = []
    level = h - 1  # the next level to open
    first = max(FIRST_PAGE, 4 * top)
    while True:
        sets = [s for opened in levels for s in opened]
        read = known + [TextHit(i, bm25, bm25 * s.holds / n) for s in sets
                        for i, bm25 in s.rows if allowed(i)]
        outside = unread_bound(float("inf"), caps[:level], n)
        deepest = max(sets, key=lambda s: s.bound(n), default=None)
        inside = deepest.bound(n) if deepest is not None else 0.0
        settled = settle(read, max(outside, inside), top, score_of,
                         sum(len(s.rows) for s in sets))
        if settled is not None:
            return settled, most, known
        if deepest is not None and inside > outside:
            deepest.page *= 4
            deepest.read(index)
            continue
        chosen = list(combinations(held, level)) if level else []
        budget -= total * sum(math.prod(share[i] if i in c else 1 - share[i] for i in held)
                              for c in chosen)
        if not chosen or len(sets) + len(chosen) > MOST_SETS or budget < 0:
            break
        opened = [_Set(set_expression(phrases, held, c), level, first) for c in chosen]
        for s in opened:
            s.read(index)
        levels.append(opened)
        level -= 1
    for opened in levels:  # what the caller may take as read: the levels read whole
        if not all(s.exhausted for s in opened):
            break
        known = known + [TextHit(i, bm25, bm25 * s.holds / n) for s in opened
                         for i, bm25 in s.rows if allowed(i)]
        most = opened[0].holds - 1
    return None, most, known


def set_expression(phrases: list[str], held: list[int], chosen: tuple[int, ...]) -> str:
    """The memories holding the phrases ``chosen`` and none of the other ``held`` ones: each
    phrase once, those held first in the OR's order (the others add 0.0 to their bm25)."""
    within = " AND ".join(phrases[i] for i in chosen)
    left = [phrases[i] for i in held if i not in chosen]
    return f"({within}) NOT ({' OR '.join(left)})" if left else within
