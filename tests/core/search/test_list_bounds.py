"""A common word's list bounds what the word adds to a memory left out of it
(core.search.list_bounds): the groups of a question read with those bounds rank as the plain
evaluation, score fewer rows than with the words' caps, and the bound holds after a sync."""

from __future__ import annotations

import random

import pytest

from core.model.records import Memory
from core.search import holdings, list_bounds, wordlists
from core.search import rank as ranking
from core.search import topk
from core.search.index import SearchIndex
from core.search.query import parse
from core.search.transaction import transaction
from search_corpus_support import zipf_corpus

N = 3000
LISTED = [f"w{k}" for k in range(12)]  # (w0-w6 in more than a list's 1,000 memories)
QUESTIONS = ["w0 w1 w2 w3", "w0 w1 w2 w3 w4", "w1 w2 w3 w4 w5 w6", "w3 w5 w8 w13 w21",
             "w0 w2 w5 w9 w30", "what did we decide about w3 and w40 last week?"]


@pytest.fixture
def corpus(monkeypatch):
    monkeypatch.setattr(wordlists, "LIST_LENGTH", 1000)  # (shorter than w0-w6's matches)
    for index, memories, decay in zipf_corpus(N, seed=11, tag_every=7):
        for word in LISTED:
            assert index.reading.words().build(word, f'"{word}"') is not None
        yield index, memories, decay


def _caps(index, phrases: list[str]) -> tuple[list[int], list[float]]:
    """Each phrase's rows and its cap, ``(k1 + 1) * idf``."""
    counts = [index.reading.count(p) for p in phrases]
    return counts, [(wordlists.K1 + 1) * wordlists.idf_of(index.row_count(), c) for c in counts]


def _assert_bounds_hold(index) -> int:
    """Every memory holding a listed word and out of its list: the word's bm25 for it at most
    the word's tight cap. Returns how many tight caps are below the cap."""
    phrases = [f'"{w}"' for w in LISTED]
    counts, caps = _caps(index, phrases)
    tight, listed = list_bounds.tight_caps(index, phrases, counts, caps)
    rowid = {i: r for i, (r, _) in index.reading._load_known().items()}
    below = 0
    for phrase, cap, bound, bits in zip(phrases, caps, tight, listed):
        assert bound <= cap
        below += bound < cap
        for memory_id, bm25 in index.reading.match(phrase).items():
            if not bits >> rowid[memory_id] & 1:
                assert bm25 <= bound
    return below


def test_a_word_fts5_stems_is_bounded_by_its_stems_list(tmp_path, monkeypatch):
    """"migrations" is read by FTS5 as the memories holding "migrat": that word's list bounds
    it, as it bounds every form of it."""
    monkeypatch.setattr(wordlists, "LIST_LENGTH", 1000)  # (shorter than the word's matches)
    rng = random.Random(3)
    forms = ["migration", "migrations", "migrate", "migrated"]
    memories = {f"m{n:04d}": Memory(id=f"m{n:04d}", created_at=1, last_used=1, content=" ".join(
        rng.choice(forms) if rng.random() < 0.2 else f"x{rng.randint(0, 50)}"
        for _ in range(rng.randint(3, 30)))) for n in range(2500)}
    index = SearchIndex(None)
    try:
        index.sync(memories)
        assert index.reading.words().build("migrat", '"migrat"') is not None
        phrases = ['"migrations"', '"x7"', '"migrate"']
        counts, caps = _caps(index, phrases)
        tight, listed = list_bounds.tight_caps(index, phrases, counts, caps)
        assert tight[0] < caps[0] and tight[2] < caps[2] and tight[1] == caps[1]
        assert listed[0] == listed[2] != 0 and listed[1] == 0
        rowid = {i: r for i, (r, _) in index.reading._load_known().items()}
        outside = [bm25 for i, bm25 in index.reading.match('"migrations"').items()
                   if not listed[0] >> rowid[i] & 1]
        assert outside and max(outside) <= tight[0]
    finally:
        index.close()


def _top(index, memories, decay, text: str) -> tuple[list[tuple], int]:
    """The top 10 by the bounded path (ids, scores, relevance, bm25, bm25 rank) and how many
    rows its groups' statements scored."""
    scored: list[int] = []
    among = index.reading.ranked_among
    index.reading.ranked_among = lambda e, by_holds, n: scored.extend(
        r for rowids in by_holds.values() for r in rowids) or among(e, by_holds, n)
    try:
        settled = topk.top_hits(index, parse(text).text_terms, lambda i: True, 10,
                                lambda i, r: ranking.combine(r, decay(memories[i])))
    finally:
        index.reading.ranked_among = among
    return [(h.memory_id, h.text, h.bm25, h.text_rank) for h in settled.hits], len(scored)


def test_a_memory_out_of_a_words_list_adds_at_most_the_lists_bound(corpus):
    """The bound from a list's floor is below the cap for the words in more than a list's
    memories, and above the word's bm25 in every memory out of the list."""
    index, _, _ = corpus
    assert _assert_bounds_hold(index) >= 5


def test_the_lists_bound_holds_after_a_sync_rewrites_and_adds_memories(corpus):
    """Memories rewritten with a listed word many times (above the floor) and new short ones
    holding it: they come into the list or stay below its floor, so the bound still holds."""
    index, memories, _ = corpus
    assert _assert_bounds_hold(index) >= 5  # (the lists' rows kept: a sync must renew them)
    rng = random.Random(5)
    changed = dict(memories)
    for n, memory_id in enumerate(sorted(memories)[:200]):
        words = [rng.choice(LISTED[:4]) for _ in range(rng.randint(1, 6))]
        changed[memory_id] = Memory(id=memory_id, content=" ".join(words), created_at=1,
                                    last_used=1)
        changed[f"x{n:03d}"] = Memory(id=f"x{n:03d}", content=f"{LISTED[n % 4]} tiny",
                                      created_at=1, last_used=1)
    index.sync(changed)
    assert _assert_bounds_hold(index) >= 5


@pytest.mark.parametrize("text", QUESTIONS)
def test_a_question_ranks_as_the_plain_evaluation_with_the_lists_bounds(corpus, monkeypatch,
                                                                       text):
    """The top 30 (ids, scores, relevance, bm25, bm25 rank) read with the lists' bounds is the
    plain evaluation's (every match scored)."""
    index, memories, decay = corpus
    full = ranking.rank(index, memories, parse(text), set(memories), decay)
    monkeypatch.setattr(ranking, "BOUNDED_FROM", 0)
    monkeypatch.setattr(ranking, "CONTEXT_DEPTH", 30)
    part = ranking.rank(index, memories, parse(text), set(memories), decay, top=30)
    assert [(h.memory.id, h.score, h.relevance, h.bm25, h.bm25_rank) for h in part.hits] == \
        [(h.memory.id, h.score, h.relevance, h.bm25, h.bm25_rank) for h in full.hits[:30]]


def test_the_lists_bounds_spare_rows_the_caps_would_score(corpus):
    """The same top of each question, with fewer rows scored in all than with the caps alone
    (the lists dropped): the memories missing a word of the question are ruled out sooner."""
    index, memories, decay = corpus
    tight = [_top(index, memories, decay, q) for q in QUESTIONS]
    with transaction(index.conn):
        wordlists.drop_all(index.conn)
    loose = [_top(index, memories, decay, q) for q in QUESTIONS]
    assert [top for top, _ in tight] == [top for top, _ in loose]
    assert sum(n for _, n in tight) < sum(n for _, n in loose)


def test_every_part_of_a_group_bounds_the_bm25_of_each_of_its_rows(corpus, monkeypatch):
    """Each part of the groups of the listed words (the rows in no list; the rows of each
    combination of the lists' tiers) is bounded above every row's bm25 of the words it holds,
    and the rows deep in a list are bounded below the caps."""
    index, _, _ = corpus
    monkeypatch.setattr(list_bounds, "TIERS", (300,))
    phrases = [f'"{w}"' for w in LISTED[:6]]
    counts, caps = _caps(index, phrases)
    found = list_bounds.bounds(index, phrases, counts, caps)
    assert all(len(found.tiers[i]) == 2 and found.tiers[i][1][1] < caps[i] for i in range(6))
    groups = holdings.groups_of(index, phrases, list(range(6)), 6)
    parts = list_bounds.parts(groups, found)
    rowid = {i: r for i, (r, _) in index.reading._load_known().items()}
    bm25 = {rowid[i]: s for i, s in index.reading.match(" OR ".join(phrases)).items()}
    for (mask, _), (bits, bound) in parts.items():
        assert bits and bits & groups[mask] == bits
        assert all(bm25[row] <= bound for row in holdings.rowids_of(bits))
    assert len(parts) > 2 * len(groups)  # (the listed rows cut by their tiers)


def test_a_row_deep_in_a_list_is_bounded_by_its_tier_not_the_cap(corpus, monkeypatch):
    """The same top of each question as the plain evaluation's, with fewer rows scored when a
    row below a list's first tier is bounded by the impact at the tier's depth than when every
    row of a list is bounded by the caps."""
    index, memories, decay = corpus
    monkeypatch.setattr(list_bounds, "TIERS", (300,))
    tiered = [_top(index, memories, decay, q) for q in QUESTIONS]
    monkeypatch.setattr(list_bounds, "TIERS", ())
    index.reading.memo.clear()
    capped = [_top(index, memories, decay, q) for q in QUESTIONS]
    assert [top for top, _ in tiered] == [top for top, _ in capped]
    assert sum(n for _, n in tiered) < sum(n for _, n in capped)
