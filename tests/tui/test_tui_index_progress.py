"""The app builds the search index of a vault opened without one (after a clone) in a worker,
showing a determinate bar with counts under the tree while it runs, and hides it when done."""

from __future__ import annotations

import pytest

from core.search import first_build
from core.search.index import SearchIndex
from tui.app.search_rank import close_all
from tui.app.widgets.index_progress import IndexProgress

from tui_support import (SIZE, make_app, settle, tui_vault,  # noqa: F401  (fixture)
                         until, worker_starts)


@pytest.mark.asyncio
async def test_the_first_build_shows_its_progress_and_then_hides_it(tui_vault, monkeypatch):
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 3)
    monkeypatch.setattr(first_build, "CHUNK", 2)
    shown: list[tuple[str, int, int]] = []
    real_show = IndexProgress.show

    def show(self, phase, done, total):
        shown.append((phase, done, total))
        real_show(self, phase, done, total)

    monkeypatch.setattr(IndexProgress, "show", show)
    app = make_app(tui_vault)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            bar = app.screen.query_one(IndexProgress)
            await until(pilot, lambda: shown and not bar.has_class("-building"))
            total = len(app.screen.view.rows)
            rows = [(done, n) for phase, done, n in shown if phase == "search index"]
            assert rows[0] == (2, total) and rows[-1] == (total, total)
            assert [d for d, _ in rows] == sorted(d for d, _ in rows)
            assert not bar.display or not bar.has_class("-building")
        with SearchIndex.for_root(tui_vault) as index:
            assert index.row_count() == total
    finally:
        close_all()


@pytest.mark.asyncio
async def test_an_index_already_built_shows_no_bar(tui_vault, monkeypatch):
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 3)
    app = make_app(tui_vault)
    with SearchIndex.for_root(tui_vault) as index:
        index.sync({i: r.memory for i, r in app.service.view.rows.items()})
    shown: list[tuple] = []
    monkeypatch.setattr(IndexProgress, "show", lambda self, *a: shown.append(a))
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            assert shown == []
            assert not app.screen.query_one(IndexProgress).has_class("-building")
    finally:
        close_all()


@pytest.mark.asyncio
@pytest.mark.parametrize("groups_in_a_worker", [False, True])
async def test_the_first_build_starts_once_the_open_vault_is_painted(tui_vault, monkeypatch,
                                                                     groups_in_a_worker):
    """The first build holds the interpreter in turns for a minute at 100k memories: started
    with the open, it shared it with the paint of the open vault (the tree's groups made at
    once, or by a worker for a big vault)."""
    from tui.app.main import filtering as main_filtering

    if groups_in_a_worker:
        monkeypatch.setattr(main_filtering, "FILTER_IN_WORKER_FROM", 0)
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 3)
    started = worker_starts(monkeypatch, "search-index")
    app = make_app(tui_vault, open_now=False)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: started)
            await settle(pilot)
            assert [painted for painted, _thread in started] == [True]
        with SearchIndex.for_root(tui_vault) as index:  # and it built the index
            assert index.row_count() == len(app.main_screen.view.rows)
    finally:
        close_all()
