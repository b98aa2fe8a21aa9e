"""Ranking on a small hand-made vault where the right order is plain: bm25 times the decay score,
filters, paging, snippets, and the hybrid mode with a fake embedder (CI has no wordllama)."""

from __future__ import annotations

import math

import pytest

from core import Memory, MemoryMetadata, MemoryStatus
from core.search import Searcher, rank as rank_module
from core.search.rank import ALPHA, combine

NOW = 1_800_000_000
DAY = 86400


def _save(vault, memory_id: str, content: str, *, days: float = 0, tags=(), entities=(),
          status=MemoryStatus.ACTIVE, gist=None, uses=0) -> Memory:
    when = int(NOW - days * DAY)
    return vault.save(Memory(id=memory_id, content=content, created_at=when - DAY, last_used=when,
                             meta=MemoryMetadata(tags=list(tags)), entities=list(entities),
                             status=status, gist=gist, use_count=uses))


@pytest.fixture
def small(vault):
    _save(vault, "best", "pytest fixtures: pytest runs the fixtures first", uses=3)
    _save(vault, "faded", "pytest fixtures: pytest runs the fixtures first", days=400)
    _save(vault, "weak", "Notes on the build. " * 10 + "Once we tried pytest. " + "More. " * 20)
    _save(vault, "other", "Never deploy on Fridays: the on-call rota is thin", tags=["ops"])
    _save(vault, "tagged", "Deploys go through the merge queue", tags=["ops", "ci"],
          entities=["GitHub"])
    _save(vault, "old", "pytest was the old runner", status=MemoryStatus.ARCHIVED)
    return vault


def _ids(result) -> list[str]:
    return [h.memory.id for h in result.hits]


def test_relevance_then_life_decide_the_order(small):
    with Searcher(small, mode="bm25") as s:
        result = s.search("pytest fixtures", now=NOW)
    assert result.mode == "bm25" and _ids(result) == ["best", "faded", "weak"]
    best, faded, weak = result.hits
    assert weak.relevance < 0.5  # it holds one of the two words: half the coverage
    assert best.relevance == pytest.approx(faded.relevance) == pytest.approx(1.0)
    assert best.decay > 1 > 0.05 > faded.decay
    for hit in result.hits:  # the documented formula, from the parts it reports
        assert hit.score == pytest.approx(hit.relevance * (ALPHA + (1 - ALPHA) * min(1, hit.decay)))
        assert hit.bm25 > 0 and hit.bm25_rank in (1, 2, 3) and hit.cosine is None
    with Searcher(small, mode="bm25") as s:
        assert _ids(s.search("pytest", now=NOW)) == ["best", "faded", "weak"]


def test_a_faded_strong_match_beats_a_fresh_weak_one(small):
    with Searcher(small, mode="bm25") as s:
        hits = s.search("pytest", now=NOW).hits
    weak = next(h for h in hits if h.memory.id == "weak")
    faded = next(h for h in hits if h.memory.id == "faded")
    assert weak.decay > faded.decay and faded.score > weak.score
    assert combine(1.0, 0.0) == ALPHA and combine(0.5, 5.0) == 0.5


def test_decay_does_not_bury_an_old_memory_that_answers_the_question(vault):
    """A year-old memory holding every word of the question, the best match by a clear margin
    (its dozen fresh rivals hold two of the three words: relevance ~0.79), stays first: decay
    only breaks near-ties (a faded memory keeps ALPHA of its relevance)."""
    _save(vault, "answer", "We moved billing to Postgres in March, after the outage", days=400)
    for n in range(12):
        _save(vault, f"fresh-{n:02d}", f"Billing dashboard {n} reads Postgres", uses=2)
    for n in range(40):  # "move" in 15 of them: a common word, as in any vault
        _save(vault, f"other-{n:02d}", f"Note {n} about the garden" + (", move the pots" if n < 15
              else "") + ", the cat and the groceries", days=90)
    with Searcher(vault, mode="bm25") as s:
        hits = s.search("Why did we move billing to Postgres?", now=NOW, limit=10).hits
    assert hits[0].memory.id == "answer" and hits[0].decay < 0.05
    assert 0.7 < hits[1].relevance < ALPHA and hits[1].decay >= 1


def test_filters_status_tags_negation_and_paging(small):
    with Searcher(small, mode="bm25") as s:
        assert "old" not in _ids(s.search("pytest", now=NOW))  # active by default
        assert _ids(s.search("pytest", statuses=["archived"], now=NOW)) == ["old"]
        assert _ids(s.search("pytest status:arch", now=NOW)) == ["old"]
        assert set(_ids(s.search("deploy", now=NOW))) == {"other", "tagged"}
        assert _ids(s.search("deploy", tags=["ci"], now=NOW)) == ["tagged"]
        assert _ids(s.search("deploy tag:c*", now=NOW)) == ["tagged"]
        assert _ids(s.search("deploy entity:github", now=NOW)) == ["tagged"]
        assert _ids(s.search("deploy -fridays", now=NOW)) == ["tagged"]
        assert _ids(s.search('deploy -"on call"', now=NOW)) == ["tagged"]
        assert _ids(s.search("deploy -tag:ci", now=NOW)) == ["other"]
        everything = s.search("pytest", limit=None, now=NOW)
        page = s.search("pytest", limit=1, offset=1, now=NOW)
        assert page.total == everything.total == 3 and _ids(page) == _ids(everything)[1:2]
        assert s.search("nothing-like-this", now=NOW).hits == []


def test_a_query_of_filters_only_ranks_by_life(small):
    with Searcher(small, mode="bm25") as s:
        result = s.search("tag:ops", now=NOW)
        assert result.mode == "filter" and set(_ids(result)) == {"other", "tagged"}
        assert all(h.relevance == 1.0 and h.bm25 is None for h in result.hits)
        nothing = s.search("( * )", now=NOW)
        assert nothing.mode == "filter" and "no letters or digits" in nothing.notes[0]


def test_snippets_mark_the_matches_as_spans(small):
    _save(small, "long", "Intro. " * 40 + "The [bold]pytest[/bold] run of the night. " +
          "Outro. " * 40)
    with Searcher(small, mode="bm25") as s:
        hits = {h.memory.id: h for h in s.search("pytest", now=NOW).hits}
        tagged = s.search("ci", now=NOW).hits[0]
    snippet = hits["long"].snippet
    assert snippet.cut_before and snippet.cut_after and len(snippet.text) <= 160
    assert [snippet.text[a:b] for a, b in snippet.spans] == ["pytest"]
    assert hits["long"].memory.content[snippet.start:].startswith(snippet.text)
    assert "[bold]" in snippet.text  # verbatim: brackets are text, the marking is data
    best = hits["best"].snippet
    assert [best.text[a:b] for a, b in best.spans] == ["pytest", "pytest"]
    assert tagged.snippet.field == "tags" and tagged.snippet.text == "ops, ci"
    assert tagged.snippet.spans == [(5, 7)]


def test_diacritics_and_stems_match(vault):
    _save(vault, "cafe", "Meeting at the café every morning")
    _save(vault, "run", "She was running late")
    with Searcher(vault, mode="bm25") as s:
        assert _ids(s.search("cafe", now=NOW)) == ["cafe"]
        assert _ids(s.search("runs", now=NOW)) == ["run"]
        assert _ids(s.search("morn*", now=NOW)) == ["cafe"]


# -- hybrid, with a fake embedder -----------------------------------------------------------------
class FakeEmbedder:
    """Words to unit vectors over a tiny vocabulary where car and automobile are one axis."""

    name = "fake/2"
    AXES = {"car": 0, "automobile": 0, "vehicle": 0, "pytest": 1, "fixtures": 1, "deploy": 2,
            "deploys": 2, "fridays": 2}

    def __init__(self):
        self.calls: list[int] = []

    def embed(self, texts):
        self.calls.append(len(texts))
        out = []
        for text in texts:
            v = [0.0, 0.0, 0.0, 0.01]
            for word in text.lower().replace(":", " ").split():
                if word in self.AXES:
                    v[self.AXES[word]] += 1.0
            norm = math.sqrt(sum(x * x for x in v))
            out.append([x / norm for x in v])
        return out


@pytest.fixture(params=["numpy", "plain"])
def vectors_as(request, monkeypatch):
    """Both ways of holding the vectors: numpy when installed, plain Python lists otherwise."""
    from array import array

    from core.search import semantic

    if request.param == "plain":
        monkeypatch.setattr(semantic, "_stack", lambda vs: [array("f", v) for v in vs])
    else:
        pytest.importorskip("numpy")
    return request.param


def test_hybrid_fuses_bm25_and_cosine_scores(small, vectors_as):
    _save(small, "car", "Bought a second-hand automobile last spring")
    fake = FakeEmbedder()
    with Searcher(small, embedder=fake) as s:
        result = s.search("car", now=NOW)
        assert result.mode == "hybrid" and _ids(result)[0] == "car"  # no word in common
        hit = result.hits[0]
        assert hit.bm25 is None and hit.cosine == pytest.approx(1.0, abs=1e-3)
        assert hit.cosine_rank == 1 and hit.relevance == 1.0
        both = s.search("pytest fixtures", now=NOW, limit=None)
        top = both.hits[0]
        assert top.memory.id == "best" and top.bm25_rank is not None and top.cosine_rank is not None
        assert _ids(both)[:2] == ["best", "faded"]
        for h in both.hits:  # every hit carries its cosine, and the 5 nearest their rank
            assert h.cosine is not None and 0 < h.relevance <= 1
        calls = len(fake.calls)
        s.search("deploy", now=NOW)  # vectors come from the cache: only the query is embedded
        assert fake.calls[calls:] == [1]
    small.update("car", content="Sold the car")
    with Searcher(small, embedder=fake) as s:
        s.search("car", now=NOW)
        assert fake.calls[-2:] == [1, 1]  # the changed memory again, then the query


def test_a_questions_stopwords_do_not_outrank_its_content_words(vault):
    _save(vault, "chatter", "What did you do? What did they say, and what did it cost? Did it?")
    _save(vault, "answer", "Caroline painted a lake sunrise last year")
    for n in range(4):
        _save(vault, f"filler{n}", f"Notes about topic {n}")
    with Searcher(vault, mode="bm25") as s:
        assert _ids(s.search("What did Caroline paint?", now=NOW)) == ["answer"]
        assert _ids(s.search("What is Caroline's hobby?", now=NOW)) == ["answer"]
        assert _ids(s.search("what did", now=NOW)) == ["chatter"]  # only stopwords: kept


def test_without_wordllama_search_says_bm25(small, monkeypatch):
    monkeypatch.setattr(rank_module, "semantic_available", lambda: False)
    with Searcher(small) as s:
        assert s.search("pytest", now=NOW).mode == "bm25"
    with Searcher(small, mode="hybrid") as s:
        result = s.search("pytest", now=NOW)
        assert result.mode == "bm25" and "wordllama" in result.notes[0]
    with pytest.raises(ValueError):
        Searcher(small, mode="fuzzy")


def test_wordllama_loads_from_its_wheel_without_network(monkeypatch):
    pytest.importorskip("wordllama")
    import requests

    def no_network(*args, **kwargs):
        raise AssertionError("wordllama tried to download")

    monkeypatch.setattr(requests, "get", no_network)
    from core.search.semantic import WordLlamaEmbedder

    embedder = WordLlamaEmbedder()
    car, automobile, pytest_ = embedder.embed(["car", "automobile", "pytest fixtures"])
    assert float(car @ automobile) > float(car @ pytest_)


@pytest.mark.parametrize("bounded_from, few", [(10**9, 0), (0, 0), (10**9, 10**9)],
                         ids=["every-match", "bounded", "look-ups"])
def test_the_top_alone_is_the_top_of_the_whole_ranking(vault, monkeypatch, bounded_from, few):
    """Each way of reaching the top (scoring every match, reading candidates best bm25 first,
    looking up only the allowed rows) gives exactly the head of the full ranking."""
    import random

    from core.search import rank as ranking
    from core.search.index import SearchIndex
    from core.search.query import parse

    rng = random.Random(3)
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"]
    for n in range(60):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 12)))
        _save(vault, f"m{n:02d}", text, days=rng.choice([0, 2, 30, 200]), uses=rng.randint(0, 5))
    index = SearchIndex.for_root(vault.root)
    memories = vault.memories
    some = set(rng.sample(sorted(memories), 40))
    for text in ("alpha", "alpha beta", "gamma delta zeta", '"beta gamma" epsilon', "zeta* -alpha",
                 "alpha alpha", "nothingmatches", "alpha nothingmatches"):
        query = parse(text)
        for allowed in (set(memories), some):
            full = ranking.rank(index, memories, query, allowed, lambda m: vault.score(m, NOW))
            monkeypatch.setattr(ranking, "BOUNDED_FROM", bounded_from)
            monkeypatch.setattr(ranking, "FEW", few)
            for top in (1, 3, 10, 100):
                part = ranking.rank(index, memories, query, allowed,
                                    lambda m: vault.score(m, NOW), top=top)
                assert part.total == full.total == len(full.hits)
                assert [(h.memory.id, h.score, h.relevance, h.bm25, h.bm25_rank)
                        for h in part.hits] == \
                    [(h.memory.id, h.score, h.relevance, h.bm25, h.bm25_rank)
                     for h in full.hits[:top]], (text, top)
            monkeypatch.undo()
    index.close()


def test_a_changed_memory_gets_a_new_vector_in_the_same_searcher(small, vectors_as):
    _save(small, "car", "Bought a second-hand automobile last spring")
    fake = FakeEmbedder()
    with Searcher(small, embedder=fake) as s:
        assert _ids(s.search("vehicle", now=NOW))[0] == "car"
        small.update("car", content="Planted tomatoes on the balcony")
        calls = len(fake.calls)
        hits = s.search("vehicle", now=NOW).hits
        assert fake.calls[calls:] == [1, 1]  # the changed memory, then the query
        assert all(h.memory.id != "car" or h.cosine is None or h.cosine < 0.5 for h in hits)
