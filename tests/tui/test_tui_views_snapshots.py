"""Snapshots of the views: the word diff of two versions, the flat list with the
filter's words highlighted, a question in the filter, and the "possible duplicates" grouping. Deterministic as the other
snapshots (fixed clock, ids and commit dates, UTC, 120x40); accept a deliberate change with
``pytest tests/tui/test_tui_views_snapshots.py --snapshot-update`` after looking at it."""

from __future__ import annotations

import pytest

from core import Vault
from tui.app.grouping import MODES

from tui_support import (
    FADING,
    NOW,
    SIZE,
    build_small_vault,
    make_app,
    settle,
    tui_vault,  # noqa: F401
    wizard_vault,  # noqa: F401
)


def _keys(*keys: str, memory_id: str | None = None):
    async def run_before(pilot) -> None:
        await settle(pilot)
        if memory_id is not None:
            pilot.app.main_screen.jumps.jump(memory_id)
            await settle(pilot)
        for key in keys:
            await pilot.press(key)
            await settle(pilot)
        pilot.app.clear_notifications()  # (a key that saves a choice says so once: not shown)
        await settle(pilot)

    return run_before


@pytest.fixture
def plain_vault(tmp_path, monkeypatch):
    """The test vault without its split (whose parts and relations core stamps with the time
    of day) and with its .meta.json pinned (its creation time, the host name): every commit
    id the history and the diff show is the same on every run."""
    import os
    import socket
    from pathlib import Path

    import core.store.layout as layout

    monkeypatch.setattr(layout, "now_epoch", lambda: NOW)
    monkeypatch.setattr(socket, "gethostname", lambda: "snapshot-host")
    return build_small_vault(Path(os.environ["HOME"]) / "vault", monkeypatch, split=False)


def test_history_pane_at_80x24_keeps_the_message(snap_compare, plain_vault):
    """In the narrow pane the action, then the time, give way to each commit's message (the
    vault whose commits have the same ids at every run)."""
    assert snap_compare(make_app(plain_vault), terminal_size=(80, 24),
                        run_before=_keys("H", memory_id=FADING))


def test_version_diff(snap_compare, plain_vault):
    tui_vault = plain_vault
    vault = Vault.open(tui_vault)
    vault.update(FADING, content="CI runs the whole test suite with pytest -n 4 on Python 3.12 "
                 "only.", strength=1.5)
    vault.close()
    assert snap_compare(make_app(tui_vault), terminal_size=SIZE,
                        run_before=_keys("H", "H", "D", memory_id=FADING))


def test_flat_list_with_a_filter(snap_compare, tui_vault):
    assert snap_compare(make_app(tui_vault), terminal_size=SIZE,
                        run_before=_keys("f", "slash", *"ci", "enter"))


def test_possible_duplicates(snap_compare, wizard_vault):
    keys = ["m"] * MODES.index("duplicates") + ["g", "g", "j", "l"]  # the cluster, opened
    assert snap_compare(make_app(wizard_vault), terminal_size=SIZE, run_before=_keys(*keys))


def test_a_question_in_the_filter(snap_compare, tui_vault):
    """A question typed as asked: its words searched as ``memvault search`` does, the hits
    ranked in their groups, the best under the cursor and in the detail pane."""
    async def run_before(pilot) -> None:
        await settle(pilot)
        await pilot.press("slash", *"what does the user prefer for testing?", "enter")
        await settle(pilot)

    assert snap_compare(make_app(tui_vault), terminal_size=SIZE, run_before=run_before)
