"""Word lists (core.search.wordlists): the bm25 worked out in Python is FTS5's to the last bit,
and a ranking read from the lists is exactly the head of the full ranking, also after memories
are added, changed and removed and the average length drifts."""

from __future__ import annotations

import random

import pytest

from core import Memory, MemoryMetadata
from core.search import rank as ranking
from core.search import topk, wordlists
from core.search.index import SearchIndex
from core.search.query import parse

N = 1500
VOCABULARY = [f"w{n}" for n in range(2000)]
WEIGHTS = [1 / (n + 1) ** 0.7 for n in range(2000)]  # w0 in about half the memories


def make_memory(rng: random.Random, memory_id: str, longest: int = 40, shortest: int = 2
                ) -> Memory:
    words = rng.choices(VOCABULARY, WEIGHTS, k=rng.randint(shortest, longest))
    return Memory(
        id=memory_id, content=" ".join(words), created_at=1, last_used=1,
        gist=" ".join(words[:3]) if rng.random() < 0.3 else None,
        entities=[rng.choice(VOCABULARY)] if rng.random() < 0.2 else [],
        meta=MemoryMetadata(tags=rng.sample(VOCABULARY[:20], 2) if rng.random() < 0.2 else []))


def patch_small_lists(patch: pytest.MonkeyPatch) -> None:
    """Lists for words in 60 memories or more, 120 memories long: the corpora below then have
    lists that a top 10 reads only partly and a top 30 runs out of."""
    patch.setattr(wordlists, "LIST_FROM", 60)
    patch.setattr(wordlists, "LIST_LENGTH", 120)
    patch.setattr(ranking, "BOUNDED_FROM", 0)


@pytest.fixture
def small_lists(monkeypatch):
    patch_small_lists(monkeypatch)


def build(kind: str):
    rng = random.Random(5)
    shortest = 2 if kind == "varied" else 30
    memories = {f"m{n:04d}": make_memory(rng, f"m{n:04d}", 40 if shortest == 2 else 36, shortest)
                for n in range(N)}
    index = SearchIndex(None)
    index.sync(memories)
    life = {i: rng.choice([0.05, 0.3, 0.8, 1.0, 1.7]) for i in memories}
    return index, memories, (lambda m: life.get(m.id, 0.5)), rng


@pytest.fixture(scope="module", params=["varied", "even"])
def corpus(request):
    """Memories of 2 to 40 words, or (``even``, like the bench's) of 30 to 36: their lengths
    vary less, so do a word's impacts, and the lists are read deeper. Read-only: the tests that
    change memories take :func:`own_corpus`."""
    with pytest.MonkeyPatch.context() as patch:
        patch_small_lists(patch)
        index, memories, decay, rng = build(request.param)
        yield index, memories, decay, rng
        index.close()


@pytest.fixture
def own_corpus(small_lists):
    index, memories, decay, rng = build("varied")
    yield index, memories, decay, rng
    index.close()


def test_varints_read_sqlite_varints():
    assert wordlists.varints(bytes([0x05, 0x81, 0x00, 0x86, 0x8D, 0x20])) == [5, 128, 100000]
    assert wordlists.varints(bytes([0xFF] * 8 + [0x01])) == [(2 ** 56 - 1) << 8 | 1]


@pytest.mark.parametrize("text", ["w0", "w3 w1", "w0 w0", "w250 w2", "w7 w8 w9 w10"])
def test_the_bm25_worked_out_in_python_is_fts5s_to_the_last_bit(corpus, text):
    index, _, _, _ = corpus
    phrases = [f'"{t.value}"' for t in parse(text).text_terms]
    words = index.reading.words()
    tokens = [words.token_of(t.value) for t in parse(text).text_terms]
    exact = wordlists.ExactBm25(index.conn, words.tokenizer, tokens,
                                [index.reading.count(p) for p in phrases])
    fts5 = index.reading.match(" OR ".join(phrases))
    ids = index.reading.ids_by_rowid()
    rowid = {i: r for r, i in ids.items()}
    mine = exact.scores([rowid[i] for i in fts5], {})
    assert len(fts5) > 10
    assert {ids[d]: bm25 for d, (bm25, _) in mine.items()} == fts5  # float equality, every bit


def same_head(index, memories, decay, text, top, allowed=None):
    query = parse(text)
    pool = set(memories) if allowed is None else allowed
    full = ranking.rank(index, memories, query, pool, decay)
    part = ranking.rank(index, memories, query, pool, decay, top=top)
    assert [(h.memory.id, h.score, h.relevance, h.bm25, h.bm25_rank) for h in part.hits] == \
        [(h.memory.id, h.score, h.relevance, h.bm25, h.bm25_rank) for h in full.hits[:top]]
    assert part.total == full.total


QUERIES = ["w0", "w1", "w0 w1", "w0 w0", "w0 w0 w299", "w2 w299", "w3 nothing", "w5 w6 w7", "w40",
           "w280 w1 w290"]


@pytest.mark.parametrize("text", QUERIES)
@pytest.mark.parametrize("top", [1, 10, 30])
@pytest.mark.parametrize("first_page", [1, 64])
def test_the_top_read_from_the_lists_is_the_head_of_the_full_ranking(corpus, monkeypatch, text,
                                                                    top, first_page):
    """With a first page of one the bound decides at every depth (1, 4, 16...)."""
    monkeypatch.setattr(topk, "FIRST_PAGE", first_page)
    index, memories, decay, _ = corpus
    same_head(index, memories, decay, text, top)
    same_head(index, memories, decay, text, top, {i for i in memories if i[-1] not in "37"})


def test_a_common_word_is_read_from_its_list_not_ranked_by_fts5(own_corpus, monkeypatch):
    index, memories, decay, _ = own_corpus
    asked: list[str] = []
    monkeypatch.setattr(index.reading, "ranked", lambda e, n: asked.append(e) or [])
    terms = parse("w0").text_terms
    settled = topk.top_hits(index, terms, lambda i: True, 10, lambda i, r: r)
    assert index.reading.words().lists(["w0"]), "the first search for the word made its list"
    settled = topk.top_hits(index, terms, lambda i: True, 10, lambda i, r: r)
    assert len(settled.hits) == 10 and not asked
    assert settled.scored < index.reading.count('"w0"') / 2


def test_the_lists_follow_added_changed_and_removed_memories(own_corpus):
    index, memories, decay, rng = own_corpus
    for text in ("w0", "w1 w2", "w4"):
        same_head(index, memories, decay, text, 10)  # makes the lists
    best = ranking.rank(index, memories, parse("w0"), set(memories), decay, top=5)
    for hit in best.hits[:3]:  # the best memories for w0 go, or lose the word
        del memories[hit.memory.id]
    changed = best.hits[3].memory
    memories[changed.id] = changed.model_copy(update={"content": "w9 w9 w9"})
    for n in range(40):  # new memories, some short and full of a listed word
        memories[f"new{n}"] = Memory(id=f"new{n}", content="w0 w4 " * (n % 3 + 1) + "w1",
                                     created_at=1, last_used=1)
    index.sync(memories)
    for text in ("w0", "w1 w2", "w4", "w0 w4 w1"):
        for top in (1, 10, 30):
            same_head(index, memories, decay, text, top)
    rows = index.conn.execute("SELECT count(*) FROM wordlists w JOIN records r ON r.rowid = w.doc "
                              "WHERE r.id LIKE 'new%'").fetchone()[0]
    assert rows > 0


def test_a_drifting_average_length_keeps_the_head_exact(own_corpus):
    index, memories, decay, rng = own_corpus
    same_head(index, memories, decay, "w0", 10)
    for n in range(400):  # far longer memories: the average length grows by half
        memories[f"long{n}"] = make_memory(rng, f"long{n}", longest=200)
    index.sync(memories)
    assert wordlists.figures(index.conn).avgdl > 1.3 * index.reading.words().lists(["w0"])["w0"].avgdl
    for text in ("w0", "w0 w3", "w1"):
        for top in (1, 10, 30):
            same_head(index, memories, decay, text, top)


def test_a_bulk_sync_builds_the_lists_of_every_common_word(small_lists, monkeypatch):
    monkeypatch.setattr(wordlists, "REWRITE_FROM", 100)
    rng = random.Random(8)
    memories = {f"m{n}": make_memory(rng, f"m{n}") for n in range(N)}
    with SearchIndex(None) as index:
        index.sync(memories)
        common = [t for t, n in index.conn.execute("SELECT term, doc FROM temp.index_words")
                  if n >= wordlists.LIST_FROM]
        assert common and set(index.reading.words().lists(common)) == set(common)


def test_words_fts5_splits_or_phrases_go_to_fts5(corpus):
    index, memories, decay, _ = corpus
    for text in ("w0-w1", '"w0 w1"', "w0*"):
        terms = parse(text).text_terms
        phrases = [topk.fts_expression([t]) for t in terms]
        assert topk.from_word_lists(index, terms, phrases, lambda i: True, 10,
                                    lambda i, r: r) is None
        same_head(index, memories, decay, text, 10)


@pytest.mark.parametrize("text", ["w0", "w0 w0", "w0 w0 w299", "w1 w280", "w0 w290 w0 w299"])
@pytest.mark.parametrize("top", [1, 5, 20])
def test_the_lists_alone_give_the_head_of_the_full_ranking(corpus, monkeypatch, text, top):
    """Straight from the lists, without the phase that reads the memories holding every word
    first (which settles most of these before the lists are asked), and with scores that may
    fall to half the relevance (the lists must then be read deep, or given up)."""
    monkeypatch.setattr(topk, "FIRST_PAGE", 1)
    index, memories, _, _ = corpus
    query = parse(text)
    full = ranking.rank(index, memories, query, set(memories), lambda m: 1.0)
    share = {i: 1.0 if n % 7 == 0 else 0.6 for n, i in enumerate(sorted(memories))}
    expected = sorted(full.hits, key=lambda h: (-h.relevance * share[h.memory.id],
                                                -h.relevance, h.memory.id))[:top]
    terms = query.text_terms
    settled = topk.from_word_lists(index, terms, [topk.fts_expression([t]) for t in terms],
                                   lambda i: True, top, lambda i, r: r * share[i])
    if settled is None:  # given up: the ranking falls back to FTS5 (checked above)
        return
    assert [(h.memory_id, h.bm25, h.text_rank) for h in settled.hits] == \
        [(h.memory.id, h.bm25, h.bm25_rank) for h in expected]


@pytest.mark.parametrize("text", ["w0 w1 w2 w3", "w5 w0 w6 w7 w1", "w1 w2 w3", "w0 w299 w1 w2"])
@pytest.mark.parametrize("top", [1, 10, 30])
def test_a_questions_runs_give_the_head_of_the_full_ranking_on_this_corpus(corpus, text, top):
    """The runs of :func:`core.search.topk.groups_of` on memories of varied and even lengths."""
    index, memories, decay, _ = corpus
    same_head(index, memories, decay, text, top)



def test_a_lists_frequencies_worked_back_from_scores_are_those_of_its_rows_text(small_lists,
                                                                                 monkeypatch):
    """A common word's list takes each row's weighted frequency from its FTS5 score
    (``weighted_from_scores``): the frequencies of re-tokenizing the rows' stored text, column
    weights included (stemmed words among them: ``running`` -> ``run``)."""
    rng = random.Random(11)
    words = ["because", "decision", "running", "vault", "w1", "w2", "w3", "w4"]
    memories = {}
    for n in range(400):
        picked = rng.choices(words, k=rng.randint(2, 12))
        memories[f"m{n}"] = Memory(
            id=f"m{n}", content=" ".join(picked), created_at=1, last_used=1,
            gist=" ".join(picked[:2]) if rng.random() < 0.3 else None,
            entities=[rng.choice(words)] if rng.random() < 0.3 else [],
            meta=MemoryMetadata(tags=[rng.choice(words)] if rng.random() < 0.3 else []))
    read_back = []
    held_weighted = wordlists.held_weighted
    monkeypatch.setattr(wordlists, "held_weighted",
                        lambda *a: read_back.append(a[2]) or held_weighted(*a))
    with SearchIndex(None) as index:
        index.sync(memories)
        words_of = index.reading.words()
        assert words_of.build_common()
        listed = [t for t, in index.conn.execute("SELECT token FROM words")]
        assert {"vault", "w1", "run"} <= set(listed)
        for token in listed:
            rows = index.conn.execute("SELECT doc, f FROM wordlists WHERE token = ?",
                                      (token,)).fetchall()
            texts = wordlists.texts_of(index.conn, [doc for doc, _ in rows])
            truth = words_of.tokenizer.weighted(texts, {token})
            expected = {doc: freq.get(token, 0.0) for doc, (_, freq) in truth.items()}
            assert {doc: f for doc, f in rows} == expected, token
            # and read from the index's own instances (the way back for any other word)
            assert held_weighted(index.conn, words_of.tokenizer.weights, token,
                                 [doc for doc, _ in rows]) == {
                doc: f for doc, f in expected.items() if f}, token
    assert not read_back  # (every list's frequencies came from its scores)
