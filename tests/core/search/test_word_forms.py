"""Irregular word forms (:mod:`core.search.word_forms`): the index holds each irregular form's
base form after the content, a question's irregular form is searched as its base form, so "win"
finds "won" and "went" finds "go", through every way the index is made."""

from __future__ import annotations

import pytest

from core import Memory
from core.search import Searcher
from core.search.memory_index import memory_index
from core.search import first_build, near_dupes, wordlists
from core.search.index import SearchIndex
from core.search.near_dupes import NearDuplicateRows
from core.search.query import parse
from core.search.word_forms import MARK, base_forms, base_word, content_of, indexed

AT = 1_690_000_000
MONTH = 30 * 86400


def test_the_table_holds_irregular_forms_only_never_a_stopword_nor_what_porter_joins():
    forms = base_forms()
    assert forms["went"] == "go" and forms["won"] == "win" and forms["children"] == "child"
    assert forms["took"] == "take" and forms["bought"] == "buy"
    assert "was" not in forms and "deployed" not in forms and base_word("deploys") is None
    assert all(f.isalpha() and f.islower() and b.isalpha() for f, b in forms.items())


@pytest.mark.parametrize("content", ["Nate won the tournament", "", "no forms here",
                                     f"a line ending in the mark{MARK}", "went\ngone\nGOT"])
def test_the_index_holds_the_content_then_the_base_forms_and_gives_the_content_back(content):
    stored = indexed(content)
    assert stored.startswith(content) and content_of(stored) == content
    assert stored.rpartition(MARK)[2].split() == [base_forms()[w.lower()] for w in content.split()
                                                  if w.lower() in base_forms()]


def test_a_question_word_that_is_an_irregular_form_is_ranked_as_its_base_form():
    ranked = [t.value for t in parse("When did Nate win, and who went with the children?")
              .ranked_terms]
    assert ranked == ["Nate", "win,", "go", "child"]
    assert [t.value for t in parse('"we went" went*').ranked_terms] == ["we went", "went"]
    assert parse("who went?").words == ["who", "went?"]  # (highlighting marks what was typed)


def _save(vault) -> None:
    for n, (memory_id, content) in enumerate([
            ("won", "Nate won his third tournament"),
            ("tourney", "Nate likes a tournament on a tournament weekend, a big tournament"),
            ("went", "Melanie went camping with the kids"),
            ("other", "Melanie likes camping")]):
        at = AT + n * MONTH  # (no episode, no neighbour in time)
        vault.save(Memory(id=memory_id, content=content, created_at=at, last_used=at))


@pytest.mark.parametrize("limit", [1, None])
def test_a_question_finds_the_memory_saying_it_in_another_form_first(vault, limit):
    _save(vault)
    with Searcher(vault, mode="bm25") as s:
        win = s.search("When did Nate win a tournament?", limit=limit, now=AT + 5 * MONTH).hits
        go = s.search("Did Melanie go camping?", limit=limit, now=AT + 5 * MONTH).hits
        won = s.search("won", limit=None, now=AT + 5 * MONTH).hits
    assert win[0].memory.id == "won" and go[0].memory.id == "went"
    assert [h.memory.id for h in won] == ["won"]


def test_an_index_made_in_memory_holds_the_forms_too(vault):
    _save(vault)
    index = memory_index(vault.memories)
    rows = dict(index.conn.execute("SELECT r.id, f.content FROM records r JOIN fts f "
                                   "ON f.rowid = r.rowid"))
    assert rows["won"] == indexed("Nate won his third tournament")


def _keys(index: SearchIndex) -> dict[str, bytes]:
    ids = index.ids_of()
    return {ids[doc]: blob for doc, blob in index.conn.execute("SELECT doc, keys FROM dupe_docs")}


def test_near_duplicate_keys_made_from_the_rows_are_those_of_the_content(tmp_path, monkeypatch):
    """A first build leaves the keys pending; their first reader makes them from the rows'
    stored text (the content and its forms): the keys are those a sync makes from the content."""
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 20)
    monkeypatch.setattr(near_dupes, "MAKE_CHUNK", 7)
    monkeypatch.setattr(wordlists, "LIST_FROM", 10)
    mems = {f"m{k:02d}": Memory(id=f"m{k:02d}", content=f"we went {k} miles and took {k} kids "
                                f"and bought {k % 3} children books, saw {k % 5} films")
            for k in range(30)}
    built = SearchIndex(tmp_path / "built.sqlite")
    built.sync(mems)
    assert NearDuplicateRows(built.conn).pending()
    built.near_duplicates()  # (the first reader makes them)
    assert not NearDuplicateRows(built.conn).pending()
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 10**9)
    whole = SearchIndex(tmp_path / "whole.sqlite")
    whole.sync(mems)
    assert _keys(built) == _keys(whole) and len(_keys(whole)) == 30
