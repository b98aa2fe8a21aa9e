"""The memories written just before and just after a search's best hits
(:mod:`core.search.neighbours`): read from the index's times, lifted, and found by a search
although they share no word with the question."""

from __future__ import annotations

import sqlite3

import pytest

from core import Memory
from core.search import Searcher
from core.search.episodes import EPISODE_GAP
from core.search.index import SearchIndex
from core.search.index_reading import IndexReading
from core.search.neighbours import (NEIGHBOUR_WEIGHT, lifted_by_neighbours, worth_asking,
                                    written_beside)

NOW = 1_800_000_000
DAY = 86400


def _save(vault, memory_id: str, content: str, created: int, **kw) -> None:
    vault.save(Memory(id=memory_id, content=content, created_at=created, last_used=created, **kw))


def test_a_neighbour_gains_a_share_of_the_best_hit_it_was_written_next_to():
    ids, relevance = ["a", "b", "c"], [1.0, 0.5, 0.2]
    beside = {0: ["x", "b"], 1: ["x"], 2: []}
    lifted, fresh = lifted_by_neighbours(ids, relevance, beside.__getitem__)
    top = 0.5 + NEIGHBOUR_WEIGHT * 1.0  # b's own and a's share; x gains a's share once
    assert top < 1.0
    assert lifted == pytest.approx({"a": 1.0, "b": top, "c": 0.2, "x": NEIGHBOUR_WEIGHT})
    assert fresh == {"x"}


def test_the_lift_is_over_the_best_and_leaves_the_hits_below_the_depth_below():
    ids, relevance = ["a", "b", "c", "d"], [1.0, 0.9, 0.3, 0.2]
    lifted, fresh = lifted_by_neighbours(ids, relevance, {0: ["b", "c"], 1: ["a", "d"]}.__getitem__,
                                         depth=2)
    top = 1.0 + NEIGHBOUR_WEIGHT * 0.9
    assert lifted == pytest.approx({"a": 1.0, "b": (0.9 + NEIGHBOUR_WEIGHT) / top,
                                    "c": NEIGHBOUR_WEIGHT / top, "d": 0.27 / top})
    assert fresh == {"c", "d"}  # (below the depth: worth their gain, more than their own)
    lifted, fresh = lifted_by_neighbours(ids, [1.0, 0.9, 0.5, 0.2], {0: ["c"], 1: []}.__getitem__,
                                         depth=2)
    assert lifted["c"] == pytest.approx(0.5) and fresh == set()  # its own is more: kept
    assert lifted_by_neighbours([], [], lambda k: []) == ({}, set())


def test_a_neighbour_is_asked_about_only_when_its_gain_could_reach_the_top_returned():
    ids, relevance = ["a", "b", "c"], [1.0, 0.5, 0.1]
    known: dict[int, list[str]] = {0: [], 1: [], 2: []}

    def asked(top):
        ask = worth_asking(ids, relevance, known, lambda i, r, new: r, top)
        return [ask(k) for k in range(3)]

    # the 3rd score is 0.1: a's and b's shares (0.3, 0.15) could pass it, c's (0.03) not
    assert asked(3) == [True, True, False]
    assert asked(2) == [False, False, False]  # (0.3 < b's 0.5)
    assert asked(4) == asked(None) == [True, True, True]  # (the top not filled; every hit)


def test_a_search_asks_no_word_of_a_neighbour_that_could_not_be_returned(vault, monkeypatch):
    _dialog(vault, answer="Luna and Oliver! They are the best.")
    asked = []
    scanned = IndexReading.ids_matching_scanned

    def spy(self, expression, among):
        asked.append(among)
        return scanned(self, expression, among)

    monkeypatch.setattr(IndexReading, "ids_matching_scanned", spy)
    with Searcher(vault, mode="bm25") as s:
        every = s.search("Melanie's pets", now=NOW, limit=None).hits
        assert asked == [["t2-answer"]]
        first = s.search("Melanie's pets", now=NOW, limit=1).hits
    assert asked == [["t2-answer"]]  # (its gain, 0.3, is below the best hit's score)
    assert [(h.memory.id, h.score) for h in first] == [(h.memory.id, h.score) for h in every[:1]]


def test_the_index_says_which_memories_were_written_next_to_one_within_the_gap(vault):
    _save(vault, "first", "one", NOW)
    _save(vault, "second", "two", NOW + 5)
    _save(vault, "tied", "two more", NOW + 5)  # (the same second: the first id after, last before)
    _save(vault, "third", "three", NOW + 9)
    _save(vault, "later", "four", NOW + 9 + EPISODE_GAP + 1)
    index = SearchIndex.for_root(vault.root)
    index.sync(vault.memories)
    conn = index.reading.conn
    assert written_beside(conn, [NOW, NOW + 5, NOW + 9, NOW + 9 + EPISODE_GAP + 1]) == [
        ["second"], ["first", "third"], ["tied"], []]  # (later: past the gap)
    assert written_beside(conn, []) == []
    index.close()


def test_a_vault_written_at_once_has_no_neighbours(vault):
    for n in range(5):
        _save(vault, f"m{n}", f"note {n}", NOW)
    index = SearchIndex.for_root(vault.root)
    index.sync(vault.memories)
    assert written_beside(index.reading.conn, [NOW] * 5) == [[]] * 5
    index.close()


def test_a_memory_written_again_at_another_time_moves_in_the_index(vault):
    """The time is part of the row: a memory whose ``created_at`` changes (an import, a fix by
    hand) is written again, so its neighbours follow."""
    _save(vault, "a", "one", NOW)
    _save(vault, "b", "two", NOW + 10)
    index = SearchIndex.for_root(vault.root)
    index.sync(vault.memories)
    assert written_beside(index.reading.conn, [NOW]) == [["b"]]
    _save(vault, "b", "two", NOW - 10)
    assert index.sync(vault.memories).changed == 1
    assert written_beside(index.reading.conn, [NOW]) == [["b"]]  # (now the one before)
    row = index.reading.conn.execute("SELECT created_at FROM records WHERE id = 'b'").fetchone()
    assert row == (NOW - 10,)
    index.close()


def _dialog(vault, answer: str = "Melanie: Luna and Oliver! They are the best.") -> None:
    """A sitting where the answer ("Luna and Oliver") shares no word with the question but its
    speaker's name, and follows the turn that names the pets; many later sittings are Melanie's,
    so that the answer ranks below the hits whose episodes lift each other."""
    day = NOW - 60 * DAY
    _save(vault, "t1-ask", "Caroline: what do you call your pets, Melanie?", day)
    _save(vault, "t2-answer", answer, day + 1)
    for n in range(40):
        _save(vault, f"other-{n:02d}", f"Melanie: note {n} on painting and the garden",
              NOW - (1 + n) * DAY)


@pytest.mark.parametrize("limit", [3, None])
def test_a_search_finds_the_answer_written_just_after_its_best_hit(vault, limit):
    _dialog(vault)
    with Searcher(vault, mode="bm25") as s:
        hits = s.search("What are the names of Melanie's pets?", now=NOW, limit=limit).hits
    ids = [h.memory.id for h in hits]
    assert ids[:2] == ["t1-ask", "t2-answer"]  # (its own words: "Melanie", in every memory)
    assert hits[1].relevance == pytest.approx(NEIGHBOUR_WEIGHT) and hits[1].bm25 is None


def test_a_neighbour_holding_no_word_of_the_query_is_not_a_hit(vault):
    """Every hit of a search holds a word it asked for: the turn just after the best hit
    joins the answer only by its own words."""
    _dialog(vault, answer="Luna and Oliver! They are the best.")
    with Searcher(vault, mode="bm25") as s:
        ids = [h.memory.id for h in s.search("Melanie's pets", now=NOW, limit=None).hits]
    assert ids[0] == "t1-ask" and "t2-answer" not in ids


def test_a_neighbour_the_filters_leave_out_is_not_found(vault):
    _dialog(vault)
    with Searcher(vault, mode="bm25") as s:
        ids = [h.memory.id for h in s.search("Melanie's pets -Oliver", now=NOW).hits]
        assert "t1-ask" in ids and "t2-answer" not in ids
        ids = [h.memory.id for h in s.search("Melanie's pets", now=NOW, tags=["x"]).hits]
        assert ids == []


def test_an_older_index_without_the_times_is_built_again(vault):
    _save(vault, "a", "one", NOW)
    index = SearchIndex.for_root(vault.root)
    index.sync(vault.memories)
    path = index.path
    index.close()
    conn = sqlite3.connect(path)  # (as schema 6 made it: records without created_at)
    conn.execute("DROP INDEX records_time")
    conn.execute("ALTER TABLE records DROP COLUMN created_at")
    conn.execute("PRAGMA user_version = 6")
    conn.commit(), conn.close()
    index = SearchIndex.for_root(vault.root)
    report = index.sync(vault.memories)
    assert "schema 6, not" in (report.rebuilt or "") and report.added == 1
    assert written_beside(index.reading.conn, [NOW]) == [[]]
    index.close()
