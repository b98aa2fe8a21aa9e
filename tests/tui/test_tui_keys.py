"""Every key of the main screen driven through Textual's pilot ("Keys"): j/k, g g / G,
h/l and left/right, * / -, space (mark), y (copy the id), esc (clear the filter), ? (help made
from the bindings), C (gc, which moved off G), H (history), and a footer that fits 80 columns."""

from __future__ import annotations

import pytest
from textual.widgets._footer import FooterKey

from tui.app.screens.gc import GcScreen
from tui.app.screens.help import HelpScreen
from tui.app.main.screen import MainScreen
from tui.app.widgets.memory_tree import MemoryTree
from tui.app.widgets.tree_nodes import every_node

from tui_support import (
    FRESH,
    SIZE,
    make_app,
    settle,
    text_of,
    tui_vault,  # noqa: F401  (fixture)
)

pytestmark = pytest.mark.asyncio


def cursor_label(app) -> str:
    node = app.main_screen.memory_tree.cursor_node
    return node.label.plain if node is not None else ""


async def test_j_k_and_the_arrows_move_the_cursor(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        tree = app.main_screen.memory_tree
        assert tree.cursor_line == 0
        await pilot.press("j", "j")
        assert tree.cursor_line == 2
        await pilot.press("k")
        assert tree.cursor_line == 1
        await pilot.press("down")
        assert tree.cursor_line == 2


async def test_g_g_goes_to_the_top_and_G_to_the_bottom(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        tree = app.main_screen.memory_tree
        await pilot.press("G")
        assert tree.cursor_line == tree.last_line > 3
        assert not isinstance(app.screen, GcScreen)  # G is no longer gc
        await pilot.press("g")
        assert tree.cursor_line == tree.last_line  # one g waits for the second
        await pilot.press("g")
        assert tree.cursor_line == 0


async def test_h_l_and_left_right_collapse_and_expand(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        tree = app.main_screen.memory_tree
        first = tree.root.children[0]
        assert first.is_expanded and tree.cursor_node is first
        await pilot.press("h")
        assert not first.is_expanded
        await pilot.press("l")
        assert first.is_expanded and tree.cursor_node is first
        await pilot.press("l")  # on an open group: into its first child
        assert tree.cursor_node is first.children[0]
        await pilot.press("left")  # a closed child: out to the parent
        assert tree.cursor_node is first
        await pilot.press("left")
        assert not first.is_expanded
        await pilot.press("right")
        assert first.is_expanded


async def test_left_and_right_are_the_trees_close_and_open_not_a_sideways_scroll(tui_vault):
    """The tree is a scrolling view whose own left/right scroll sideways (they fell through to
    the screen only while there was nothing to scroll): on the tree they close and open."""
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.focused is app.main_screen.memory_tree
        active = app.screen.active_bindings
        tree = app.main_screen.memory_tree
        assert (active["left"].node, active["left"].binding.action) == (tree, "close_node")
        assert (active["right"].node, active["right"].binding.action) == (tree, "open_node")


async def test_star_expands_all_and_minus_collapses_all(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        tree = app.main_screen.memory_tree
        await pilot.press("j", "j")  # inside the first group
        await pilot.press("asterisk")
        groups = [n for n in every_node(tree.root)
                  if n.data is not None and n.data.kind == "group"]
        assert groups and all(g.is_expanded for g in groups)
        await pilot.press("minus")
        assert not any(n.is_expanded for n in tree.root.children)
        assert tree.cursor_node is tree.root.children[0]  # the top-level row it was under


async def test_space_marks_and_y_copies_the_id(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main_screen
        main.jumps.jump(FRESH)
        await settle(pilot, 1)
        await pilot.press("space")
        assert list(main.memory_tree.marks) == [FRESH] and "1 marked" in main.memory_tree.border_title
        assert main.current != FRESH  # space goes on to the next row, as in ranger
        await pilot.press("k", "space")
        assert not main.memory_tree.marks
        await pilot.press("k", "y")
        await settle(pilot, 1)
        assert app.clipboard == FRESH


async def test_esc_clears_the_filter(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main_screen
        await pilot.press("slash", *list("tag:ci"))
        await settle(pilot, 1)
        assert len(main.memory_tree.matched) == 3
        await pilot.press("escape")
        await settle(pilot, 1)
        assert main.query_one("#filter").value == "" and len(main.memory_tree.matched) == 11
        assert app.focused is main.memory_tree
        await pilot.press("slash", *list("tag:ci"), "enter")  # on the tree, esc clears too
        await settle(pilot, 1)
        assert app.focused is main.memory_tree and len(main.memory_tree.matched) == 3
        await pilot.press("escape")
        await settle(pilot, 1)
        assert len(main.memory_tree.matched) == 11


async def test_C_opens_gc_and_H_the_history(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main_screen.jumps.jump(FRESH)
        await settle(pilot, 1)
        await pilot.press("H")
        await settle(pilot)
        assert app.main_screen.git_panes.active_tab() == "history"
        await pilot.press("C")
        await settle(pilot)
        assert isinstance(app.screen, GcScreen)


async def test_help_lists_every_key_of_the_main_screen(tui_vault):
    """Help is made from the bindings: every binding of the screen and the tree is in it, with
    its key as shown and its id (the keymap's name)."""
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = text_of(app.screen.query_one("#help-body Static"))
        for binding in [*MainScreen.BINDINGS, *MemoryTree.BINDINGS]:
            assert binding.description in text, binding
            assert binding.id in text, binding
            for key in binding.key.split(","):
                assert app.get_key_display(binding.__class__(key, binding.action)) in text


@pytest.mark.parametrize("width", [80, 120])
async def test_the_footer_fits(tui_vault, width):
    app = make_app(tui_vault)
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(pilot)
        keys = list(app.screen.query(FooterKey))
        assert keys
        for key in keys:  # each whole: its key, a space and its description
            needed = len(key.key_display) + 1 + len(key.description)
            assert key.region.width >= needed and key.region.right <= width, key.description
