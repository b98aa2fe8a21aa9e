"""tui/app/screens/wizard.py: a wizard opens with its first step alone built, builds the next
one once a step is drawn, and a step it jumps to when that is shown (issue 42: ``M`` built and
styled the consolidate wizard's four steps before its first frame)."""

from __future__ import annotations

import pytest

from tui.app.screens.consolidate_wizard import ConsolidateWizard

from tui_support import SIZE, make_app, settle, tui_vault, until  # noqa: F401  (a fixture)

pytestmark = pytest.mark.asyncio


async def test_the_consolidate_wizard_builds_a_step_when_it_is_shown(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("M")
        await until(pilot, lambda: isinstance(app.screen, ConsolidateWizard))
        wizard = app.screen
        await settle(pilot)
        built = {step_id: bool(wizard.query_one(f"#{step_id}").children)
                 for step_id, _ in wizard.STEPS}
        # the first step, and the next one once the first is drawn (ready for Next)
        assert built == {"merge-members": True, "merge-content": True,
                         "merge-sources": False, "merge-confirm": False}
        wizard.go(3)  # the confirm step, its summary inside a scrolling container
        await until(pilot, lambda: bool(wizard.query("#merge-summary")))
        await settle(pilot)
        assert wizard.query_one("#merge-confirm").children
        assert not wizard.query_one("#merge-sources").children  # never shown: never built
        wizard.go(0)
        await settle(pilot)
        assert len(wizard.query("#merge-choices")) == 1  # built once
