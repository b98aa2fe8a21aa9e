"""A modal's see-through backdrop (tui/app/screens/backdrop.py): the screen below, tinted, is
kept while nothing below changes: the modal laying itself out again does not draw it again
(issue 42: opening the consolidate wizard drew it five times in this test, three on the demo
vault in bench/app_speed.py --keys; now three and two); a change below draws it again."""

from __future__ import annotations

import pytest
from textual.renderables.background_screen import BackgroundScreen

from tui.app.screens.consolidate_wizard import ConsolidateWizard

from tui_support import SIZE, make_app, settle, tui_vault, until  # noqa: F401  (tui_vault: a fixture)

pytestmark = pytest.mark.asyncio


async def test_a_wizard_draws_the_screen_below_again_only_when_it_changes(tui_vault,
                                                                          monkeypatch):
    drawn: list[object] = []
    real = BackgroundScreen.__rich_console__

    def counting(self, console, options):
        drawn.append(self.screen)
        return real(self, console, options)

    monkeypatch.setattr(BackgroundScreen, "__rich_console__", counting)
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main_screen
        await pilot.press("M")
        await until(pilot, lambda: isinstance(app.screen, ConsolidateWizard)
                    and app.screen.clusters is not None)
        await settle(pilot)
        assert drawn and all(screen is main for screen in drawn)
        opened = len(drawn)
        app.screen.refresh(layout=True)  # the wizard laid out again (a step filled in)
        await settle(pilot)
        assert len(drawn) == opened
        main.memory_tree.border_title = "memories · changed below"
        await settle(pilot)
        assert len(drawn) == opened + 1
