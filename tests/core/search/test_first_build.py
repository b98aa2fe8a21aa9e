"""The search index's first build in chunks (core.search.first_build): the same rows as one
transaction makes, progress told as it goes, a search elsewhere waiting for it within a bound
(past it, writing nothing and saying how far the build is), and a build that stopped taken up by
the next sync."""

from __future__ import annotations

import json
import os
import random
import time

import pytest

from core import Memory, MemoryMetadata
from core.search import first_build, wordlists
from core.search import rank as ranking
from core.search.completion import complete
from core.search.index import SearchIndex
from core.search.query import parse

N = 700
VOCABULARY = [f"w{n}" for n in range(2000)]
WEIGHTS = [1 / (n + 1) ** 0.7 for n in range(2000)]  # w0 in about half the memories
TABLES = {
    "records": "SELECT rowid, id, fingerprint FROM records ORDER BY rowid",
    "fts": "SELECT rowid, content, gist, tags, entities FROM fts ORDER BY rowid",
    "dupe_docs": "SELECT doc, keys FROM dupe_docs ORDER BY doc",
    "dupe_bands": "SELECT key, doc FROM dupe_bands ORDER BY key, doc",
    "dupe_shared": "SELECT key FROM dupe_shared ORDER BY key",
    "words": "SELECT token, avgdl, floor FROM words ORDER BY token",
    "wordlists": "SELECT token, impact, doc, f FROM wordlists ORDER BY token, impact, doc",
    "state": "SELECT key, value FROM state ORDER BY key",
}


@pytest.fixture
def small(monkeypatch):
    """A first build from 200 memories, in chunks of 64; word lists for words in 60 memories
    or more (and one transaction rewriting 200 memories builds them too, as at 20k)."""
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 200)
    monkeypatch.setattr(first_build, "CHUNK", 64)
    monkeypatch.setattr(wordlists, "LIST_FROM", 60)
    monkeypatch.setattr(wordlists, "LIST_LENGTH", 120)
    monkeypatch.setattr(wordlists, "REWRITE_FROM", 200)


def make_memory(rng: random.Random, memory_id: str) -> Memory:
    words = rng.choices(VOCABULARY, WEIGHTS, k=rng.randint(2, 40))
    return Memory(
        id=memory_id, content=" ".join(words), created_at=1, last_used=1,
        gist=" ".join(words[:3]) if rng.random() < 0.3 else None,
        entities=[rng.choice(VOCABULARY)] if rng.random() < 0.2 else [],
        meta=MemoryMetadata(tags=rng.sample(VOCABULARY[:20], 2) if rng.random() < 0.2 else []))


def memories(n: int = N, seed: int = 3):
    rng = random.Random(seed)
    return {f"m{k:04d}": make_memory(rng, f"m{k:04d}") for k in range(n)}


def tables(index: SearchIndex) -> dict[str, list]:
    return {name: index.conn.execute(query).fetchall() for name, query in TABLES.items()}


def test_a_chunked_build_writes_what_one_transaction_writes(tmp_path, small, monkeypatch):
    mems = memories()
    told: list[tuple[str, int, int]] = []
    chunked = SearchIndex(tmp_path / "chunked.sqlite")
    # (made complete: the lists and keys a first build leaves pending made after its rows)
    report = complete(chunked, mems, progress=lambda *a: told.append(a))
    assert report.added == N
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 10**9)
    whole = SearchIndex(tmp_path / "whole.sqlite")
    assert whole.sync(mems).added == N
    built = tables(chunked)
    assert built["words"], "the corpus has common words: their lists are compared too"
    assert built == tables(whole)
    rows = [done for what, done, total in told if what == first_build.PHASE_ROWS]
    assert rows == sorted(rows) and rows[0] == 64 and rows[-1] == N
    assert all(total == N for what, _, total in told if what == first_build.PHASE_ROWS)
    words = [(done, total) for what, done, total in told if what == first_build.PHASE_WORDS]
    assert words[-1] == (len(built["words"]), len(built["words"]))
    # and a search over either finds the same hits
    query = parse("w3 w7")
    found = [ranking.rank(ix, mems, query, list(mems), lambda m: 0.5).hits
             for ix in (chunked, whole)]
    assert [(h.memory.id, h.score) for h in found[0]] == [(h.memory.id, h.score)
                                                          for h in found[1]]
    chunked.close()
    whole.close()


def mark_build(index: SearchIndex, done: int, total: int, pid: int | None = None,
               at: float | None = None) -> None:
    index.conn.execute("INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)", (
        first_build.BUILD_KEY, json.dumps({"pid": os.getpid() if pid is None else pid,
                                           "done": done, "total": total,
                                           "at": time.time() if at is None else at})))


def test_a_sync_while_another_builds_past_the_wait_writes_nothing_and_says_how_far(
        tmp_path, small):
    mems = memories()
    path = tmp_path / "index.sqlite"
    builder = SearchIndex(path)
    some = dict(list(mems.items())[:100])
    builder.sync(some)  # (below the first-build size: one transaction)
    mark_build(builder, 100, N)
    reader = SearchIndex(path)
    report = reader.sync(mems)  # (never waits: the search door does, Searcher)
    assert report.building == (100, N, None) and report.added == 0
    assert len(reader.fingerprints()) == 100  # nothing written by the reader
    # the note a search shows says how far the build is, and that it read every memory
    state = first_build.building(reader.conn)
    assert state is not None and "100 of 700" in state.note and "every memory" in state.note
    builder.close()
    reader.close()


def test_waiting_for_a_build_ends_when_it_ends_within_the_bound(tmp_path, small, monkeypatch):
    mems = memories()
    path = tmp_path / "index.sqlite"
    builder = SearchIndex(path)
    builder.sync(dict(list(mems.items())[:100]))
    mark_build(builder, 100, N)
    waited: list[float] = []

    def the_build_ends(seconds: float) -> None:  # (the builder is done during the first pause)
        waited.append(seconds)
        builder.conn.execute("DELETE FROM state WHERE key = ?", (first_build.BUILD_KEY,))

    monkeypatch.setattr(first_build, "_pause", the_build_ends)
    reader = SearchIndex(path)
    assert first_build.waited(reader.conn, 60.0) is None
    assert waited == [first_build.POLL]
    assert reader.sync(mems).building is None and set(reader.fingerprints()) == set(mems)
    builder.close()
    reader.close()


def test_waiting_for_a_build_that_goes_on_stops_at_the_bound(tmp_path, monkeypatch):
    index = SearchIndex(tmp_path / "index.sqlite")
    mark_build(index, 100, N)
    clock = [0.0]
    monkeypatch.setattr(first_build.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(first_build, "_pause", lambda s: clock.__setitem__(0, clock[0] + s))
    state = first_build.waited(index.conn, 0.5)
    assert state is not None and state.done == 100 and clock[0] == pytest.approx(0.5)
    assert first_build.waited(index.conn, 0) is not None  # (0: not waited for at all)
    index.close()


def test_a_build_under_way_tells_its_time_left_at_its_pace_so_far(tmp_path):
    now = time.time()
    state = first_build.BuildState(os.getpid(), 600, 1000, now, since=now - 10, start=100)
    assert state.eta is not None and 7.0 < state.eta <= 8.0  # 500 rows in 10 s: 400 left
    assert "about 8 s left" in state.note
    assert first_build.BuildState(os.getpid(), 100, 1000, now, since=now, start=100).eta is None
    assert first_build.building_json((600, 1000, 7.96)) == {
        "done": 600, "total": 1000, "eta_seconds": 8.0, "complete": True}
    assert first_build.building_json(None) is None


@pytest.mark.parametrize("raw, wait", [("", first_build.DEFAULT_WAIT), ("0", 0.0),
                                       (" 0.5 ", 0.5)])
def test_the_search_wait_is_read_from_its_setting(monkeypatch, raw, wait):
    monkeypatch.setenv(first_build.WAIT_ENV, raw)
    assert first_build.search_wait() == wait


@pytest.mark.parametrize("raw", ["soon", "-1", "inf", "nan"])
def test_a_search_wait_that_is_no_number_of_seconds_is_refused_by_name(monkeypatch, raw):
    monkeypatch.setenv(first_build.WAIT_ENV, raw)
    with pytest.raises(ValueError, match=first_build.WAIT_ENV):
        first_build.search_wait()


@pytest.mark.parametrize("how", ["process gone", "silent too long"])
def test_a_build_that_stopped_is_taken_up_by_the_next_sync(tmp_path, small, how):
    mems = memories()
    path = tmp_path / "index.sqlite"
    first = SearchIndex(path)
    first.sync(dict(list(mems.items())[:100]))
    if how == "process gone":
        mark_build(first, 100, N, pid=_a_pid_not_running())
    else:
        mark_build(first, 100, N, at=time.time() - first_build.STALE_AFTER - 5)
    first.close()
    later = SearchIndex(path)
    report = later.sync(mems)
    assert report.building is None
    assert set(later.fingerprints()) == set(mems)
    assert first_build.building(later.conn) is None
    later.close()


def test_a_build_that_fails_half_way_leaves_no_record_and_the_next_sync_completes_it(
        tmp_path, small, monkeypatch):
    mems = memories()
    path = tmp_path / "index.sqlite"
    index = SearchIndex(path)
    calls = []
    original = first_build.Builder._write

    def failing(self, conn, memories, chunk):
        calls.append(len(chunk))
        if len(calls) == 3:
            raise OSError("disk full")
        return original(self, conn, memories, chunk)

    monkeypatch.setattr(first_build.Builder, "_write", failing)
    with pytest.raises(OSError):
        index.sync(mems)
    assert first_build.building(index.conn) is None
    assert len(index.conn.execute("SELECT id FROM records").fetchall()) == 128  # two chunks
    monkeypatch.setattr(first_build.Builder, "_write", original)
    index.close()
    again = SearchIndex(path)
    again.sync(mems)
    again.near_duplicates()
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 10**9)
    whole = SearchIndex(tmp_path / "whole.sqlite")
    whole.sync(mems)
    got, want = tables(again), tables(whole)
    for name in ("fts", "dupe_docs", "dupe_bands", "dupe_shared"):  # (rowids match: in order)
        assert got[name] == want[name], name
    assert {i for _, i, _ in got["records"]} == set(mems)
    again.close()
    whole.close()


def _a_pid_not_running() -> int:
    pid = 2**22 - 1
    while pid > 1:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return pid
        except PermissionError:
            pass
        pid -= 1
    raise AssertionError("no free pid")
