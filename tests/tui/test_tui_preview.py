"""The first paint of a big vault comes from the derived index ("TUI at 100k"): the
tree shows the index's summaries while the vault opens; moving and folding work, nothing acts on
a memory and no detail shows until the open is done, and then the tree is the vault's."""

from __future__ import annotations

import threading

import pytest

from core import Vault
from tui.app import service as service_module
from tui.app.view import VaultView
from core.vault.preview import MemorySummary
from core import DecayConfig, MemoryStatus

from tui_support import (
    FRESH,
    SIZE,
    NOW,
    log,
    make_app,
    settle,
    text_of,
    top_labels,
    tui_vault,  # noqa: F401  (fixture)
    until,
)


@pytest.mark.asyncio
async def test_the_tree_paints_from_the_index_while_the_vault_opens(tui_vault, monkeypatch):
    monkeypatch.setattr(service_module, "PREVIEW_FROM", 0)
    Vault.open(tui_vault)  # an open leaves the index's summaries at HEAD
    app = make_app(tui_vault, open_now=False)
    app.settings.mode = "band"  # (in the modes a glance draws, the glance is the first screen)
    assert app.service.preview() is not None
    release = threading.Event()
    real_open = app.service.open

    def slow_open():
        assert release.wait(20)
        return real_open()

    monkeypatch.setattr(app.service, "open", slow_open)
    commits = log(tui_vault, 100)
    async with app.run_test(size=SIZE) as pilot:
        main = app.main_screen
        await until(pilot, lambda: main.view is not None)
        await pilot.pause()
        assert main.view.partial
        first_look = top_labels(app)
        assert first_look and "opening" in app.sub_title
        tree = main.memory_tree
        for _ in range(30):  # moving works: down to the first memory
            if tree.cursor_node is not None and tree.cursor_node.data.kind == "memory":
                break
            await pilot.press("l" if tree.cursor_node.allow_expand else "j")
        assert tree.cursor_node.data.kind == "memory"
        await pilot.pause()
        assert "Opening the vault" in text_of(main.query_one("#detail-fields"))
        await pilot.press("a", "x")  # acting does not: nothing archived or asked
        await pilot.pause()
        assert app.screen is main and log(tui_vault, 100) == commits
        assert main.check_action("archive", ()) is None
        release.set()
        await until(pilot, lambda: not main.view.partial)
        await settle(pilot)
        assert top_labels(app) == first_look  # the same groups, now from the vault
        assert "opening" not in app.sub_title
        assert main.check_action("archive", ()) is True


def test_a_small_vault_opens_without_a_first_look(tui_vault):
    Vault.open(tui_vault)
    app = make_app(tui_vault, open_now=False)
    assert app.service.preview() is None  # below PREVIEW_FROM: the open is as quick


def test_a_row_works_out_its_search_text_when_first_read():
    view = VaultView.preview(__import__("pathlib").Path("."), [
        MemorySummary(FRESH, MemoryStatus.ACTIVE, 0, NOW, 1.0, NOW, ("Tag",), "Some Words")],
        DecayConfig(), NOW)
    row = view.rows[FRESH]
    assert row._hay is None  # not made until read
    assert row.hay == f"{FRESH} some words  tag" and row._hay is not None


@pytest.mark.asyncio
async def test_a_big_vault_works_out_the_filter_in_a_worker(tui_vault, monkeypatch):
    from tui.app.query import parse
    from tui.app.main import filtering as main_module

    monkeypatch.setattr(main_module, "FILTER_IN_WORKER_FROM", 0)
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main_screen
        everything = list(main.memory_tree.matched)
        main.filtering.set_filter("pytest")
        await settle(pilot)
        expected = main_module.matching(main.view, parse("pytest"))
        assert main.memory_tree.matched == expected and 0 < len(expected) < len(everything)
        assert FRESH in expected
        main.filtering.set_filter("pytest")
        main.filtering.set_filter("")  # the worker's answer for "pytest" comes too late: dropped
        await settle(pilot)
        assert main.memory_tree.matched == everything


@pytest.mark.asyncio
async def test_a_big_vault_makes_its_groups_in_a_worker(tui_vault, monkeypatch):
    """At 100k memories grouping (a pass over every memory) and ordering a group's members take
    tenths of a second: for a big vault the worker that filters makes them too, with what the
    tree opens at once, and the UI thread only adds the rows."""
    from tui.app import grouping, groups
    from tui.app.main import filtering as main_module

    monkeypatch.setattr(main_module, "FILTER_IN_WORKER_FROM", 0)
    on_ui: list[str] = []
    for module, name in ((grouping, "_by_tag"), (groups, "sort_ids"), (grouping, "groups_for")):
        real = getattr(module, name)

        def spy(*args, _real=real, _name=name, **kwargs):
            if threading.current_thread() is threading.main_thread():
                on_ui.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(module, name, spy)
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main_screen
        assert top_labels(app) and main.memory_tree.root.children[0].is_expanded
        main.filtering.set_filter("tag:python")
        await settle(pilot)
        main.filtering.set_filter("")
        await settle(pilot)
        assert on_ui == []
        assert any(n.is_expanded and n.children for n in main.memory_tree.root.children)
