"""Snapshots of the screens of marking, bulk actions and undo: the undo list (u), the
delete modal listing the marked memories, the tag prompt (T), and the tree with a visual range.
Deterministic as the other snapshots (fixed clock, ids and commit dates, UTC, 120x40). After a
deliberate change of the UI, look at the report, then accept with ``pytest
tests/tui/test_tui_bulk_snapshots.py --snapshot-update``."""

from __future__ import annotations

from textual.widgets import Input

from tui_support import (  # noqa: F401  (tui_vault: a fixture)
    CRITICAL,
    FADING,
    SIZE,
    STALE,
    make_app,
    settle,
    tui_vault,
    until,
)


def _steps(*steps: tuple[str | None, tuple[str, ...]], quiet: bool = False):
    """(memory to go to first or None, keys to press) in turn; input cursors do not blink.
    ``quiet``: the picture waits until every notice has gone (a notice stays for seconds of real
    time, so whether it is still drawn would depend on how fast the machine ran the steps)."""
    async def run_before(pilot) -> None:
        await settle(pilot)
        for memory_id, keys in steps:
            if memory_id is not None:
                pilot.app.main_screen.jumps.jump(memory_id)
                await settle(pilot)
            for key in keys:
                await pilot.press(key)
                await settle(pilot)
        for box in pilot.app.screen.query(Input):
            box.cursor_blink = False
        if quiet:
            await until(pilot, lambda: not any(screen.query("Toast")
                                               for screen in pilot.app.screen_stack), timeout=30)
        await settle(pilot)

    return run_before


def test_undo_list(snap_compare, tui_vault):
    steps = _steps((FADING, ("a",)), (STALE, ("space",)), (CRITICAL, ("space", "a")),
                   (None, ("u", "down")), quiet=True)
    assert snap_compare(make_app(tui_vault), terminal_size=SIZE, run_before=steps)


def test_delete_modal_with_marked_memories(snap_compare, tui_vault):
    steps = _steps((FADING, ("space",)), (STALE, ("space",)), (CRITICAL, ("space", "x")))
    assert snap_compare(make_app(tui_vault), terminal_size=SIZE, run_before=steps)


def test_tag_prompt(snap_compare, tui_vault):
    steps = _steps((FADING, ("space",)), (STALE, ("space", "T", "w")))
    assert snap_compare(make_app(tui_vault), terminal_size=SIZE, run_before=steps)


def test_visual_range_in_the_tree(snap_compare, tui_vault):
    steps = _steps((FADING, ("V", "j", "j")))
    assert snap_compare(make_app(tui_vault), terminal_size=SIZE, run_before=steps)
