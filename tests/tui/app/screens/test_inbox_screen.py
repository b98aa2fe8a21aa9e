"""The review inbox in the app (key I): the count in the header, the entries with their diff,
accept and reject on the highlighted entry and on the marked ones, a refused reject; and a
snapshot of the screen (deterministic like the others: fixed clock, ids and commit dates)."""

from __future__ import annotations

import subprocess

import pytest
from textual.binding import Binding
from textual.widgets import Footer

from core import MemoryStatus, Vault
from core.ops.inbox import inbox
from core.ops.inbox_state import REF
from tui.app.screens.inbox import InboxScreen
from tui.app.widgets.inbox_diff import word_diff

from tui_support import (
    said,
    CRITICAL,
    DANGER,
    FADING,
    FRESH,
    SIZE,
    STALE,
    make_app,
    mid,
    settle,
    text_of,
    tui_vault,  # noqa: F401  (fixture)
)

NEW = mid(51, "5a5a0001")


def assistant_wrote(path) -> None:
    """Five entries, newest first: FADING (changed, then changed again by the person: reject is
    refused), CRITICAL (removed), NEW (added, with a relation), DANGER (changed), STALE
    (archived); and a touch, which is no entry."""
    a = Vault.open(path, via="mcp/claude-code")
    a.archive(STALE)
    a.update(DANGER, content="Never deploy on Fridays or before a holiday: the on-call rota "
                             "is thin.", meta={"tags": ["work", "ci", "deploys"],
                                               "source": "chat"})
    a.add("The user likes dark mode in every editor.", memory_id=NEW, tags=["ui"])
    a.relate(NEW, FRESH, "related")
    a.delete(CRITICAL)
    a.update(FADING, content="CI runs the test suite with pytest -n 4.")
    a.touch(FRESH)
    Vault.open(path).update(FADING, content="CI runs the test suite with pytest -n 2 on 3.12.")


@pytest.fixture
def inbox_vault(tui_vault):
    assistant_wrote(tui_vault)
    return tui_vault


def _log(path, n: int = 1) -> list[str]:
    return subprocess.run(["git", "-C", str(path), "log", f"-{n}", "--format=%s"],
                          capture_output=True, text=True, check=True).stdout.splitlines()


async def _open_inbox(pilot) -> InboxScreen:
    await settle(pilot)
    await pilot.press("I")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, InboxScreen)
    return screen


def _rows(screen: InboxScreen) -> list[str]:
    return list(screen.entries)


@pytest.mark.asyncio
async def test_count_in_the_header_and_the_entries(inbox_vault):
    app = make_app(inbox_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "inbox: 5 to review (I)" in app.sub_title
        screen = await _open_inbox(pilot)
        assert _rows(screen) == [FADING, CRITICAL, NEW, DANGER, STALE]
        diff = text_of(screen.query_one("#inbox-diff-text"))
        assert "You changed it since (content)" in diff and "r is refused" in diff
        await pilot.press("down", "down")
        await settle(pilot)
        diff = text_of(screen.query_one("#inbox-diff-text"))
        assert "added" in diff and "+ 5a5a0001 -related-> a1f2e3d4" in diff
        assert "r removes the memory" in diff


@pytest.mark.asyncio
async def test_reject_the_highlighted_entry(inbox_vault):
    app = make_app(inbox_vault)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open_inbox(pilot)
        await pilot.press("down", "down", "down", "down")  # STALE, archived by the assistant
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot, 3)
        assert _log(inbox_vault)[0].startswith("reject: e5f6a7b8 ")
        assert Vault.open(inbox_vault, readonly=True).get(STALE).status == MemoryStatus.ACTIVE
        assert STALE not in _rows(screen)
        await pilot.press("escape")
        await settle(pilot, 3)
        assert "inbox: 4 to review" in app.sub_title
        assert app.main_screen.view.get(STALE).memory.status == MemoryStatus.ACTIVE  # reloaded


@pytest.mark.asyncio
async def test_the_inbox_reads_and_rejects_through_the_apps_one_vault(inbox_vault, monkeypatch):
    """The inbox opened a second ``Vault`` (its own, with its own lock) beside the app's: the
    count, the entries and a reject all go through the app's open vault now."""
    from tui.app import inbox_service

    def no_second_vault(*args, **kwargs):
        raise AssertionError("the inbox opened a vault of its own")

    monkeypatch.setattr(inbox_service, "Vault", no_second_vault)
    app = make_app(inbox_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "inbox: 5 to review (I)" in app.sub_title  # (counted through the app's vault)
        assert app.service.inbox._lock is app.service.state.lock
        screen = await _open_inbox(pilot)
        await pilot.press("down", "down", "down", "down")  # STALE, archived by the assistant
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot, 3)
        assert _log(inbox_vault)[0].startswith("reject: e5f6a7b8 ")
        assert app.service.state.vault.get(STALE).status == MemoryStatus.ACTIVE
        assert STALE not in _rows(screen)


@pytest.mark.asyncio
async def test_a_refused_reject_writes_nothing(inbox_vault):
    app = make_app(inbox_vault)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open_inbox(pilot)
        before = _log(inbox_vault, 3)
        await pilot.press("r")  # FADING: the person changed the content since
        await settle(pilot)
        assert _log(inbox_vault, 3) == before
        assert any("Cannot reject b2c3d4e5" in str(n.message) for n in said(app))
        assert FADING in _rows(screen)


@pytest.mark.asyncio
async def test_accept_and_reject_the_marked_entries(inbox_vault):
    app = make_app(inbox_vault)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open_inbox(pilot)
        await pilot.press("down", "space", "space")  # marks CRITICAL and NEW
        await settle(pilot)
        assert screen.marks == {CRITICAL, NEW}
        await pilot.press("r")
        await settle(pilot, 3)
        assert _log(inbox_vault, 2)[0].startswith("reject: 5a5a0001")
        assert _log(inbox_vault, 2)[1].startswith("reject: d4e5f6a7")
        vault = Vault.open(inbox_vault, readonly=True)
        assert vault.find(NEW) is None and vault.get(CRITICAL).content.startswith("The staging")
        assert _rows(screen) == [FADING, DANGER, STALE] and not screen.marks
        await pilot.press("space")  # DANGER: the cursor stayed on the entry it was on
        await pilot.press("a")
        await settle(pilot, 3)
        assert _rows(screen) == [FADING, STALE]
        assert [e.memory_id for e in inbox(Vault.open(inbox_vault))] == [FADING, STALE]
        await pilot.press("A")
        await settle(pilot, 3)
        assert _rows(screen) == []
        head = subprocess.run(["git", "-C", str(inbox_vault), "rev-parse", "HEAD", REF],
                              capture_output=True, text=True).stdout.split()
        assert head[0] == head[1]
        await pilot.press("escape")
        await settle(pilot)
        assert "inbox" not in app.sub_title


def test_word_diff_marks_removed_and_added_words():
    text = word_diff("deploys on Tuesdays after standup", "deploys on Fridays after standup")
    assert text.plain == "deploys on Tuesdays Fridays after standup"
    styles = {text.plain[s.start:s.end]: str(s.style) for s in text.spans}
    assert styles == {"Tuesdays": "red strike", "Fridays": "green"}


def test_inbox_screen(snap_compare, inbox_vault):
    async def run_before(pilot) -> None:
        await _open_inbox(pilot)
        await pilot.press("down", "down", "down")  # DANGER: a content and tags diff
        await settle(pilot)

    assert snap_compare(make_app(inbox_vault), terminal_size=SIZE, run_before=run_before)


def test_inbox_screen_at_80x24(snap_compare, inbox_vault):
    """The rows, their change column cut to the width, and the entry's diff below them."""
    async def run_before(pilot) -> None:
        await _open_inbox(pilot)
        await pilot.press("down", "down", "down")
        await settle(pilot)

    assert snap_compare(make_app(inbox_vault), terminal_size=(80, 24), run_before=run_before)


async def test_an_entry_that_likely_duplicates_a_memory_says_so_and_c_opens_the_wizard(
        tui_vault):
    from tui.app.screens.consolidate_wizard import ConsolidateWizard

    original = Vault.open(tui_vault).get(FRESH).content
    words = original.split()
    words[len(words) // 2] = "certainly"
    copy = Vault.open(tui_vault, via="mcp/claude-code").add(" ".join(words))
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open_inbox(pilot)
        await pilot.wait_for_scheduled_animations()
        assert [other for other, _score in screen.likely[copy.id]][0] == FRESH
        row = screen.table.get_row(copy.id)[-1].plain
        assert row.startswith(f"likely duplicates {FRESH[:8]}")
        assert "c opens the consolidate wizard" in text_of(screen.query_one("#inbox-title"))
        screen.table.move_cursor(row=screen.table.get_row_index(copy.id))
        await pilot.press("c")
        await settle(pilot)
        wizard = app.screen
        assert isinstance(wizard, ConsolidateWizard)
        assert wizard.marked == [copy.id, FRESH]
        assert Vault.open(tui_vault).find(copy.id) is not None  # nothing merged by itself


async def test_c_on_an_entry_without_a_likely_duplicate_stays_in_the_inbox(inbox_vault):
    app = make_app(inbox_vault)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open_inbox(pilot)
        screen.table.move_cursor(row=screen.table.get_row_index(NEW))
        await pilot.press("c")
        await settle(pilot)
        assert app.screen is screen


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(80, 24), SIZE])
async def test_the_rows_fit_the_width_and_a_long_change_is_cut_with_a_mark(inbox_vault, size):
    app = make_app(inbox_vault)
    async with app.run_test(size=size) as pilot:
        screen = await _open_inbox(pilot)
        table = screen.table
        await pilot.wait_for_scheduled_animations()
        assert table.virtual_size.width <= table.scrollable_content_region.width
        cells = [str(table.get_cell_at((row, len(table.columns) - 1)))
                 for row in range(table.row_count)]
        width = list(table.columns.values())[-1].width
        assert all(len(c) <= width for c in cells) and any(c.endswith("…") for c in cells)


async def test_every_key_of_the_inbox_shows_whole_in_the_footer_at_80_columns(inbox_vault):
    """At 80 columns the footer ended in "c Consolidate duplica", cut by the palette's key:
    "esc Back" was not shown at all."""
    app = make_app(inbox_vault)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open_inbox(pilot)
        await pilot.wait_for_scheduled_animations()
        own = {b.description for b in InboxScreen.BINDINGS
               if isinstance(b, Binding) and b.show and b.description}
        footer = screen.query_one(Footer)
        palette = footer.query_one(".-command-palette").region.x  # its key, docked right
        shown = {key.description: key.region for key in footer.query("FooterKey")}
        assert own <= set(shown)
        for description in own:
            region = shown[description]
            assert region.width > 0 and region.right <= palette, (description, region)
