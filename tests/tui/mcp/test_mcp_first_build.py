"""The MCP server's search while the search index's first build runs (after a clone): past the
wait it answers from every memory (one it just saved among them) and says so, in a line and in
figures; the server's own first build runs outside its lock, on a connection of its own."""

from __future__ import annotations

import json
import os
import time

import pytest
from mcp_support import McpServer, server_env

from core import Vault
from core.search import first_build
from core.search.index import SearchIndex
from tui.mcp.search import Finder


def _vault(tmp_path, n: int = 8) -> Vault:
    vault = Vault.open(tmp_path / "v")
    for i in range(n):
        vault.add(f"garden note {i}: the tomatoes want water", tags=["garden"])
    return vault


def _hold_a_build(vault: Vault, rows: list[str], total: int) -> None:
    """The index holds the rows of ``rows`` while a first build of ``total`` memories is under
    way, held there (its record is this live process's, moved on just now)."""
    with SearchIndex.for_root(vault.root) as index:
        index.sync({i: vault.memories[i] for i in rows})
        index.conn.execute("INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)", (
            first_build.BUILD_KEY, json.dumps({"pid": os.getpid(), "done": len(rows),
                                               "total": total, "at": time.time()})))


def test_a_search_during_a_first_build_answers_from_every_memory_and_says_so(
        tmp_path, monkeypatch):
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 3)
    monkeypatch.setenv("MEMVAULT_SEARCH_WAIT", "0")
    vault = _vault(tmp_path)
    ids = sorted(vault.memories)
    _hold_a_build(vault, ids[:2], 8)
    finder = Finder()
    try:
        found = finder.find(vault, "tomatoes", limit=10)
        assert {m.id for m in found} == set(ids)
        assert finder.note is not None and "2 of 8 memories" in finder.note
        assert finder.building == {"done": 2, "total": 8, "eta_seconds": None,
                                   "complete": True}
        saved = vault.add("the zucchini came up in the north bed")  # (save_memory's write)
        assert [m.id for m in finder.find(vault, "zucchini", limit=10)] == [saved.id]
        answer: dict[str, object] = {}
        finder.tell(answer)
        assert answer == {"note": finder.note, "index_building": finder.building}
        garden = finder.find(vault, "tag:garden", limit=20)  # fields alone: applied
        assert {m.id for m in garden} == set(ids)
        finder.find(vault, "", limit=10)  # no query: the vault's own filter, nothing to say
        assert finder.note is None and finder.building is None
    finally:
        finder.close()


def test_the_server_finds_what_it_saved_while_a_first_build_is_under_way(tmp_path):
    env = server_env(tmp_path / "home", MEMVAULT_SEARCH_WAIT="0")
    with pytest.MonkeyPatch.context() as mp:  # made with the git settings the server has
        for key, value in env.items():
            mp.setenv(key, value)
        vault = _vault(tmp_path, 3)
        _hold_a_build(vault, sorted(vault.memories), 3)
        vault.close()
    with McpServer(tmp_path / "v", env) as server:
        saved = server.call("save_memory", content="The zucchini came up in the north bed.")
        assert saved.error is False
        found = server.call("search_memory", query="zucchini")
        assert found.error is False
        data = found.data
        assert [r["content"] for r in data["results"]] == [
            "The zucchini came up in the north bed."]
        assert data["note"].startswith(first_build.NOTE_START)
        assert data["index_building"]["complete"] is True
        unified = server.call("search_unified", query="zucchini").data
        assert [r["content"] for r in unified["results"]] == [
            "The zucchini came up in the north bed."]
        assert unified["index_building"] == data["index_building"]


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
