"""The memories written just before and just after a search's best hits: its neighbours in time.

A question often names what one memory of a conversation says and is answered by the next one
("What are Melanie's pets' names?": the turn before the answer says "pets", the answer says
"Luna and Oliver!" and shares no word with the question but a name). So each of the
:data:`~core.search.episodes.CONTEXT_DEPTH` best hits (after their episodes' lift,
:mod:`core.search.episodes`) lends a part of its relevance to the memory written just before it
and to the one written just after it, in the whole vault (``records.created_at``, read from the
search index: two look-ups a hit on its time index, never a read of every memory)::

    gain      = NEIGHBOUR_WEIGHT * the best relevance among the top hits it was written next to
    lifted    = relevance (0 below the top hits) + gain
    relevance = lifted / best lifted                 (the best hit still has 1)

A neighbour more than :data:`~core.search.episodes.EPISODE_GAP` away in time is not of the same
sitting and gains nothing; nor does one the search's filters leave out, nor one written at the
very same second (a vault written at once says nothing by its times); of several written at
the second just before (or after), the last (first) id. Whether a neighbour that is no text hit
holds a word is asked of FTS5 for its row only, and only when it could be returned
(:func:`worth_asking`). Measured on LoCoMo (``bench/recall.py``,
docs/search.md): on the tune half, dialog turns R@1 +0.009, R@5 +0.004, R@10 +0.021.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING

from .episodes import CONTEXT_DEPTH, EPISODE_GAP

if TYPE_CHECKING:
    from .index_reading import IndexReading

#: How much of a top hit's relevance the memories written just before and just after it gain.
#: On LoCoMo's tune half (turns R@5 / R@10; 0: 0.592 / 0.659): after only at 0.2 / 0.3 / 0.5:
#: 0.594 / 0.671, 0.599 / 0.679, 0.602 / 0.691 (R@1 -0.054 at 0.5); both sides at 0.25 / 0.3 /
#: 0.4: 0.597 / 0.677, 0.596 / 0.680, 0.599 / 0.685 (R@1 +0.009 each).
NEIGHBOUR_WEIGHT = 0.3

#: The memories written last before each time and first after it, within the gap (``records``'
#: time index: two steps of it a time), in one statement for every hit.
_BESIDE = ("SELECT (SELECT id FROM records WHERE created_at < t.at AND created_at >= t.at - ? "
           "ORDER BY created_at DESC, id DESC LIMIT 1), (SELECT id FROM records WHERE "
           "created_at > t.at AND created_at <= t.at + ? ORDER BY created_at, id LIMIT 1) "
           "FROM (SELECT value AS at, key FROM json_each(?)) AS t ORDER BY t.key")


def written_beside(conn: sqlite3.Connection, times: Sequence[int],
                   gap: int = EPISODE_GAP) -> list[list[str]]:
    """For each time of ``times``, the ids of the memories written last before it and first
    after it, among the index's rows, at most ``gap`` seconds away. Those written at the very
    same second are not its neighbours: a vault written at once (a migration, an import) says
    nothing by the order of its times, and neither does an order of ids."""
    if not times:
        return []
    rows = conn.execute(_BESIDE, (gap, gap, json.dumps([int(t) for t in times])))
    return [[str(i) for i in row if i is not None] for row in rows]


def neighbours_holding(reading: IndexReading, hits: Sequence[tuple[str, int]],
                       words: Sequence[str], allowed: Callable[[str], bool],
                       holding: Collection[str] = (), depth: int = CONTEXT_DEPTH,
                       worth: Callable[[dict[int, list[str]]], Callable[[int], bool]] | None = None
                       ) -> dict[int, list[str]]:
    """The neighbours (:func:`written_beside`) of each of the first ``depth`` ``hits`` (id,
    created_at), best first, that the search allows and that hold one of its ``words`` (FTS5
    expressions, one a word), by the hit's place: a search's hits all hold a word it asked for,
    a neighbour too (on LoCoMo the answer turn holds at least its speaker's name). Those of
    ``holding`` are known to hold one (the text hits): only the others' words are read, and
    with ``worth`` (handed the neighbours known to hold one, it says of the ``k``-th hit
    whether the others beside it could matter, :func:`worth_asking`) only those that could,
    when none of them is a hit."""
    near = dict(enumerate(written_beside(reading.conn, [at for _, at in hits[:depth]])))
    held = {i for ids in near.values() for i in ids if i in holding and allowed(i)}
    others = {i for ids in near.values() for i in ids if i not in held}
    if worth is not None and others and not others & {i for i, _ in hits}:
        ask = worth({k: [i for i in ids if i in held] for k, ids in near.items()})
        others = {i for k, ids in near.items() if ask(k) for i in ids if i in others}
    wanted = sorted(i for i in others if allowed(i))
    anyword = " OR ".join(f"({e})" for e in words if e)  # (one scan: no word's whole match read)
    if wanted and anyword:
        held |= reading.ids_matching_scanned(anyword, wanted)
    return {k: [i for i in ids if i in held] for k, ids in near.items()}


def lifted_by_neighbours(ids: Sequence[str], relevance: Sequence[float],
                         beside: Callable[[int], Sequence[str]],
                         depth: int = CONTEXT_DEPTH) -> tuple[dict[str, float], set[str]]:
    """id -> relevance after the lift (module doc) of the first ``depth`` hits ``ids`` (best
    first, with their ``relevance``) and of their neighbours (``beside(k)``: those of the
    ``k``-th hit, already filtered), over the best; the hits below ``depth`` are only divided by
    the same best. A neighbour below the first ``depth`` is worth its own relevance or its gain,
    whichever is more (a search for the top few may not have ranked it: then its gain); the
    second of the answer: those worth their gain (hits of their own, ranked by it alone)."""
    own = dict(zip(ids, relevance))
    lifted, fresh, top = _lifted(ids, relevance, beside, depth)
    out = {i: r / top for i, r in own.items()}
    out.update((i, r / top) for i, r in lifted.items())
    return out, fresh


def _lifted(ids: Sequence[str], relevance: Sequence[float], beside: Callable[[int], Sequence[str]],
            depth: int) -> tuple[dict[str, float], set[str], float]:
    """:func:`lifted_by_neighbours`' lifted relevance (not over the best yet), the fresh hits,
    and the best it is divided by."""
    head = min(depth, len(ids))
    own = dict(zip(ids, relevance))
    gain: dict[str, float] = {}
    for k in range(head):
        for other in beside(k):
            if other != ids[k]:
                gain[other] = max(gain.get(other, 0.0), NEIGHBOUR_WEIGHT * relevance[k])
    lifted = {ids[k]: relevance[k] + gain.get(ids[k], 0.0) for k in range(head)}
    fresh = {i for i, g in gain.items() if i not in lifted and g >= own.get(i, 0.0)}
    lifted.update((i, gain[i]) for i in fresh)
    return lifted, fresh, max(lifted.values(), default=0.0) or 1.0


def worth_asking(ids: Sequence[str], relevance: Sequence[float], known: dict[int, list[str]],
                 score: Callable[[str, float, bool], float], top: int | None,
                 depth: int = CONTEXT_DEPTH) -> Callable[[int], bool]:
    """Whether the memories beside the ``k``-th hit (of ``ids``, best first) that are no hits
    could be among the ``top`` returned: one is worth its gain over the best at most (its score,
    ``score(id, relevance, fresh)``, is at most its relevance), and the hits with the ``known``
    neighbours (those known to hold a word) already give ``top`` scores it cannot lift or pass
    (such a neighbour gives no hit a gain): below the last of them, it would not be returned."""
    if top is None or top <= 0:
        return lambda k: True
    lifted, fresh, best = _lifted(ids, relevance, known.__getitem__, depth)
    out = dict(zip(ids, relevance))  # (as lifted_by_neighbours: over the same best)
    out.update(lifted)
    scores = sorted((score(i, r / best, i in fresh) for i, r in out.items()), reverse=True)
    if len(scores) < top:
        return lambda k: True
    bar = scores[top - 1]
    return lambda k: NEIGHBOUR_WEIGHT * relevance[k] / best >= bar
