"""The detail pane: in a short pane (an 80x24 terminal) the memory's words come first and its
fields below them, so the text a decision needs is above the fold (issue 42 item 1); a tall pane
keeps the fields first."""

from __future__ import annotations

import pytest

from tui_support import (
    FADING,
    goto,
    make_app,
    settle,
    until,
    tui_vault,  # noqa: F401  (fixture)
)

pytestmark = pytest.mark.asyncio


@pytest.mark.parametrize("size, text_first", [((80, 24), True), ((160, 48), False)])
async def test_the_memory_s_words_are_in_view_when_it_is_highlighted(tui_vault, size, text_first):
    app = make_app(tui_vault)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await goto(pilot, FADING)
        pane = app.main_screen.query_one("#detail")
        body = pane.query_one("#body")
        await until(pilot, lambda: "pytest -n 2" in str(body.render()))
        await settle(pilot)
        fields = pane.query_one("#detail-fields")
        assert (body.region.y < fields.region.y) is text_first
        # the words are drawn inside the pane's visible region, not below the fold
        assert pane.region.y <= body.region.y and body.region.bottom <= pane.region.bottom


async def test_a_group_keeps_its_figures_first_in_a_short_pane(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        pane = app.main_screen.query_one("#detail")
        fields, body = pane.query_one("#detail-fields"), pane.query_one("#body")
        await goto(pilot, FADING)
        await until(pilot, lambda: body.region.y < fields.region.y)
        await pilot.press("left")  # out to the memory's group
        await until(pilot, lambda: pane.row is None)
        await settle(pilot)
        assert fields.region.y < body.region.y
