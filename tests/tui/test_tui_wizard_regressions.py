"""Regressions in the wizards (pilot, small vault in tmp_path): tags and entities
derived again from edited parts, a part that repeats a memory flagged, esc asking before it
throws typed edits away, and one marked memory never silently swapped for a suggested cluster.
Each failed before its fix."""

from __future__ import annotations

import subprocess

import pytest

from core import Vault
from core.ops.split import label_parts
from tui.app.screens.confirm import ConfirmScreen
from tui.app.screens.consolidate_wizard import ConsolidateWizard
from tui.app.screens.split_wizard import SplitWizard
from tui.app.widgets.split_labels import LabelsEditor, PartLabels
from tui.app.widgets.split_parts import PartsEditor

from tui_support import (
    FRESH,
    GARDEN,
    SIZE,
    make_app,
    settle,
    text_of,
    wait_clusters,
    wizard_vault,  # noqa: F401  (fixture)
)

pytestmark = pytest.mark.asyncio


def files(path) -> str:
    run = lambda *a: subprocess.run(["git", "-C", str(path), *a], capture_output=True,  # noqa: E731
                                    text=True, check=True).stdout
    return run("ls-files", "-s") + run("status", "--porcelain") + run("rev-parse", "HEAD")


async def press(pilot, *keys: str, rounds: int = 2) -> None:
    await pilot.press(*keys)
    await settle(pilot, rounds)


async def set_part(pilot, index: int, text: str) -> None:
    area = pilot.app.screen.query_one(PartsEditor).editors[index].area
    area.focus()
    area.clear()
    area.insert(text)
    await pilot.pause(0.05)
    await settle(pilot, 1)


async def open_split(pilot, memory_id: str) -> SplitWizard:
    pilot.app.main_screen.jumps.jump(memory_id)
    await settle(pilot, 1)
    await press(pilot, "v", "ctrl+n")
    wizard = pilot.app.screen
    assert isinstance(wizard, SplitWizard) and wizard.step_id == "split-parts"
    return wizard


def labels_shown(app) -> list[tuple[str, str]]:
    rows = [r for r in app.screen.query_one(LabelsEditor).query(PartLabels) if r.display]
    return [(r.query_one(".part-tags").value, r.query_one(".part-entities").value) for r in rows]


async def test_split_labels_follow_the_edited_text_unless_typed(wizard_vault):
    app = make_app(wizard_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        wizard = await open_split(pilot, GARDEN)
        drafted = [(p.tags, p.entities) for p in wizard.parts]
        # part 1 now speaks of the bike and Mr Costa, part 2 of the garden only
        await set_part(pilot, 0, "Mr Costa helps with the bike brake pads in the building.")
        await set_part(pilot, 1, "The garden hose hangs on the balcony.")
        await press(pilot, "ctrl+n")
        assert wizard.step_id == "split-labels"
        memory = app.main_screen.view.rows[GARDEN].memory
        expected = label_parts(memory, [p.text for p in wizard.parts])
        shown = labels_shown(app)
        assert shown[0] == (", ".join(expected[0].tags), ", ".join(expected[0].entities))
        assert "bike" in shown[0][0] and "Mr Costa" in shown[0][1]
        assert shown[1][0] == ", ".join(expected[1].tags) and "garden" in shown[1][0]
        assert (expected[0].tags, expected[0].entities) != drafted[0]  # derived again
        # typed labels stay as typed when the text changes again
        tags = app.screen.query_one(LabelsEditor).query(PartLabels).first().query_one(".part-tags")
        tags.value = "mine, only"
        await settle(pilot, 1)
        await press(pilot, "ctrl+b")
        await set_part(pilot, 0, "Mr Costa wants the drain cleared before the storms.")
        await press(pilot, "ctrl+n")
        assert labels_shown(app)[0][0] == "mine, only"
        await press(pilot, "ctrl+n", "ctrl+n", rounds=3)  # original, then the preview
        assert wizard.step_id == "split-preview"
        assert wizard.preview.parts[0].meta.tags == ["mine", "only"]


BIKE = ("The bike room code changed to 4711 in May, and the bike needs new brake pads before "
        "the autumn rides start.")


async def test_a_part_that_repeats_a_memory_is_flagged_in_its_heading_and_the_preview(
        wizard_vault):
    vault = Vault.open(wizard_vault)
    bike = vault.add(BIKE).id
    vault.close()
    app = make_app(wizard_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        wizard = await open_split(pilot, GARDEN)
        editors = app.screen.query_one(PartsEditor).editors
        headings = [text_of(e.query_one(".part-label")) for e in editors]
        flagged = [i for i, h in enumerate(headings) if f"repeats {bike[:8]}" in h]
        assert len(flagged) == 1 and "bike" in wizard.parts[flagged[0]].text
        assert not any("repeats" in h for i, h in enumerate(headings) if i != flagged[0])
        await set_part(pilot, flagged[0], "The bike is blue.")  # an edit: no longer checked
        assert "repeats" not in text_of(editors[flagged[0]].query_one(".part-label"))
        await set_part(pilot, flagged[0], BIKE)
        await press(pilot, "ctrl+n", "ctrl+n", "ctrl+n", rounds=3)
        assert wizard.step_id == "split-preview"
        shown = text_of(app.screen.query_one("#split-preview-text"))
        assert f"repeats {bike[:8]} (similarity" in shown and shown.count("repeats ") == 1
        await press(pilot, "ctrl+b", "ctrl+b", "ctrl+b", rounds=3)  # back at the parts
        assert f"repeats {bike[:8]}" in text_of(editors[flagged[0]].query_one(".part-label"))


async def test_esc_asks_before_throwing_typed_edits_away(wizard_vault):
    app = make_app(wizard_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        state = files(wizard_vault)
        wizard = await open_split(pilot, GARDEN)
        await press(pilot, "escape")  # nothing typed yet: closes at once
        assert app.screen is app.main_screen
        wizard = await open_split(pilot, GARDEN)
        await set_part(pilot, 0, "A part the person wrote.")
        await press(pilot, "escape")
        assert isinstance(app.screen, ConfirmScreen)
        assert "Discard your edits?" in text_of(app.screen.query_one(".dialog-title"))
        await press(pilot, "n")  # keep editing
        assert app.screen is wizard and wizard.parts[0].text == "A part the person wrote."
        await press(pilot, "escape")
        await press(pilot, "y")  # discard
        assert app.screen is app.main_screen
        # the consolidate wizard: an edited merged text asks too
        app.main_screen.jumps.jump(FRESH)
        await settle(pilot, 1)
        await press(pilot, "M")
        await wait_clusters(pilot)
        merge = app.screen
        assert isinstance(merge, ConsolidateWizard)
        await press(pilot, "ctrl+n", rounds=3)
        assert merge.step_id == "merge-content"
        merge.query_one("#merge-content-text").insert("A merged text, edited. ")
        await settle(pilot, 1)
        await press(pilot, "escape")
        assert isinstance(app.screen, ConfirmScreen)
        await press(pilot, "y")
        assert app.screen is app.main_screen
    assert files(wizard_vault) == state


async def test_consolidate_with_one_marked_memory_says_so(wizard_vault):
    app = make_app(wizard_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        state = files(wizard_vault)
        main = app.main_screen
        main.jumps.jump(FRESH)
        await settle(pilot, 1)
        main.action_mark()
        await press(pilot, "M")
        await wait_clusters(pilot)
        wizard = app.screen
        assert isinstance(wizard, ConsolidateWizard) and wizard.clusters
        chosen = wizard.query_one("#merge-choices").highlighted_option
        assert chosen.id == "marked"  # not the first suggested cluster
        assert "mark at least one more" in chosen.prompt.plain
        await press(pilot, "ctrl+n")
        assert wizard.step_id == "merge-members"
        assert "at least 2 different memories" in wizard.error_text
        await press(pilot, "escape")
    assert files(wizard_vault) == state


async def test_the_consolidate_threshold_stays_on_screen_at_80_columns(wizard_vault):
    """At 80 columns the first step's similarity threshold was pushed off the right edge by its
    one-line hint (cut at "…similar ones at"): it could be neither seen nor changed."""
    app = make_app(wizard_vault)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "M")
        await wait_clusters(pilot)
        wizard = app.screen
        assert isinstance(wizard, ConsolidateWizard)
        threshold = wizard.query_one("#merge-threshold")
        body = wizard.query_one("#merge-threshold-row").parent
        assert threshold.region.width > 0
        assert threshold.region.right <= body.content_region.right
        hint = wizard.query_one("#merge-members-hint")
        assert "similarity ≥" in text_of(hint) and hint.region.right <= threshold.region.x
        choices = wizard.query_one("#merge-choices")  # how to mark memories instead
        assert "press space on memories in the tree" in choices.get_option_at_index(0).prompt.plain
        await press(pilot, "escape")


async def test_back_at_the_consolidate_members_gives_the_keys_to_their_list(wizard_vault):
    """After ctrl+b from the merged memory, the arrows move in the members' list at once (the
    person pressed Down and nothing moved until shift+tab), from the choice taken."""
    app = make_app(wizard_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "M")
        await wait_clusters(pilot)
        wizard = app.screen
        assert isinstance(wizard, ConsolidateWizard) and wizard.clusters
        choices = wizard.query_one("#merge-choices")
        await press(pilot, "end", "enter")
        assert wizard.step_id == "merge-content"
        taken = choices.highlighted
        await press(pilot, "ctrl+b")
        assert wizard.step_id == "merge-members"
        assert app.focused is choices and choices.highlighted == taken
        await press(pilot, "up")
        assert choices.highlighted == taken - 1
        await press(pilot, "escape")
