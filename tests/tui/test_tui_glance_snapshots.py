"""A snapshot of the glance (the tree painted from the index's counts before the first look):
the groups and their counts, the first status open with its tags, a tag group opened on it
saying its memories are loading, the keys that do not work on it shown as disabled.
Deterministic as the other snapshots (fixed clock, ids and commit dates, UTC, 120x40); accept a
deliberate change with ``pytest tests/tui/test_tui_glance_snapshots.py --snapshot-update``
after looking at it."""

from __future__ import annotations

from tui_support import SIZE, held_app, tui_vault, until  # noqa: F401  (tui_vault: fixture)


def test_the_glance(snap_compare, tui_vault, monkeypatch):
    app, gates = held_app(tui_vault, monkeypatch)

    async def run_before(pilot) -> None:
        main = pilot.app.main_screen
        await until(pilot, lambda: main.view is not None and main.view.glance is not None)
        await pilot.pause()
        await pilot.press("j", "l")  # open the first tag group of the first status
        await pilot.pause()

    def release() -> None:
        gates["preview"].set()
        gates["open"].set()

    exit_app = app.exit

    def exit_releasing(*args, **kwargs):  # the screenshot is taken: let the worker finish
        release()
        return exit_app(*args, **kwargs)

    monkeypatch.setattr(app, "exit", exit_releasing)
    try:
        assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
    finally:
        release()
