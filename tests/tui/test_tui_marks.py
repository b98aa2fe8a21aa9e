"""Marking in the app: space, a range (shift+down / shift+up extend from where the
cursor was; V starts and ends a visual range that follows the cursor), every memory of the
group (A, again unmarks), invert (~, over the memories shown), clear (U); the tree's title and
the header say how many are marked; marks are kept across a refilter."""

from __future__ import annotations

import pytest

from tui_support import (
    said,
    CRITICAL,
    DANGER,
    FADING,
    FRESH,
    SIZE,
    STALE,
    goto,
    make_app,
    settle,
    tui_vault,  # noqa: F401  (fixture)
)

pytestmark = pytest.mark.asyncio


def memory_at(tree, line: int) -> str | None:
    node = tree.get_node_at_line(line)
    return node.data.memory_id if node is not None and node.data.kind == "memory" else None


def marks(app) -> list[str]:
    return list(app.main_screen.memory_tree.marks)


async def test_shift_down_and_up_extend_the_mark_from_the_cursor(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, FADING)
        tree = app.main_screen.memory_tree
        start = tree.cursor_line
        below = [memory_at(tree, start + 1), memory_at(tree, start + 2)]
        assert None not in below
        await pilot.press("shift+down", "shift+down")
        await settle(pilot, 1)
        assert set(marks(app)) == {FADING, *below}
        assert tree.cursor_line == start + 2
        await pilot.press("shift+up")  # the range shrinks back towards where it began
        await settle(pilot, 1)
        assert set(marks(app)) == {FADING, below[0]}
        await pilot.press("j")  # another move ends the range: its marks stay, no more added
        await settle(pilot, 1)
        assert set(marks(app)) == {FADING, below[0]}
        await pilot.press("shift+down")  # a new range starts here, on top of the marks
        await settle(pilot, 1)
        assert set(marks(app)) == {FADING, *below, memory_at(tree, start + 3)} - {None}
        assert app.main_screen.memory_tree.border_title.endswith(f"· {len(marks(app))} marked")


async def test_V_starts_a_visual_range_that_follows_the_cursor_and_V_ends_it(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, FADING)
        main = app.main_screen
        tree = main.memory_tree
        start = tree.cursor_line
        await pilot.press("V")
        await settle(pilot, 1)
        assert marks(app) == [FADING]
        assert "visual (V ends)" in tree.border_title
        await pilot.press("j", "j")
        await settle(pilot, 1)
        assert set(marks(app)) == {FADING, memory_at(tree, start + 1), memory_at(tree, start + 2)}
        await pilot.press("k")
        await settle(pilot, 1)
        assert set(marks(app)) == {FADING, memory_at(tree, start + 1)}
        await pilot.press("V")
        await settle(pilot, 1)
        assert "visual" not in tree.border_title
        await pilot.press("j", "j")  # the range ended: moving marks nothing more
        await settle(pilot, 1)
        assert set(marks(app)) == {FADING, memory_at(tree, start + 1)}


async def test_A_marks_the_highlighted_group_and_again_unmarks_it(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, STALE)  # under active -> home, with STALE2
        await pilot.press("space")  # one marked beforehand stays marked
        await goto(pilot, FRESH)
        await pilot.press("space")
        await goto(pilot, FADING)  # the ci group: FADING, DANGER, CRITICAL
        await pilot.press("A")
        await settle(pilot, 1)
        assert set(marks(app)) == {STALE, FRESH, FADING, DANGER, CRITICAL}
        await pilot.press("A")
        await settle(pilot, 1)
        assert set(marks(app)) == {STALE, FRESH}


async def test_A_in_the_lineage_grouping_says_there_is_no_group(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main_screen.memory_tree.mode = "lineage"
        await settle(pilot, 1)
        await pilot.press("A")
        await settle(pilot, 1)
        assert not marks(app)
        assert any("No group here" in str(n.message) for n in said(app))


async def test_invert_over_the_memories_shown_and_U_clears(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main_screen
        await goto(pilot, FRESH)
        await pilot.press("space")
        await pilot.press("tilde")
        await settle(pilot, 1)
        assert set(marks(app)) == set(main.view.rows) - {FRESH}
        assert f"{len(main.view.rows) - 1} marked" in app.sub_title
        await pilot.press("U")
        await settle(pilot, 1)
        assert not marks(app) and "marked" not in app.sub_title
        assert "marked" not in main.memory_tree.border_title


async def test_invert_keeps_the_marks_the_filter_hides(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main_screen
        await goto(pilot, STALE)
        await pilot.press("space")
        main.filtering.set_filter("tag:ci")
        await settle(pilot, 1)
        await pilot.press("tilde")
        await settle(pilot, 1)
        assert set(marks(app)) == {STALE, FADING, DANGER, CRITICAL}
        assert "4 marked (1 hidden by the filter)" in main.memory_tree.border_title


async def test_marks_survive_a_refilter_a_new_grouping_and_sort(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main_screen
        await goto(pilot, FADING)
        await pilot.press("space")
        await goto(pilot, STALE)
        await pilot.press("space")
        await settle(pilot, 1)
        assert "2 marked" in app.sub_title and main.memory_tree.border_title.endswith("· 2 marked")
        main.filtering.set_filter("tag:ci")  # FADING still shown, STALE hidden
        await settle(pilot, 1)
        assert marks(app) == [FADING, STALE]
        assert "2 marked (1 hidden by the filter)" in main.memory_tree.border_title
        node = main.memory_tree.find_memory(FADING)
        assert node is not None and node.label.plain.startswith("● ")
        main.filtering.set_filter("")
        await pilot.press("m", "s")
        await settle(pilot, 1)
        assert marks(app) == [FADING, STALE]
        node = main.memory_tree.find_memory(STALE)
        assert node is not None and node.label.plain.startswith("● ")


async def test_space_during_a_visual_range_ends_it(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, FADING)
        await pilot.press("V", "j")
        await settle(pilot, 1)
        assert len(marks(app)) == 2
        await pilot.press("space")  # unmarks the row under the cursor, and the range ends
        await settle(pilot, 1)
        assert marks(app) == [FADING]
        assert app.main_screen.ranges.range is None
