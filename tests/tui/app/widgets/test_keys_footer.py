"""The main screen's footer composes its keys again only when they change
(tui/app/widgets/keys_footer.py): Textual's composed them anew at each refresh of the
bindings, eight times before a 100k vault's open was ready, most of them with the same keys."""

from __future__ import annotations

import pytest
from textual.widgets import Footer

from tui_support import (  # noqa: F401  (tui_vault: a fixture)
    SIZE,
    make_app,
    settle,
    tui_vault,
    until,
)


@pytest.mark.asyncio
async def test_the_footer_composes_again_only_when_its_keys_change(tui_vault, monkeypatch):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        main = app.main_screen
        await until(pilot, lambda: main.view is not None and not main.view.partial)
        await settle(pilot)
        footer = main.query_one(Footer)
        composed: list[str] = []
        compose = Footer.compose

        def spy(self):
            composed.append(type(self).__name__)
            return compose(self)

        monkeypatch.setattr(Footer, "compose", spy)
        for _ in range(3):  # the same keys: nothing composed again (was: three times)
            main.refresh_bindings()
            await settle(pilot)
        assert composed == []
        shown = {key.action for key in footer.query("FooterKey")}
        main.query_one("#filter").focus()  # other keys: composed again, and shows them
        await until(pilot, lambda: composed)
        await settle(pilot)
        now = {binding.action for _n, binding, _e, _t in main.active_bindings.values()
               if binding.show}
        keys = {key.action for key in footer.query("FooterKey")} - {"command_palette"}
        assert keys == now and keys != shown - {"command_palette"}
