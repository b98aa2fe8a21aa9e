"""Regressions in the app, driven through Textual's pilot on the small test vault:
each test failed before its fix."""

from __future__ import annotations

import subprocess

import pytest

from core import MemoryStatus
from tui.app.screens.gc import GcScreen
from tui.app.widgets.detail import DetailPane

from tui_support import (
    said,
    FADING,
    PROMOTED,
    SIZE,
    STALE,
    STALE2,
    make_app,
    log,
    on_disk,
    goto,
    settle,
    text_of,
    tui_vault,  # noqa: F401  (fixture)
)

pytestmark = pytest.mark.asyncio





def shown_id(app) -> str:
    """The id the detail pane shows."""
    return text_of(app.main_screen.query_one(DetailPane).query_one("#detail-fields"))


@pytest.mark.parametrize("query", ["pytest", "the", "ci", "tag:home", "desk"])
async def test_detail_follows_the_row_the_filter_puts_under_the_cursor(tui_vault, query):
    """After every keystroke of a filter the detail shows what the cursor is on, also when the
    rebuilt tree puts a "… more" row (groups open a chunk at a time) under it: the detail kept
    showing the memory that was there before."""
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main_screen
        main.memory_tree.CHUNK = 1  # "… more" rows everywhere, as in a large vault
        main.filtering.refilter()
        await goto(pilot, STALE)  # the cursor on a row the filters below move or drop
        await pilot.press("slash")
        for key in query:
            await pilot.press(key)
            await settle(pilot, 2)
            node = main.memory_tree.cursor_node
            assert main.current == main.memory_tree.cursor_memory
            detail = shown_id(app)
            if main.current is not None:
                assert main.current in detail
            elif node is not None and node.data.kind == "more":
                assert "more" in detail


async def test_ctrl_z_in_the_filter_undoes_the_typing_not_the_vault(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, FADING)
        await pilot.press("a")  # an operation ctrl+z on the tree would take back
        await settle(pilot)
        before = log(tui_vault)[0]
        assert before.startswith("archive:")
        filter_box = app.main_screen.query_one("#filter")
        await pilot.press("slash", *list("ci x"))
        await settle(pilot, 1)
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert filter_box.value == "ci " and app.main_screen.memory_tree.filter.text == "ci "
        await pilot.press("ctrl+z", "ctrl+z", "ctrl+z", "ctrl+z")  # one more than was typed
        await settle(pilot)
        assert filter_box.value == ""
        await pilot.press("ctrl+y")
        await settle(pilot)
        assert filter_box.value == "c"
        assert log(tui_vault)[0] == before  # the vault was not touched
        assert on_disk(tui_vault).get(FADING).status == MemoryStatus.ARCHIVED


async def test_archive_twice_keeps_a_promotion(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, PROMOTED)
        await pilot.press("a")
        await settle(pilot)
        assert on_disk(tui_vault).get(PROMOTED).status == MemoryStatus.ARCHIVED
        await goto(pilot, PROMOTED)  # (the cursor stayed where it was)
        await pilot.press("a")
        await settle(pilot)
        assert on_disk(tui_vault).get(PROMOTED).status == MemoryStatus.PROMOTED
        assert app.main_screen.view.rows[PROMOTED].memory.status == MemoryStatus.PROMOTED


@pytest.mark.parametrize("key, archived", [("a", True), ("x", False)])
async def test_gc_preview_a_archives_and_x_deletes(tui_vault, key, archived):
    """In the gc preview `a` meant delete (and `A` archive), against the main screen's `a`."""
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main_screen.action_gc()
        await settle(pilot)
        assert isinstance(app.screen, GcScreen)
        assert f"{key} " in text_of(app.screen.query_one("#gc-title"))
        await pilot.press(key)
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot)
        vault = on_disk(tui_vault)
        if archived:
            assert vault.get(STALE).status == vault.get(STALE2).status == MemoryStatus.ARCHIVED
            assert log(tui_vault)[0].startswith("gc: archive 2")
        else:
            assert STALE not in vault.memories and STALE2 not in vault.memories
            assert log(tui_vault)[0] == "gc: prune 2 memories below 0.05"
        assert app.screen is app.main_screen


async def test_screenshot_without_a_downloads_folder(tui_vault, tmp_path, monkeypatch):
    from platformdirs import user_downloads_path

    assert not user_downloads_path().exists()  # the tests' HOME has none
    monkeypatch.chdir(tmp_path)
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.action_screenshot()
        for _ in range(50):
            await pilot.pause(0.05)
            if list(tmp_path.glob("*.svg")):
                break
        [svg] = list(tmp_path.glob("*.svg"))
        assert "memvault" in svg.read_text()


async def test_outside_edits_are_committed_visibly_and_invalid_ones_quarantined(tui_vault):
    """An editor's valid edit is committed (external:) with a notice that counts it and a view
    of it (E); a file that is not valid JSON is never committed: a copy goes to the quarantine,
    the file stays as the person left it, and the notice names it."""
    from tui.app.screens.outside_edits import OutsideEditsScreen

    app = make_app(tui_vault, poll_interval=0.1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        vault = on_disk(tui_vault)
        memory = vault.get(STALE).model_copy(update={"id": "feedbeef-new",
                                                     "content": "Written in an editor."})
        good = tui_vault / "memories" / "feedbeef-new.json"
        bad = tui_vault / "memories" / "badc0ffe-typo.json"
        good.write_bytes(vault.layout.encode(memory))
        bad.write_bytes(b'{"id": "badc0ffe-typo", "content": "half a thought')
        for _ in range(50):
            await pilot.pause(0.1)
            await app.workers.wait_for_complete()
            if "feedbeef-new" in app.main_screen.view.rows:
                break
        await settle(pilot)
        assert "feedbeef-new" in app.main_screen.view.rows
        subject = log(tui_vault)[0]
        assert subject.startswith("external: 1 file") and "badc0ffe" not in subject
        status = subprocess.run(["git", "-C", str(tui_vault), "status", "--porcelain"],
                                capture_output=True, text=True, check=True).stdout
        assert "badc0ffe-typo.json" in status  # never committed, left in place
        assert bad.read_bytes() == b'{"id": "badc0ffe-typo", "content": "half a thought'
        copies = list((tui_vault / ".git" / "memvault" / "quarantine").rglob("badc0ffe-typo.json"))
        assert [c.read_bytes() for c in copies] == [bad.read_bytes()]
        messages = [n.message for n in said(app)]
        assert any(m.startswith("1 outside edit committed (") and "E shows it" in m
                   for m in messages), messages
        assert any("not valid and not committed (memories/badc0ffe-typo.json)" in m
                   for m in messages), messages
        await pilot.press("E")
        await settle(pilot, 1)
        screen = app.screen
        assert isinstance(screen, OutsideEditsScreen)
        listing = [o.prompt.plain for o in screen.query_one("#outside-list").options]
        assert listing[0].startswith("committed  memories/feedbeef-new.json  Written in")
        assert listing[1].startswith("not valid  memories/badc0ffe-typo.json")
        assert str(copies[0]) in listing[1]
        await pilot.press("enter")
        await settle(pilot, 1)
        assert app.screen is app.main_screen and app.main_screen.current == "feedbeef-new"
        # another poll (nothing new) neither copies the bad file again nor announces again
        told = [n for n in said(app) if n.title == "outside edits"]
        app.main_screen.action_reload()
        await settle(pilot)
        assert [n for n in said(app) if n.title == "outside edits"] == told
        assert len(list((tui_vault / ".git" / "memvault" / "quarantine").rglob("badc0ffe*"))) == 1
