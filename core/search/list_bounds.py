"""Tighter bounds on what a common word adds to a memory's bm25, from the word's list
(:mod:`core.search.wordlists`), for the groups of a question (:mod:`core.search.holdings`).

A word adds ``idf * g`` to a memory's bm25, ``g`` at most ``k1 + 1`` (the cap the groups are
bounded by) but near 1 for one occurrence in a memory of average length, so at 100k memories
the memories missing one word of a question were bounded at about twice what they can score
and read (5,000-7,000 rows scored a question). A common word's list holds its
:data:`~core.search.wordlists.LIST_LENGTH` best memories, and its ``floor`` is above the ``g``
of every memory left out of it (at the average length it was written at; ``lift`` to the
average now), whatever was synced since (a row written again comes back into the list when
above the floor). So a memory holding the word and not in its list adds at most ``idf *
floor * lift``. A row in the list is bounded by its tier (:data:`TIERS`): one of the first
1,000 by the cap, one deeper by the impact of the 1,000th row (lifted), so a list of 4,000 lowers
the floor of the memories out of it without bounding 4,000 rows by the cap (the parts are cut
with integer operations on the rows' bits: a bound worked out row by row in Python cost more
than the rows it spared). A word without a list (rare, a phrase of several tokens, a prefix, the
lists pending) keeps its cap.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import wordlists
from .index import SearchIndex


#: A list is cut in tiers at these depths (best first): a row in a tier adds at most the
#: impact of the tier's first row (the first tier: the word's cap), so a row deep in a long
#: list is bounded nearly as a row out of it, with no step of Python a row.
TIERS = (1000,)


@dataclass
class Bounds:
    """Per phrase (by position): what it adds at most to the bm25 of a memory holding it and not
    in its word's list (``tight``: its cap when it has no list), the rows of its list as bits
    (``listed``; 0: no list), and the list's tiers (``tiers``: each its rows as bits and what
    the word adds at most to a row of it)."""

    tight: list[float]
    listed: list[int]
    tiers: list[list[tuple[int, float]]]


def tight_caps(index: SearchIndex, phrases: list[str], counts: list[int], caps: list[float]
               ) -> tuple[list[float], list[int]]:
    """Per phrase (by position): what it adds at most to the bm25 of a memory holding it and
    not in its word's list (its cap when it has no list), and the rows of its list as bits
    (0: no list). ``caps``: each phrase's ``(k1 + 1) * idf`` (0.0 for a phrase no memory
    holds), ``counts``: its rows."""
    found = bounds(index, phrases, counts, caps)
    return found.tight, found.listed


def bounds(index: SearchIndex, phrases: list[str], counts: list[int], caps: list[float]
           ) -> Bounds:
    """:func:`tight_caps`, and each list's tiers (:class:`Bounds`)."""
    found = Bounds(list(caps), [0] * len(phrases), [[] for _ in phrases])
    if index.conn.execute("SELECT 1 FROM words LIMIT 1").fetchone() is None:
        return found  # (no list, the lists pending: no tokenizer asked either)
    words = index.reading.words()
    tokens: dict[int, str] = {}
    for i, phrase in enumerate(phrases):  # (a quoted word FTS5 makes one token of, as the
        # list's own expression: "migrations" is read as the memories holding "migrat")
        if counts[i] and len(phrase) > 2 and phrase[0] == phrase[-1] == '"':
            if (token := words.token_of(phrase[1:-1])) is not None:
                tokens[i] = token
    lists = words.lists(tokens.values())
    figures = wordlists.figures(index.conn)
    for i, token in tokens.items():
        listed = lists.get(token)
        if listed is None or not figures.rows or not listed.avgdl:
            continue
        idf = wordlists.idf_of(figures.rows, counts[i])
        scale = idf * listed.lift(figures.avgdl) * (1 + 1e-9)
        bound = listed.floor * scale
        if bound < caps[i]:
            found.tight[i] = bound
            found.listed[i], tiers = index.reading.listed_tiers(token, TIERS)
            found.tiers[i] = [(bits, caps[i] if not n else min(caps[i], top * scale))
                              for n, (bits, top) in enumerate(tiers)]
    return found


def parts(groups: dict[int, int], found: Bounds) -> dict[tuple[int, int], tuple[int, float]]:
    """Each group (the phrases' mask -> its rows' bits) cut in parts by the tier each of its
    words' lists holds a row in, each part with the most bm25 a row of it can have (the sum,
    over the group's words, of the tier's bound, or :attr:`Bounds.tight` for a word whose list
    does not hold the row): ``(mask, -1)`` the rows in no list, ``(mask, k)`` the others; empty
    parts left out. Integer operations on the rows' bits only."""
    out: dict[tuple[int, int], tuple[int, float]] = {}
    listed = 0
    for bits in found.listed:
        listed |= bits
    for mask, members in groups.items():
        words = [i for i in range(mask.bit_length()) if mask >> i & 1]
        base = sum(found.tight[i] for i in words)
        if outside := members & ~listed:
            out[mask, -1] = (outside, base)
        regions = {0.0: members & listed} if members & listed else {}
        for i in words:
            if not found.tiers[i]:
                continue
            split: dict[float, int] = {}
            for extra, bits in regions.items():
                for tier, bound in found.tiers[i]:
                    if inside := bits & tier:
                        key = extra + (bound - found.tight[i])
                        split[key] = split.get(key, 0) | inside
                        bits &= ~tier
                if bits:
                    split[extra] = split.get(extra, 0) | bits
            regions = split
        for k, (extra, bits) in enumerate(regions.items()):
            out[mask, k] = (bits, base + extra)
    return out
