"""The common words' lists a first build of the index leaves pending (core/search/pending_lists.py,
core/search/first_build.py): the search rows are ready without them and a search answers as
from a complete index, a verb that leaves the index complete (``completion.complete``) makes
them (the same lists as one transaction writes), and one that stops half-way leaves them
pending, never half made and read as whole."""

from __future__ import annotations

import random

import pytest

from core import Memory
from core.search import first_build, pending_lists, wordlists
from core.search import rank as ranking
from core.search import topk
from core.search.completion import complete
from core.search.index import SearchIndex
from core.search.query import parse

N = 400
VOCABULARY = [f"w{n}" for n in range(600)]
WEIGHTS = [1 / (n + 1) ** 0.7 for n in range(600)]  # w0 in about half the memories
LISTS = ("SELECT token, avgdl, floor FROM words ORDER BY token",
         "SELECT token, impact, doc, f FROM wordlists ORDER BY token, impact, doc")


@pytest.fixture
def small(monkeypatch):
    """A first build from 200 memories, in chunks of 64; lists for words in 60 memories or more
    (one transaction rewriting 200 memories builds them too, as at 20k)."""
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 200)
    monkeypatch.setattr(first_build, "CHUNK", 64)
    monkeypatch.setattr(wordlists, "LIST_FROM", 60)
    monkeypatch.setattr(wordlists, "LIST_LENGTH", 100)
    monkeypatch.setattr(wordlists, "REWRITE_FROM", 200)


def _memories(n: int = N, seed: int = 5) -> dict[str, Memory]:
    rng = random.Random(seed)
    out = {}
    for k in range(n):
        words = rng.choices(VOCABULARY, WEIGHTS, k=rng.randint(2, 40))
        out[f"m{k:04d}"] = Memory(id=f"m{k:04d}", content=" ".join(words), created_at=1,
                                  last_used=1, gist=" ".join(words[:3]) if k % 3 == 0 else None)
    return out


def _lists(index: SearchIndex) -> list[list[tuple[object, ...]]]:
    return [index.conn.execute(query).fetchall() for query in LISTS]


def _whole(tmp_path, mems: dict[str, Memory], monkeypatch) -> SearchIndex:
    """An index written by one sync (no first build): its lists made with its rows."""
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 10**9)
    whole = SearchIndex(tmp_path / "whole.sqlite")
    assert whole.sync(mems).added == len(mems)
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 200)
    assert not pending_lists.pending(whole.conn)
    return whole


def _hits(index: SearchIndex, mems: dict[str, Memory], text: str) -> list[tuple[object, ...]]:
    found = ranking.rank(index, mems, parse(text), list(mems), lambda m: 0.5, top=10)
    return [(h.memory.id, h.score, h.relevance, h.bm25, h.bm25_rank) for h in found.hits]


def test_a_first_build_writes_the_rows_and_leaves_the_word_lists_pending(tmp_path, small,
                                                                          monkeypatch):
    mems = _memories()
    whole = _whole(tmp_path, mems, monkeypatch)
    assert _lists(whole)[0], "the corpus has common words"
    told: list[tuple[str, int, int]] = []
    built = SearchIndex(tmp_path / "built.sqlite")
    assert built.sync(mems, progress=lambda *a: told.append(a)).added == N
    assert _lists(built) == [[], []] and pending_lists.pending(built.conn)
    assert {what for what, _, _ in told} == {first_build.PHASE_ROWS}
    # a search answers as from the complete index: FTS5 ranks a common word without its list
    for text in ("w0", "w0 w1", "w0 w450", "w2 w3 w4"):
        assert _hits(built, mems, text) == _hits(whole, mems, text)
    # and a verb that leaves it complete makes them: the lists one transaction writes
    told.clear()
    complete(built, mems, progress=lambda *a: told.append(a))
    assert not pending_lists.pending(built.conn)
    assert _lists(built) == _lists(whole)
    words = [(done, total) for what, done, total in told if what == first_build.PHASE_WORDS]
    assert words and words[-1] == (len(_lists(whole)[0]),) * 2
    told.clear()
    complete(built, mems, progress=lambda *a: told.append(a))  # (nothing left to make)
    assert not [t for t in told if t[0] == first_build.PHASE_WORDS]
    built.close()
    whole.close()


def test_lists_stopped_half_way_stay_pending_and_are_made_whole_next_time(tmp_path, small,
                                                                          monkeypatch):
    mems = _memories()
    whole = _whole(tmp_path, mems, monkeypatch)
    built = SearchIndex(tmp_path / "built.sqlite")
    built.sync(mems)
    calls = 0
    write_list = wordlists.write_list

    def dies_at_the_fifth(*args, **kwargs):  # (the process killed while it makes the lists)
        nonlocal calls
        calls += 1
        if calls == 5:
            raise KeyboardInterrupt
        return write_list(*args, **kwargs)

    monkeypatch.setattr(wordlists, "write_list", dies_at_the_fifth)
    with pytest.raises(KeyboardInterrupt):
        complete(built, mems)
    assert calls == 5 and pending_lists.pending(built.conn) and _lists(built) == [[], []]
    assert _hits(built, mems, "w0") == _hits(whole, mems, "w0")
    monkeypatch.setattr(wordlists, "write_list", write_list)
    complete(built, mems)
    assert not pending_lists.pending(built.conn) and _lists(built) == _lists(whole)
    built.close()
    whole.close()


def test_a_search_that_can_write_makes_the_list_of_the_common_word_it_ranks(tmp_path, small,
                                                                           monkeypatch):
    mems = _memories()
    whole = _whole(tmp_path, mems, monkeypatch)
    built = SearchIndex(tmp_path / "built.sqlite")
    built.sync(mems)
    top = [topk.top_hits(ix, parse("w0").text_terms, lambda i: True, 10, lambda i, r: r)
           for ix in (built, whole)]  # (the bounded top-k of a big vault's search)
    assert top[0] is not None and top[1] is not None and top[0].hits == top[1].hits
    listed = [t for t, in built.conn.execute("SELECT token FROM words")]
    assert listed == ["w0"] and pending_lists.pending(built.conn)  # (the others still pending)
    built.close()
    whole.close()


def test_lists_another_process_made_while_this_one_waited_are_not_made_again(tmp_path, small,
                                                                            monkeypatch):
    mems = _memories()
    path = tmp_path / "index.sqlite"
    first, second = SearchIndex(path), SearchIndex(path)
    first.sync(mems)
    assert pending_lists.pending(second.conn)
    written: list[str] = []
    write_list = wordlists.write_list

    def counted(conn, tokenizer, token, *args, **kwargs):
        written.append(token)
        return write_list(conn, tokenizer, token, *args, **kwargs)

    monkeypatch.setattr(wordlists, "write_list", counted)
    words = second.reading.words()
    build_common = words.build_common

    def the_first_takes_the_lock_first(*args, **kwargs):  # (the second waits for its lock)
        assert pending_lists.make_pending(first.conn, first.reading.words) > 0
        return build_common(*args, **kwargs)

    monkeypatch.setattr(words, "build_common", the_first_takes_the_lock_first)
    made = len(written)
    assert pending_lists.make_pending(second.conn, second.reading.words) == 0
    listed = len(second.conn.execute("SELECT token FROM words").fetchall())
    assert listed > 0 and len(written) == made + listed  # (each list made once, by the first)
    first.close()
    second.close()
