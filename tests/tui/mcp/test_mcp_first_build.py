"""The MCP server's search while the search index's first build runs (after a clone): it
answers from the memories indexed so far and says so; the server's own first build runs outside
its lock, on a connection of its own."""

from __future__ import annotations

import json
import os
import time

from core import Vault
from core.search import first_build
from core.search.index import SearchIndex
from tui.mcp.search import Finder


def _vault(tmp_path, n: int = 8) -> Vault:
    vault = Vault.open(tmp_path / "v")
    for i in range(n):
        vault.add(f"garden note {i}: the tomatoes want water", tags=["garden"])
    return vault


def test_a_search_during_a_first_build_answers_from_the_rows_so_far(tmp_path, monkeypatch):
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 3)
    vault = _vault(tmp_path)
    ids = sorted(vault.memories)
    with SearchIndex.for_root(vault.root) as index:
        index.sync({i: vault.memories[i] for i in ids[:2]})
        index.conn.execute("INSERT INTO state (key, value) VALUES (?, ?)", (
            first_build.BUILD_KEY, json.dumps({"pid": os.getpid(), "done": 2, "total": 8,
                                               "at": time.time()})))
    finder = Finder()
    try:
        found = finder.find(vault, "tomatoes", limit=10)
        assert {m.id for m in found} == set(ids[:2])
        assert finder.note is not None and "2 of 8 memories" in finder.note
        finder.find(vault, "tag:garden", limit=10)  # no words: the vault's own filter
        assert finder.note is None
    finally:
        finder.close()


def test_the_servers_first_build_writes_every_row(tmp_path, monkeypatch):
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 3)
    monkeypatch.setattr(first_build, "CHUNK", 3)
    vault = _vault(tmp_path)
    Finder.build_first(vault.root, dict(vault.memories.items()))
    with SearchIndex.for_root(vault.root) as index:
        assert set(index.fingerprints()) == set(vault.memories)
        assert first_build.building(index.conn) is None
    finder = Finder()
    try:
        assert len(finder.find(vault, "tomatoes", limit=10)) == 8 and finder.note is None
    finally:
        finder.close()
