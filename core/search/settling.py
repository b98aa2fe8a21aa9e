"""Settling a top: the hits read so far (:class:`TextHit`, text = bm25 * coverage), the bound
on every memory not read yet, and whether that bound leaves the top by score open. Shared by the
passes of :mod:`core.search.topk` and :mod:`core.search.levels`."""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter


@dataclass
class TextHit:
    """A memory read: its bm25, its text (bm25 * coverage) and its rank by text."""

    memory_id: str
    bm25: float
    text: float  # bm25 * coverage
    text_rank: int = 0


@dataclass
class Settled:
    """The top hits by score, their text, and the best text over every hit."""

    hits: list[TextHit]
    best: float
    scored: int  # how many candidates were read (for tests and the bench)


_TEXT = attrgetter("text")


def unread_bound(ceiling: float, caps: list[float], n: int) -> float:
    """The most text (bm25 * held / n) a memory of bm25 at most ``ceiling`` can have, when it
    holds at most one phrase for each of ``caps`` (the phrases some memory holds): holding
    ``k`` of them, its bm25 is at most the ``k`` largest caps, its coverage ``k / n``."""
    if not ceiling:
        return 0.0
    best, total = 0.0, 0.0
    for k, cap in enumerate(caps, 1):
        total += cap
        best = max(best, min(ceiling, total) * k / n)
    return best


def settle(read: list[TextHit], above: float, top: int,
           score_of: Callable[[str, float], float], scored: int) -> Settled | None:
    """The top of ``read`` when no memory left unread (each of text at most ``above``) can
    enter it or change the best text; None otherwise."""
    best = max((h.text for h in read), default=0.0)
    if best and above <= best:
        return decided(read, best, above, top, score_of, scored)[0]
    if not best and not above:
        return Settled([], 0.0, scored)
    return None


def decided(read: list[TextHit], best: float, above: float, top: int,
            score_of: Callable[[str, float], float], scored: int) -> tuple[Settled | None, float]:
    """:func:`settle` of ``read`` (``best``: its best text, > 0), and when it leaves the top
    open, the text an unread memory must be able to reach to matter: the ``top``-th best score
    read so far times the best text (0 while fewer than ``top`` are read; it only grows as more
    is read: a score times the best text is the text times the memory's own factor). One
    :func:`choose` for both."""
    chosen = choose(read, best, top, score_of)
    floor = score_of(chosen[-1].memory_id, chosen[-1].text / best) if chosen else 0.0
    if above <= best and ((len(chosen) < top and not above)
                          or (len(chosen) == top and above / best < floor)):
        return Settled(ranked_by_text(chosen, read), best, scored), 0.0
    return None, floor * best * (1 - 1e-9) if len(chosen) >= top else 0.0


def choose(read: list[TextHit], best: float, top: int,
            score_of: Callable[[str, float], float]) -> list[TextHit]:
    """The ``top`` best of ``read`` by score, best first (ties as rank's order: higher relevance,
    then id). Scored in falling text, up to the first whose relevance is below the ``top``-th
    score so far: a score is at most its relevance, so none after it can enter."""
    scored: list[tuple[float, float, str, TextHit]] = []
    floor: list[float] = []  # the ``top`` best scores so far, a min-heap
    for h in sorted(read, key=_TEXT, reverse=True):  # (stable: ties keep their order)
        relevance = h.text / best
        if len(floor) >= top and relevance < floor[0]:
            break
        score = score_of(h.memory_id, relevance)
        scored.append((score, h.text, h.memory_id, h))
        if len(floor) < top:
            heapq.heappush(floor, score)
        elif score > floor[0]:
            heapq.heapreplace(floor, score)
    best_ones = heapq.nsmallest(top, scored, key=lambda s: (-s[0], -s[1], s[2]))
    return [s[3] for s in best_ones]


def ranked_by_text(chosen: list[TextHit], read: list[TextHit]) -> list[TextHit]:
    """Give each chosen hit its rank by text among every hit (exact: all those above it were
    read), as rank's full ordering does: higher text first, then id."""
    order = sorted(read, key=lambda h: (-h.text, h.memory_id))
    position = {h.memory_id: n for n, h in enumerate(order, 1)}
    for h in chosen:
        h.text_rank = position[h.memory_id]
    return chosen
