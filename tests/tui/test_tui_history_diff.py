"""The history pane from the keyboard and the word diff of two versions ("History
pane"): H twice moves into the pane, j/k move there, space marks a version, D opens the diff
(default: the highlighted version against the one before it), r there restores (one commit),
s swaps the sides, esc goes back to the tree; p twice moves into the provenance graph."""

from __future__ import annotations

import pytest

from core import Vault
from tui.app.screens.version_diff import DELETE_STYLE, INSERT_STYLE, VersionDiffScreen
from tui.app.widgets.history import HistoryTable
from tui.app.widgets.provenance import ProvenanceGraph

from tui_support import (
    COMPOSITE,
    FADING,
    SIZE,
    goto,
    log,
    make_app,
    on_disk,
    settle,
    text_of,
    pane_shows,
    until,
    tui_vault,  # noqa: F401  (fixture)
)

pytestmark = pytest.mark.asyncio

V1 = "CI runs the test suite with pytest -n 2 on Python 3.11 and 3.12."
V2 = "CI runs the test suite with pytest -n 4 on Python 3.12 only."
V3 = "CI runs the whole test suite with pytest -n 4 on Python 3.12 only."


def _two_edits(path) -> None:
    vault = Vault.open(path)
    vault.update(FADING, content=V2)
    vault.update(FADING, content=V3, strength=1.5)
    vault.close()


def _styled(static, style: str) -> list[str]:
    """The pieces of the diff drawn in ``style`` (the Static's content is a rich Group)."""
    out = []
    for text in static.content.renderables:
        out += [text.plain[s.start:s.end] for s in text.spans if str(s.style) == style]
    return out


async def _history(pilot, memory_id: str):
    await goto(pilot, memory_id)
    await pilot.press("H")
    await until(pilot, lambda: pane_shows(pilot.app, "history", memory_id))
    await pilot.press("H")  # again: into the pane
    await settle(pilot)
    return pilot.app.main_screen.query_one("#history")


async def test_H_twice_moves_into_the_history_and_esc_goes_back(tui_vault):
    _two_edits(tui_vault)
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = await _history(pilot, FADING)
        table = pane.query_one(HistoryTable)
        assert app.focused is table and table.cursor_row == 0
        await pilot.press("j", "j")
        assert table.cursor_row == 2
        await pilot.press("k")
        assert table.cursor_row == 1
        assert app.main_screen.current == FADING  # the tree did not move
        await pilot.press("escape")
        assert app.focused is app.main_screen.memory_tree


async def test_D_diffs_the_highlighted_version_with_the_one_before(tui_vault):
    _two_edits(tui_vault)
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await _history(pilot, FADING)
        await pilot.press("D")  # the newest: V2 -> V3, and the strength
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, VersionDiffScreen)
        body = screen.query_one("#diff-changes")
        assert [c.name for c in screen.changes] == ["content", "strength"]
        assert _styled(body, INSERT_STYLE) == [" whole", "1.5"]
        assert _styled(body, DELETE_STYLE) == ["1"]
        text = text_of(body)
        assert V3 in text  # the text reads whole, the inserted word styled
        await pilot.press("escape")
        assert app.screen is app.main_screen


async def test_space_marks_a_version_and_D_compares_with_it_then_r_restores(tui_vault):
    _two_edits(tui_vault)
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = await _history(pilot, FADING)
        await pilot.press("space")  # mark the newest (V3)
        assert pane.marked == 0
        await pilot.press("j", "j")  # the first version (V1)
        await pilot.press("D")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, VersionDiffScreen)
        assert screen.old.message.startswith("update") and screen.new.action == "created"
        body = screen.query_one("#diff-changes")
        assert "2" in _styled(body, INSERT_STYLE) and "4" in _styled(body, DELETE_STYLE)
        await pilot.press("s")  # swap: from V1 to V3
        await settle(pilot)
        assert screen.new.message.startswith("update") and screen.old.action == "created"
        assert "4" in _styled(screen.query_one("#diff-changes"), INSERT_STYLE)
        await pilot.press("s")  # back: the newer side is V1 again
        await settle(pilot)
        commits = len(log(tui_vault, 50))
        await pilot.press("r")
        await settle(pilot)
        assert app.screen is app.main_screen
        assert on_disk(tui_vault).get(FADING).content == V1
        assert len(log(tui_vault, 50)) == commits + 1  # one commit
        assert log(tui_vault)[0].startswith(f"restore: {FADING[:8]}")


async def test_space_again_unmarks_and_the_oldest_diffs_against_nothing(tui_vault):
    _two_edits(tui_vault)
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = await _history(pilot, FADING)
        await pilot.press("space", "space")
        assert pane.marked is None
        await pilot.press("j", "j", "D")
        await settle(pilot)
        screen = app.screen
        assert screen.old is None
        assert all(p.kind == "insert" for c in screen.changes for p in c.pieces)
        await pilot.press("s")  # nothing to swap with: a warning, nothing changes
        assert screen.old is None
        await pilot.press("q")
        assert app.screen is app.main_screen


async def test_a_deletion_diffs_as_everything_gone(tui_vault):
    vault = Vault.open(tui_vault)
    vault.delete(FADING)
    vault.close()
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = await _history(pilot, FADING)
        assert pane.info.entries[0].action == "deleted"
        await pilot.press("D")
        await settle(pilot)
        screen = app.screen
        assert screen.changes and all(p.kind == "delete" for c in screen.changes
                                      for p in c.pieces)
        assert "what it deleted" in str(screen.query_one("#restore").label)
        await pilot.press("r")
        await settle(pilot)
        assert on_disk(tui_vault).get(FADING).content == V1


async def test_p_twice_moves_into_the_provenance_graph_and_j_k_esc_work(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, COMPOSITE)
        await pilot.press("p")
        await until(pilot, lambda: pane_shows(app, "provenance", COMPOSITE))
        await pilot.press("p")
        graph = app.main_screen.query_one(ProvenanceGraph)
        assert app.focused is graph
        first = graph.highlighted
        await pilot.press("j")
        assert graph.highlighted != first
        await pilot.press("k")
        assert graph.highlighted == first
        await pilot.press("escape")
        assert app.focused is app.main_screen.memory_tree


async def test_the_footer_fits_80_columns_in_the_history_pane(tui_vault):
    from textual.widgets._footer import FooterKey

    _two_edits(tui_vault)
    app = make_app(tui_vault)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await _history(pilot, FADING)
        keys = list(app.screen.query(FooterKey))
        assert "Diff" in [k.description for k in keys]
        for key in keys:
            needed = len(key.key_display) + 1 + len(key.description)
            assert key.region.width >= needed and key.region.right <= 80, key.description
