"""`memvault search` while the search index's first build is not done (tui.cli.search with
core.search.first_build): the answer holds every memory, and says so on stderr and in
`--json`'s `index_building`; run in-process through cli.main."""

from __future__ import annotations

import json
import os
import time

import pytest

from cli_support import Run, cli_env, run, vdir  # noqa: F401  (fixtures)
from core import Vault
from core.search import background_build, first_build
from core.search.index import SearchIndex


@pytest.fixture
def eight(vdir, monkeypatch):
    """A vault of eight memories; memvault search never starts a real builder here."""
    monkeypatch.setattr(background_build, "launch", lambda root, fd: os.close(fd) or True)
    with Vault.open(vdir) as vault:
        for i in range(8):
            vault.add(f"garden note {i}: the tomatoes want water")
        return sorted(vault.memories)


def _hold_a_build(vdir, ids: list[str], total: int) -> None:
    """The index holds the rows of ``ids`` while a build of ``total`` is under way, held there
    (its record is this live process's, moved on just now)."""
    with Vault.open(vdir, readonly=True) as vault, SearchIndex.for_root(vdir) as index:
        index.sync({i: vault.memories[i] for i in ids})
        index.conn.execute("INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)", (
            first_build.BUILD_KEY, json.dumps({"pid": os.getpid(), "done": len(ids),
                                               "total": total, "at": time.time()})))


def test_a_search_past_the_wait_answers_from_every_memory_and_says_so(run, vdir, eight,
                                                                      monkeypatch):
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 3)  # (2 rows missing: no hand-over)
    monkeypatch.setenv("MEMVAULT_SEARCH_WAIT", "0")
    _hold_a_build(vdir, eight[:6], 8)
    code, out, err = run("search", "tomatoes", "--limit", "20", "--json")
    assert code == 0
    data = json.loads(out)
    assert {h["id"] for h in data["hits"]} == set(eight) and data["total"] == 8
    assert data["index_building"] == {"done": 6, "total": 8, "eta_seconds": None,
                                      "complete": True}
    assert "note: the search index is still being built (6 of 8 memories so far)" in err
    code, out, err = run("search", "tomatoes", "--limit", "20")
    assert code == 0 and "still being built" in err and "still being built" not in out
    assert out.count("tomatoes") == 8


def test_a_search_that_hands_the_build_over_says_how_far_it_is(run, vdir, eight, monkeypatch):
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 3)
    with SearchIndex.for_root(vdir) as index:  # (the index exists, with no row: a clone's)
        assert index.row_count() == 0
    data = json.loads(run.ok("search", "tomatoes", "--limit", "20", "--json"))
    assert {h["id"] for h in data["hits"]} == set(eight)
    assert data["index_building"] == {"done": 0, "total": 8, "eta_seconds": None,
                                      "complete": True}
