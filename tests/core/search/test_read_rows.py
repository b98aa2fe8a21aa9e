"""The search rows of the first search after a clone, made while a read-only open reads the files
(core.search.read_rows.RowsWhileReading): the very rows and rowids an index made in memory
from the memories afterwards holds, so the ranking is the same; and when the memories the vault
ended with are not those it was handed (a memory with two files), none, and the search makes
them as before."""

from __future__ import annotations

import fcntl
import os
import shutil
import time

import pytest

from core import Vault
from core.search import Searcher, index_path
from core.search import background_build, first_build
from core.search import memory_index as memory_index_module
from core.search.memory_index import memory_index
from core.search.query import parse
from core.search.rank import rank
from core.store.shards import shard_of

NOW = int(time.time())
TEXTS = ["the garden needs water on mondays", "tomatoes in the garden", "a note about taxes",
         "the car is due for service", "taxes are due in april", "the garden shed roof leaks",
         "café au lait in the garden", "the queue of garden chores", "water the tomatoes"]
QUERIES = ["garden", "garden taxes", "tax*", '"the garden"', "garden -roof", "cafe", "water"]


def _cloned(vault: Vault, layout: str) -> None:
    """Memories in ``layout``, and no derived index (as after a clone)."""
    for n, text in enumerate(TEXTS):
        vault.add(text, tags=["home"] if n % 2 else ["work"])
    vault.migrate_layout(layout)
    vault.close()
    for leftover in index_path(vault.root).parent.glob("index.sqlite*"):
        leftover.unlink()


def _rows(index) -> list[tuple]:
    return index.conn.execute(
        "SELECT r.rowid, r.id, f.content, f.gist, f.tags, f.entities FROM records r "
        "JOIN fts f ON f.rowid = r.rowid ORDER BY r.rowid").fetchall()


@pytest.mark.parametrize("layout", ["flat", "sharded"])
def test_the_rows_made_while_reading_are_those_made_after(vault, layout):
    _cloned(vault, layout)
    opened = Vault.open(vault.root, readonly=True, search_rows=True)
    read_rows = opened.open_index.search_rows
    assert read_rows is not None
    made = read_rows.index_for(opened.memories)
    assert made is not None
    after = memory_index(opened.memories)
    assert _rows(made) == _rows(after) and len(_rows(made)) == len(TEXTS)
    pool = set(opened.memories)
    for text in QUERIES:
        a = rank(made, opened.memories, parse(text), pool, lambda m: 1.0, synced=True)
        b = rank(after, opened.memories, parse(text), pool, lambda m: 1.0, synced=True)
        assert [(h.memory.id, h.score, h.bm25) for h in a.hits] == [
            (h.memory.id, h.score, h.bm25) for h in b.hits], text


def test_only_a_read_only_open_that_reads_every_file_makes_them(vault):
    _cloned(vault, "flat")
    assert Vault.open(vault.root, search_rows=True).open_index.search_rows is None
    plain = Vault.open(vault.root, readonly=True)
    assert plain.open_index.search_rows is None


def test_a_memory_with_two_files_means_the_rows_are_made_again(vault):
    _cloned(vault, "flat")
    memory_id = sorted(vault.memories)[0]
    flat = vault.root / "memories" / f"{memory_id}.json"
    shard = vault.root / "memories" / shard_of(memory_id)
    shard.mkdir()
    shutil.copy(flat, shard / flat.name)  # (a merge of a flat and a sharded clone)
    opened = Vault.open(vault.root, readonly=True, search_rows=True)
    assert len(opened.memories) == len(TEXTS) and len(opened.problems) == 1
    assert opened.open_index.search_rows.index_for(opened.memories) is None


def test_a_search_after_a_clone_answers_from_them_as_a_warm_one(vault, monkeypatch):
    _cloned(vault, "sharded")
    with Vault.open(vault.root) as warm, Searcher(warm, mode="bm25") as searcher:
        expected = searcher.search("garden water", limit=5, now=NOW)
    for leftover in index_path(vault.root).parent.glob("index.sqlite*"):
        leftover.unlink()
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 5)
    made = []
    monkeypatch.setattr(memory_index_module, "memory_index",
                        lambda memories: made.append(1) or memory_index(memories))
    opened = Vault.open(vault.root, readonly=True, search_rows=True)
    fd = os.open(background_build.lock_path(vault.root), os.O_CREAT | os.O_RDWR, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # a builder at work: this search starts none
        with Searcher(opened, mode="bm25", in_background=True,
                      read_rows=opened.open_index.search_rows) as searcher:
            found = searcher.search("garden water", limit=5, now=NOW)
    finally:
        os.close(fd)
    assert background_build.HANDED_OVER in found.notes and made == []
    assert [(h.memory.id, h.score) for h in found.hits] == [
        (h.memory.id, h.score) for h in expected.hits] and found.total == expected.total
