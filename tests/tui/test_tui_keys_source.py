"""One source of truth for the keys: help (``?``), the command palette and docs/app.md are
made from the bindings, as MEMVAULT_KEYMAP leaves them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tui.app.keys import actions, bindings_of
from tui.app.keys_doc import DOC, with_keys
from tui.app.palette import NOT_IN_PALETTE, PALETTE
from tui.app.screens.help import HelpScreen
from tui.app.main.screen import MAIN_WIDGETS, MainScreen
from tui.app.app import MemvaultApp

from tui_support import SIZE, make_app, settle, text_of, until, tui_vault  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
KEYMAP = {"memvault.archive": "A", "memvault.delete": "D"}


def help_text(app) -> str:
    return "\n".join(text_of(s) for s in app.screen.query("#help-body Static"))


@pytest.mark.asyncio
async def test_help_shows_remapped_actions_and_says_which_lost_their_keys(tui_vault):
    app = make_app(tui_vault, keymap={**KEYMAP, "memvault.archve": "z"})
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = help_text(app)
        lines = text.splitlines()
        archive = next(line for line in lines if line.rstrip().endswith("memvault.archive"))
        delete = next(line for line in lines if line.rstrip().endswith("memvault.delete"))
        group = next(line for line in lines if line.rstrip().endswith("memvault.mark_group"))
        assert archive.split()[:2] == ["A", "Archive"]
        assert delete.split()[:3] == ["D", "Delete", "memvault.delete"]  # "del" went with x
        assert group.split()[0] == "(none)" and "Mark the group" in group
        notice = text_of(app.screen.query_one("#help-keymap"))
        assert "Mark the group has no key now: MEMVAULT_KEYMAP gave A to Archive" in notice
        assert "memvault.mark_group=KEY" in notice
        assert "memvault.archve" in notice  # a typo is named
        # every action of the main screen is listed, with or without its key
        for action in actions([*MAIN_WIDGETS, MainScreen, MemvaultApp], KEYMAP):
            if action.binding_id.startswith("memvault."):
                assert action.binding_id in text, action.binding_id


@pytest.mark.asyncio
async def test_the_palette_says_the_keys_the_keymap_gives(tui_vault):
    app = make_app(tui_vault, keymap=KEYMAP)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        commands = {c.title: c for c in app.get_system_commands(app.main_screen)}
        assert commands["Archive / unarchive"].help.endswith("(A)")
        assert commands["Mark the group"].help.endswith("(no key)")
        assert commands["Edit…"].help.endswith("(^e f2)")
        assert commands["Pin / unpin"].help.endswith("(F)")
        commands["Show history"].callback()
        await settle(pilot, 1)
        assert app.main_screen.query_one("#right").active == "tab-history"


def test_every_main_screen_binding_is_in_the_palette_or_left_out_on_purpose():
    ids = {b.id for part in (*MAIN_WIDGETS, MainScreen, MemvaultApp)
           for b in bindings_of(part, own=True) if b.id}
    assert ids - set(PALETTE) - NOT_IN_PALETTE == set()
    assert set(PALETTE) - ids == set()


def test_docs_app_md_lists_the_keys_the_code_binds():
    text = DOC.read_text(encoding="utf-8")
    assert text == with_keys(text), "run: python -m tui.app.keys_doc"
    assert "| `P` | Promote" in text and "| `F` | Pin / unpin" in text


def test_the_readme_keeps_no_key_table_and_links_the_keys():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "| key | does |" not in readme
    assert "[docs/app.md](https://github.com/memvault/memvault/blob/main/docs/app.md)" in readme
    assert not re.search(r"`>` promotes|`P` pins|`T` also raises", readme)


def test_sentences_that_name_a_key_name_the_one_the_keymap_gives(tui_vault):
    """The inbox's title, the sync notice, the deleted-memory notice and the wizard's prompt
    name keys through key_for: a remapped key is named as remapped."""
    from tui.app.keys import key_for
    from tui.app.screens.inbox import InboxScreen
    from tui.app.widgets.history import HistoryTable
    from tui.app.widgets.memory_tree import MemoryTree

    app = make_app(tui_vault, open_now=False, keymap={
        "memvault.inbox.accept": "y", "memvault.stats": "ctrl+t", "memvault.mark": "comma,space"})
    assert key_for(app, InboxScreen, "accept") == "y"
    assert key_for(app, InboxScreen, "reject") == "r"
    assert key_for(app, MainScreen, "stats") == "^t"
    assert key_for(app, MemoryTree, "screen.mark") == ","
    assert key_for(app, HistoryTable, "restore") == "r"
    assert key_for(app, MainScreen, "no_such_action") == "no_such_action"
