"""A search while another connection or process first builds the index (core.search.rank.
Searcher with core.search.first_build): it waits for the build within a bound, and past it
answers from every memory, never from the rows written so far alone, and says so: a memory its
own process just saved among them."""

from __future__ import annotations

import json
import os
import time

import pytest

from core import Vault
from core.search import Searcher, first_build
from core.search.index import SearchIndex


@pytest.fixture
def vault(tmp_path, monkeypatch):
    """Eight memories, two of them in the index while a build of all eight is under way (held
    there: its record is this live process's, moved on just now)."""
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 3)
    opened = Vault.open(tmp_path / "v")
    for i in range(8):
        opened.add(f"garden note {i}: the tomatoes want water", tags=["garden"])
    first_two = sorted(opened.memories)[:2]
    with SearchIndex.for_root(opened.root) as index:
        index.sync({i: opened.memories[i] for i in first_two})
        index.conn.execute("INSERT INTO state (key, value) VALUES (?, ?)", (
            first_build.BUILD_KEY, json.dumps({"pid": os.getpid(), "done": 2, "total": 8,
                                               "at": time.time()})))
    yield opened
    opened.close()


def test_a_search_past_the_wait_answers_from_every_memory_and_says_so(vault, monkeypatch):
    monkeypatch.setenv("MEMVAULT_SEARCH_WAIT", "0")
    with Searcher(vault, mode="bm25") as searcher:
        result = searcher.search("tomatoes", limit=20)
        assert {h.memory.id for h in result.hits} == set(vault.memories)
        assert result.building == (2, 8, None)
        assert any(n.startswith(first_build.NOTE_START) and "2 of 8" in n for n in result.notes)
        assert result.as_json()["index_building"] == {
            "done": 2, "total": 8, "eta_seconds": None, "complete": True}
        assert len(searcher.index.fingerprints()) == 2  # the build's rows are left to it


def test_a_memory_saved_during_the_build_is_found_by_its_own_process(vault, monkeypatch):
    monkeypatch.setenv("MEMVAULT_SEARCH_WAIT", "0")
    with Searcher(vault, mode="bm25") as searcher:
        searcher.search("tomatoes")
        saved = vault.add("the zucchini came up in the north bed")
        result = searcher.search("zucchini")
        assert [h.memory.id for h in result.hits] == [saved.id]
        assert result.building is not None


def test_a_search_waits_for_a_build_that_ends_within_the_wait(vault, monkeypatch):
    looks: list[float] = []

    def the_build_ends(seconds: float) -> None:
        looks.append(seconds)
        with SearchIndex.for_root(vault.root) as other:
            other.conn.execute("DELETE FROM state WHERE key = ?", (first_build.BUILD_KEY,))

    monkeypatch.setattr(first_build, "_pause", the_build_ends)
    with Searcher(vault, mode="bm25") as searcher:
        result = searcher.search("tomatoes", limit=20)
        assert looks and result.building is None and result.as_json()["index_building"] is None
        assert not any(n.startswith(first_build.NOTE_START) for n in result.notes)
        assert {h.memory.id for h in result.hits} == set(vault.memories)
        assert set(searcher.index.fingerprints()) == set(vault.memories)  # the file complete
