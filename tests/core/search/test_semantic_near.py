"""What hybrid search offers for its meaning alone (issue 41, every door with the ``semantic``
extra): only memories near the query (a cosine of :data:`core.search.semantic.NEAR_COSINE` or
more), none when the query asks nothing (only stopwords), and a long memory embedded by its
beginning. A fake embedder runs everywhere; the last test needs wordllama and skips without it."""

from __future__ import annotations

import json
import math
import os
import time

import pytest

from core import Memory
from core.search import Searcher, first_build
from core.search.index import SearchIndex
from core.search.semantic import EMBED_CHARS, NEAR_COSINE

NOW = 1_800_000_000


class AxesEmbedder:
    """Words to unit vectors: car and automobile on one axis, pytest on another, and every text
    a little on a last axis (a text without those words is only that: all such texts are alike,
    as a static model's stopwords or strange tokens make unrelated texts look alike)."""

    name = "fake/axes"
    AXES = {"car": 0, "automobile": 0, "pytest": 1}

    def __init__(self) -> None:
        self.texts: list[str] = []

    def embed(self, texts):
        self.texts.extend(texts)
        out = []
        for text in texts:
            v = [0.0, 0.0, 0.01]
            for word in text.lower().split():
                if word in self.AXES:
                    v[self.AXES[word]] += 1.0
            norm = math.sqrt(sum(x * x for x in v))
            out.append([x / norm for x in v])
        return out


def _fill(vault, **contents: str) -> None:
    vault.save_many([Memory(id=i, content=c, created_at=NOW - 10, last_used=NOW - 10)
                     for i, c in contents.items()])


def _ids(result) -> set[str]:
    return {h.memory.id for h in result.hits}


def test_a_query_of_only_common_words_offers_no_memory_for_its_meaning_and_says_so(vault):
    _fill(vault, fixtures="Prefers pytest fixtures over setUp methods",
          deploy="Never deploy on Fridays: the on-call rota is thin",
          lunch="Sandwiches and soup at noon")
    with Searcher(vault, embedder=AxesEmbedder()) as searcher:
        result = searcher.search("the on over", now=NOW, limit=50)
        assert _ids(result) == {"fixtures", "deploy"}  # the memories holding them, no lunch
        assert result.mode == "bm25"
        assert any("only common words" in note for note in result.notes)
        asked = searcher.search("pytest", now=NOW, limit=50)
        assert asked.mode == "hybrid" and not any("common words" in n for n in asked.notes)


def test_a_vault_holding_nothing_near_the_query_offers_none_of_its_memories(vault):
    _fill(vault, fixtures="Prefers pytest fixtures over setUp methods",
          lunch="Sandwiches and soup at noon")
    with Searcher(vault, embedder=AxesEmbedder()) as searcher:
        assert searcher.search("car", now=NOW, limit=50).hits == []  # the least far: not near
    _fill(vault, automobile="Bought a second-hand automobile last spring")
    with Searcher(vault, embedder=AxesEmbedder()) as searcher:
        result = searcher.search("car", now=NOW, limit=50)
    assert _ids(result) == {"automobile"}  # no word in common, and near
    assert result.hits[0].bm25 is None and result.hits[0].cosine >= NEAR_COSINE


def test_a_long_memory_is_embedded_by_its_beginning(vault):
    head = "pytest runs the fixtures first. "
    _fill(vault, long=head + "and then more words " * 50_000, short="pytest is quick")
    embedder = AxesEmbedder()
    with Searcher(vault, embedder=embedder) as searcher:
        assert _ids(searcher.search("pytest", now=NOW, limit=5)) == {"long", "short"}
    embedded = [t for t in embedder.texts if t.startswith(head)]
    assert len(embedded) == 1 and len(embedded[0]) <= 2 * EMBED_CHARS


def test_a_search_while_the_index_is_first_built_ranks_by_the_words_alone_and_says_so(
        vault, monkeypatch):
    """The vectors are cached in the index: while its first build runs elsewhere, a search that
    answers from the memories in memory embeds none of them, and says what is missing."""
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 3)
    monkeypatch.setenv("MEMVAULT_SEARCH_WAIT", "0")
    _fill(vault, automobile="Bought a second-hand automobile last spring",
          **{f"garden{n}": f"garden note {n}: the tomatoes want water" for n in range(7)})
    with SearchIndex.for_root(vault.root) as index:  # two rows written, the build under way
        index.sync({i: vault.memories[i] for i in ("garden0", "garden1")})
        index.conn.execute("INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)", (
            first_build.BUILD_KEY, json.dumps({"pid": os.getpid(), "done": 2, "total": 8,
                                               "at": time.time()})))
    embedder = AxesEmbedder()
    with Searcher(vault, embedder=embedder) as searcher:
        result = searcher.search("car tomatoes", now=NOW, limit=50)
        assert _ids(result) == {f"garden{n}" for n in range(7)} and result.mode == "bm25"
        assert result.notes[0].startswith(first_build.NOTE_START)
        assert "near in meaning are offered once the index is built" in result.notes[1]
    assert embedder.texts == []  # not one memory embedded in memory
    with SearchIndex.for_root(vault.root) as index:  # the build done
        index.conn.execute("DELETE FROM state WHERE key = ?", (first_build.BUILD_KEY,))
        index.sync(vault.memories)
    with Searcher(vault, embedder=embedder) as searcher:
        result = searcher.search("car tomatoes", now=NOW, limit=50)
    assert "automobile" in _ids(result) and result.mode == "hybrid" and result.notes == []


def test_wordllama_offers_a_memory_near_in_meaning_and_no_other(vault):
    pytest.importorskip("wordllama")
    _fill(vault, fixtures="Prefers pytest fixtures over setUp methods",
          deploy="Never deploy on Fridays: the on-call rota is thin",
          coffee="I drink coffee every morning", golang="We prefer golang for the backend")
    with Searcher(vault) as searcher:  # (auto: hybrid, wordllama being installed)
        near = searcher.search("beverage", now=NOW, limit=50)
        assert near.mode == "hybrid" and [h.memory.id for h in near.hits] == ["coffee"]
        assert searcher.search("allergic", now=NOW, limit=50).hits == []
        assert _ids(searcher.search("Где рецепт кофе?", now=NOW, limit=50)) == set()
