"""The first build of the search index handed to a process of its own: a search answers at once
from the memories it holds (an index in memory, ranking as the file will), the builder outlives
the process that started it and holds a lock no second builder gets past, and the rows it
writes are those a sync writes."""

from __future__ import annotations

import time

import fcntl
import json
import os
import subprocess
import sys
import textwrap

import pytest

from core import Vault
from core.search import SearchIndex, Searcher, index_path
from core.search import background_build, first_build
from core.search.memory_index import memory_index
from core.search.query import parse
from core.search.rank import rank

NOW = int(time.time())  # (the decay part of a score moves with the clock)
TEXTS = ["the garden needs water on mondays", "tomatoes in the garden", "a note about taxes",
         "the car is due for service", "taxes are due in april", "the garden shed roof leaks",
         "café au lait in the garden", "deploys go through the merge queue",
         "the queue of garden chores", "water the tomatoes"]
QUERIES = ["garden", "garden taxes", "tax*", '"the garden"', "garden -roof", "cafe",
           "deploy", "tag:home water", "status:archived garden", "queue garden chores"]


def _fill(vault: Vault) -> list[str]:
    ids = [vault.add(t, tags=["home"] if n % 2 else ["work"]).id for n, t in enumerate(TEXTS)]
    vault.archive(ids[1])
    vault.archive(ids[8])
    for leftover in index_path(vault.root).parent.glob("index.sqlite*"):
        leftover.unlink()
    return ids


def test_the_index_in_memory_ranks_as_the_index_file(vault):
    _fill(vault)
    with SearchIndex.for_root(vault.root) as on_disk:
        on_disk.sync(vault.memories)
        in_memory = memory_index(vault.memories)
        for text in QUERIES:
            query = parse(text)
            pool = set(vault.memories)
            a = rank(on_disk, vault.memories, query, pool, lambda m: 1.0, synced=True)
            b = rank(in_memory, vault.memories, query, pool, lambda m: 1.0, synced=True)
            assert [(h.memory.id, h.score, h.bm25) for h in a.hits] == [
                (h.memory.id, h.score, h.bm25) for h in b.hits], text
            assert a.total == b.total


@pytest.fixture
def small_first_build(monkeypatch):
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 5)


def test_a_search_answers_from_memory_while_a_builder_holds_the_lock(vault, small_first_build):
    _fill(vault)
    with SearchIndex.for_root(vault.root) as on_disk:
        on_disk.sync(vault.memories)
        with Searcher(vault, index=on_disk, mode="bm25") as searcher:
            expected = searcher.search("garden water", limit=5, now=NOW)
    for leftover in index_path(vault.root).parent.glob("index.sqlite*"):
        leftover.unlink()
    lock = background_build.lock_path(vault.root)
    fd = os.open(lock, os.O_CREAT | os.O_RDWR, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # a builder at work
        assert background_build.running(vault.root)
        assert not background_build.start(vault.root)  # no second one
        with Searcher(vault, mode="bm25", in_background=True) as searcher:
            found = searcher.search("garden water", limit=5, now=NOW)
            assert background_build.HANDED_OVER in found.notes
            assert [(h.memory.id, h.score) for h in found.hits] == [
                (h.memory.id, h.score) for h in expected.hits]
            assert found.total == expected.total
            assert searcher.index.row_count() == 0  # nothing written by the search
    finally:
        os.close(fd)
    assert not background_build.running(vault.root)


STARTER = textwrap.dedent("""
    import json, sys
    from core import Vault
    from core.search import Searcher, first_build
    first_build.FIRST_BUILD_FROM = 5
    vault = Vault.open(sys.argv[1], readonly=True)
    with Searcher(vault, mode="bm25", in_background=True) as searcher:
        result = searcher.search("garden", limit=3)
    print(json.dumps({"notes": result.notes, "hits": [h.memory.id for h in result.hits]}))
""")


def test_the_builder_outlives_the_search_that_started_it_and_writes_what_a_sync_would(vault):
    ids = _fill(vault)
    out = subprocess.run([sys.executable, "-c", STARTER, str(vault.root)], capture_output=True,
                         text=True, check=True)
    said = json.loads(out.stdout)
    assert said["notes"] == [background_build.HANDED_OVER] and ids[0] in said["hits"]
    background_build.wait(vault.root)  # (the starter has ended: the builder went on alone)
    with SearchIndex.for_root(vault.root) as built:
        assert first_build.building(built.conn) is None
        fingerprints = built.fingerprints()
        assert fingerprints == {m.id: built.fingerprint_of(m) for m in vault.memories.values()}
        assert built.sync(vault.memories) == type(built.sync(vault.memories))()  # level
    with Searcher(vault, mode="bm25", in_background=True) as searcher:
        assert searcher.search("garden", limit=3).notes == []  # from the file now
