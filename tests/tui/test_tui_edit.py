"""Editing in the app ("Edit in place"): the form (ctrl+e / F2), $EDITOR (e), a new
memory with the duplicate warning (n), touch (t), promote (P) and pin (F): each one commit,
undone by u; bad input says why in the form and writes nothing."""

from __future__ import annotations

import contextlib
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from textual.widgets import Input, TextArea

from core.model.records import is_pinned
from core.textutil import make_gist
from tui.app.screens.confirm import ConfirmScreen
from tui.app.screens.edit_failed import EditFailedScreen
from tui.app.screens.edit_form import EditFormScreen
from tui.app.screens.gc import GcScreen
from tui.app.screens.new_memory import NewMemoryScreen

from tui_support import (
    said,
    CONTENT,
    FADING,
    FRESH,
    SIZE,
    STALE,
    goto,
    log,
    make_app,
    on_disk,
    settle,
    text_of,
    tree_lines,
    tui_vault,  # noqa: F401  (fixture)
)

pytestmark = pytest.mark.asyncio


def commit_count(path: Path) -> int:
    return int(subprocess.run(["git", "-C", str(path), "rev-list", "--count", "HEAD"],
                              capture_output=True, text=True, check=True).stdout)


def notes(app) -> list[str]:
    return [str(n.message) for n in said(app)]


def editor_script(tmp_path: Path, body: str, name: str = "ed") -> str:
    """An $EDITOR: a Python script run on the file (``text`` in, ``text`` out)."""
    script = tmp_path / f"{name}.py"
    script.write_text(
        f"#!{sys.executable}\nimport sys, pathlib\np = pathlib.Path(sys.argv[1])\n"
        "text = p.read_bytes().decode('utf-8', 'surrogatepass')\n"
        f"{body}\n"
        "p.write_bytes(text.encode('utf-8', 'surrogatepass'))\n", encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)


def edits_left(vault_path: Path) -> list[Path]:
    folder = vault_path / ".git" / "memvault" / "edits"
    return sorted(folder.iterdir()) if folder.is_dir() else []


def can_suspend(app) -> None:
    app.suspend = contextlib.nullcontext  # the headless driver cannot: run the editor as is


# -- the form ---------------------------------------------------------------------------------
async def test_the_form_saves_the_changed_fields_as_one_commit(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, FADING)
        before = commit_count(tui_vault)
        await pilot.press("ctrl+e")
        await settle(pilot, 1)
        form = app.screen
        assert isinstance(form, EditFormScreen)
        form.query_one("#edit-tags", Input).value = "ci, python"
        form.query_one("#edit-strength", Input).value = "1.5"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is app.main_screen
        assert commit_count(tui_vault) == before + 1
        assert log(tui_vault)[0].startswith(f"update: {FADING[:8]}")
        m = on_disk(tui_vault).get(FADING)
        assert m.meta.tags == ["ci", "python"] and m.strength == 1.5
        assert "ci, python" in text_of(app.main_screen.query_one("#detail-fields"))
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert on_disk(tui_vault).get(FADING).meta.tags == ["ci"]


@pytest.mark.parametrize("field,value,words", [
    ("#edit-strength", "strong", "strength must be a number"),
    ("#edit-strength", "-2", "0 or more"),
    ("#edit-tags", '["open', "JSON array"),
    ("#edit-gist", '"unterminated', "one JSON string"),
])
async def test_bad_input_says_why_in_the_form_and_writes_nothing(tui_vault, field, value, words):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, FRESH)
        before = commit_count(tui_vault)
        await pilot.press("f2")
        await settle(pilot, 1)
        form = app.screen
        form.query_one(field, Input).value = value
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form  # stays open with what was typed
        assert words in text_of(form.query_one("#edit-error"))
        assert commit_count(tui_vault) == before


async def test_empty_content_is_refused_and_an_unchanged_form_writes_nothing(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, FRESH)
        before = commit_count(tui_vault)
        await pilot.press("ctrl+e")
        await settle(pilot, 1)
        form = app.screen
        area = form.query_one("#edit-content", TextArea)
        assert area.text == CONTENT
        area.text = "  \n"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "text is empty" in text_of(form.query_one("#edit-error"))
        area.text = CONTENT
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is app.main_screen and commit_count(tui_vault) == before
        assert "No changes: nothing written" in notes(app)


async def test_esc_in_a_changed_form_asks_first(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, FRESH)
        await pilot.press("ctrl+e")
        await settle(pilot, 1)
        form = app.screen
        form.query_one("#edit-gist", Input).value = "typed"
        await pilot.press("escape")
        await settle(pilot, 1)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await settle(pilot, 1)
        assert app.screen is form and form.query_one("#edit-gist", Input).value == "typed"
        await pilot.press("escape")
        await settle(pilot, 1)
        await pilot.press("y")
        await settle(pilot, 1)
        assert app.screen is app.main_screen


async def test_content_with_control_characters_is_shown_escaped_and_kept(tui_vault):
    from core import Vault

    with Vault.open(tui_vault) as v:
        v.update(STALE, content="esc \x1b[2J here")
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, STALE)
        await pilot.press("ctrl+e")
        await settle(pilot, 1)
        form = app.screen
        area = form.query_one("#edit-content", TextArea)
        assert area.read_only and "\x1b" not in area.text and "\\x1b" in area.text
        form.query_one("#edit-tags", Input).value = "home, desk"
        await pilot.press("ctrl+s")
        await settle(pilot)
        m = on_disk(tui_vault).get(STALE)
        assert m.content == "esc \x1b[2J here" and m.meta.tags == ["home", "desk"]


# -- $EDITOR ----------------------------------------------------------------------------------
async def test_e_edits_the_text_in_the_editor_as_one_commit(tui_vault, tmp_path, monkeypatch):
    monkeypatch.setenv("EDITOR", editor_script(
        tmp_path, "text = text.replace('tags: prefs, python', 'tags: prefs, python, edited')\n"
                  "text += 'one more line  \\n'"))
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        can_suspend(app)
        await settle(pilot)
        await goto(pilot, FRESH)
        before = commit_count(tui_vault)
        await pilot.press("e")
        await settle(pilot, 3)
        assert commit_count(tui_vault) == before + 1
        m = on_disk(tui_vault).get(FRESH)
        assert m.meta.tags == ["prefs", "python", "edited"]
        # byte-exact, trailing spaces too (the file's own last line break is not the text's)
        assert m.content == CONTENT + "\none more line  "
        assert edits_left(tui_vault) == []


async def test_e_unchanged_writes_nothing(tui_vault, monkeypatch):
    monkeypatch.setenv("EDITOR", "true")
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        can_suspend(app)
        await settle(pilot)
        await goto(pilot, FRESH)
        before = commit_count(tui_vault)
        await pilot.press("e")
        await settle(pilot, 3)
        assert commit_count(tui_vault) == before and "No changes: nothing written" in notes(app)
        assert edits_left(tui_vault) == []


async def test_a_file_that_does_not_parse_loses_nothing(tui_vault, tmp_path, monkeypatch):
    monkeypatch.setenv("EDITOR", editor_script(
        tmp_path, "text = text.replace('strength: 1.0', 'strength: lots') + 'my words\\n'"))
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        can_suspend(app)
        await settle(pilot)
        await goto(pilot, FRESH)
        before = commit_count(tui_vault)
        await pilot.press("e")
        await settle(pilot, 3)
        failed = app.screen
        assert isinstance(failed, EditFailedScreen) and "strength must be a number" in failed.error
        [kept] = edits_left(tui_vault)
        assert "my words" in kept.read_text() and str(kept) == str(failed.path)
        await pilot.press("escape")  # keep the file
        await settle(pilot)
        assert any(str(kept) in n for n in notes(app)) and kept.exists()
        assert commit_count(tui_vault) == before
        # edit again: this editor fixes the strength; the person's words are still there
        monkeypatch.setenv("EDITOR", editor_script(
            tmp_path, "text = text.replace('strength: lots', 'strength: 1.25')", "fix"))
        app.main_screen.edits.run_editor_on(failed_session(app, kept))
        await settle(pilot, 3)
        m = on_disk(tui_vault).get(FRESH)
        assert m.strength == 1.25 and m.content.endswith("my words")
        assert commit_count(tui_vault) == before + 1 and edits_left(tui_vault) == []


def failed_session(app, path: Path):
    from tui.app.service import EditSession

    from tui_support import FRESH as memory_id

    base = app.service.edits.memory(memory_id)
    return EditSession(memory_id, base, path)


async def test_edit_again_reopens_the_editor_on_the_same_text(tui_vault, tmp_path, monkeypatch):
    monkeypatch.setenv("EDITOR", editor_script(tmp_path, "text = text.replace('-------- memvault', '--')"))
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        can_suspend(app)
        await settle(pilot)
        await goto(pilot, FRESH)
        await pilot.press("e")
        await settle(pilot, 3)
        assert isinstance(app.screen, EditFailedScreen)
        assert "separator line is missing" in app.screen.error
        fix = ("import core.io.edit_text as f\nhead, _, body = text.partition('-- : every')\n"
               "text = text.replace(text.splitlines()[7], f.SEPARATOR)")
        monkeypatch.setenv("EDITOR", editor_script(tmp_path, fix, "fix"))
        monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parents[2]))
        await pilot.press("e")
        await settle(pilot, 3)
        assert app.screen is app.main_screen
        assert "No changes: nothing written" in notes(app) and edits_left(tui_vault) == []
        # and discard throws a broken file away
        monkeypatch.setenv("EDITOR", editor_script(tmp_path, "text = 'garbage'", "bad"))
        await pilot.press("e")
        await settle(pilot, 3)
        await pilot.press("d")
        await settle(pilot)
        assert edits_left(tui_vault) == []


async def test_without_a_terminal_to_hand_over_e_says_so(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, FRESH)
        await pilot.press("e")
        await settle(pilot, 3)
        assert any("cannot hand itself to an editor" in n for n in notes(app))
        assert edits_left(tui_vault) == []


# -- a new memory -------------------------------------------------------------------------------
async def test_n_adds_a_memory_with_its_gist_in_one_commit(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        before = commit_count(tui_vault)
        await pilot.press("n")
        await settle(pilot, 1)
        form = app.screen
        assert isinstance(form, NewMemoryScreen)
        text = ("The team retro moved to Thursdays at 16:00 because the Friday slot clashed "
                "with the release train, and the facilitator now rotates every sprint so "
                "nobody runs it twice in a row.")
        form.query_one("#new-content", TextArea).text = text
        form.query_one("#new-tags", Input).value = "work, meetings"
        await pilot.press("ctrl+s")
        await settle(pilot, 3)
        assert app.screen is app.main_screen and commit_count(tui_vault) == before + 1
        assert log(tui_vault)[0].startswith("add: ")
        [m] = [m for m in on_disk(tui_vault).memories.values() if m.content == text]
        assert m.meta.tags == ["work", "meetings"]
        assert m.gist == make_gist(text, ["work", "meetings"], [], "moderate")  # as `add` does
        assert app.main_screen.current == m.id


async def test_n_warns_of_likely_duplicates_and_adds_only_when_asked(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        before = commit_count(tui_vault)
        await pilot.press("n")
        await settle(pilot, 1)
        form = app.screen
        form.query_one("#new-content", TextArea).text = \
            "CI runs the test suite with pytest -n 2 on Python 3.11 and 3.12 and 3.13."
        await pilot.press("ctrl+s")
        await settle(pilot, 3)
        assert app.screen is form and commit_count(tui_vault) == before
        shown = text_of(form.query_one("#new-duplicates"))
        assert FADING[:8] in shown and "adds it anyway" in shown
        await pilot.press("ctrl+s")
        await settle(pilot, 3)
        assert app.screen is app.main_screen and commit_count(tui_vault) == before + 1


async def test_n_refuses_empty_content_and_esc_cancels(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        before = commit_count(tui_vault)
        await pilot.press("n")
        await settle(pilot, 1)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "text is empty" in text_of(app.screen.query_one("#new-error"))
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is app.main_screen and commit_count(tui_vault) == before


# -- touch, promote, pin ------------------------------------------------------------------------
async def test_t_touches_one_commit(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, FADING)
        before = on_disk(tui_vault).get(FADING)
        commits = commit_count(tui_vault)
        await pilot.press("t")
        await settle(pilot)
        after = on_disk(tui_vault).get(FADING)
        assert after.use_count == before.use_count + 1 and log(tui_vault)[0].startswith("touch:")
        assert commit_count(tui_vault) == commits + 1


async def test_promote_is_one_commit_and_undoable(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, FADING)
        await pilot.press("P")
        await settle(pilot)
        m = on_disk(tui_vault).get(FADING)
        assert m.status.value == "promoted" and m.promoted_at is not None
        assert log(tui_vault)[0].startswith(f"promote: {FADING[:8]}")
        await pilot.press("P")  # already promoted: refused, nothing written
        await settle(pilot)
        assert any("only an active memory" in n for n in notes(app))
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert on_disk(tui_vault).get(FADING).status.value == "active"


async def test_F_pins_shows_it_and_gc_keeps_it_out(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, STALE)
        await pilot.press("F")
        await settle(pilot)
        assert is_pinned(on_disk(tui_vault).get(STALE)) and log(tui_vault)[0].startswith("pin:")
        assert any(STALE[:8] in line and "pinned" in line for line in tree_lines(app))
        assert "gc never deletes or archives it" in text_of(
            app.main_screen.query_one("#detail-fields"))
        await pilot.press("C")
        await settle(pilot)
        assert isinstance(app.screen, GcScreen)
        title = text_of(app.screen.query_one("#gc-title"))
        assert "1 pinned memory below it is kept out" in title
        assert STALE not in [m.id for m, _ in app.screen.report.candidates]
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("F")
        await settle(pilot)
        assert not is_pinned(on_disk(tui_vault).get(STALE)) and log(tui_vault)[0].startswith("unpin:")
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert is_pinned(on_disk(tui_vault).get(STALE))
