"""What a search reads of the index (core.search.index_reading): a question's candidates and
their coverage come from each word's whole match, never from FTS5 looking up rowids one by one
(``MATCH ? AND rowid IN (...)`` reopens every word's doclists per rowid: seconds for a
question over a few thousand memories), and give exactly the scores and rankings the look-ups
gave."""

from __future__ import annotations


import pytest

from core.search import index_reading, levels
from core.search import rank as ranking
from core.search.index import SearchIndex
from core.search.query import parse
from search_corpus_support import zipf_corpus

N = 2500
WEIGHTS = ", ".join(str(w) for w in index_reading.COLUMN_WEIGHTS)
QUESTIONS = ["what did we decide about w3 and w40 last week?", "why does w0 keep failing on w1?",
             "who said w7 w8 w9 w10 w11 was the plan for w200?", "is there a note about w399?",
             "what is the w2 of the w5 in w60 and w61?"]


@pytest.fixture(scope="module")
def corpus():
    yield from zipf_corpus(N, seed=5, tag_every=5)


def _looked_up(index: SearchIndex, expression: str, ids: list[str]) -> dict[str, float]:
    """The rows of ``ids`` matching ``expression`` and their bm25, as the search read them
    before: FTS5 looking up each rowid."""
    rowids = ",".join(str(index.reading._load_known()[i][0]) for i in ids)
    by_rowid = index.reading.ids_by_rowid()
    return {by_rowid[r]: max(-s, 1e-9) for r, s in index.conn.execute(
        f"SELECT rowid, bm25(fts, {WEIGHTS}) FROM fts WHERE fts MATCH ? AND rowid IN ({rowids})",
        (expression,))}


def _reference(index: SearchIndex, memories, text: str, allowed: set[str], decay):
    """A question's ranking worked out the way it was before: bm25 of the OR of its words and
    the words each memory holds, both from rowid look-ups among the allowed memories."""
    terms = [t for t in parse(text).text_terms if t.tokens()]
    among = sorted(allowed)
    bm25 = _looked_up(index, ranking.any_of(terms), among)
    holds = [set(_looked_up(index, ranking.any_of([t]), list(bm25))) for t in terms]
    text_score = {i: s * sum(i in h for h in holds) / len(terms) for i, s in bm25.items()}
    best = max(text_score.values())
    scored = [(ranking.combine(t / best, decay(memories[i])), t / best, i)
              for i, t in text_score.items()]
    return [i for _, _, i in sorted(scored, key=lambda s: (-s[0], -s[1], s[2]))]


@pytest.mark.parametrize("text", QUESTIONS)
@pytest.mark.parametrize("bounded_from", [0, 10_000])
def test_a_question_ranks_as_the_rowid_look_ups_did(corpus, monkeypatch, text, bounded_from):
    """The same ranked ids, bounded (over many memories) or not, as the look-ups gave."""
    index, memories, decay = corpus
    monkeypatch.setattr(ranking, "BOUNDED_FROM", bounded_from)
    allowed = {i for i in memories if i[-1] != "3"}
    found = ranking.rank(index, memories, parse(text), allowed, decay, top=20)
    assert [h.memory.id for h in found.hits] == _reference(index, memories, text, allowed,
                                                           decay)[:20]


@pytest.mark.parametrize("cost", [0, 10**9])
def test_matches_among_are_the_look_ups_either_way(corpus, monkeypatch, cost):
    """A look-up each (a huge :data:`LOOKUP_COST` never looks up) or the whole match kept to
    the ids asked for: the same rows, the same bm25 to the last bit."""
    index, memories, _ = corpus
    monkeypatch.setattr(index_reading, "LOOKUP_COST", cost)
    if cost == 0:  # (every look-up then costs nothing: always taken)
        monkeypatch.setattr(index.reading, "_looked_up", lambda lookups, expression: True)
    among = sorted(memories)[::7]
    expression = '"w3" OR "w40" OR "w200" OR "nothing"'
    assert index.reading.match_among(expression, among) == _looked_up(index, expression, among)
    assert index.reading.ids_matching_among('"w40"', among) == \
        set(_looked_up(index, '"w40"', among))


@pytest.mark.parametrize("text", QUESTIONS)
def test_a_question_never_asks_fts5_to_look_up_many_rowids(corpus, text):
    """Over a few thousand memories a question reads whole matches (a word's, the OR's best
    first): no ``rowid IN`` list, and a bounded number of statements (with at most
    ``levels.MOST_SETS`` sets of the memories holding most of its words)."""
    index, memories, decay = corpus
    sent: list[str] = []
    index.conn.set_trace_callback(sent.append)
    try:
        ranking.rank(index, memories, parse(text), set(memories), decay, top=10, synced=True)
    finally:
        index.conn.set_trace_callback(None)
    asked = [s for s in sent if s.startswith("SELECT")]  # (not FTS5's own, "-- SELECT ...")
    # (``+rowid IN``: a filter SQLite applies to the rows FTS5 walks, not a look-up)
    assert asked and not [s for s in asked if "rowid IN" in s.replace("+rowid IN", "")]
    assert len(asked) <= 2 * len(parse(text).text_terms) + 4 + levels.MOST_SETS
