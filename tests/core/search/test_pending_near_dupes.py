"""The near-duplicate keys a first build of the index leaves pending (core/search/near_dupes.py,
core/search/first_build.py): the search rows are ready without them, a later sync makes none
and keeps what is made level, the first reader makes them from the rows (the same keys as a
sync that writes them with the rows), a maker that stops is taken up where it was, and a verb
that leaves the index complete (``completion.complete``) leaves none pending."""

from __future__ import annotations

import struct

import pytest

from core import Memory
from core.search import first_build, near_dupes, wordlists
from core.search.completion import complete
from core.search.index import SearchIndex
from core.search.near_dupes import BANDS, NearDuplicateRows, keys_of_text

N = 300
WORDS = [f"word{n}" for n in range(400)]


@pytest.fixture
def small(monkeypatch):
    """A first build from 100 memories, in chunks of 40; pending keys made 50 rows at a time."""
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 100)
    monkeypatch.setattr(first_build, "CHUNK", 40)
    monkeypatch.setattr(near_dupes, "MAKE_CHUNK", 50)
    monkeypatch.setattr(wordlists, "LIST_FROM", 60)


def _text(k: int, salt: str = "") -> str:
    picked = [WORDS[(k * 7 + j * 13) % len(WORDS)] for j in range(12)]
    return " ".join(picked) + (f" {salt}" if salt else "")


def _memories(n: int = N) -> dict[str, Memory]:
    return {f"m{k:04d}": Memory(id=f"m{k:04d}", content=_text(k)) for k in range(n)}


def _keys(index: SearchIndex) -> tuple[dict[str, tuple[int, ...]], set[tuple[int, str]], set[int]]:
    """The near-duplicate tables by memory id (rowids differ between two indexes): each
    memory's keys, the (key, memory) rows, the shared keys."""
    ids = index.ids_of()
    docs = {ids[doc]: struct.unpack(f"<{BANDS}q", blob)
            for doc, blob in index.conn.execute("SELECT doc, keys FROM dupe_docs")}
    bands = {(key, ids[doc]) for key, doc in index.conn.execute("SELECT key, doc FROM dupe_bands")}
    shared = {key for key, in index.conn.execute("SELECT key FROM dupe_shared")}
    return docs, bands, shared


def _made_whole(tmp_path, mems: dict[str, Memory], monkeypatch) -> SearchIndex:
    """An index written by one sync (no first build): its keys written with its rows."""
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 10**9)
    whole = SearchIndex(tmp_path / "whole.sqlite")
    whole.sync(mems)
    assert not NearDuplicateRows(whole.conn).pending()
    return whole


def test_a_first_build_leaves_the_keys_pending_and_the_next_sync_makes_none(tmp_path, small):
    mems = _memories()
    index = SearchIndex(tmp_path / "index.sqlite")
    assert index.sync(mems).added == N
    rows = NearDuplicateRows(index.conn)
    assert rows.pending() and rows.kept() and not rows.current()
    assert index.conn.execute("SELECT count(*) FROM dupe_docs").fetchone()[0] == 0
    index.close()
    again = SearchIndex(tmp_path / "index.sqlite")  # (a search of another process)
    report = again.sync(mems)
    assert (report.added, report.changed, report.removed) == (0, 0, 0)
    assert NearDuplicateRows(again.conn).pending()
    again.close()


def test_the_first_reader_makes_the_keys_a_sync_writes_with_the_rows(tmp_path, small,
                                                                      monkeypatch):
    mems = _memories()
    mems["copy"] = Memory(id="copy", content=_text(5) + " again")
    index = SearchIndex(tmp_path / "index.sqlite")
    index.sync(mems)
    found = index.near_duplicates().candidates(keys_of_text(_text(5)))
    assert "copy" in index.ids_of(found).values()
    assert NearDuplicateRows(index.conn).current()
    made = _keys(index)
    assert made == _keys(_made_whole(tmp_path, mems, monkeypatch))


def test_a_sync_while_keys_are_pending_keeps_what_is_made_level(tmp_path, small, monkeypatch):
    mems = _memories()
    index = SearchIndex(tmp_path / "index.sqlite")
    index.sync(mems)
    told: list[int] = []

    def stop_after_two_chunks(done: int, total: int) -> None:
        told.append(done)
        if len(told) == 2:
            raise KeyboardInterrupt  # (a process stopped half-way through the keys)

    with pytest.raises(KeyboardInterrupt):
        index.near_duplicates(stop_after_two_chunks)
    rows = NearDuplicateRows(index.conn)
    assert rows.pending() and rows.made_to() == 100
    # memories change on both sides of what is made, some go, some come
    changed = dict(mems)
    for k in (3, 150, 260):
        key = f"m{k:04d}"
        changed[key] = Memory(id=key, content=_text(k, salt="edited"))
    for k in (10, 200):
        del changed[f"m{k:04d}"]
    changed["new"] = Memory(id="new", content=_text(42, salt="fresh"))
    report = index.sync(changed)
    assert (report.added, report.changed, report.removed) == (1, 3, 2)
    assert rows.pending()
    index.near_duplicates()
    assert rows.current() and rows.made_to() > 10**18
    assert _keys(index) == _keys(_made_whole(tmp_path, changed, monkeypatch))


def test_complete_leaves_no_key_pending_and_tells_their_phase(tmp_path, small, monkeypatch):
    mems = _memories()
    told: list[tuple[str, int, int]] = []
    index = SearchIndex(tmp_path / "index.sqlite")
    report = complete(index, mems, lambda *a: told.append(a))
    assert report.added == N
    assert NearDuplicateRows(index.conn).current()
    phases = [what for what, _, _ in told]
    assert phases.index(first_build.PHASE_ROWS) < phases.index(first_build.PHASE_KEYS)
    assert told[-1] == (first_build.PHASE_KEYS, N, N)
    assert _keys(index) == _keys(_made_whole(tmp_path, mems, monkeypatch))
