"""Snapshots of the main views (pytest-textual-snapshot). Deterministic: a fixed clock, fixed
ids, commit dates pinned, UTC, a 120x40 terminal. After a deliberate change of the UI, look at the
report, then accept with ``pytest tests/tui/test_tui_snapshots.py --snapshot-update``."""

from __future__ import annotations

from tui_support import COMPOSITE, FRESH, SIZE, make_app, settle, tui_vault  # noqa: F401


def _at(memory_id: str | None, *keys: str):
    async def run_before(pilot) -> None:
        await settle(pilot)
        if memory_id is not None:
            pilot.app.main_screen.jumps.jump(memory_id)
            await settle(pilot)
        for key in keys:
            await pilot.press(key)
            await settle(pilot)
        pilot.app.clear_notifications()  # (a key that saves a choice says so once: not shown)

    return run_before


def test_main_screen(snap_compare, tui_vault):
    assert snap_compare(make_app(tui_vault), terminal_size=SIZE, run_before=_at(None))


def test_main_screen_at_80x24(snap_compare, tui_vault):
    """The tree's rows cut at a word, the detail pane's words first (a memory under the cursor)."""
    assert snap_compare(make_app(tui_vault), terminal_size=(80, 24), run_before=_at(FRESH))


def test_detail_with_gist(snap_compare, tui_vault):
    assert snap_compare(make_app(tui_vault), terminal_size=SIZE, run_before=_at(FRESH))


def test_detail_with_content(snap_compare, tui_vault):
    assert snap_compare(make_app(tui_vault), terminal_size=SIZE, run_before=_at(FRESH, "c"))


def test_decay_bands(snap_compare, tui_vault):
    assert snap_compare(make_app(tui_vault), terminal_size=SIZE,
                        run_before=_at(None, "m", "m", "down", "enter", "down"))


def test_provenance_pane(snap_compare, tui_vault):
    assert snap_compare(make_app(tui_vault), terminal_size=SIZE,
                        run_before=_at(COMPOSITE, "p"))


def test_delete_modal(snap_compare, tui_vault):
    assert snap_compare(make_app(tui_vault), terminal_size=SIZE, run_before=_at(FRESH, "x"))


def test_gc_preview(snap_compare, tui_vault):
    assert snap_compare(make_app(tui_vault), terminal_size=SIZE, run_before=_at(None, "C"))


def test_gc_preview_at_80x24_shows_each_memorys_text(snap_compare, tui_vault):
    """The bar, the uses and the tags give way so the text a deletion needs stays on screen,
    and the footer holds every key."""
    assert snap_compare(make_app(tui_vault), terminal_size=(80, 24), run_before=_at(None, "C"))


def test_flat_list_at_80x24_gives_the_text_room(snap_compare, tui_vault):
    assert snap_compare(make_app(tui_vault), terminal_size=(80, 24), run_before=_at(FRESH, "f"))


def test_stats(snap_compare, tui_vault):
    assert snap_compare(make_app(tui_vault), terminal_size=SIZE, run_before=_at(None, "S"))
