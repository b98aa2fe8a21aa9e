"""Context from the vault itself: memories written close together in time belong together.

An assistant writes memories as a conversation goes, so the memories of one sitting (an
*episode*: written with no pause of more than :data:`EPISODE_GAP` between one and the next)
are about the same things. A question often names what one memory of the episode says and is
answered by another ("What are Melanie's pets' names?": the turn before says "pets", the
answer says "Luna and Oliver!"), so a hit is lifted by the best hit of its own episode::

    context   = the best relevance among the other top hits of its episode (0 if none)
    share     = the share of the top hits that are in that episode
    lifted    = relevance + EPISODE_WEIGHT * (1 - share) * context
    relevance = lifted / best lifted                 (the best hit still has 1)

Only the :data:`CONTEXT_DEPTH` best hits count and are lifted: the episodes are made of them
(their ``created_at``), so nothing beyond a search's own hits is read. A hit alone in its
episode is not lifted, and neither is any when every top hit is of one episode (a vault written
at once: the time says nothing then, ``1 - share`` is 0). The hits below the depth keep their
order, below every lifted one (each is divided by the same best). Measured on LoCoMo
(``bench/recall.py``, docs/search.md): tuned on the tune half, held-out R@5 +0.04 on dialog
turns.
"""

from __future__ import annotations

from collections.abc import Sequence

#: Memories written at most this many seconds apart (one after the other) are one episode.
EPISODE_GAP = 3600
#: How much of the best relevance of its episode a hit gains (times ``1 - share``).
EPISODE_WEIGHT = 0.5
#: How many of the best hits make the episodes and are lifted (a search for the top 10 ranks
#: this many first). On LoCoMo's tune half, 20 / 30 / 50: R@5 on turns 0.585 / 0.590 / 0.592.
CONTEXT_DEPTH = 30


def episodes_of(created: Sequence[int], gap: int = EPISODE_GAP) -> list[int]:
    """The episode of each time in ``created`` (any order): times sorted, and cut where the
    next comes more than ``gap`` seconds after the one before; numbered from 0 in time order."""
    order = sorted(range(len(created)), key=lambda k: created[k])
    out = [0] * len(created)
    episode, last = 0, None
    for k in order:
        if last is not None and created[k] - last > gap:
            episode += 1
        out[k], last = episode, created[k]
    return out


def in_context(relevance: Sequence[float], created: Sequence[int],
               depth: int = CONTEXT_DEPTH) -> list[float]:
    """The relevance of each hit (best first, as ranked) lifted by its episode (module doc):
    the first ``depth`` make the episodes and are lifted, the rest are only divided by the
    same best, so that they stay below the lifted ones."""
    head = len(relevance) if depth >= len(relevance) else depth
    if head < 2:
        return list(relevance)
    episode = episodes_of(created[:head])
    members: dict[int, list[int]] = {}
    for k in range(head):
        members.setdefault(episode[k], []).append(k)
    lifted = list(relevance)
    for ks in members.values():
        if len(ks) < 2 or len(ks) == head:
            continue
        weight = EPISODE_WEIGHT * (1 - len(ks) / head)
        ranked = sorted(ks, key=lambda k: -relevance[k])
        best, second = relevance[ranked[0]], relevance[ranked[1]]
        for k in ks:
            lifted[k] = relevance[k] + weight * (second if k == ranked[0] else best)
    top = max(lifted[:head]) or 1.0
    return [r / top for r in lifted]
