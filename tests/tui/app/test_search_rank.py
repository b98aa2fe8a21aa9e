"""The app's filter with words: its words searched as ``memvault search`` does (a question
finds what the search finds), the rows it keeps ranked by search score inside their groups,
and the words styled where they match in the rows' labels."""

from __future__ import annotations

import pytest

from core import Vault
from core.search import query as language
from core.search.rank import Searcher
from tui.app.groups import sort_ids
from tui.app.query import parse
from tui.app.search_rank import close_all, rank_ids, search_filter
from tui.app.service import VaultService
from tui.app.view import MATCH_STYLE, leaf_label

from tui_support import (
    CRITICAL,
    DANGER,
    FADING,
    FRESH,
    NOW,
    PROMOTED,
    SIZE,
    make_app,
    settle,
    text_of,
    tui_vault,  # noqa: F401  (fixture)
    until,
)

QUESTION = "what does the user prefer for testing?"


@pytest.fixture
def view(tui_vault):
    yield VaultService(tui_vault, clock=lambda: NOW).open()
    close_all()


def test_words_rank_what_the_filter_keeps(view):
    query = language.parse("pytest")
    scores = rank_ids(view, query, list(view.rows))
    assert set(scores) == {FRESH, FADING}
    assert scores[FRESH] > scores[FADING]  # two mentions, in use: first
    assert rank_ids(view, language.parse("tag:ci"), list(view.rows)) == {}  # no words
    assert set(rank_ids(view, query, [FADING])) == {FADING}  # only among the kept ids
    order = sort_ids(view, [CRITICAL, FADING, DANGER, FRESH], "score", scores)
    assert order[:2] == [FRESH, FADING]  # ranked first, the rest by score
    assert order[2:] == sort_ids(view, [CRITICAL, DANGER], "score")


def test_labels_style_the_matches(view):
    row = view.rows[FRESH]
    label = leaf_label(row, words=200, terms=language.parse('pytest "plain assert"').text_terms)
    marked = sorted(label.plain[s.start:s.end] for s in label.spans if s.style == MATCH_STYLE)
    assert marked == ["plain assert", "pytest"]
    plain = leaf_label(row, words=200)
    assert plain.plain == label.plain and not [s for s in plain.spans if s.style == MATCH_STYLE]


@pytest.mark.asyncio
async def test_the_filter_ranks_rows_in_the_app(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *list("ci"))
        await settle(pilot, 1)
        main = app.main_screen
        await app.workers.wait_for_complete()
        await settle(pilot, 1)
        tree = main.memory_tree
        assert set(tree.rank) <= set(main.memory_tree.matched) and tree.rank
        assert tree.border_subtitle.endswith("sort: rank")
        assert [t.value for t in tree.terms] == ["ci"]
        await pilot.press("ctrl+a", "ctrl+k", *list("tag:ci"))  # no words: back to the sort
        await settle(pilot, 1)
        assert tree.rank == {} and tree.border_subtitle.endswith("sort: score")
    close_all()


def test_a_question_keeps_what_memvault_search_finds(view, tui_vault):
    """Every word of a question as an AND of substrings kept nothing ("what" is in no memory);
    its words now go through the search (question words out, any word finds)."""
    scores, matched = search_filter(view, parse(QUESTION))
    with Vault.open(tui_vault, readonly=True) as vault, Searcher(vault, mode="bm25") as search:
        hits = search.search(QUESTION, statuses=list(language.STATUSES), limit=None).hits
    assert [h.memory.id for h in hits] == sorted(scores, key=lambda i: (-scores[i], i))
    assert hits[0].memory.id == FRESH and FRESH in matched and PROMOTED in matched
    assert set(matched) == set(scores)
    assert matched == [i for i in view.rows if i in matched]  # in the view's order


def test_the_fields_of_a_question_still_filter(view):
    """``tag:``, ``status:``, ``has:`` and negated words keep their meaning beside the
    searched words; the substring matches stay kept (a word being typed)."""
    assert search_filter(view, parse(QUESTION + " tag:python"))[1] == [FRESH]
    assert search_filter(view, parse(QUESTION + " has:gist"))[1] == [FRESH]
    assert FRESH not in search_filter(view, parse(QUESTION + " -unittest"))[1]
    assert PROMOTED not in search_filter(view, parse(QUESTION + " -status:promoted"))[1]
    scores, matched = search_filter(view, parse("pyt"))  # no token "pyt": substrings only
    assert scores == {} and set(matched) == {FRESH, FADING}


async def test_a_question_in_the_app_filter_finds_the_memory(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main_screen
        await pilot.press("slash", *QUESTION)
        await until(pilot, lambda: FRESH in main.memory_tree.matched and main.current == FRESH)
        tree = main.memory_tree
        assert tree.cursor_memory == FRESH and max(tree.rank, key=tree.rank.get) == FRESH
        assert tree.border_subtitle.endswith("sort: rank")
        assert FRESH in text_of(main.query_one("#detail-fields"))
        assert set(main.memory_tree.matched) >= {FRESH, PROMOTED, FADING}
        assert tree.border_title == f"memories {len(main.memory_tree.matched)} of 11"
        await pilot.press("space", *"tag:python")  # a field beside the question
        await until(pilot, lambda: main.memory_tree.matched == [FRESH])
    close_all()


async def test_a_hit_that_no_longer_matches_after_a_reload_goes(tui_vault):
    """A reload filters again at once with the hits of the same text's last search; the search
    that follows sets what the filter keeps, so a memory changed elsewhere to say none of the
    words is no longer kept (the search's answer only added to what was kept)."""
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main_screen
        await pilot.press("slash", *QUESTION, "enter")
        await until(pilot, lambda: FADING in main.memory_tree.matched and main.current == FRESH)
        other = Vault.open(tui_vault)  # another process
        other.update(FADING, content="CI runs on Python 3.12 only.")
        other.close()
        await pilot.press("ctrl+r")
        await until(pilot, lambda: FADING not in main.memory_tree.matched and FRESH in main.memory_tree.matched)
        assert main.memory_tree.border_title == f"memories {len(main.memory_tree.matched)} of 11"
    close_all()


def test_words_rank_alike_when_the_index_is_deleted_while_the_app_is_open(view):
    """The index deleted by hand while the app holds it open (issue 43's bad input): the filter
    ranks as before from the connection it holds, and one opened after builds a new file that
    ranks the same."""
    from core.search.index import index_path

    query = language.parse("pytest")
    before = rank_ids(view, query, list(view.rows))
    path = index_path(view.root)
    assert before and path is not None and path.exists()
    for leftover in path.parent.glob(path.name + "*"):
        leftover.unlink()
    assert rank_ids(view, query, list(view.rows)) == before
    close_all()  # (the app closed and opened again: a new connection, no file)
    assert rank_ids(view, query, list(view.rows)) == before
    assert path.exists()
