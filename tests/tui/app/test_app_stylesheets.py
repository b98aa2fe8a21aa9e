"""The app reads every stylesheet of its screens at start (``MemvaultApp.CSS_PATH``): pushing a
screen with a ``CSS_PATH`` of its own never makes Textual reparse and reapply the whole
stylesheet on the UI thread (~380 ms of the first ``I`` on the 1,000-memory bench vault)."""

from __future__ import annotations

from pathlib import Path

import pytest

import tui.app
from tui.app.screens.inbox import InboxScreen

from tui_support import SIZE, make_app, settle, tui_vault, until  # noqa: F401  (a fixture)

pytestmark = pytest.mark.asyncio

APP_FOLDER = Path(tui.app.__file__).resolve().parent


async def test_every_stylesheet_of_the_app_is_read_when_it_starts(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        unread = [str(path.relative_to(APP_FOLDER)) for path in sorted(APP_FOLDER.rglob("*.tcss"))
                  if not app.stylesheet.has_source(str(path))]
        assert unread == []


async def test_the_first_i_does_not_reparse_the_stylesheet(tui_vault, monkeypatch):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        reparsed: list[bool] = []
        real = app.stylesheet.reparse

        def reparse() -> None:
            reparsed.append(True)
            real()

        monkeypatch.setattr(app.stylesheet, "reparse", reparse)
        await pilot.press("I")
        await until(pilot, lambda: isinstance(app.screen, InboxScreen))
        await settle(pilot)
        assert reparsed == []
