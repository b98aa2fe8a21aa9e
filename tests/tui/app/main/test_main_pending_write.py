"""A write shows at once, before its commit lands (tui/app/main/pending.py): ``a`` dims the
archived row in place and the tree's title says "archiving…" while the commit is held, without
rebuilding the tree (the other rows keep their node objects); the commit landed, the tree
shows the new view; refused, the row and the title are as they were. Undo says "undoing…"."""

from __future__ import annotations

import threading

import pytest

from core import MemoryStatus, VaultError

from tui_support import (  # noqa: F401  (tui_vault: a fixture)
    DANGER, SIZE, drawn_nodes, goto, make_app, on_disk, settle, tui_vault, until)

pytestmark = pytest.mark.asyncio


def rows(app) -> dict[str, object]:
    """memory id -> the tree node drawing it (the lines drawn now)."""
    tree = app.main_screen.memory_tree
    return {node.data.memory_id: node for node in drawn_nodes(tree)
            if node.data is not None and node.data.kind == "memory"}


def hold(monkeypatch, app, name: str, fail: bool = False) -> threading.Event:
    """The service's bulk ``name`` waits for the returned gate (then runs, or refuses)."""
    gate = threading.Event()
    real = getattr(app.service.bulk, name)

    def held(*args, **kwargs):
        assert gate.wait(20)
        if fail:
            raise VaultError("refused: held by the test")
        return real(*args, **kwargs)

    monkeypatch.setattr(app.service.bulk, name, held)
    return gate


async def test_archive_dims_its_row_at_once_and_keeps_the_other_rows(tui_vault, monkeypatch):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, DANGER)
        gate = hold(monkeypatch, app, "archive_many")
        tree = app.main_screen.memory_tree
        before = rows(app)
        view = app.main_screen.view
        try:
            await pilot.press("a")
            await pilot.pause()
            assert "archiving…" in str(tree.border_title)
            shown = rows(app)
            assert "dim" in str(shown[DANGER].label.spans[-1].style)  # the row itself, dimmed
            assert all(shown[i] is node for i, node in before.items())  # nothing rebuilt
            assert app.main_screen.view is view  # nothing committed yet
        finally:
            gate.set()
        await until(pilot, lambda: app.main_screen.view is not view)
        await settle(pilot)
        assert on_disk(tui_vault).get(DANGER).status == MemoryStatus.ARCHIVED
        assert "…" not in str(tree.border_title)
        assert all("dim italic" not in str(s.style) for node in rows(app).values()
                   for s in node.label.spans)


async def test_a_refused_archive_gives_the_row_and_the_title_back(tui_vault, monkeypatch):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, DANGER)
        gate = hold(monkeypatch, app, "archive_many", fail=True)
        tree = app.main_screen.memory_tree
        title = str(tree.border_title)
        label = rows(app)[DANGER].label.copy()
        await pilot.press("a")
        await pilot.pause()
        assert "archiving…" in str(tree.border_title)
        gate.set()
        await until(pilot, lambda: "archiving" not in str(tree.border_title))
        await settle(pilot)
        assert str(tree.border_title) == title
        assert rows(app)[DANGER].label == label
        assert on_disk(tui_vault).get(DANGER).status != MemoryStatus.ARCHIVED


async def test_undo_says_undoing_until_its_revert_lands(tui_vault, monkeypatch):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, DANGER)
        await pilot.press("a")
        await settle(pilot)
        gate = threading.Event()
        real = app.service.undo

        def held():
            assert gate.wait(20)
            return real()

        monkeypatch.setattr(app.service, "undo", held)
        tree = app.main_screen.memory_tree
        view = app.main_screen.view
        try:
            await pilot.press("ctrl+z")
            await pilot.pause()
            assert "undoing…" in str(tree.border_title)
        finally:
            gate.set()
        await until(pilot, lambda: app.main_screen.view is not view)
        await settle(pilot)
        assert "undoing" not in str(tree.border_title)
        assert on_disk(tui_vault).get(DANGER).status != MemoryStatus.ARCHIVED


async def test_in_the_flat_list_archive_dims_the_marked_rows_at_once(tui_vault, monkeypatch):
    from tui_support import FADING, FRESH

    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f")
        await settle(pilot)
        listing = app.main_screen.memory_list
        for memory_id in (FRESH, FADING):
            assert listing.go_to(memory_id)
            await pilot.pause()
            await pilot.press("space")
        await pilot.pause()
        gate = hold(monkeypatch, app, "archive_many")
        view = app.main_screen.view
        try:
            await pilot.press("a")
            await pilot.pause()
            assert "archiving…" in str(listing.border_title)
            for memory_id in (FRESH, FADING):
                cell = listing.get_cell(memory_id, "id")
                assert "dim" in str(cell.spans[-1].style)
        finally:
            gate.set()
        await until(pilot, lambda: app.main_screen.view is not view)
        await settle(pilot)
        assert "…" not in str(listing.border_title)
        assert on_disk(tui_vault).get(FRESH).status == MemoryStatus.ARCHIVED
        assert on_disk(tui_vault).get(FADING).status == MemoryStatus.ARCHIVED


def titles_drawn_before_push(monkeypatch, app) -> list[list[str]]:
    """For each screen pushed, the tree's titles drawn before it (each draw of the tree, read
    through its public ``render_lines``, records the title it drew)."""
    tree = app.main_screen.memory_tree
    drawn: list[str] = []
    real_render = tree.render_lines

    def render_lines(crop):
        drawn.append(str(tree.border_title))
        return real_render(crop)

    monkeypatch.setattr(tree, "render_lines", render_lines)
    before_push: list[list[str]] = []
    real_push = app.push_screen

    def push(*args, **kwargs):
        before_push.append(list(drawn))
        return real_push(*args, **kwargs)

    monkeypatch.setattr(app, "push_screen", push)
    return before_push


async def test_m_says_the_wizard_is_opening_in_a_frame_drawn_before_it_is_built(tui_vault,
                                                                                 monkeypatch):
    from tui.app.screens.consolidate_wizard import ConsolidateWizard

    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        tree = app.main_screen.memory_tree
        drawn_before_push = titles_drawn_before_push(monkeypatch, app)
        await pilot.press("M")
        await until(pilot, lambda: isinstance(app.screen, ConsolidateWizard))
        assert any("opening the consolidate wizard…" in t for t in drawn_before_push[0])
        assert "opening" not in str(tree.border_title)


async def test_help_says_it_is_opening_in_a_frame_drawn_before_it_is_built(tui_vault,
                                                                            monkeypatch):
    from tui.app.screens.help import HelpScreen

    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        tree = app.main_screen.memory_tree
        drawn_before_push = titles_drawn_before_push(monkeypatch, app)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await settle(pilot)
        assert len(drawn_before_push) == 1
        assert any("opening help…" in t for t in drawn_before_push[0])
        assert "opening" not in str(tree.border_title)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is app.main_screen)



async def test_archive_commits_after_the_frame_that_dims_its_row(tui_vault, monkeypatch):
    """The write's worker starts once the frame with the pending look is drawn (issue 42:
    started with the key, its thread took the interpreter from the frame a person waits for)."""
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, DANGER)
        main = app.main_screen
        tree = main.memory_tree
        drawn: list[str] = []  # the title of each draw of the tree
        real_render = tree.render_lines

        def render_lines(crop):
            drawn.append(str(tree.border_title))
            return real_render(crop)

        monkeypatch.setattr(tree, "render_lines", render_lines)
        at_write: list[list[str]] = []
        real_run_worker = main.run_worker

        def run_worker(work, *args, **kwargs):
            if kwargs.get("group") == "write":
                at_write.append(list(drawn))
            return real_run_worker(work, *args, **kwargs)

        monkeypatch.setattr(main, "run_worker", run_worker)
        view = main.view
        await pilot.press("a")
        await until(pilot, lambda: main.view is not view)
        await settle(pilot)
        assert len(at_write) == 1 and any("archiving…" in t for t in at_write[0])
        assert on_disk(tui_vault).get(DANGER).status == MemoryStatus.ARCHIVED
