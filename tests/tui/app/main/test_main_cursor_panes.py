"""The detail pane and the tree's cursor agree (tui/app/main/, tui/app/widgets/memory_tree.py):
after a filter's Enter, after a filter that rebuilds the tree under an open group, after a
group is expanded. On the demo vault, as a newcomer met each (each failed before its fix)."""

from __future__ import annotations

import pytest

from tui.app.widgets.detail import DetailPane
from tui.demo import build_demo

from tui_support import make_app, settle, text_of

pytestmark = pytest.mark.asyncio

NOW = 1_750_000_000
SIZE = (160, 48)


@pytest.fixture
def demo_vault(tmp_path):
    return build_demo(tmp_path / "demo", now=NOW).path


def detail_text(app) -> str:
    pane = app.main_screen.query_one(DetailPane)
    return text_of(pane.query_one("#detail-fields")) + text_of(pane.query_one("#body"))


def cursor_data(app):
    node = app.main_screen.memory_tree.cursor_node
    return node.data if node is not None else None


def assert_pane_shows_cursor(app) -> None:
    """The tree's cursor node is a row of the tree as drawn, and the pane describes it."""
    tree = app.main_screen.memory_tree
    node = tree.cursor_node
    assert node is not None
    assert tree.get_node_at_line(tree.cursor_line) is node  # the row drawn under the cursor
    data = node.data
    shown = detail_text(app)
    if data.kind == "group":
        assert data.group.title in shown and app.main_screen.current is None
    else:
        assert app.main_screen.current == data.memory_id and data.memory_id in shown


async def type_fast(app, text: str) -> None:
    """``text`` into the filter as a fast typist's keys arrive: each keystroke's change queued
    before the first is handled (the tree's highlight messages of one rebuild then land after
    the next)."""
    box = app.main_screen.query_one("#filter")
    box.focus()
    for i in range(1, len(text) + 1):
        box.value = text[:i]


def group_row(app, title: str):
    tree = app.main_screen.memory_tree
    drawn = (tree.get_node_at_line(line) for line in range(tree.last_line + 1))
    return next(node for node in drawn
                if node.data.kind == "group" and node.data.group.title == title)


async def test_a_filters_enter_leaves_the_pane_on_the_cursors_row(demo_vault):
    """``/passport`` Enter from the group "food": the cursor sat on another group while the
    pane described "food", which the tree no longer showed."""
    app = make_app(demo_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main_screen.memory_tree.move_cursor(group_row(app, "food"))
        await settle(pilot)
        await type_fast(app, "passport")
        await pilot.press("enter")
        await settle(pilot)
        assert_pane_shows_cursor(app)


async def test_a_filter_keeps_the_open_group_open_and_the_cursor_on_its_memory(demo_vault):
    """``/has:gist`` with a group open and the cursor on one of its memories: the open group
    was collapsed, others expanded, the cursor jumped."""
    app = make_app(demo_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main_screen
        tree = main.memory_tree
        food = group_row(app, "food")
        tree.move_cursor(food)
        await pilot.press("l")
        await settle(pilot)
        target = next(c for c in food.children
                      if c.data.memory_id and main.view.rows[c.data.memory_id].memory.gist)
        tree.move_cursor(target)
        await settle(pilot)
        memory_id = target.data.memory_id
        await type_fast(app, "has:gist")
        await pilot.press("enter")
        await settle(pilot)
        assert tree.cursor_memory == memory_id
        assert group_row(app, "food").is_expanded
        assert_pane_shows_cursor(app)


async def test_the_pane_follows_a_group_being_expanded(demo_vault):
    """On a closed group, ``l``: the pane still said "Expand the group…"."""
    app = make_app(demo_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        tree = app.main_screen.memory_tree
        closed = next(n for n in tree.root.children if not n.is_expanded)
        tree.move_cursor(closed)
        await settle(pilot)
        assert "Expand the group" in detail_text(app)
        await pilot.press("l")
        await settle(pilot)
        assert closed.is_expanded
        assert "Expand the group" not in detail_text(app)
        assert closed.data.group.title in detail_text(app)
        await pilot.press("h")
        await settle(pilot)
        assert "Expand the group" in detail_text(app)


async def test_a_filter_that_hides_the_cursors_memory_puts_it_on_the_next_one_of_its_group(
        demo_vault):
    """``/has:gist`` with the cursor on a memory of "food" that has no gist: the cursor kept
    its line number and landed in another group ("bike"), far from where the person was."""
    app = make_app(demo_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main_screen
        tree = main.memory_tree
        food = group_row(app, "food")
        tree.move_cursor(food)
        await pilot.press("l")
        await settle(pilot)
        rows = [c.data.memory_id for c in food.children if c.data.memory_id]
        gist = [bool(main.view.rows[m].memory.gist) for m in rows]
        at = next(i for i in range(len(rows) - 1) if not gist[i] and any(gist[i + 1:]))
        tree.move_cursor(food.children[at])
        await settle(pilot)
        await type_fast(app, "has:gist")
        await pilot.press("enter")
        await settle(pilot)
        expected = next(m for m, has in zip(rows[at + 1:], gist[at + 1:]) if has)
        assert tree.cursor_memory == expected
        assert tree.cursor_node.parent.data.group.title == "food"
        assert_pane_shows_cursor(app)
