"""The app's filter with words: the rows it keeps ranked by search score inside their groups,
and the words styled where they match in the rows' labels."""

from __future__ import annotations

import pytest

from core.search import query as language
from tui.app.groups import sort_ids
from tui.app.search_rank import close_all, rank_ids
from tui.app.service import VaultService
from tui.app.view import MATCH_STYLE, leaf_label

from tui_support import (
    CRITICAL,
    DANGER,
    FADING,
    FRESH,
    NOW,
    SIZE,
    make_app,
    settle,
    tui_vault,  # noqa: F401  (fixture)
)


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
        assert set(tree.rank) <= set(main.matched) and tree.rank
        assert tree.border_subtitle.endswith("sort: rank")
        assert [t.value for t in tree.terms] == ["ci"]
        await pilot.press("ctrl+a", "ctrl+k", *list("tag:ci"))  # no words: back to the sort
        await settle(pilot, 1)
        assert tree.rank == {} and tree.border_subtitle.endswith("sort: score")
    close_all()
