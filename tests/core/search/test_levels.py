"""A question's top read level by level (core.search.levels): each set of the memories holding
exactly some of its words is one FTS5 expression that gives them the OR's very bm25, and a
question settled there never has FTS5 rank the OR of its words, nor its runs."""

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


@pytest.fixture(autouse=True)
def _levels_of_expressions(monkeypatch):
    """The levels read as expressions, as over a big vault (over a small one a question is read
    by what each memory holds: tests/core/search/test_holdings.py)."""
    monkeypatch.setattr(holdings, "MOST_HELD_ROWS", 0)


@pytest.mark.parametrize("chosen", [(0, 1, 2), (0, 2, 3), (1, 3), (2,), (0, 1, 2, 3)])
def test_a_set_gets_the_ors_bm25_to_the_last_bit(corpus, chosen):
    index, _, _ = corpus
    phrases = ['"w2"', '"w4"', '"w6"', '"w8"']
    every = index.reading.match(" OR ".join(phrases))
    holding = [index.reading.ids_matching(p) for p in phrases]
    exactly = {i for i in every if all((i in holding[k]) == (k in chosen) for k in range(4))}
    found = index.reading.match(levels.set_expression(phrases, [0, 1, 2, 3], chosen))
    assert found and set(found) == exactly
    assert all(found[i] == every[i] for i in found)


def _asked(index, monkeypatch) -> list[str]:
    asked: list[str] = []
    ranked = index.reading.ranked
    monkeypatch.setattr(index.reading, "ranked", lambda e, n: asked.append(e) or ranked(e, n))
    return asked


@pytest.mark.parametrize("text", ["w2 w4 w6 w8", "w10 w20 w30 w390", "w2 nothing w4 w6 w8"])
def test_a_question_settles_among_the_memories_holding_most_of_its_words(corpus, monkeypatch,
                                                                         text):
    """Settled among those holding all its words but one or two: the same top as the full
    ranking, and neither the OR of its words nor its runs ranked by FTS5."""
    index, memories, decay = corpus
    asked = _asked(index, monkeypatch)
    query = parse(text)
    full = ranking.rank(index, memories, query, set(memories), decay)
    monkeypatch.setattr(ranking, "BOUNDED_FROM", 0)
    # (the top the evaluation is asked for: a search asks for the episodes' depth, here 10)
    monkeypatch.setattr(ranking, "CONTEXT_DEPTH", 10)
    part = ranking.rank(index, memories, query, set(memories), decay, top=10)
    assert [(h.memory.id, h.score, h.relevance, h.bm25, h.bm25_rank) for h in part.hits] == \
        [(h.memory.id, h.score, h.relevance, h.bm25, h.bm25_rank) for h in full.hits[:10]]
    assert any(" NOT " in e for e in asked)
    assert not [e for e in asked if " OR " in e.split(" NOT ")[0]]


def test_a_question_of_many_words_opens_a_level_of_few_sets_only(corpus, monkeypatch):
    """A level of more than MOST_SETS sets is not opened: the runs and the OR rank it, with
    every memory of the levels read whole known (the same top as the full ranking)."""
    index, memories, decay = corpus
    asked = _asked(index, monkeypatch)
    monkeypatch.setattr(levels, "MOST_SETS", 6)  # (the 6 sets of five words, not the 15 of four)
    settled = topk.top_hits(index, parse("w1 w3 w5 w7 w9 w11").text_terms, lambda i: True, 10,
                            lambda i, relevance: ranking.combine(relevance, decay(memories[i])))
    sets = [e for e in asked if " NOT " in e]
    assert len(sets) == 6 and all(e.count(" AND ") == 4 for e in sets)
    full = ranking.rank(index, memories, parse("w1 w3 w5 w7 w9 w11"), set(memories), decay)
    assert [h.memory_id for h in settled.hits] == [h.memory.id for h in full.hits[:10]]
