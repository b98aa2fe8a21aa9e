"""Sets of index rows as the bits of one integer (core.search.bitsets), made with no step of
Python a row: the same integer as setting each bit in turn, and a word's bits read from the
index in one walk of its matches, which then also gives its count."""

from __future__ import annotations

import random

import pytest

from core.search import bitsets, holdings
from core.search import rank as ranking
from core.search import topk
from core.search.query import parse
from search_corpus_support import zipf_corpus


def _one_by_one(rowids: list[int]) -> int:
    """The bits set a rowid at a time (the plain construction)."""
    bits = 0
    for r in rowids:
        if r >= 0:
            bits |= 1 << r
    return bits


@pytest.mark.parametrize("rowids", [[], [0], [7], [8], [0, 1, 2, 3, 4, 5, 6, 7, 8], [5, 5, 5],
                                    [-1, 3, -20], [-4], [100_000], [1 << 17, 2, 9, 1 << 17]])
def test_bits_of_sets_exactly_the_bits_of_the_rowids(rowids):
    """Any rowids (zero, repeats, the byte edges, a negative one: no row) give the integer of
    their bits set one at a time, from a list or from a JSON array."""
    assert bitsets.bits_of(list(rowids)) == _one_by_one(rowids)
    assert bitsets.bits_of_json(str(rowids)) == _one_by_one(rowids)
    assert bitsets.bits_of_json(None) == 0


def test_bits_of_many_random_rowids_read_back_as_those_rowids():
    """Thousands of rowids over a 100k-row range: the same integer, and the rows read back from
    it are those rowids."""
    rng = random.Random(5)
    rowids = rng.sample(range(100_000), 6_000)
    bits = bitsets.bits_of(rowids)
    assert bits == _one_by_one(rowids)
    assert sorted(holdings.rowids_of(bits)) == sorted(rowids)


@pytest.fixture(scope="module")
def corpus():
    yield from zipf_corpus(1500, seed=3, tag_every=5)


def test_a_words_rowid_bits_are_its_matching_rows(corpus):
    """The bits the index keeps for a phrase are the rowids FTS5 matches for it."""
    index, _, _ = corpus
    for phrase in ['"w1"', '"w30"', '"w399"', '"nothing"', '"w2" OR "w9"']:
        rowids = [r for (r,) in index.conn.execute("SELECT rowid FROM fts WHERE fts MATCH ?",
                                                   (phrase,))]
        assert index.reading.rowid_bits(phrase) == _one_by_one(rowids)


def test_a_question_walks_each_new_word_once_not_for_a_count_and_again_for_its_bits(
        corpus, monkeypatch):
    """A question read by its words' groups, its words not asked before: each word's matches
    are read once (its bits, counted for its idf), never a ``count(*)`` walk of it first; and
    the top is the plain evaluation's."""
    index, memories, decay = corpus
    text = "w11 w23 w37 w41"
    index.reading.memo.clear()  # (no word's count or bits kept)
    full = ranking.rank(index, memories, parse(text), set(memories), decay)
    index.reading.memo.clear()
    asked: list[str] = []
    index.conn.set_trace_callback(asked.append)
    try:
        settled = topk.top_hits(index, parse(text).text_terms, lambda i: True, 10,
                                lambda i, r: ranking.combine(r, decay(memories[i])))
    finally:
        index.conn.set_trace_callback(None)
    assert not [s for s in asked if "count(*)" in s]
    for word in text.split():
        assert len([s for s in asked if "json_group_array" in s and f'"{word}"' in s]) == 1
    assert [h.memory_id for h in settled.hits] == [h.memory.id for h in full.hits[:10]]
