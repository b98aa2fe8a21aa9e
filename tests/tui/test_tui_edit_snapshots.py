"""Snapshots of the edit form, the new-memory form with its duplicate warning, and the screen
an unparsable $EDITOR file leads to (pytest-textual-snapshot; deterministic as
test_tui_snapshots.py). Accept a deliberate change with ``--snapshot-update`` after looking."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import TextArea

from tui_support import FRESH, SIZE, make_app, settle, tui_vault  # noqa: F401


async def still(pilot) -> None:
    """No text cursor in the picture: whether a text area draws its cursor at the moment the
    picture is taken (blink phase, focus settling after a refusal) varied from run to run on
    a loaded machine, so the focus is taken away before it is taken."""
    for area in pilot.app.screen.query(TextArea):
        area.cursor_blink = False
    pilot.app.screen.set_focus(None)
    await settle(pilot)


def test_edit_form(snap_compare, tui_vault):
    async def run_before(pilot) -> None:
        await settle(pilot)
        pilot.app.main_screen.jumps.jump(FRESH)
        await settle(pilot)
        await pilot.press("ctrl+e")
        await settle(pilot)
        await still(pilot)

    assert snap_compare(make_app(tui_vault), terminal_size=SIZE, run_before=run_before)


def test_edit_form_with_an_error(snap_compare, tui_vault):
    async def run_before(pilot) -> None:
        await settle(pilot)
        pilot.app.main_screen.jumps.jump(FRESH)
        await settle(pilot)
        await pilot.press("ctrl+e")
        await settle(pilot)
        pilot.app.screen.query_one("#edit-strength").value = "strong"
        await pilot.press("ctrl+s")
        await settle(pilot)
        await still(pilot)

    assert snap_compare(make_app(tui_vault), terminal_size=SIZE, run_before=run_before)


def test_new_memory_with_likely_duplicates(snap_compare, tui_vault):
    async def run_before(pilot) -> None:
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        pilot.app.screen.query_one("#new-content", TextArea).text = (
            "CI runs the test suite with pytest -n 2 on Python 3.11 and 3.12 and 3.13.")
        await pilot.press("ctrl+s")
        await settle(pilot, 3)
        await still(pilot)

    assert snap_compare(make_app(tui_vault), terminal_size=SIZE, run_before=run_before)


def test_edit_failed(snap_compare, tui_vault):
    from tui.app.screens.edit_failed import EditFailedScreen

    async def run_before(pilot) -> None:
        await settle(pilot)
        pilot.app.push_screen(EditFailedScreen(
            FRESH, "line 7: strength must be a number (0 or more, 1.0-2.0 in practice), not "
            "'lots'", Path("/home/me/vault/.git/memvault/edits/a1f2e3d4-20250615T150640Z-1.txt")))
        await settle(pilot)

    assert snap_compare(make_app(tui_vault), terminal_size=SIZE, run_before=run_before)
