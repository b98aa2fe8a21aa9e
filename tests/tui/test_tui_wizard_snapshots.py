"""Snapshots of every step of the split and consolidate wizards (pytest-textual-snapshot), up to
the last one before anything is written. Deterministic: a fixed clock, fixed ids, commit dates
pinned, UTC, a 120x40 terminal, no blinking cursors; the ids a split or merge draws (the
preview shows the plan that is committed, real ids included) come from a counter. After a deliberate change of the UI,
look at the report, then accept with ``pytest tests/tui/test_tui_wizard_snapshots.py
--snapshot-update``."""

from __future__ import annotations

import uuid

import pytest
from textual.widgets import Input, TextArea

from tui_support import (  # noqa: F401  (wizard_vault: a fixture)
    DUPES,
    GARDEN,
    SIZE,
    make_app,
    settle,
    wait_clusters,
    wizard_vault,
)


@pytest.fixture(autouse=True)
def counted_ids(monkeypatch):
    """uuid4 as a counter while the wizard runs (the planned ids shown in the previews)."""
    drawn = iter(range(1, 10_000))
    monkeypatch.setattr(uuid, "uuid4",
                        lambda: uuid.UUID(f"{0xA0000000 + next(drawn):08x}-0000-4000-8000-0000000000a1"))


def _still(app) -> None:
    """No cursor is drawn: whether a text area's cursor shows depends on when its focus event
    landed and on the blink's phase, which vary with the machine's load; so the focus is taken
    away before the picture (as in the edit snapshots) and nothing blinks."""
    app.screen.set_focus(None)
    for widget in app.screen.query(TextArea):
        widget.cursor_blink = False
    for widget in app.screen.query(Input):
        widget.cursor_blink = False


def _wizard(opener: str, memory_id: str, mark: list[str], *keys: str):
    async def run_before(pilot) -> None:
        await settle(pilot)
        for marked in mark:
            pilot.app.main_screen.jumps.jump(marked)
            await settle(pilot, 1)
            await pilot.press("space")
        pilot.app.main_screen.jumps.jump(memory_id)
        await settle(pilot, 1)
        await pilot.press(opener)
        await settle(pilot)
        await wait_clusters(pilot)
        for key in keys:
            await pilot.press(key)
            await settle(pilot)
            await pilot.pause(0.4)  # a re-check on a timer (0.3 s) has run: its ids are drawn
            await settle(pilot)
        _still(pilot.app)
        await pilot.pause()

    return run_before


SPLIT_STEPS = {
    "memory": (),
    "parts": ("ctrl+n",),
    "labels": ("ctrl+n", "ctrl+n"),
    "original": ("ctrl+n", "ctrl+n", "ctrl+n", "down"),  # delete chosen: says what goes
    "preview": ("ctrl+n", "ctrl+n", "ctrl+n", "ctrl+n"),
}


@pytest.mark.parametrize("step", list(SPLIT_STEPS))
def test_split_wizard_step(snap_compare, wizard_vault, step):
    assert snap_compare(make_app(wizard_vault), terminal_size=SIZE,
                        run_before=_wizard("v", GARDEN, [], *SPLIT_STEPS[step]))


MERGE_STEPS = {
    "members": (),
    "content": ("ctrl+n",),
    "sources": ("ctrl+n", "ctrl+n"),
    "confirm": ("ctrl+n", "ctrl+n", "ctrl+n"),
}


@pytest.mark.parametrize("step", list(MERGE_STEPS))
def test_consolidate_wizard_step(snap_compare, wizard_vault, step):
    assert snap_compare(make_app(wizard_vault), terminal_size=SIZE,
                        run_before=_wizard("M", DUPES[2], DUPES[:2], *MERGE_STEPS[step]))


def test_split_wizard_error(snap_compare, wizard_vault):
    """A validation error at the step where it happens (a single part)."""
    assert snap_compare(make_app(wizard_vault), terminal_size=SIZE,
                        run_before=_wizard("v", GARDEN, [], "ctrl+n", "ctrl+r", "ctrl+r",
                                           "ctrl+r", "ctrl+n"))


@pytest.mark.parametrize("opener, memory_id, mark", [("v", GARDEN, []),
                                                      ("M", DUPES[2], DUPES[:2])],
                         ids=["split", "consolidate"])
def test_wizard_second_step_at_80x24(snap_compare, wizard_vault, opener, memory_id, mark):
    """At 80 columns the rail names the current step and numbers the others, never ending in
    a cut-off title (the split wizard's ended in "5" with no label)."""
    assert snap_compare(make_app(wizard_vault), terminal_size=(80, 24),
                        run_before=_wizard(opener, memory_id, mark, "ctrl+n"))


@pytest.mark.parametrize("opener, memory_id, mark", [("v", GARDEN, []),
                                                      ("M", DUPES[2], DUPES[:2])],
                         ids=["split", "consolidate"])
def test_wizard_first_step_at_80x24(snap_compare, wizard_vault, opener, memory_id, mark):
    """The first step at 80 columns: the memory to split (or the members to merge) with its
    rail and buttons, nothing cut that the step asks about."""
    assert snap_compare(make_app(wizard_vault), terminal_size=(80, 24),
                        run_before=_wizard(opener, memory_id, mark))
