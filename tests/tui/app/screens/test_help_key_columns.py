"""Help's list of keys (tui/app/screens/help.py) is one Text of aligned columns, not a rich
Table: a Table of a hundred rows was measured and drawn twice when ``?`` opened help, most of
its first draw. Each action's line holds its keys, what they do and its binding id, the
descriptions and the ids each starting at one column."""

from __future__ import annotations

import pytest
from rich.text import Text

from tui.app.screens.help import HelpScreen

from tui_support import SIZE, make_app, settle, tui_vault, until  # noqa: F401  (a fixture)

pytestmark = pytest.mark.asyncio


async def test_help_lists_the_keys_as_one_text_of_aligned_columns(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        shown = [s.content for s in app.screen.query("#help-body Static")]
        keys = next(c for c in shown if isinstance(c, Text) and c.plain.startswith("keys"))
        lines = keys.plain.splitlines()
        archive = next(line for line in lines if line.rstrip().endswith("memvault.archive"))
        undo = next(line for line in lines if line.rstrip().endswith("memvault.undo"))
        assert archive.split()[0] == "a" and "Archive" in archive
        assert archive.index("memvault.archive") == undo.index("memvault.undo")
        assert archive.index("Archive") == undo.index("Undo")
