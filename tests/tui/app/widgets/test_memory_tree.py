"""The memory tree's rows: each label is cut to what its line has left, at every depth, so the
tree never crops a memory's words mid-word (issue 42: "Prefers…" in some rows, "Saves a fixe"
in others at 80x24)."""

from __future__ import annotations

import pytest

from tui.app.widgets.tree_nodes import every_node
from tui_support import (
    make_app,
    settle,
    until,
    tui_vault,  # noqa: F401  (fixture)
)

pytestmark = pytest.mark.asyncio


def _depth(tree, node) -> int:
    depth = 0
    while node.parent is not None and node.parent is not tree.root:
        depth += 1
        node = node.parent
    return depth


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (160, 48)])
async def test_every_memory_row_fits_its_line_and_is_cut_at_a_word_with_a_mark(tui_vault, size):
    app = make_app(tui_vault)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        tree = app.main_screen.memory_tree
        tree.focus()
        await pilot.press("asterisk")  # every group open
        await until(pilot, lambda: sum(1 for n in every_node(tree.root)
                                       if n.data and n.data.kind == "memory") >= 9)
        await settle(pilot)
        width = tree.scrollable_content_region.width
        rows = [n for n in every_node(tree.root) if n.data and n.data.kind == "memory"]
        assert any(_depth(tree, n) >= 1 for n in rows)
        for node in rows:
            drawn = tree.get_label_width(node) + tree.guide_depth * _depth(tree, node)
            assert drawn <= width, (node.label.plain, drawn, width)
            row = app.main_screen.view.rows[node.data.memory_id]
            words = node.label.plain.split(f"{row.id[:8]} ", 1)[1]  # after score, bar and id
            words = words.removesuffix(f" {row.memory.status.value}")  # (when not active)
            flat = " ".join(row.memory.text.split())
            assert words == flat or (words.endswith("…") and flat.startswith(words[:-1]))


async def test_at_80x24_a_row_two_levels_down_keeps_room_for_its_words(tui_vault):
    """At 80x24 a row under a tag under a status kept 11 cells for its words ("Never…", "CI
    runs the…"): narrow, the bar goes and a level is indented by 2 cells, so such a row keeps
    18 cells or more, its words still cut at a word."""
    app = make_app(tui_vault)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        tree = app.main_screen.memory_tree
        tree.focus()
        await pilot.press("asterisk")
        await until(pilot, lambda: sum(1 for n in every_node(tree.root)
                                       if n.data and n.data.kind == "memory") >= 9)
        await settle(pilot)
        deep = [n for n in every_node(tree.root)
                if n.data and n.data.kind == "memory" and _depth(tree, n) == 2]
        assert deep
        width = tree.scrollable_content_region.width
        for node in deep:
            row = app.main_screen.view.rows[node.data.memory_id]
            words = node.label.plain.split(f"{row.id[:8]} ", 1)[1]
            before = node.label.cell_len - len(words)  # score, (bar,) id
            room = width - tree.guide_depth * 2 - before
            assert room >= 18, (node.label.plain, room)
            flat = " ".join(row.memory.text.split())
            assert words == flat or flat[len(words) - 1] == " ", words  # cut before a space
