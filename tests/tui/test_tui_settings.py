"""Settings that persist, driven through the app: the group mode, sort, gist or
content, tree or list, the list's sort, the pane widths and the theme are saved as they change
and come back in the next app; a bad settings file gives the defaults and a notice."""

from __future__ import annotations

import json

import pytest

from tui.app import settings as s

from tui_support import said, SIZE, make_app, settle, tui_vault  # noqa: F401

pytestmark = pytest.mark.asyncio


@pytest.fixture
def config(tmp_path, monkeypatch):
    folder = tmp_path / "config"
    monkeypatch.setenv(s.ENV, str(folder))
    return folder


def saved(config) -> dict:
    return json.loads((config / "settings.json").read_text())


async def test_what_the_person_chooses_is_saved_and_comes_back(tui_vault, config):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert not (config / "settings.json").exists()  # nothing chosen yet
        await pilot.press("m", "s", "c")
        await settle(pilot)
        assert saved(config)["mode"] == "tag"
        assert saved(config)["sort"] == "last_used" and saved(config)["show_content"] is True
        await pilot.press("less_than_sign")
        assert saved(config)["left_width"] == 48
        await pilot.press("f")
        await settle(pilot)
        await pilot.press("s", "o")  # the list: status, then the other way
        await pilot.press("greater_than_sign")
        data = saved(config)
        assert (data["view"], data["list_sort"], data["list_descending"], data["list_width"]) \
            == ("list", "status", True, 66)
        app.theme = "gruvbox"
        await settle(pilot)
        assert saved(config)["theme"] == "gruvbox"
    again = make_app(tui_vault)
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = again.main_screen
        assert again.theme == "gruvbox"
        assert (main.memory_tree.mode, main.memory_tree.sort, main.detail.show_content) == ("tag", "last_used", True)
        assert main.showing_list and again.focused is main.memory_list
        assert "sorted by status ↓" in main.memory_list.border_title
        assert main.query_one("#left").styles.width.value == 66
        await pilot.press("f")  # the tree keeps its own width
        assert main.query_one("#left").styles.width.value == 48


async def test_a_bad_settings_file_gives_the_defaults_and_a_notice(tui_vault, config):
    config.mkdir()
    (config / "settings.json").write_text("{ this is not json")
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main_screen
        assert (main.memory_tree.mode, main.memory_tree.sort) == ("status_tag", "score") and not main.showing_list
        notes = [n.message for n in said(app)]
        assert any("not valid JSON" in n and "using the defaults" in n for n in notes)
        await pilot.press("m")  # the next change writes a good file over it
        await settle(pilot)
        assert saved(config)["mode"] == "tag"


async def test_a_folder_that_cannot_be_written_is_said_once(tui_vault, tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv(s.ENV, str(blocker / "config"))
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("m", "m")
        await settle(pilot)
        notes = [n.message for n in said(app) if "cannot save the settings" in n.message]
        assert len(notes) == 1
        assert app.main_screen.memory_tree.mode == "band"  # the app goes on
