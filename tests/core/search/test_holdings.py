"""A question's top read by what each memory holds (core.search.holdings): its memories grouped
by exactly which words each holds, the groups that can reach the top ranked a level at a time in
one statement, with the OR's very bm25; the same top as the plain evaluation, in a few
statements where the levels of expressions asked up to 16."""

from __future__ import annotations

import pytest

from core.search import holdings
from core.search import rank as ranking
from core.search import topk
from core.search.query import parse
from search_corpus_support import zipf_corpus

N = 3000
QUESTIONS = ["w2 w4 w6 w8", "w10 w20 w30 w390", "w2 nothing w4 w6 w8", "w1 w3 w5 w7 w9 w11",
             "what did we decide about w3 and w40 last week?", "w5 w5 w12 w40",
             '"w2 w4" w6 w8 w13', "w1 w350 w360 w370", "w0 w1 w2 w3 w4 w5 w6"]


@pytest.fixture(scope="module")
def corpus():
    yield from zipf_corpus(N, seed=11, tag_every=7)


def _statements(index, monkeypatch) -> list[str]:
    """Every ranking statement a search asks of FTS5 (``ranked`` and ``ranked_among``)."""
    asked: list[str] = []
    ranked, among = index.reading.ranked, index.reading.ranked_among
    monkeypatch.setattr(index.reading, "ranked", lambda e, n: asked.append(e) or ranked(e, n))
    monkeypatch.setattr(index.reading, "ranked_among",
                        lambda e, rowids, n: asked.append(f"{e} among") or among(e, rowids, n))
    return asked


@pytest.mark.parametrize("text", QUESTIONS)
@pytest.mark.parametrize("every", [1, 3])
def test_a_question_read_by_holdings_ranks_as_the_plain_evaluation(corpus, monkeypatch, text,
                                                                  every):
    """The top 30 (ids, scores, relevance, bm25, bm25 rank), among every memory or a third of
    them, is the plain evaluation's (every match scored), in at most a statement a level."""
    index, memories, decay = corpus
    allowed = {i for n, i in enumerate(sorted(memories)) if n % every == 0}
    full = ranking.rank(index, memories, parse(text), allowed, decay)
    asked = _statements(index, monkeypatch)
    monkeypatch.setattr(ranking, "BOUNDED_FROM", 0)
    monkeypatch.setattr(ranking, "CONTEXT_DEPTH", 30)
    part = ranking.rank(index, memories, parse(text), allowed, decay, top=30)
    assert [(h.memory.id, h.score, h.relevance, h.bm25, h.bm25_rank) for h in part.hits] == \
        [(h.memory.id, h.score, h.relevance, h.bm25, h.bm25_rank) for h in full.hits[:30]]
    held = sum(1 for t in parse(text).text_terms if index.reading.count(topk.fts_expression([t])))
    assert len(asked) <= 1 + held


def test_a_five_word_question_asks_a_statement_or_two_not_sixteen(corpus, monkeypatch):
    """Of five words each in many memories: a batch or two of groups, each one statement (the
    levels of expressions asked the AND, then the 5 sets of four words and the 10 of three)."""
    index, memories, decay = corpus
    asked = _statements(index, monkeypatch)
    settled = topk.top_hits(index, parse("w1 w3 w5 w7 w9").text_terms, lambda i: True, 10,
                            lambda i, relevance: ranking.combine(relevance, decay(memories[i])))
    assert len(settled.hits) == 10
    among = [e for e in asked if e.endswith(" among")]
    assert 1 <= len(among) <= 2 and among == asked


def test_a_group_below_the_top_is_never_read(corpus, monkeypatch):
    """A common word and rare ones: the memories holding the common word alone (next to no
    bm25, a third of the coverage) are never scored."""
    index, memories, decay = corpus
    read: list[int] = []
    among = index.reading.ranked_among
    monkeypatch.setattr(index.reading, "ranked_among",
                        lambda e, by_holds, n: read.extend(r for rowids in by_holds.values()
                                                           for r in rowids)
                        or among(e, by_holds, n))
    phrases = ['"w0"', '"w350"', '"w360"']
    topk.top_hits(index, parse("w0 w350 w360").text_terms, lambda i: True, 10,
                  lambda i, relevance: ranking.combine(relevance, decay(memories[i])))
    alone = holdings.rowids_of(index.reading.rowid_bits(phrases[0])
                               & ~index.reading.rowid_bits(phrases[1])
                               & ~index.reading.rowid_bits(phrases[2]))
    assert read and alone and not set(read) & set(alone)


def test_the_groups_are_the_memories_holding_exactly_those_words(corpus):
    """Each group's rows hold exactly the phrases of its bits (a repeated word: both bits), and
    every memory holding at most ``most`` of them is in one."""
    index, _, _ = corpus
    phrases = ['"w2"', '"w40"', '"w2"', '"w300"', '"nothing"']
    counts = [index.reading.count(p) for p in phrases]
    held = [i for i, c in enumerate(counts) if c]
    groups = holdings.groups_of(index, phrases, held, 3)
    by_rowid = index.reading.ids_by_rowid()
    matching = [index.reading.ids_matching(p) for p in phrases]
    seen: set[str] = set()
    for mask, bits in groups.items():
        for rowid in holdings.rowids_of(bits):
            memory_id = by_rowid[rowid]
            assert [memory_id in m for m in matching] == [bool(mask >> i & 1) for i in
                                                         range(len(phrases))]
            seen.add(memory_id)
    expected = {i for i in set().union(*matching) if sum(i in m for m in matching) <= 3}
    assert seen == expected and all(mask >> 0 & 1 == mask >> 2 & 1 for mask in groups)


@pytest.mark.parametrize("holds", [[1], [2, 1], [3, 1, 2]])
def test_rows_ranked_among_get_the_ors_bm25_to_the_last_bit(corpus, holds):
    """Some rows of a wide OR, ranked alone, best bm25 times their count first: each the bm25
    the whole OR gives it, with its count."""
    index, _, _ = corpus
    expression = '"w3" OR "w40" OR "w200" OR "nothing"'
    every = index.reading.match(expression)
    known = index.reading._load_known()
    chosen = sorted(every)[::5]
    count = {i: holds[n % len(holds)] for n, i in enumerate(chosen)}
    by_holds: dict[int, list[int]] = {}
    for i in chosen:
        by_holds.setdefault(count[i], []).append(known[i][0])
    found = index.reading.ranked_among(expression, by_holds, 1000)
    assert found == sorted(((i, every[i], count[i]) for i in chosen),
                           key=lambda r: (-r[1] * r[2], known[r[0]][0]))
    assert index.reading.ranked_among(expression, {}, 10) == []


def test_a_question_of_too_many_rows_is_left_to_the_levels(corpus, monkeypatch):
    """Held words matching more than MOST_HELD_ROWS rows in all: not grouped (None)."""
    index, memories, decay = corpus
    monkeypatch.setattr(holdings, "MOST_HELD_ROWS", 10)
    phrases = ['"w2"', '"w4"', '"w6"']
    counts = [index.reading.count(p) for p in phrases]
    assert holdings.from_holdings(index, phrases, counts, lambda i: True, 10,
                                  lambda i, r: r, 2, []) is None


def test_a_question_read_by_holdings_asks_no_and_pass_and_no_batch_twice(corpus, monkeypatch):
    """The memories holding every word are a group of the first batch: no statement of their
    AND first; and a batch is ranked once (FTS5 scores all its rows for any page, so a deeper
    page reads the rows kept, never the statement again)."""
    index, memories, decay = corpus
    asked = _statements(index, monkeypatch)
    batches: list[tuple[str, str]] = []
    among = index.reading.ranked_among
    monkeypatch.setattr(index.reading, "ranked_among", lambda e, by_holds, n: batches.append(
        (e, repr(sorted((k, sorted(r)) for k, r in by_holds.items())))) or among(e, by_holds, n))
    for text in ["w1 w3 w5 w7 w9", "w2 w4 w6 w8", "w1 w3 w5 w7 w9 w11", "w0 w1 w2 w3"]:
        asked.clear()
        batches.clear()
        settled = topk.top_hits(index, parse(text).text_terms, lambda i: True, 30,
                                lambda i, r: ranking.combine(r, decay(memories[i])))
        assert len(settled.hits) == 30
        assert batches and len(set(batches)) == len(batches)
        assert all(e.endswith(" among") for e in asked)


def test_a_batch_is_read_with_the_and_of_runs_every_group_holds_a_word_of(corpus):
    """Groups each missing one word of five are read with ``(a OR b) AND (c OR d OR e)``-like
    runs (each phrase once, in order: the OR's very bm25), which match every row of them and
    fewer rows than the OR; a group of one word alone leaves only the OR."""
    index, _, _ = corpus
    phrases = ['"w1"', '"nothing"', '"w3"', '"w5"', '"w7"', '"w9"']
    counts = [index.reading.count(p) for p in phrases]
    held = [i for i, c in enumerate(counts) if c]
    every = sum(1 << i for i in held)
    masks = [every] + [every & ~(1 << i) for i in held]
    expression = holdings.covering(phrases, counts, index.row_count(), masks)
    assert " AND " in expression and [p for p in phrases if p in expression] == phrases
    assert expression.replace("(", "").replace(")", "").replace(" AND ", " OR ") == \
        " OR ".join(phrases)
    groups = holdings.groups_of(index, phrases, held, len(held))
    by_rowid = index.reading.ids_by_rowid()
    rows = {by_rowid[r] for m in masks if m in groups for r in holdings.rowids_of(groups[m])}
    matching = index.reading.ids_matching(expression)
    assert rows and rows <= matching
    assert len(matching) < len(index.reading.ids_matching(" OR ".join(phrases)))
    assert holdings.covering(phrases, counts, index.row_count(), [1 << held[0], every]) == \
        " OR ".join(phrases)


def test_the_rowid_bits_kept_stay_within_their_bytes(corpus, monkeypatch):
    """Each word's bits are kept while the index is the same, but never more than KEPT_BITS
    bytes of them (a long-lived server asked many words of a big vault)."""
    from core.search import index_reading

    index, _, _ = corpus
    monkeypatch.setattr(index_reading, "KEPT_BITS", 1024)
    for n in range(40):
        bits = index.reading.rowid_bits(f'"w{n}" OR "w{n + 100}"')  # (not asked before)
        assert bits == sum(1 << r for r in holdings.rowids_of(bits))
        kept = index.reading.memo["bits"].counts.values()
        assert sum(b.bit_length() for b in kept) <= 8 * 1024


@pytest.mark.parametrize("text", [q for q in QUESTIONS if "decide" not in q])  # (2 words held)
def test_a_row_read_is_made_a_hit_once_whatever_the_pages(corpus, monkeypatch, text):
    """A batch's rows are made into hits as its pages reach them, each once: a deeper page or
    another batch adds hits, it does not make those read before again (they were made again at
    every round: a question's settling read ~3,000-5,000 rows for ~1,000 ranked at 10k)."""
    index, memories, decay = corpus
    ranked: list[int] = []
    among = index.reading.ranked_among
    monkeypatch.setattr(index.reading, "ranked_among", lambda e, by_holds, n: (
        lambda rows: ranked.append(len(rows)) or rows)(among(e, by_holds, n)))
    made: list[str] = []

    class Counted(holdings.TextHit):
        def __init__(self, memory_id: str, bm25: float, text: float) -> None:
            super().__init__(memory_id, bm25, text)
            made.append(memory_id)

    monkeypatch.setattr(holdings, "TextHit", Counted)
    phrases = [p for p in (topk.fts_expression([t]) for t in parse(text).ranked_terms) if p]
    counts = [index.reading.count(p) for p in phrases]
    assert holdings.applies(counts)
    settled = holdings.from_holdings(
        index, phrases, counts, lambda i: True, 30,
        lambda i, relevance: ranking.combine(relevance, decay(memories[i])), len(phrases), [])
    assert settled is not None and made
    assert len(made) == len(set(made)) <= sum(ranked)
