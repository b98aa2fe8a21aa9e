"""Bulk actions in the app: archive (a), delete (x), tag and untag (T), promote (P),
touch (t) act on the marked memories in ONE commit each, or on the highlighted memory when
nothing is marked; the marks of what they acted on are cleared once they succeeded."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from core import MemoryStatus, Vault
from tui.app.screens.delete import DeleteScreen
from tui.app.screens.tag import TagScreen

from tui_support import (
    said,
    ARCHIVED,
    CRITICAL,
    DANGER,
    FADING,
    FRESH,
    PROMOTED,
    SIZE,
    STALE,
    goto,
    log,
    make_app,
    on_disk,
    settle,
    text_of,
    tui_vault,  # noqa: F401  (fixture)
)

pytestmark = pytest.mark.asyncio


def notes(app) -> list[str]:
    return [str(n.message) for n in said(app)]


async def mark(pilot, *ids: str) -> None:
    for memory_id in ids:
        await goto(pilot, memory_id)
        await pilot.press("space")
    await settle(pilot, 1)


def commits(path) -> int:
    return len(log(path, 1000))


async def test_a_archives_every_marked_memory_in_one_commit(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await mark(pilot, FADING, STALE, DANGER)
        assert "3 marked" in app.sub_title
        await goto(pilot, FRESH)  # the cursor elsewhere: the marks are what is acted on
        before = commits(tui_vault)
        await pilot.press("a")
        await settle(pilot)
        assert commits(tui_vault) == before + 1
        assert log(tui_vault)[0].startswith("archive: 3 memories (b2c3d4e5, e5f6a7b8, c3d4e5f6)")
        vault = on_disk(tui_vault)
        assert {vault.get(i).status for i in (FADING, STALE, DANGER)} == {MemoryStatus.ARCHIVED}
        assert vault.get(FRESH).status == MemoryStatus.ACTIVE
        assert not app.main_screen.memory_tree.marks  # acted on: unmarked
        assert "marked" not in app.sub_title and "marked" not in app.main_screen.memory_tree.border_title
        assert any(n.startswith("Archived 3 memories (b2c3d4e5, e5f6a7b8, c3d4e5f6)")
                   for n in notes(app))


async def test_a_on_marks_all_archived_unarchives_them_and_skips_archived_otherwise(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await mark(pilot, ARCHIVED, STALE)
        await pilot.press("a")
        await settle(pilot)
        assert log(tui_vault)[0].startswith(f"archive: {STALE[:8]} ")  # only the active one
        assert any("1 already archived: left as they are" in n for n in notes(app))
        await mark(pilot, ARCHIVED, STALE)
        await pilot.press("a")
        await settle(pilot)
        assert log(tui_vault)[0].startswith("unarchive: 2 memories")
        vault = on_disk(tui_vault)
        assert vault.get(ARCHIVED).status == vault.get(STALE).status == MemoryStatus.ACTIVE


async def test_x_asks_listing_the_marked_memories_then_deletes_them_in_one_commit(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await mark(pilot, FRESH, FADING)
        await pilot.press("x")
        await settle(pilot, 1)
        assert isinstance(app.screen, DeleteScreen)
        text = " ".join(text_of(s) for s in app.screen.query("Static"))
        assert "Delete 2 memories?" in text
        assert FRESH[:8] in text and FADING[:8] in text
        assert "With them go 2 relations" in text  # FADING->FRESH and DANGER->FRESH
        before = commits(tui_vault)
        await pilot.press("n")
        await settle(pilot)
        assert commits(tui_vault) == before and len(app.main_screen.memory_tree.marks) == 2
        await pilot.press("x")
        await settle(pilot, 1)
        await pilot.press("y")
        await settle(pilot)
        assert commits(tui_vault) == before + 1
        assert log(tui_vault)[0].startswith("delete: 2 memories") and "(+2 relations)" in \
            log(tui_vault)[0]
        vault = on_disk(tui_vault)
        assert FRESH not in vault.memories and FADING not in vault.memories
        assert not app.main_screen.memory_tree.marks


async def test_x_without_marks_deletes_the_highlighted_memory_as_before(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, STALE)
        await pilot.press("x")
        await settle(pilot, 1)
        text = " ".join(text_of(s) for s in app.screen.query("Static"))
        assert f"Delete {STALE[:8]}?" in text
        await pilot.press("y")
        await settle(pilot)
        assert log(tui_vault)[0].startswith(f"delete: {STALE[:8]} ")


async def test_T_tags_the_marked_memories_in_one_commit(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await mark(pilot, STALE, CRITICAL)
        await pilot.press("T")
        await settle(pilot, 1)
        assert isinstance(app.screen, TagScreen)
        assert "Tag 2 memories" in text_of(app.screen.query_one("#tag-title"))
        await pilot.press(*"urgent", "enter")
        await settle(pilot)
        assert log(tui_vault)[0].startswith("tag: 2 memories") and \
            log(tui_vault)[0].endswith("(+urgent)")
        vault = on_disk(tui_vault)
        assert "urgent" in vault.get(STALE).meta.tags and "urgent" in vault.get(CRITICAL).meta.tags
        assert not app.main_screen.memory_tree.marks


async def test_T_with_a_minus_untags_and_refuses_a_tag_none_carries(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await mark(pilot, FADING, CRITICAL, STALE)
        await pilot.press("T")
        await settle(pilot, 1)
        await pilot.press(*"-nope", "enter")
        await pilot.pause()
        assert isinstance(app.screen, TagScreen)  # still asking
        assert "none of them carries the tag 'nope'" in text_of(app.screen.query_one("#tag-error"))
        app.screen.query_one(Input).value = ""
        await pilot.press("enter")
        await pilot.pause()
        assert "type a tag" in text_of(app.screen.query_one("#tag-error"))
        await pilot.press(*"-ci")
        await pilot.pause()
        assert "Untag 3 memories" in text_of(app.screen.query_one("#tag-title"))
        await pilot.press("enter")
        await settle(pilot)
        assert log(tui_vault)[0].startswith("untag: 2 memories") and \
            log(tui_vault)[0].endswith("(-ci)")
        vault = on_disk(tui_vault)
        assert "ci" not in vault.get(FADING).meta.tags + vault.get(CRITICAL).meta.tags
        assert any("1 did not have it: left as they are" in n for n in notes(app))


async def test_T_then_esc_writes_nothing_and_keeps_the_marks(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await mark(pilot, STALE)
        before = commits(tui_vault)
        await pilot.press("T")
        await settle(pilot, 1)
        await pilot.press(*"x", "escape")
        await settle(pilot)
        assert app.screen is app.main_screen
        assert commits(tui_vault) == before and list(app.main_screen.memory_tree.marks) == [STALE]


async def test_T_tags_the_highlighted_memory_without_marks(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, STALE)
        await pilot.press("T")
        await settle(pilot, 1)
        assert "Tag 1 memory" in text_of(app.screen.query_one("#tag-title"))
        await pilot.press(*"desk", "enter")
        await settle(pilot)
        assert log(tui_vault)[0].startswith(f"tag: {STALE[:8]} ")
        assert on_disk(tui_vault).get(STALE).meta.tags == ["home", "desk"]


async def test_P_promotes_the_marked_active_memories_in_one_commit(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await mark(pilot, FADING, PROMOTED, DANGER)
        before = commits(tui_vault)
        await pilot.press("P")
        await settle(pilot)
        assert commits(tui_vault) == before + 1
        assert log(tui_vault)[0].startswith("promote: 2 memories")
        vault = on_disk(tui_vault)
        assert vault.get(FADING).status == vault.get(DANGER).status == MemoryStatus.PROMOTED
        assert any("1 already promoted: left as they are" in n for n in notes(app))
        await goto(pilot, PROMOTED)  # nothing marked: the highlighted one, refused
        await pilot.press("P")
        await settle(pilot)
        assert commits(tui_vault) == before + 1
        assert any("nothing to promote (1 already promoted" in n for n in notes(app))


async def test_t_touches_the_marked_memories_in_one_commit(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        uses = {i: on_disk(tui_vault).get(i).use_count for i in (STALE, CRITICAL)}
        await mark(pilot, STALE, CRITICAL)
        await pilot.press("t")
        await settle(pilot)
        assert log(tui_vault)[0].startswith("touch: 2 memories")
        vault = on_disk(tui_vault)
        assert all(vault.get(i).use_count == uses[i] + 1 for i in uses)
        touched = [n for n in notes(app) if n.startswith("Touched 2 memories")]
        assert touched and "undoes" not in touched[0]  # undo passes over touches
        await goto(pilot, FRESH)
        await pilot.press("t")
        await settle(pilot)
        assert log(tui_vault)[0].startswith(f"touch: {FRESH[:8]} ")


async def test_a_refused_bulk_action_keeps_the_marks(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await mark(pilot, PROMOTED)
        await pilot.press("P")
        await settle(pilot)
        assert list(app.main_screen.memory_tree.marks) == [PROMOTED]
        assert any(n.severity == "error" for n in said(app))


async def test_marks_of_deleted_memories_are_not_acted_on(tui_vault):
    """A memory deleted elsewhere while marked: the next action takes only the living ones."""
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await mark(pilot, STALE, CRITICAL)
        with Vault.open(tui_vault) as other:
            other.delete(STALE)
        app.main_screen.follower.reload("")
        await settle(pilot)
        assert list(app.main_screen.memory_tree.marks) == [CRITICAL]
        await pilot.press("a")
        await settle(pilot)
        assert log(tui_vault)[0].startswith(f"archive: {CRITICAL[:8]} ")


async def test_the_palette_runs_the_bulk_and_marking_actions(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main_screen
        commands = {c.title: c for c in app.get_system_commands(main)}
        await goto(pilot, FADING)
        commands["Mark the group"].callback()  # the ci group
        await settle(pilot, 1)
        assert set(main.memory_tree.marks) == {FADING, DANGER, CRITICAL}
        commands["Invert marks"].callback()
        commands["Invert marks"].callback()
        assert set(main.memory_tree.marks) == {FADING, DANGER, CRITICAL}
        commands["Promote"].callback()
        await settle(pilot)
        assert log(tui_vault)[0].startswith("promote: 3 memories")
        await goto(pilot, STALE)
        commands["Touch"].callback()
        await settle(pilot)
        assert log(tui_vault)[0].startswith(f"touch: {STALE[:8]} ")
        commands["Tag / untag…"].callback()
        await settle(pilot, 1)
        assert isinstance(app.screen, TagScreen)
        await pilot.press("escape")
        commands["Undo list…"].callback()
        await settle(pilot)
        assert type(app.screen).__name__ == "UndoListScreen"
        await pilot.press("escape")
        commands["Visual range"].callback()
        await settle(pilot, 1)
        assert main.ranges.range is not None and list(main.memory_tree.marks) == [STALE]


async def test_the_tag_prompt_shows_and_offers_tags_with_control_characters_escaped(tui_vault):
    with Vault.open(tui_vault) as vault:
        vault.update(STALE, meta={**vault.get(STALE).meta.model_dump(),
                                  "tags": ["home", "bad\x1b[31m"]})
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, STALE)
        await pilot.press("T")
        await settle(pilot, 1)
        box = app.screen.query_one(Input)
        offered = await box.suggester.get_suggestion("b")  # the view's tags are escaped
        assert offered == "bad\\x1b[31m"
        assert "\x1b" not in text_of(app.screen.query_one("#tag-present"))
        assert "bad\\x1b" in text_of(app.screen.query_one("#tag-present"))
