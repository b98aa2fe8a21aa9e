"""The bounded top-k (core.search.topk) over a few thousand memories: it gives exactly the head
of the full ranking, reads fewer candidates than there are matches, and settles multi-word
queries among the memories holding every word when the bound allows."""

from __future__ import annotations


import pytest

from core.search import holdings, levels
from core.search import rank as ranking
from core.search import topk
from core.search.query import parse
from search_corpus_support import zipf_corpus

N = 3000


@pytest.fixture(scope="module")
def corpus():
    yield from zipf_corpus(N, seed=11, tag_every=7)


QUERIES = ["w0", "w1 w2", "w0 w1 w2", "w5 w300", "w7*", '"w0 w1" w3', "w0 -w1", "w399 w398",
           "w0 w0", "nothing w0", "w2 w4 w6 w8", "w0 w1 w2 w3 w4", "w1 w5 w9 w30 w2",
           "w0 w1 w2 w3 w4 w5", "w0 nothing w1 w2 w3", "w0 w1 w5", "w9 w1 w0",
           "w10 w20 w30 w390", "w1 w3 w5 w7 w9 w11", "w2 nothing w4 w6 w8", "w3 w40* w6 w9"]


@pytest.mark.parametrize("text", QUERIES)
@pytest.mark.parametrize("top", [1, 10, 50])
def test_the_bounded_top_is_the_head_of_the_full_ranking(corpus, monkeypatch, text, top):
    index, memories, decay = corpus
    query = parse(text)
    allowed = {i for i in memories if i[-1] != "7"}
    full = ranking.rank(index, memories, query, allowed, decay)
    monkeypatch.setattr(ranking, "BOUNDED_FROM", 0)
    part = ranking.rank(index, memories, query, allowed, decay, top=top)
    assert part.total == full.total
    assert [(h.memory.id, h.score, h.relevance, h.bm25, h.bm25_rank) for h in part.hits] == \
        [(h.memory.id, h.score, h.relevance, h.bm25, h.bm25_rank) for h in full.hits[:top]]


def test_a_common_word_reads_a_page_not_every_match(corpus):
    index, memories, decay = corpus
    matches = index.reading.count('"w0"')
    assert matches > 1500
    settled = topk.top_hits(index, parse("w0").text_terms, lambda i: True, 10,
                            lambda i, relevance: relevance * (0.7 + 0.3 * min(1, decay(memories[i]))))
    assert len(settled.hits) == 10
    assert settled.scored < matches / 4


def test_several_words_settle_among_the_memories_holding_them_all(corpus, monkeypatch):
    """The memories holding every word come first; when the bound on the others holds, the
    OR of the words is never ranked."""
    index, _, _ = corpus
    asked: list[str] = []
    ranked = index.reading.ranked
    monkeypatch.setattr(index.reading, "ranked", lambda e, n: asked.append(e) or ranked(e, n))
    terms = parse("w10 w20").text_terms
    settled = topk.top_hits(index, terms, lambda i: True, 3, lambda i, relevance: relevance)
    assert asked and all(" AND " in e for e in asked)
    assert settled.hits


def test_the_partial_bound_is_above_every_memory_missing_a_word(corpus):
    index, _, _ = corpus
    phrases = ['"w3"', '"w40"', '"w200"']
    bound = topk.partial_bound(index, phrases)
    text = ranking._text_scores(index, parse("w3 w40 w200").text_terms,
                                index.reading.match(" OR ".join(phrases)))
    holding_all = index.reading.ids_matching(" AND ".join(phrases))
    partial = [t for i, t in text.items() if i not in holding_all]
    assert partial and max(partial) <= bound


def test_a_question_settles_among_the_memories_holding_a_word_of_every_run(corpus, monkeypatch):
    """Four words or more, its levels not read (:mod:`core.search.levels`): the memories holding
    a word of each run (``(a OR b) AND (c OR d)``) settle the top when the bound on the others
    holds; the OR of the words is never ranked."""
    index, memories, decay = corpus
    monkeypatch.setattr(levels, "MOST_SETS", 0)
    monkeypatch.setattr(holdings, "MOST_HELD_ROWS", 0)  # (the levels' path, as over a big vault)
    asked: list[str] = []
    ranked = index.reading.ranked
    monkeypatch.setattr(index.reading, "ranked", lambda e, n: asked.append(e) or ranked(e, n))
    settled = topk.top_hits(index, parse("w2 w4 w6 w8").text_terms, lambda i: True, 10,
                            lambda i, relevance: relevance * (0.7 + 0.3 * min(1, decay(memories[i]))))
    assert len(settled.hits) == 10
    assert '("w2" OR "w4") AND ("w6" OR "w8")' in asked
    assert '"w2" OR "w4" OR "w6" OR "w8"' not in asked


@pytest.mark.parametrize(("counts", "groups"), [
    ([5, 5], []), ([5, 0, 5], []), ([5, 5, 9], [[0], [1, 2]]), ([9, 5, 5], [[0, 1], [2]]),
    ([5, 5, 5, 5], [[0, 1], [2, 3]]), ([5, 5, 5, 5, 5], [[0, 1], [2, 3, 4]]),
    ([5, 0, 5, 5, 5], [[0, 1, 2], [3, 4]]), ([5, 5, 0, 5, 5, 5], [[0, 1, 2], [3, 4, 5]]),
    ([0, 5, 5, 5, 0], [[0, 1], [2, 3, 4]])])
def test_the_runs_each_hold_two_words_some_memory_holds(counts, groups):
    assert topk.groups_of([f'"w{i}"' for i in range(len(counts))], counts) == groups
