"""Multi-step undo in the app: ctrl+z undoes and ctrl+y redoes with labelled notices
("Undid archive of b2c3d4e5"); u opens the undo list (what successive undos would take back,
newest first, with times, read from git: it survives a restart), where enter undoes the
highlighted operation and every newer one, each its own revert, stopping at the first refusal;
esc closes it."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList

from core import MemoryStatus, Vault
from tui.app.screens.undo_list import UndoListScreen

from tui_support import (
    said,
    FADING,
    SIZE,
    STALE,
    goto,
    log,
    make_app,
    on_disk,
    settle,
    text_of,
    tui_vault,  # noqa: F401  (fixture)
)

pytestmark = pytest.mark.asyncio


def notes(app) -> list[str]:
    return [str(n.message) for n in said(app)]


async def open_list(pilot) -> UndoListScreen:
    await pilot.press("u")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, UndoListScreen)
    return screen


def prompts(screen: UndoListScreen) -> list[str]:
    options = screen.query_one(OptionList)
    return [options.get_option_at_index(i).prompt.plain for i in range(options.option_count)]


async def test_ctrl_z_and_ctrl_y_say_what_they_undid_and_redid(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, FADING)
        await pilot.press("a")
        await settle(pilot)
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert f"Undid archive of {FADING[:8]}" in notes(app)
        assert on_disk(tui_vault).get(FADING).status == MemoryStatus.ACTIVE
        await pilot.press("ctrl+y")
        await settle(pilot)
        assert f"Redid archive of {FADING[:8]}" in notes(app)
        await pilot.press("ctrl+z")  # undo of the redo: named by the operation again
        await settle(pilot)
        assert notes(app).count(f"Undid archive of {FADING[:8]}") == 2
        assert log(tui_vault)[0].startswith("undo: archive:")  # never "undo: redo: ..."


async def test_u_lists_what_undo_would_take_back_newest_first_with_times(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, FADING)
        await pilot.press("a")
        await settle(pilot)
        await goto(pilot, STALE)
        await pilot.press("T", *"desk", "enter")
        await settle(pilot)
        screen = await open_list(pilot)
        lines = prompts(screen)
        assert lines[0].startswith(" 1  2025-06-15 15:06 UTC  just now")
        assert f"tag of {STALE[:8]}  Wants a standing desk" in lines[0]
        assert f"archive of {FADING[:8]}  CI runs the test suite" in lines[1]
        assert "update of 2 memories (9a9a0001, 9a9a0002)" in lines[2]  # the test vault's own
        assert "split: decompose b8c9d0e1 into 2" in lines[3]  # no single id: said as it is
        assert "enter undoes the newest operation" in text_of(screen.query_one("#undo-hint"))
        await pilot.press("down")
        await pilot.pause()
        assert "the 2 newest operations" in text_of(screen.query_one("#undo-hint"))
        before = log(tui_vault, 1000)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is app.main_screen and log(tui_vault, 1000) == before


async def test_enter_in_the_undo_list_undoes_down_to_the_chosen_one(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for memory_id in (FADING, STALE):
            await goto(pilot, memory_id)
            await pilot.press("a")
            await settle(pilot)
        await open_list(pilot)
        await pilot.press("down", "enter")
        await settle(pilot)
        assert app.screen is app.main_screen
        assert log(tui_vault, 2) == [f"undo: {s}" for s in reversed(log(tui_vault, 4)[2:])]
        vault = on_disk(tui_vault)
        assert vault.get(FADING).status == vault.get(STALE).status == MemoryStatus.ACTIVE
        assert (f"Undid 2 operations: archive of {STALE[:8]}; archive of {FADING[:8]}"
                in notes(app))


async def test_the_undo_list_stops_at_the_first_refusal_and_says_why(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, FADING)
        await pilot.press("T", *"x1", "enter")
        await settle(pilot)
        await goto(pilot, STALE)
        await pilot.press("a")
        await settle(pilot)
        await open_list(pilot)
        # meanwhile another process changes FADING's tags again: its tag cannot be undone
        with Vault.open(tui_vault) as other:
            other.tag(FADING, tags=["x2"])
        await pilot.press("down", "enter")
        await settle(pilot)
        assert log(tui_vault, 2) == [f"undo: archive: {log(tui_vault, 3)[2].split(': ', 1)[1]}",
                                     log(tui_vault, 2)[1]]
        assert log(tui_vault, 2)[1].startswith("tag: b2c3d4e5")  # the other process's
        note = next(n for n in notes(app) if n.startswith("Undid archive of"))
        assert "Stopped at the next one, 1 of 2 undone: cannot undo" in note
        vault = on_disk(tui_vault)
        assert vault.get(STALE).status == MemoryStatus.ACTIVE
        assert vault.get(FADING).meta.tags == ["ci", "x1", "x2"]


async def test_the_undo_list_survives_a_restart(tui_vault):
    with Vault.open(tui_vault) as vault:
        vault.archive(FADING)
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await open_list(pilot)
        assert f"archive of {FADING[:8]}" in prompts(screen)[0]
        await pilot.press("enter")
        await settle(pilot)
        assert on_disk(tui_vault).get(FADING).status == MemoryStatus.ACTIVE


async def test_u_is_the_list_and_ctrl_z_the_undo_in_the_keys(tui_vault):
    from tui.app.main.screen import MainScreen

    keys = {b.action: b.key for b in MainScreen.BINDINGS}
    assert keys["undo"] == "ctrl+z" and keys["undo_list"] == "u" and keys["redo"] == "ctrl+y"

