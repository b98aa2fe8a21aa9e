"""The app's filter while the search index's first build runs (after a clone: the app's own
build in a worker, or another process's): its words' search waits for the build within the
wait and past it ranks every memory of the view, never the rows built so far alone, and says so
(tui.app.search_rank, as core.search.rank.Searcher does for ``memvault search`` and MCP)."""

from __future__ import annotations

import json
import os
import time

import pytest

from core import Vault
from core.search import first_build
from core.search.index import SearchIndex
from tui.app.query import parse
from tui.app.search_rank import close_all, search_filter
from tui.app.service import VaultService

#: a question: no memory holds all its words as substrings, so only the search finds them
QUESTION = "which vegetables want water?"


@pytest.fixture
def held(tmp_path, monkeypatch):
    """A vault of eight memories, two of them in the index while a build of all eight is under
    way (held there: its record is this live process's, moved on just now)."""
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 3)
    root = tmp_path / "v"
    with Vault.open(root, create=True) as vault:
        for i in range(8):
            vault.add(f"garden note {i}: the tomatoes want water", tags=["garden"])
        first_two = sorted(vault.memories)[:2]
        with SearchIndex.for_root(vault.root) as index:
            index.sync({i: vault.memories[i] for i in first_two})
            index.conn.execute("INSERT INTO state (key, value) VALUES (?, ?)", (
                first_build.BUILD_KEY, json.dumps({"pid": os.getpid(), "done": 2, "total": 8,
                                                   "at": time.time()})))
    yield root
    close_all()


def test_the_filter_past_the_wait_ranks_every_memory_and_says_so(held, monkeypatch):
    monkeypatch.setenv("MEMVAULT_SEARCH_WAIT", "0")
    service = VaultService(held)
    view = service.open()
    notes: list[str] = []
    scores, matched = search_filter(view, parse(QUESTION), notes)
    assert set(scores) == set(matched) == set(view.rows)  # not the 2 rows built so far
    assert len(notes) == 1 and notes[0].startswith(first_build.NOTE_START)
    assert "2 of 8 memories" in notes[0]
    with SearchIndex.for_root(held) as index:
        assert len(index.fingerprints()) == 2  # the build's rows are left to it


def test_a_memory_the_app_saved_during_the_build_is_found(held, monkeypatch):
    monkeypatch.setenv("MEMVAULT_SEARCH_WAIT", "0")
    with Vault.open(held) as vault:
        saved = vault.add("the zucchini came up in the north bed").id
    view = VaultService(held).open()
    scores, _ = search_filter(view, parse("where did the zucchini come up?"))
    assert list(scores) == [saved]


def test_the_filter_waits_for_a_build_that_ends_within_the_wait(held, monkeypatch):
    looks: list[float] = []

    def the_build_ends(seconds: float) -> None:
        looks.append(seconds)
        with SearchIndex.for_root(held) as other:
            other.conn.execute("DELETE FROM state WHERE key = ?", (first_build.BUILD_KEY,))

    monkeypatch.setattr(first_build, "_pause", the_build_ends)
    view = VaultService(held).open()
    scores, _ = search_filter(view, parse(QUESTION))
    assert looks and set(scores) == set(view.rows)
    with SearchIndex.for_root(held) as index:
        assert set(index.fingerprints()) == set(view.rows)  # answered from the file, complete
