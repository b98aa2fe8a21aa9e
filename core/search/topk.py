"""The best hits of a text query without scoring every memory that matches it.

:func:`core.search.rank.rank` defines the score (``text = bm25 * coverage``, ``relevance = text /
best text``, ``score <= relevance``). Ranking every match costs a Python dict of every match: at
100k memories a common word matches half of them. This module gets the same ``top`` hits, in the
same order and with the same scores, from candidates FTS5 hands over best bm25 first
(``ORDER BY bm25 LIMIT n``, scored and sorted inside SQLite), and stops as soon as no candidate
not read yet could enter the top.

The bounds that make stopping exact:

* A memory's ``text`` is at most its ``bm25`` (coverage <= 1). Candidates come in falling bm25,
  so every memory not read yet has ``text <= bm25`` of the last one read (the *ceiling*).
* The best text is known once the ceiling is no higher than the best text read.
* A hit's score is at most its relevance, so once ``ceiling / best`` is below the lowest of the
  ``top`` best scores read, no memory not read yet can enter.

With several words, the memories holding every word are read first (their coverage is 1, and
there are far fewer of them). A memory missing a word has ``text <= (k / n) * sum of the k
largest c_t`` for some ``k < n``, where ``c_t = (k1 + 1) * idf_t`` bounds what word ``t`` can add
to bm25 (FTS5's bm25: ``idf * f * (k1 + 1) / (f + k1 * (1 - b + b * len / avglen))``, below
``(k1 + 1) * idf`` whatever the frequency and column weights). When the top is settled above
that bound, the rest are never scored; otherwise every match is read in bm25 order.

The ceiling makes each hit's text rank exact too: every memory whose text is above it was read.
"""

from __future__ import annotations

from collections.abc import Callable

from . import holdings, wordlists
from .index import SearchIndex
from .levels import from_levels
from .query import Term, fts_expression
from .settling import Settled, TextHit, settle, unread_bound

#: Candidates asked of SQLite at first; the page grows fourfold when that does not settle it.
FIRST_PAGE = 64
#: An OR of more phrases than this (a question) starts this many first pages deep: a memory
#: holding a few of many words has a flat bm25 and a coverage below 1, so the top is seldom
#: settled within the first page (6k memories, the bench's questions: 18 of 200 settled at 64
#: candidates, 130 at 256, 52 at 1,024), and each page costs FTS5 a bm25 of every match (~8 ms
#: at 6k, ~300 ms at 100k) where reading 1,024 rows costs Python about a millisecond (their
#: coverage is read only as far as needed: :func:`_settle`).
WIDE_FROM, WIDE_PAGES = 2, 16
#: The most memories a search reads from a word list before leaving the ranking to FTS5.
MOST_FROM_LISTS = 1024
#: The most memories holding the rare words of a query read from a common word's list.
MOST_RARE = 500


def top_hits(index: SearchIndex, terms: list[Term], allowed: Callable[[str], bool], top: int,
             score_of: Callable[[str, float], float]) -> Settled:
    """The ``top`` hits by ``score_of(id, relevance)`` (which must not exceed ``relevance``)
    among the memories ``allowed`` that hold any of ``terms``; fewer when fewer match."""
    phrases = [e for e in (fts_expression([t]) for t in terms) if e]
    counts = holdings.counts_of(index, phrases)
    held = [p for p, c in zip(phrases, counts) if c]  # (a word no memory holds adds no bm25)
    caps = _caps(index, [c for c in counts if c])
    most = len(held)  # the most of them a memory not read (not in ``known``) can hold
    known: list[TextHit] = []  # every allowed memory holding more than ``most`` of them
    grouped = holdings.applies(counts)  # (read by holdings: those holding them all a group)
    if len(held) > 1 and not grouped:
        n, outside = len(phrases), unread_bound(float("inf"), caps[:len(held) - 1], len(phrases))
        settled = _settle(index, " AND ".join(f"({p})" for p in held), n, allowed, top,
                          score_of, lambda ceiling: max(ceiling * len(held) / n, outside), None,
                          holds=len(held))
        if isinstance(settled, Settled):
            return settled
        known, most = settled or [], most - 1  # (every memory holding them all was read)
    found = from_word_lists(index, terms, phrases, allowed, top, score_of)
    if found is not None:
        return found
    found = holdings.from_holdings(index, phrases, counts, allowed, top, score_of, most, known)
    if found is not None:
        return found
    found, most, known = from_levels(index, phrases, counts, allowed, top, score_of, caps, most,
                                     known)
    if found is not None:
        return found
    found = from_groups(index, phrases, counts, allowed, top, score_of, caps[:most], known)
    if found is not None:
        return found
    settled = _settle(index, " OR ".join(phrases), len(phrases), allowed, top, score_of,
                      lambda ceiling: unread_bound(ceiling, caps[:most], len(phrases)), phrases,
                      known=known)
    assert isinstance(settled, Settled)  # the OR pass settles: its bound is 0 once all is read
    return settled


def _caps(index: SearchIndex, counts: list[int]) -> list[float]:
    """What each phrase matching ``counts`` rows can add to bm25 at most, largest first."""
    rows = index.row_count()
    return sorted(((wordlists.K1 + 1) * wordlists.idf_of(rows, c) for c in counts), reverse=True)


def groups_of(phrases: list[str], counts: list[int]) -> list[list[int]]:
    """The phrases (by position) cut in runs, in their order: runs holding at least two words
    some memory holds, when four or more are held; of three, the rarer end word alone and
    the other two; [] otherwise (the AND of the words is all there is to cut)."""
    held = [i for i, count in enumerate(counts) if count]
    if len(held) == 3:
        cut = held[0] + 1 if counts[held[0]] <= counts[held[2]] else held[2]
        return [list(range(cut)), list(range(cut, len(counts)))]
    if len(held) < 4:
        return []
    cuts = held[2:len(held) - 1:2]  # a run begins at every other held word, the last one long
    return [list(range(a, b)) for a, b in zip([0, *cuts], [*cuts, len(counts)])]


def from_groups(index: SearchIndex, phrases: list[str], counts: list[int],
                allowed: Callable[[str], bool], top: int,
                score_of: Callable[[str, float], float], caps: list[float],
                known: list[TextHit]) -> Settled | None:
    """The top of an OR of four or more words (a question) read from the memories holding a
    word of every run of :func:`groups_of` (``(a OR b) AND (c OR d)``: each phrase once, in
    the OR's order, so FTS5 gives each the OR's very bm25), far fewer than the OR's matches. A
    memory outside misses every word of a run, so it holds only the other runs' words: its
    text is at most :func:`unread_bound` of their caps. None when there are no such runs or
    that bound leaves the top open (the OR is then ranked). ``caps``: those of as many words as
    a memory not ``known`` (read by an earlier pass) can hold."""
    groups = groups_of(phrases, counts)
    if not groups:
        return None
    n = len(phrases)
    fts_caps = [(wordlists.K1 + 1) * wordlists.idf_of(index.row_count(), c) if c else 0.0
                for c in counts]
    outside = max(unread_bound(float("inf"), sorted(
        (fts_caps[i] for i in range(n) if i not in group and counts[i]), reverse=True)[:len(caps)],
        n) for group in groups) * (1 + 1e-9)  # (and a margin for rounding)
    expression = " AND ".join("(" + " OR ".join(phrases[i] for i in g) + ")" for g in groups)
    settled = _settle(index, expression, n, allowed, top, score_of,
                      lambda ceiling: max(unread_bound(ceiling, caps, n), outside), phrases,
                      give_up=outside, known=known)
    return settled if isinstance(settled, Settled) else None


def partial_bound(index: SearchIndex, phrases: list[str]) -> float:
    """The most text a memory holding some but not all of ``phrases`` can have."""
    caps = _caps(index, [index.reading.count(p) for p in phrases])
    n = len(phrases)
    return max((k / n) * sum(caps[:k]) for k in range(1, n))


def _settle(index: SearchIndex, expression: str, n: int, allowed: Callable[[str], bool],
            top: int, score_of: Callable[[str, float], float],
            unread: Callable[[float], float], phrases: list[str] | None,
            give_up: float = 0.0, holds: int | None = None,
            known: list[TextHit] | None = None) -> Settled | list[TextHit] | None:
    """Read the matches of ``expression`` best bm25 first until the top is settled: no memory
    not read, its bm25 at most the last one read (the ceiling; 0 when all are read), can have
    more text than ``unread(ceiling)``. When every match was read and that bound (the memories
    outside the expression) still leaves the top open: the hits read (every allowed match).

    With several phrases, what each memory holds (its coverage) is read for the best of a page
    first, more of it as needed: a memory whose coverage is not read yet is one not read (its
    bm25 is at most the ceiling), so a question's top is settled having read that of a few
    dozen memories, not of every memory its page holds. ``give_up``: None as soon as a page
    read leaves the top open to memories of that text (outside the expression: reading deeper
    seldom settles it then; the caller ranks a wider expression). ``holds``: how many of the ``n``
    phrases every match holds, when ``phrases`` is None (default ``n``). ``known``: hits read
    by an earlier pass (every memory holding more words than ``unread`` allows), not read
    again."""
    first = max(FIRST_PAGE, 4 * top)
    page = first * (WIDE_PAGES if phrases and n > WIDE_FROM else 1)
    read: list[TextHit] = list(known or ())
    seen = {h.memory_id for h in read}
    done = 0  # the rows read, of every page (a bigger page begins with the smaller one's rows)
    while True:
        rows = index.reading.ranked(expression, page)
        exhausted = len(rows) < page
        while True:  # (at least once a page: a page that ends the matches settles with 0)
            upto = min(len(rows), max(first, 4 * done)) if phrases and n > 1 else len(rows)
            kept = [(i, bm25) for i, bm25 in rows[done:upto] if allowed(i)]
            coverage = _coverage(index, phrases, [i for i, _ in kept]) if phrases and n > 1 \
                else None  # (of the known too: as many as a page holds, so a whole match each)
            for memory_id, bm25 in (k for k in kept if k[0] not in seen):
                # as rank's full path computes it, to the last bit: bm25 * held / n
                held = (holds or n) if coverage is None else coverage.get(memory_id, 0)
                text = bm25 if n == 1 else bm25 * held / n
                read.append(TextHit(memory_id, bm25, text))
            done = upto
            ceiling = 0.0 if not done or (exhausted and done == len(rows)) else rows[done - 1][1]
            settled = settle(read, unread(ceiling), top, score_of, done)
            if settled is not None:
                return settled
            if done == len(rows):
                break
        if give_up and settle(read, give_up, top, score_of, done) is None:
            return None
        if exhausted:
            return read  # every match read: only the memories outside can be in the way
        page *= 4


def from_word_lists(index: SearchIndex, terms: list[Term], phrases: list[str],
                    allowed: Callable[[str], bool], top: int,
                    score_of: Callable[[str, float], float]) -> Settled | None:
    """The top hits of a query of single words, one of them common and the others rare, read
    from the common word's list (:mod:`core.search.wordlists`), deeper and deeper, with every
    memory holding a rare word; each scored as FTS5 would, and settled when the list's bound
    leaves nothing unread that could enter the top. None when the query is not of that kind
    (several common words: their lists' bounds add up and settle late, so FTS5 ranks them),
    the word's list cannot be made, or the top is not settled within :data:`MOST_FROM_LISTS`."""
    if len(phrases) != len(terms) or any(t.kind != "word" for t in terms) \
            or top * 4 > wordlists.LIST_LENGTH:
        return None
    hits = [index.reading.count(p) for p in phrases]  # (kept per generation: partial_bound asked)
    if max(hits) < wordlists.LIST_FROM:
        return None  # only rare words: FTS5 ranks them at once
    words = index.reading.words()
    tokens = [t for p in phrases if (t := words.token_of(p.strip('"'))) is not None]
    if len(tokens) < len(phrases):
        return None  # a phrase FTS5 makes no single token of
    common = {(t, p) for t, p, n in zip(tokens, phrases, hits) if n >= wordlists.LIST_FROM}
    rare = sum(n for n in hits if n < wordlists.LIST_FROM)
    if len({t for t, _ in common}) != 1 or rare > MOST_RARE:
        return None
    (token, phrase), = sorted(common)[:1]
    found = words.lists([token]).get(token) or words.build(token, phrase)
    if found is None:
        return None
    exact = wordlists.ExactBm25(index.conn, words.tokenizer, tokens, hits)
    idf = exact.idf[tokens.index(token)]
    holding = {t: {r for r, in index.conn.execute("SELECT rowid FROM fts WHERE fts MATCH ?", (p,))}
               for t, p in zip(tokens, phrases) if t != token}  # every memory with a rare word
    candidates = set().union(*holding.values())
    ids = index.reading.ids_by_rowid()
    n = len(phrases)
    scored: dict[int, tuple[float, int]] = {}
    known: dict[int, dict[str, float]] = {}  # doc -> token -> weighted frequency, when known
    depth = max(FIRST_PAGE, 4 * top)
    while True:
        rows = found.page(index.conn, 0, depth)
        for _, doc, f in rows:
            if doc not in candidates:
                known[doc] = {token: f, **{t: 0.0 for t, docs in holding.items() if doc not in docs}}
                candidates.add(doc)
        more = len(rows) == depth
        last = rows[-1][0] if more else 0.0
        ceiling = idf * max(last, found.floor) * found.lift(exact.avgdl)
        scored.update(exact.scores([d for d in candidates if d not in scored], known))
        read = []
        for doc, (bm25, held) in scored.items():
            memory_id = ids.get(doc)
            if memory_id is not None and allowed(memory_id):
                read.append(TextHit(memory_id, bm25, bm25 if n == 1 else bm25 * held / n))
        # a memory not read holds no rare word, and the common word (``k`` of the ``n``
        # phrases) at most to the ceiling: bm25 at most k * ceiling, coverage k / n
        k = tokens.count(token)
        above = k * ceiling * k / n
        settled = settle(read, above, top, score_of, len(scored))
        if settled is not None or not more or depth >= MOST_FROM_LISTS:
            return settled
        depth *= 4


def _coverage(index: SearchIndex, phrases: list[str], ids: list[str]) -> dict[str, int]:
    """id -> how many of ``phrases`` each of ``ids`` holds."""
    held: dict[str, int] = dict.fromkeys(ids, 0)
    for phrase in phrases:
        for memory_id in index.reading.ids_matching_among(phrase, ids):
            held[memory_id] += 1
    return held
