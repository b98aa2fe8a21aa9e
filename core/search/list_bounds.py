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
floor * lift``; one in the list is bounded by the cap as before. A word without a list (rare,
a phrase of several tokens, a prefix, the lists pending) keeps its cap.
"""

from __future__ import annotations

from . import wordlists
from .index import SearchIndex


def tight_caps(index: SearchIndex, phrases: list[str], counts: list[int], caps: list[float]
               ) -> tuple[list[float], list[int]]:
    """Per phrase (by position): what it adds at most to the bm25 of a memory holding it and
    not in its word's list (its cap when it has no list), and the rows of its list as bits
    (0: no list). ``caps``: each phrase's ``(k1 + 1) * idf`` (0.0 for a phrase no memory
    holds), ``counts``: its rows."""
    tight, listed = list(caps), [0] * len(phrases)
    if index.conn.execute("SELECT 1 FROM words LIMIT 1").fetchone() is None:
        return tight, listed  # (no list, the lists pending: no tokenizer asked either)
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
        found = lists.get(token)
        if found is None or not figures.rows or not found.avgdl:
            continue
        idf = wordlists.idf_of(figures.rows, counts[i])
        bound = idf * found.floor * found.lift(figures.avgdl) * (1 + 1e-9)
        if bound < caps[i]:
            tight[i] = bound
            listed[i] = index.reading.listed_bits(token)
    return tight, listed


def split(groups: dict[int, int], listed: list[int]) -> dict[tuple[int, bool], int]:
    """Each group (the phrases' mask -> its rows' bits) cut in two: ``(mask, True)`` the rows in
    the list of a word of the group (bounded by the caps), ``(mask, False)`` the others (bounded
    by :func:`tight_caps`); empty parts left out."""
    parts: dict[tuple[int, bool], int] = {}
    for mask, members in groups.items():
        high = 0
        for i, bits in enumerate(listed):
            if bits and mask >> i & 1:
                high |= bits
        if inside := members & high:
            parts[mask, True] = inside
        if outside := members & ~high:
            parts[mask, False] = outside
    return parts
