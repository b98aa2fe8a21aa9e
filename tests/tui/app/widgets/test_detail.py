"""The detail pane: in a short pane (an 80x24 terminal) the memory's words come first and its
fields below them, so the text a decision needs is above the fold (issue 42 item 1); a tall pane
keeps the fields first."""

from __future__ import annotations

import pytest

from tui_support import (
    DANGER,
    FADING,
    FRESH,
    goto,
    text_of,
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


async def test_the_pane_reads_in_its_worker_and_drops_a_read_the_cursor_left(tui_vault,
                                                                             monkeypatch):
    """The pane owns ``memory_id`` and reads it in a worker: a slow read of a memory the cursor
    has left (FADING, held back here) lands after the next one's (DANGER) and is dropped; the
    pane shows DANGER."""
    import threading

    from tui.app.widgets import detail as detail_module

    started, held, finished = threading.Event(), threading.Event(), threading.Event()
    real = detail_module.read_memory

    def read_memory(view, memory_id):
        if memory_id == FADING:
            started.set()
            held.wait(10)
            try:
                return real(view, memory_id)
            finally:
                finished.set()
        return real(view, memory_id)

    monkeypatch.setattr(detail_module, "read_memory", read_memory)
    app = make_app(tui_vault)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        main = app.main_screen
        pane = main.detail
        pane.want(main.view, FADING)
        assert pane.memory_id == FADING
        await until(pilot, started.is_set)  # FADING's read is under way, held
        assert "reading" in text_of(pane.query_one("#detail-fields"))  # not what was shown
        pane.want(main.view, DANGER)
        await until(pilot, lambda: pane.row is not None and pane.row.id == DANGER)
        held.set()
        await until(pilot, finished.is_set)
        for _ in range(10):  # the late read's message lands
            await pilot.pause(0.02)
        assert pane.memory_id == DANGER and pane.row.id == DANGER
        assert DANGER in text_of(pane.query_one("#detail-fields"))


async def test_moving_fast_the_pane_shows_the_cursor_s_memory(tui_vault):
    """j and k pressed in a run, then the pane waited for: it shows the memory under the
    cursor (its id in the fields), never one the cursor passed."""
    app = make_app(tui_vault)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await goto(pilot, FRESH)
        main = app.main_screen
        tree = main.memory_tree
        tree.focus()
        await pilot.press("asterisk")
        await settle(pilot)
        for keys in (["j"] * 7, ["k"] * 3, ["j"] * 5, ["k"]):
            await pilot.press(*keys)
            await settle(pilot)
            data = tree.cursor_node.data
            if data.kind != "memory":
                continue
            assert main.current == data.memory_id
            pane = main.detail
            assert pane.memory_id == data.memory_id and pane.row.id == data.memory_id
            assert data.memory_id in text_of(pane.query_one("#detail-fields"))
