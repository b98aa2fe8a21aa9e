"""The "possible duplicates" grouping: m cycles to it; the clusters come from a
worker (core's consolidate clustering), appear as groups under "possible duplicates", follow the
filter, and nothing is merged by itself."""

from __future__ import annotations

import pytest

from tui.app import duplicates
from tui.app.grouping import MODES

from tui_support import (
    DUPES,
    GARDEN,
    SIZE,
    log,
    make_app,
    settle,
    top_labels,
    tree_lines,
    wizard_vault,  # noqa: F401  (fixture)
)

pytestmark = pytest.mark.asyncio


async def _to_duplicates(pilot) -> None:
    await settle(pilot)
    for _ in range(MODES.index("duplicates")):
        await pilot.press("m")
    await settle(pilot)
    await settle(pilot)


async def test_m_reaches_the_possible_duplicates_and_they_come_from_a_worker(wizard_vault):
    app = make_app(wizard_vault)
    async with app.run_test(size=SIZE) as pilot:
        commits = log(wizard_vault, 50)
        await _to_duplicates(pilot)
        main = app.main_screen
        assert main.memory_tree.mode == "duplicates"
        assert "group: possible duplicates" in main.memory_tree.border_subtitle
        found = duplicates.known(main.view)
        assert found is not None
        assert [sorted(members) for _c, _s, _a, members in found.clusters] == [sorted(DUPES)]
        labels = top_labels(app)
        assert labels[0].startswith("possible duplicates  3")
        assert labels[1].startswith("no likely duplicate")
        first = main.memory_tree.root.children[0]
        assert first.is_expanded
        cluster = first.children[0]
        assert "alike" in cluster.label.plain
        main.memory_tree.expand_node(cluster)
        await settle(pilot)
        shown = {c.data.memory_id for c in cluster.children}
        assert shown == set(DUPES)
        assert log(wizard_vault, 50) == commits  # a suggestion: nothing written


async def test_the_filter_narrows_the_duplicates(wizard_vault):
    app = make_app(wizard_vault)
    async with app.run_test(size=SIZE) as pilot:
        await _to_duplicates(pilot)
        await pilot.press("slash", *"garden")
        await settle(pilot)
        assert top_labels(app)[0].startswith("no possible duplicates")
        lines = tree_lines(app)
        assert any(GARDEN[:8] in line for line in lines)
        await pilot.press("escape")
        await settle(pilot)
        assert top_labels(app)[0].startswith("possible duplicates")


async def test_before_the_clusters_are_known_the_tree_says_it_is_looking(wizard_vault):
    from tui.app.view import VaultView

    app = make_app(wizard_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main_screen
        duplicates.forget(main.view.root)  # (the app never looked: not in that mode)
        groups = duplicates.duplicate_groups(main.view, list(main.view.rows))
        assert [g.title for g in groups] == ["looking for possible duplicates…"]
        assert groups[0].count == len(main.view.rows)
        assert isinstance(main.view, VaultView)


async def test_every_active_memory_is_compared_as_the_pairwise_pass_would(wizard_vault):
    from core.ops.consolidate import find_clusters

    app = make_app(wizard_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        view = app.main_screen.view
        found = duplicates.find_duplicates(view, app.main_screen.service.wizards.clusters)
        active = [r.memory for r in view.rows.values() if r.memory.status.value == "active"]
        pairwise = find_clusters(None, memories=active)  # every pair, no index
        assert pairwise
        assert sorted(members for *_rest, members in found.clusters) == sorted(
            [m.id for m in c.members] for c in pairwise)
        duplicates.remember(found)
        groups = duplicates.duplicate_groups(view, list(view.rows))
        assert "compared" not in groups[0].note  # no cap to mention
