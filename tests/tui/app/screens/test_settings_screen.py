"""The settings screen (``,`` and the palette's "Settings…"): every saved choice with its value,
changed there, shown on the main screen at once and saved in settings.json (whose place it
says); the keymap and the environment's configuration; a save by the main screen's own keys
said once; and snapshots at 160x48 and 80x24."""

from __future__ import annotations

import json

import pytest

from tui.app.screens.settings_screen import (
    CHOICES,
    TYPED,
    SettingsScreen,
    environment_rows,
    home_short,
)
from tui.app.settings import settings_path

from tui_support import SIZE, make_app, settle, text_of, tui_vault, until  # noqa: F401


async def _open_settings(pilot) -> SettingsScreen:
    await settle(pilot)
    await pilot.press("comma")
    await until(pilot, lambda: isinstance(pilot.app.screen, SettingsScreen))
    await settle(pilot)
    return pilot.app.screen


def _saved() -> dict:
    return json.loads(settings_path().read_text())


@pytest.mark.asyncio
async def test_comma_opens_every_saved_choice_and_where_they_are_stored(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open_settings(pilot)
        table = screen.query_one("#settings-choices")
        assert [str(k.value) for k in table.rows] == [c.name for c in CHOICES] + [
            t.name for t in TYPED]
        typed = {t.name.split(".")[0] for t in TYPED}
        assert {c.name for c in CHOICES} | typed == set(vars(app.settings))  # every saved one
        where = text_of(screen.query_one("#settings-where"))
        assert home_short(settings_path()) in where.replace("\n", "")
        assert "MEMVAULT_CONFIG_DIR" in where
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is app.main_screen)


@pytest.mark.asyncio
async def test_the_palette_finds_settings_and_opens_the_screen(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        found = [c for c in app.get_system_commands(app.main_screen)
                 if "setting" in c.title.lower()]
        assert [c.title for c in found] == ["Settings…"]
        assert "(,)" in found[0].help
        found[0].callback()
        await until(pilot, lambda: isinstance(app.screen, SettingsScreen))
        await settle(pilot)
        assert app.screen.query_one("#settings-choices").row_count == len(CHOICES) + len(TYPED)


@pytest.mark.asyncio
async def test_a_choice_changed_there_shows_on_the_main_screen_and_is_saved(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open_settings(pilot)
        await pilot.press("down", "enter")  # the tree groups by: the next mode
        await settle(pilot)
        assert app.main_screen.memory_tree.mode == "tag"
        await until(pilot, lambda: settings_path().exists())
        assert _saved()["mode"] == "tag"
        said = text_of(screen.query_one("#settings-saved"))
        assert "the tree groups by: tag" in said and home_short(settings_path()) in said
        await pilot.press("down", "down", "down", "enter")  # the left pane shows: the flat list
        await settle(pilot)
        assert app.main_screen.showing_list and _saved()["view"] == "list"
        await pilot.press("down", "left")  # the flat list sorts by: the one before score
        await settle(pilot)
        assert app.main_screen.memory_list.sort_column == "last_used"
        assert _saved()["list_sort"] == "last_used"
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is app.main_screen)
        await settle(pilot)
        assert _saved()["mode"] == "tag" and _saved()["view"] == "list"  # nothing undone


@pytest.mark.asyncio
async def test_a_width_moves_by_the_steps_of_the_keys_and_stops_at_its_end(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await _open_settings(pilot)
        await pilot.press(*["down"] * 7)  # left pane width with the tree (52%)
        await pilot.press("enter")
        await settle(pilot)
        assert app.settings.left_width == 56 and _saved()["left_width"] == 56
        width = app.main_screen.query_one("#left").styles.width
        assert width.value == 56
        await pilot.press(*["left"] * 20)
        await settle(pilot)
        assert app.settings.left_width == 25


@pytest.mark.asyncio
async def test_a_save_by_a_key_of_the_main_screen_is_said_once(tui_vault):
    app = make_app(tui_vault)
    notes: list[str] = []  # (every notice, also one whose toast timed out on a busy machine)
    real = app.notify

    def notify(message, *args, **kwargs):
        notes.append(str(message))
        return real(message, *args, **kwargs)

    app.notify = notify
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f")
        await until(pilot, lambda: settings_path().exists())
        await settle(pilot)
        await pilot.press("f")
        await until(pilot, lambda: '"view": "tree"' in settings_path().read_text())
        await settle(pilot)
        said = [n for n in notes if "settings.json" in n]
        assert said == [f"Saved in {home_short(settings_path())} (every setting: ,)"]


@pytest.mark.asyncio
async def test_a_folder_that_cannot_be_written_is_said_on_the_screen(tui_vault, monkeypatch):
    blocked = tui_vault.parent / "blocked"
    blocked.write_text("a file where the folder should be")
    monkeypatch.setenv("MEMVAULT_CONFIG_DIR", str(blocked))
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open_settings(pilot)
        await pilot.press("down", "enter")
        await settle(pilot)
        said = text_of(screen.query_one("#settings-saved"))
        assert "not saved" in said and app.settings.mode == "tag"


def test_the_environment_rows_say_what_is_set_and_what_is_default():
    env = {"CORTEXGRAPH_FORGET_THRESHOLD": "0.1", "MEMVAULT_SEARCH_WAIT": "5"}
    rows, problem = environment_rows(env, None, "/v")
    by_name = {name: (value, where) for name, value, where in rows}
    assert problem is None
    assert by_name["forget threshold"] == ("0.1", "$CORTEXGRAPH_FORGET_THRESHOLD")
    assert by_name["decay model"] == ("power_law", "default")
    assert by_name["search waits for a first index build"] == ("5 s", "$MEMVAULT_SEARCH_WAIT")
    assert by_name["vault"][0] == "/v"


def test_a_bad_decay_variable_is_named_and_the_defaults_are_shown():
    rows, problem = environment_rows({"CORTEXGRAPH_DECAY_MODEL": "linear"}, None, "/v")
    assert problem is not None and "CORTEXGRAPH_DECAY_MODEL" in problem
    assert ("decay model", "power_law", "default (see above)") in rows


@pytest.mark.asyncio
async def test_the_keymap_in_effect_is_listed(tui_vault):
    app = make_app(tui_vault, keymap={"memvault.archive": "A"})
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open_settings(pilot)
        assert ["memvault.archive", "A"] in [line.split() for line in
                                             text_of(screen.query_one("#settings-keys")).splitlines()]


@pytest.mark.parametrize("size", [(160, 48), (80, 24)])
def test_settings_screen(snap_compare, tui_vault, monkeypatch, size):
    monkeypatch.setenv("CORTEXGRAPH_FORGET_THRESHOLD", "0.1")

    async def run_before(pilot) -> None:
        await _open_settings(pilot)

    assert snap_compare(make_app(tui_vault), terminal_size=size, run_before=run_before)


def _row_of(name: str) -> int:
    return len(CHOICES) + [t.name for t in TYPED].index(name)


async def _type(pilot, screen, name: str, text: str) -> str:
    """Enter on the row of ``name``, ``text`` typed over what the box holds, enter: what the
    screen says then."""
    table = screen.query_one("#settings-choices")
    table.move_cursor(row=_row_of(name))
    await settle(pilot)
    await pilot.press("enter")
    box = screen.query_one("#settings-typed")
    await until(pilot, lambda: box.has_focus)
    box.value = ""
    await pilot.press(*text, "enter")
    await settle(pilot)
    return text_of(screen.query_one("#settings-saved"))


@pytest.mark.asyncio
async def test_a_decay_threshold_typed_there_is_checked_saved_and_scores_with_it(tui_vault):
    """The forget threshold typed: a bad value is said and nothing saved; a good one saved in
    settings.json (whose place it says) and every score made with it."""
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open_settings(pilot)
        said = await _type(pilot, screen, "decay.forget_threshold", "2")
        assert "not saved" in said and "0..1" in said
        assert "not saved" in str(screen.query_one("#settings-typed").border_subtitle)
        assert not settings_path().exists() or "decay" not in _saved() or not _saved()["decay"]
        said = await _type(pilot, screen, "decay.forget_threshold", "abc")
        assert "not saved" in said and "'abc' is not a number" in said
        said = await _type(pilot, screen, "decay.forget_threshold", "0.2")
        assert "saved in" in said and home_short(settings_path()) in said
        assert _saved()["decay"] == {"forget_threshold": 0.2}
        await until(pilot, lambda: app.main_screen.view.config.forget_threshold == 0.2)
        assert app.service.config.forget_threshold == 0.2
        said = await _type(pilot, screen, "decay.decay_model", "linear")
        assert "not saved" in said and "power_law" in said
        assert _saved()["decay"] == {"forget_threshold": 0.2}


@pytest.mark.asyncio
async def test_a_variable_set_in_the_environment_overrides_the_file_and_is_said(
        tui_vault, monkeypatch):
    monkeypatch.setenv("CORTEXGRAPH_FORGET_THRESHOLD", "0.3")
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open_settings(pilot)
        table = screen.query_one("#settings-choices")
        assert table.get_cell("decay.forget_threshold", "key").plain == "env over"
        table.move_cursor(row=_row_of("decay.forget_threshold"))
        await settle(pilot)
        assert "$CORTEXGRAPH_FORGET_THRESHOLD=0.3 is set: it overrides the file" in text_of(
            screen.query_one("#settings-values"))
        said = await _type(pilot, screen, "decay.forget_threshold", "0.2")
        assert "saved in" in said and "$CORTEXGRAPH_FORGET_THRESHOLD is set and overrides" in said
        assert _saved()["decay"] == {"forget_threshold": 0.2}
        await settle(pilot)
        assert app.service.config.forget_threshold == 0.3


@pytest.mark.asyncio
async def test_the_keymap_typed_there_is_checked_saved_and_bound_at_once(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open_settings(pilot)
        said = await _type(pilot, screen, "keymap", "memvault.archiv=A")
        assert "not saved" in said and "memvault.archiv" in said
        said = await _type(pilot, screen, "keymap", "memvault.archive")
        assert "not saved" in said and "binding-id=keys" in said
        assert not settings_path().exists() or not _saved().get("keymap")
        said = await _type(pilot, screen, "keymap", "memvault.archive=A")
        assert "saved in" in said
        assert _saved()["keymap"] == {"memvault.archive": "A"}
        assert app.keymap == {"memvault.archive": "A"}
        assert ["memvault.archive", "A"] in [line.split() for line in
                                             text_of(screen.query_one("#settings-keys")).splitlines()]


@pytest.mark.asyncio
async def test_esc_while_typing_leaves_the_value_unsaved_and_the_screen_open(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open_settings(pilot)
        screen.query_one("#settings-choices").move_cursor(row=_row_of("decay.pl_alpha"))
        await settle(pilot)
        await pilot.press("enter", "3", "escape")
        await settle(pilot)
        assert app.screen is screen and not screen.query_one("#settings-typed").display
        assert not settings_path().exists() or not _saved().get("decay")
