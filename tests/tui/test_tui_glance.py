"""The glance ("TUI at 100k"): before the first look from the index's summaries, a big
vault's tree is painted from the index's counts alone (groups by status and tag, no memory). It
shows the top level the vault will show; only moving and folding work on it; a group of memories
opened on it says its memories are loading and stays open, the cursor on it, when they land; a
mode that needs more than counts skips it; and it never holds up the open."""

from __future__ import annotations

import pytest

from core import Vault

from tui_support import (  # noqa: F401  (tui_vault: fixture)
    SIZE,
    held_app,
    log,
    make_app,
    settle,
    text_of,
    tui_vault,
    until,
)


def _groups(tree) -> list[tuple[int, str, bool]]:
    """Every group the tree shows: (depth, label, open)."""
    out: list[tuple[int, str, bool]] = []

    def walk(node, depth: int) -> None:
        for child in node.children:
            if child.data is not None and child.data.kind == "group":
                out.append((depth, child.label.plain, child.is_expanded))
                if child.is_expanded:
                    walk(child, depth + 1)

    walk(tree.root, 0)
    return out


async def _vault_as_opened(vault, mode: str):
    """The groups and the tree's title of the vault opened as a small vault opens (no glance)."""
    app = make_app(vault)
    app.settings.mode = mode
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        tree = app.main_screen.memory_tree
        return _groups(tree), tree.border_title


def _on_glance(main) -> bool:
    return main.view is not None and main.view.glance is not None


@pytest.mark.asyncio
@pytest.mark.parametrize("mode", ["status_tag", "tag"])
async def test_the_glance_paints_the_top_level_the_vault_shows(tui_vault, monkeypatch, mode):
    opened, title = await _vault_as_opened(tui_vault, mode)
    assert len(opened) > 2 and opened[0][2]  # the first group open, as a tree opens
    if mode == "status_tag":
        assert opened[1][0] == 1  # its tag subgroups beneath it
    app, gates = held_app(tui_vault, monkeypatch, mode)
    try:
        async with app.run_test(size=SIZE) as pilot:
            main = app.main_screen
            await until(pilot, lambda: _on_glance(main))
            await pilot.pause()
            tree = main.memory_tree
            assert not main.view.rows and main.view.partial
            assert _groups(tree) == opened  # titles, counts, which is open, the subgroups
            assert tree.border_title == title  # "memories N": the glance's total
            assert "opening" in app.sub_title
            assert "Opening the vault" in text_of(main.query_one("#detail-fields"))
            gates["open"].set()
            await until(pilot, lambda: not main.view.partial)
            await settle(pilot)
            assert _groups(tree) == opened and tree.border_title == title
    finally:
        gates["preview"].set()
        gates["open"].set()


@pytest.mark.asyncio
async def test_only_moving_and_folding_work_on_the_glance(tui_vault, monkeypatch):
    app, gates = held_app(tui_vault, monkeypatch)
    commits = log(tui_vault, 100)
    try:
        async with app.run_test(size=SIZE) as pilot:
            main = app.main_screen
            await until(pilot, lambda: _on_glance(main))
            await pilot.pause()
            for action in ("cursor_down", "cursor_up", "top", "bottom", "open_node",
                           "close_node", "expand_all", "collapse_all", "help", "quit"):
                assert main.check_action(action, ()) is True, action
            # (the tree's own keys ask the screen)
            assert main.memory_tree.check_action("cycle_mode", ()) is None
            for action in ("focus_filter", "clear_filter", "mark", "mark_group", "visual",
                           "invert_marks", "cycle_mode", "cycle_sort", "copy_id", "toggle_view",
                           "resize_left", "archive", "delete", "undo", "stats", "gc"):
                assert main.check_action(action, ()) is None, action
            assert main.query_one("#filter").disabled
            offered = [c.title for c in app.get_system_commands(main)]  # the palette, too
            assert "Expand all" in offered and "Help" in offered
            for title in ("Archive / unarchive", "Delete", "Group by decay band", "Sort by created",
                          "Filter", "Mark / unmark", "Stats", "Show history", "Reload"):
                assert title not in offered, title
            await pilot.press("slash", "m", "s", "f", "space", "a", "x")
            await pilot.pause()
            assert _on_glance(main) and app.screen is main
            assert main.memory_tree.mode == "status_tag" and main.memory_tree.sort == "score"
            assert main.memory_tree.has_focus and not main.memory_tree.marks and main.memory_tree.filter.text == ""
            await pilot.press("minus")  # folding works
            assert not any(n.is_expanded for n in main.memory_tree.root.children)
            await pilot.press("asterisk")
            assert all(n.is_expanded for n in main.memory_tree.root.children)
            gates["open"].set()
            await until(pilot, lambda: not main.view.partial)
            await settle(pilot)
            assert main.check_action("archive", ()) is True
            assert main.check_action("focus_filter", ()) is True
            assert not main.query_one("#filter").disabled
            offered = [c.title for c in app.get_system_commands(main)]
            assert "Archive / unarchive" in offered and "Stats" in offered
            assert log(tui_vault, 100) == commits
    finally:
        gates["preview"].set()
        gates["open"].set()


@pytest.mark.asyncio
async def test_a_group_opened_on_the_glance_stays_open_when_its_memories_land(tui_vault,
                                                                              monkeypatch):
    app, gates = held_app(tui_vault, monkeypatch)  # (the open replaces the glance)
    try:
        async with app.run_test(size=SIZE) as pilot:
            main = app.main_screen
            tree = main.memory_tree
            await until(pilot, lambda: _on_glance(main))
            await pilot.pause()
            await pilot.press("j", "l")  # the first tag group of the first status: open it
            group = tree.cursor_node
            key = group.data.key
            assert group.data.kind == "group" and group.is_expanded
            assert key.startswith("status:active/tag:")
            [leaf] = group.children
            assert leaf.data.kind == "loading" and leaf.label.plain == "loading…"
            await pilot.press("j")  # the loading row: nothing to show, nothing to act on
            assert tree.cursor_node is leaf
            assert "Opening the vault" in text_of(main.query_one("#detail-fields"))
            await pilot.press("enter", "l")
            assert tree.cursor_node is leaf and _on_glance(main)
            await pilot.press("k")
            assert tree.cursor_node is group
            gates["open"].set()
            await until(pilot, lambda: not main.view.partial)
            await settle(pilot)
            node = tree.cursor_node
            assert node.data.key == key and node.is_expanded  # still open, the cursor on it
            kinds = {c.data.kind for c in node.children}
            assert kinds == {"memory"} and len(node.children) == group.data.group.count
    finally:
        gates["preview"].set()
        gates["open"].set()


@pytest.mark.asyncio
@pytest.mark.parametrize("mode", ["band", "lineage", "the flat list"])
async def test_a_mode_that_needs_more_than_counts_skips_the_glance(tui_vault, monkeypatch, mode):
    """Decay bands need scores, lineage relations; the flat list shows memories only."""
    app, gates = held_app(tui_vault, monkeypatch, "status_tag" if mode == "the flat list"
                          else mode)
    if mode == "the flat list":
        app.settings.view = "list"
    glanced = []
    real = app.service.glance
    monkeypatch.setattr(app.service, "glance", lambda: glanced.append(1) or real())
    seen = []
    try:
        async with app.run_test(size=SIZE) as pilot:
            main = app.main_screen
            gates["preview"].set()
            await until(pilot, lambda: main.view is not None)
            seen.append(main.view.glance)
            assert main.view.partial and main.view.rows  # the first look
            gates["open"].set()
            await until(pilot, lambda: not main.view.partial)
            await settle(pilot)
        assert glanced == [] and seen == [None]  # the first look was the first thing shown
    finally:
        gates["preview"].set()
        gates["open"].set()


@pytest.mark.asyncio
@pytest.mark.parametrize("fails", ["raises", "nothing"])
async def test_a_glance_that_cannot_be_read_holds_nothing_up(tui_vault, monkeypatch, fails):
    app, gates = held_app(tui_vault, monkeypatch)

    def no_glance():
        if fails == "raises":
            raise OSError("the index went away")
        return None

    monkeypatch.setattr(app.service, "glance", no_glance)
    gates["preview"].set()
    gates["open"].set()
    async with app.run_test(size=SIZE) as pilot:
        main = app.main_screen
        await until(pilot, lambda: main.view is not None and not main.view.partial)
        await settle(pilot)
        assert main.memory_tree.root.children and main.check_action("archive", ()) is True


@pytest.mark.asyncio
async def test_after_the_glance_the_open_follows_without_a_first_look(tui_vault, monkeypatch):
    """The glance is the whole first screen in its modes: reading and drawing the summaries
    after it (a second at 100k memories) only put off the open, and every action with it."""
    app, gates = held_app(tui_vault, monkeypatch)
    read: list[str] = []
    real_preview = app.service.preview
    monkeypatch.setattr(app.service, "preview", lambda: read.append("preview") or real_preview())
    shown: list[str] = []
    gates["preview"].set()
    gates["open"].set()
    async with app.run_test(size=SIZE) as pilot:
        main = app.main_screen

        def seen() -> bool:
            view = main.view
            kind = None if view is None else "glance" if view.glance is not None \
                else "first look" if view.partial else "open"
            if kind is not None and (not shown or shown[-1] != kind):
                shown.append(kind)
            return kind == "open"

        await until(pilot, seen, timeout=30)
        await settle(pilot)
    assert shown == ["glance", "open"] and read == []


def test_the_glance_of_a_small_vault_is_none(tui_vault):
    Vault.open(tui_vault)
    app = make_app(tui_vault, open_now=False)
    assert app.service.glance() is None  # below GLANCE_FROM: the open is as quick


def test_a_vault_too_small_for_a_first_look_gets_a_glance(tui_vault, monkeypatch):
    """The glance costs milliseconds where a first look costs a second at 100k: a vault of
    10k memories, whose open and view take most of a second, is painted from its counts first."""
    from tui.app import service as service_module

    assert service_module.GLANCE_FROM <= 10_000 < service_module.PREVIEW_FROM
    total = len(Vault.open(tui_vault).memories)  # (the open leaves the index's counts)
    monkeypatch.setattr(service_module, "GLANCE_FROM", total)
    monkeypatch.setattr(service_module, "PREVIEW_FROM", total + 1)
    app = make_app(tui_vault, open_now=False)
    glance = app.service.glance()
    assert glance is not None and glance.total == total
    assert app.service.preview() is None
