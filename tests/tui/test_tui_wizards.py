"""The split and consolidate wizards driven through Textual's pilot, end to end through the real
core operations on a small vault in tmp_path: every step, Back, Cancel, each validation error
(shown at its step, blocking Next), then the vault and the git log afterwards (one commit, the
right message), where the cursor lands, undo, marks, the palette, the provenance pane's buttons
and the keymap."""

from __future__ import annotations

import re
import subprocess

import pytest

from core import MemoryStatus
from tui.app.screens.confirm import ConfirmScreen
from tui.app.screens.consolidate_wizard import ConsolidateWizard
from tui.app.screens.split_wizard import SplitWizard
from tui.app.widgets.provenance import ProvenanceGraph
from tui.app.widgets.split_labels import LabelsEditor
from tui.app.widgets.split_parts import PartEditor, PartsEditor
from tui.app.widgets.wizard import ChoiceList

from tui_support import (
    ARCHIVED,
    COMPOSITE,
    DUPE_TEXTS,
    DUPES,
    FRESH,
    GARDEN,
    GARDEN_TEXT,
    SIZE,
    make_app,
    on_disk,
    goto,
    settle,
    text_of,
    wait_clusters,
    wizard_vault,  # noqa: F401  (fixture)
)

pytestmark = pytest.mark.asyncio


def git(path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(path), *args], capture_output=True, text=True,
                          check=True).stdout


def commits(path) -> int:
    return int(git(path, "rev-list", "--count", "HEAD"))


def subjects(path, n: int) -> list[str]:
    return git(path, "log", f"-{n}", "--format=%s").splitlines()



def files(path) -> str:
    """Every file git tracks in the vault with its blob id: equal before and after = unchanged."""
    return git(path, "ls-files", "-s") + git(path, "status", "--porcelain")


async def press(pilot, *keys: str, rounds: int = 2) -> None:
    await pilot.press(*keys)
    await settle(pilot, rounds)



def parts(app) -> list[str]:
    return [p.text for p in app.screen.query_one(PartsEditor).parts]


def editor(app, index: int) -> PartEditor:
    return app.screen.query_one(PartsEditor).editors[index]


async def focus_part(pilot, index: int) -> None:
    editor(pilot.app, index).area.focus()
    await pilot.pause()


async def set_part(pilot, index: int, text: str) -> None:
    """Replace a part's text as typing would (an edit: the wizard hears of it)."""
    area = editor(pilot.app, index).area
    area.focus()
    area.clear()
    area.insert(text)
    await pilot.pause(0.05)
    await settle(pilot, 1)


# -- split ------------------------------------------------------------------------------------
async def test_split_wizard_end_to_end(wizard_vault):
    app = make_app(wizard_vault)
    before = commits(wizard_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, FRESH)
        await press(pilot, "v")
        wizard = app.screen
        assert isinstance(wizard, SplitWizard) and wizard.step_id == "split-memory"
        # 1. the highlighted memory first, then the ranked candidates with their reasons
        choices = wizard.query_one("#split-choices")
        ids = [o.id for o in choices.options if o.id and not o.disabled]
        assert ids == [FRESH, GARDEN]
        prompt = choices.get_option(GARDEN).prompt.plain
        assert "5 tags" in prompt and "with 4 distinct ideas" in prompt
        await press(pilot, "down")
        assert wizard.chosen_id == GARDEN
        assert "Ana, the neighbour downstairs" in text_of(wizard.query_one("#split-memory-detail"))
        await press(pilot, "enter")  # enter continues, like Next
        # 2. parts drafted by suggest_split, one per paragraph: the heading is no part, and a part
        # that does not say the subject ("Garden and balcony") gets it
        assert wizard.step_id == "split-parts"
        assert len(parts(app)) == 4 and parts(app)[0].startswith("The tomatoes on the balcony")
        assert parts(app)[1].startswith("Garden and balcony notes: Ana, the neighbour")
        await focus_part(pilot, 2)
        await press(pilot, "ctrl+g")  # join the bike part with the drain part
        assert len(parts(app)) == 3 and "brake pads" in parts(app)[2] and "drain" in parts(app)[2]
        await focus_part(pilot, 1)
        await press(pilot, "alt+down")  # the neighbour part goes last
        assert parts(app)[2].startswith("Garden and balcony notes: Ana,")
        assert parts(app)[1].startswith("Garden and balcony notes: The bike")
        await press(pilot, "alt+up")  # and back
        assert parts(app)[1].startswith("Garden and balcony notes: Ana,")
        await press(pilot, "ctrl+o")  # a new empty part after it...
        assert parts(app)[2] == "" and len(parts(app)) == 4
        await press(pilot, "ctrl+r")  # ... removed again
        assert len(parts(app)) == 3
        # cut the neighbour part at the cursor: "Garden and balcony notes:" on its own...
        area = editor(app, 1).area
        area.focus()
        area.cursor_location = (0, len("Garden and balcony notes: "))
        await press(pilot, "ctrl+t")
        assert parts(app)[1] == "Garden and balcony notes:"
        assert parts(app)[2].startswith("Ana,") and len(parts(app)) == 4
        await focus_part(pilot, 1)
        await press(pilot, "alt+up")  # ... moved first, and removed
        assert parts(app)[0] == "Garden and balcony notes:"
        await pilot.click(".part-remove")  # the first part's ✕ button
        await settle(pilot, 1)
        assert len(parts(app)) == 3 and parts(app)[0].startswith("The tomatoes")
        # Back to step 1 and forward again keeps the edits (same memory)
        await press(pilot, "ctrl+b")
        assert wizard.step_id == "split-memory"
        await press(pilot, "ctrl+n")
        assert wizard.step_id == "split-parts" and len(parts(app)) == 3
        await press(pilot, "ctrl+n")
        # 3. tags and entities, prefilled, editable
        assert wizard.step_id == "split-labels"
        labels = wizard.query_one(LabelsEditor)
        tags = [i.value for i in labels.query(".part-tags")]
        entities = [i.value for i in labels.query(".part-entities")]
        # derived from the parts' text as edited (core's label_parts): the first part says no
        # tag, so it gets the tags no part mentions; the bike part says "Garden" and "bike"
        from core.ops.split import label_parts

        derived = label_parts(app.main_screen.view.rows[GARDEN].memory, parts(app))
        assert tags == [", ".join(d.tags) for d in derived]
        assert entities == [", ".join(d.entities) for d in derived]
        assert tags[0] == "home" and "garden" in tags[2] and "bike" in tags[2]
        assert "neighbours" in tags[1] and "Ana" in entities[1]
        await pilot.click(".part-tags")
        await press(pilot, "end", "ctrl+u", *"garden, plants")
        await press(pilot, "ctrl+n")
        # 4. the original: archive by default; delete lists what goes with it
        assert wizard.step_id == "split-original"
        fate = wizard.query_one("#split-fate", ChoiceList)
        assert fate.value == "archive"
        await press(pilot, "down")
        assert fate.value == "delete"
        await press(pilot, "ctrl+n")
        # 5. preview: deleted...
        assert wizard.step_id == "split-preview"
        preview = text_of(wizard.query_one("#split-preview-text"))
        assert "is deleted" in preview
        await press(pilot, "ctrl+b")  # ... no: archive it
        await press(pilot, "up", "ctrl+n")
        preview = text_of(wizard.query_one("#split-preview-text"))
        assert "3 new memories from 6a4de111" in preview and "is archived" in preview
        assert "strength 1, use count 3" in preview and "source chat" in preview
        assert "─split_from→ 6a4de111" in preview and "split_index 2 of total_splits 3" in preview
        assert "garden, plants" in preview
        shown = re.search(r"split: decompose 6a4de111 into 3 atomic memories "
                          r"\(([0-9a-f]{8}), ([0-9a-f]{8}), ([0-9a-f]{8})\)", preview)
        assert shown, preview
        assert commits(wizard_vault) == before  # nothing written so far
        await press(pilot, "ctrl+n", rounds=3)  # Split
        assert app.screen is app.main_screen
        # ONE commit, the right message; the original archived, three parts with split_from edges
        assert commits(wizard_vault) == before + 1
        [subject] = subjects(wizard_vault, 1)
        m = re.fullmatch(r"split: decompose 6a4de111 into 3 atomic memories "
                         r"\(([0-9a-f]{8}), ([0-9a-f]{8}), ([0-9a-f]{8})\)", subject)
        assert m, subject
        assert m.groups() == shown.groups()  # the preview IS the plan: the very ids it showed
        vault = on_disk(wizard_vault)
        assert vault.get(GARDEN).status == MemoryStatus.ARCHIVED
        edges = sorted((r for r in vault.relations.values() if r.relation_type == "split_from"
                        and r.to_memory_id == GARDEN), key=lambda r: r.metadata["split_index"])
        new = [vault.get(r.from_memory_id) for r in edges]
        assert [p.id[:8] for p in new] == list(m.groups())
        assert new[0].content.startswith("The tomatoes")
        assert new[0].meta.tags == ["garden", "plants"]
        assert new[1].content.startswith("Ana,") and "Ana" in new[1].entities
        assert "brake pads" in new[2].content and "drain" in new[2].content
        assert all(p.strength == 1.0 and p.use_count == 3 for p in new)
        # the tree shows the new memories with the cursor on the first; provenance shows the split
        main = app.main_screen
        assert main.current == new[0].id and main.memory_tree.cursor_memory == new[0].id
        assert main.query_one("#right").active == "tab-provenance"


async def test_one_key_moves_between_the_parts_and_ctrl_a_selects_a_part(wizard_vault):
    app = make_app(wizard_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, GARDEN)
        await press(pilot, "v")
        await press(pilot, "enter")
        assert app.screen.step_id == "split-parts" and len(parts(app)) == 4
        await focus_part(pilot, 0)
        await press(pilot, "tab")  # past the part's buttons: the next part's text
        assert app.focused is editor(app, 1).area
        await press(pilot, "ctrl+down")
        assert app.focused is editor(app, 2).area
        await press(pilot, "ctrl+up", "ctrl+up")
        assert app.focused is editor(app, 0).area
        await press(pilot, "shift+tab")  # (before the first part: the step's own widgets)
        await focus_part(pilot, 1)
        await press(pilot, "ctrl+a")
        assert editor(app, 1).area.selected_text == parts(app)[1]


async def test_part_editors_are_made_with_their_parts_never_drawn_empty_first(
        wizard_vault, monkeypatch):
    made: list[tuple[str, int, int]] = []
    real = PartEditor.__init__

    def recording(self, part, index, total):  # type: ignore[no-untyped-def]
        made.append((part.text, index, total))
        real(self, part, index, total)

    monkeypatch.setattr(PartEditor, "__init__", recording)
    app = make_app(wizard_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, GARDEN)
        await press(pilot, "v")
        await press(pilot, "enter")
        assert len(parts(app)) == 4
        assert made == [(text, i, 4) for i, text in enumerate(parts(app))]


async def test_split_undo_and_cancel_change_nothing(wizard_vault):
    app = make_app(wizard_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, GARDEN)
        state = files(wizard_vault)
        before = commits(wizard_vault)
        # Cancel at each step: nothing changes
        for steps in range(5):
            await press(pilot, "v")
            assert isinstance(app.screen, SplitWizard)
            for _ in range(steps):
                await press(pilot, "ctrl+n")
            assert app.screen.step == steps
            await press(pilot, "escape")
            assert app.screen is app.main_screen
        await press(pilot, "v")
        await pilot.click("#wizard-cancel")
        await settle(pilot, 1)
        assert app.screen is app.main_screen
        assert files(wizard_vault) == state and commits(wizard_vault) == before
        # a split straight through (core's draft as it is, the original archived) ...
        await press(pilot, "v")
        for _ in range(5):
            await press(pilot, "ctrl+n", rounds=3)
        assert app.screen is app.main_screen
        assert commits(wizard_vault) == before + 1
        assert on_disk(wizard_vault).get(GARDEN).status == MemoryStatus.ARCHIVED
        new = [r.from_memory_id for r in on_disk(wizard_vault).relations.values()
               if r.to_memory_id == GARDEN and r.relation_type == "split_from"]
        assert len(new) == 4
        # ... is undone: the parts go, the original is active again
        await press(pilot, "ctrl+z", rounds=3)
        vault = on_disk(wizard_vault)
        assert vault.get(GARDEN).status == MemoryStatus.ACTIVE
        assert not any(i in vault.memories for i in new)
        assert subjects(wizard_vault, 1)[0].startswith("undo: split: ")  # one revert commit
        assert commits(wizard_vault) == before + 2
        assert app.main_screen.current == GARDEN


async def test_split_validation_errors_block_next(wizard_vault):
    app = make_app(wizard_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        state = files(wizard_vault)
        # an archived memory cannot be split: said at step 1
        await goto(pilot, COMPOSITE)
        await press(pilot, "v")
        wizard = app.screen
        assert wizard.chosen_id == COMPOSITE
        await press(pilot, "ctrl+n")
        assert wizard.step_id == "split-memory"
        assert wizard.error_text == ("✗ refused: b8c9d0e1 is archived; only an active memory "
                                     "can be split")
        await press(pilot, "escape")
        await goto(pilot, GARDEN)
        await press(pilot, "v", "ctrl+n")
        wizard = app.screen
        assert wizard.step_id == "split-parts" and len(parts(app)) == 4
        # a single part
        for _ in range(3):
            await focus_part(pilot, 0)
            await press(pilot, "ctrl+r")
        assert len(parts(app)) == 1
        await press(pilot, "ctrl+n")
        assert wizard.step_id == "split-parts"
        assert wizard.error_text == "✗ refused: a split needs at least 2 parts"
        # an empty part
        await focus_part(pilot, 0)
        await press(pilot, "ctrl+o")
        await pilot.pause(0.05)
        await settle(pilot, 1)
        assert wizard.error_text == "✗ refused: part 2 is empty"  # re-checked as it changes
        await press(pilot, "ctrl+n")
        assert wizard.step_id == "split-parts"
        assert wizard.error_text == "✗ refused: part 2 is empty"
        # a part that only repeats the original (whitespace aside)
        await set_part(pilot, 1, "  " + GARDEN_TEXT.replace("\n\n", " ") + "\n")
        await press(pilot, "ctrl+n")
        assert wizard.step_id == "split-parts"
        assert wizard.error_text == "✗ refused: part 2 only repeats the original"
        await set_part(pilot, 0, GARDEN_TEXT)
        await press(pilot, "ctrl+n")
        assert wizard.error_text == "✗ refused: every part only repeats the original"
        # two parts the same
        await set_part(pilot, 0, "The tomatoes need water.")
        await set_part(pilot, 1, "the tomatoes   need water.")
        await press(pilot, "ctrl+n")
        assert wizard.error_text.startswith("✗ refused: two parts are the same (parts 1 and 2")
        # fixed: the line clears as the person types, and Next goes on
        await set_part(pilot, 1, "Ana has the spare key.")
        assert wizard.error_text == ""
        await press(pilot, "ctrl+n")
        assert wizard.step_id == "split-labels"
        await press(pilot, "escape")
    assert files(wizard_vault) == state


# -- consolidate ------------------------------------------------------------------------------
async def test_consolidate_marked_memories_end_to_end(wizard_vault):
    app = make_app(wizard_vault)
    before = commits(wizard_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main_screen
        # mark two memories in the tree: a visible mark, a count in the tree's title
        for memory_id in DUPES[:2]:
            await goto(pilot, memory_id)
            await press(pilot, "space")
        assert list(main.memory_tree.marks) == DUPES[:2]
        assert main.memory_tree.border_title == "memories 15 · 2 marked"
        assert main.current != DUPES[1]  # space marks and goes to the next row, as in ranger
        await press(pilot, "k")
        assert main.memory_tree.cursor_node.label.plain.startswith("● ")
        await press(pilot, "space", "k")  # unmark, and mark again
        assert main.memory_tree.border_title == "memories 15 · 1 marked"
        assert not main.memory_tree.cursor_node.label.plain.startswith("●")
        await press(pilot, "space")
        await press(pilot, "M")
        await wait_clusters(pilot)
        wizard = app.screen
        assert isinstance(wizard, ConsolidateWizard) and wizard.step_id == "merge-members"
        # 1. the marked memories are the first choice; the cluster is offered too
        options = wizard.query_one("#merge-choices")
        assert options.highlighted_option.id == "marked"
        assert "2 memories" in options.highlighted_option.prompt.plain
        cluster = next(o for o in options.options if o.id and o.id.startswith("clust-"))
        assert "cohesion 1.00" in cluster.prompt.plain and "suggests merge" in cluster.prompt.plain
        assert "d0d0e001" in text_of(wizard.query_one("#merge-members-detail"))
        await press(pilot, "ctrl+n")
        # 2. the merged memory: content editable, union of tags, strength, gist
        assert wizard.step_id == "merge-content"
        facts = text_of(wizard.query_one("#merge-facts"))
        assert "cohesion 1.00" in facts and "health" in facts and "Dr Silva" in facts
        assert "strength  1.20" in facts and "uses      3 (summed)" in facts
        area = wizard.query_one("#merge-content-text")
        assert area.text == DUPE_TEXTS[0]  # the draft says the repeated appointment once
        area.clear()
        area.insert("Dentist: Tuesday 3 July at 09:30 with Dr Silva (bring the referral).")
        await pilot.pause(0.4)  # the gist follows the content
        await settle(pilot)
        assert "none" in text_of(wizard.query_one("#merge-gist"))
        await press(pilot, "ctrl+n")
        # 3. the sources: delete by default
        assert wizard.step_id == "merge-sources"
        assert wizard.query_one("#merge-fate", ChoiceList).value == "delete"
        await press(pilot, "ctrl+n")
        # 4. confirm: relations and the commit message
        summary = text_of(wizard.query_one("#merge-summary"))
        assert "bring the referral" in summary and "2 consolidated_from relations" in summary
        assert "The sources are deleted" in summary
        shown = re.search(r"consolidate: merge 2 health memories into ([0-9a-f]{8}) "
                          r"\(d0d0e001, d0d0e002\)", summary)
        assert shown, summary
        assert summary.startswith(shown.group(1))  # the merged memory's row: its real id
        assert commits(wizard_vault) == before
        await press(pilot, "ctrl+n", rounds=3)
        assert app.screen is main
        # the cursor lands on the merged memory; the provenance pane shows the merge
        vault = on_disk(wizard_vault)
        merged = vault.get(main.current)
        assert merged.content == ("Dentist: Tuesday 3 July at 09:30 with Dr Silva (bring the "
                                  "referral).")
        assert main.query_one("#right").active == "tab-provenance"
        await settle(pilot)
        graph = main.query_one(ProvenanceGraph)
        assert graph.drawing is not None and set(graph.drawing.boxes) == {merged.id, *DUPES[:2]}
        assert "merge" in "\n".join(line.plain for line in graph.drawing.lines())
        assert not main.memory_tree.marks and main.memory_tree.border_title == "memories 14"
    assert commits(wizard_vault) == before + 1
    assert subjects(wizard_vault, 1) == [
        f"consolidate: merge 2 health memories into {merged.id[:8]} (d0d0e001, d0d0e002)"]
    assert merged.id[:8] == shown.group(1)  # the preview IS the plan: the id it showed
    assert DUPES[0] not in vault.memories and DUPES[1] not in vault.memories
    assert {r.to_memory_id for r in vault.relations.values()
            if r.relation_type == "consolidated_from"} >= set(DUPES[:2])
    assert merged.meta.tags == ["health"] and merged.use_count == 3


async def test_consolidate_validation_back_cancel_and_a_cluster(wizard_vault):
    app = make_app(wizard_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        state = files(wizard_vault)
        before = commits(wizard_vault)
        # fewer than two marked
        await press(pilot, "M")
        await wait_clusters(pilot)
        wizard = app.screen
        options = wizard.query_one("#merge-choices")
        assert options.highlighted_option.id.startswith("clust-")  # nothing marked: the cluster
        await press(pilot, "home")
        assert options.highlighted_option.id == "marked"
        await press(pilot, "ctrl+n")
        assert wizard.step_id == "merge-members"
        assert wizard.error_text == ("✗ refused: a consolidation needs at least 2 different "
                                     "memories")
        await press(pilot, "escape")
        # an archived member
        await goto(pilot, ARCHIVED)
        await press(pilot, "space")
        await goto(pilot, FRESH)
        await press(pilot, "space")
        await press(pilot, "M")
        await wait_clusters(pilot)
        wizard = app.screen
        await press(pilot, "ctrl+n")
        assert wizard.error_text == ("✗ refused: f6a7b8c9 is archived; only active memories "
                                     "can be consolidated")
        # a lower threshold finds more clusters (in a worker)
        select = wizard.query_one("#merge-threshold")
        select.value = 0.55
        await settle(pilot)
        await wait_clusters(pilot)
        clusters = [o for o in wizard.query_one("#merge-choices").options
                    if o.id and o.id.startswith("clust-")]
        assert len(clusters) >= 1
        select.value = 0.83
        await settle(pilot)
        await wait_clusters(pilot)
        # the cluster: an empty content is refused at step 2
        await press(pilot, "end", "ctrl+n")
        assert wizard.step_id == "merge-content"
        wizard.query_one("#merge-content-text").clear()
        await press(pilot, "ctrl+n")
        assert wizard.step_id == "merge-content"
        assert wizard.error_text == "✗ refused: the merged content is empty"
        # Back, and Next again: the members did not change, the (empty) content stays
        await press(pilot, "ctrl+b")
        assert wizard.step_id == "merge-members" and wizard.error_text == ""
        await press(pilot, "ctrl+n")
        assert wizard.query_one("#merge-content-text").text == ""
        await press(pilot, "ctrl+b", "ctrl+b")  # Back at the first step stays there
        await pilot.click("#wizard-cancel")
        await settle(pilot, 1)
        assert isinstance(app.screen, ConfirmScreen)  # the content was edited: it asks first
        await press(pilot, "y")
        assert app.screen is app.main_screen
        assert files(wizard_vault) == state and commits(wizard_vault) == before
        assert list(app.main_screen.memory_tree.marks) == [ARCHIVED, FRESH]  # cancel keeps the marks
        app.main_screen.action_clear_marks()
        # from the provenance pane: its memory's cluster first, archive the sources
        await goto(pilot, DUPES[2])
        await press(pilot, "p")
        await pilot.click("#prov-consolidate")
        await settle(pilot)
        await wait_clusters(pilot)
        wizard = app.screen
        assert isinstance(wizard, ConsolidateWizard)
        assert wizard.marked == []  # nothing marked: the pane's memory picks the cluster
        chosen = wizard.query_one("#merge-choices").highlighted_option
        assert "holds d0d0e003" in chosen.prompt.plain
        await press(pilot, "ctrl+n", "ctrl+n")
        await press(pilot, "down", "ctrl+n")  # archive the sources
        summary = text_of(wizard.query_one("#merge-summary"))
        assert "The sources are archived" in summary
        assert "consolidate: merge 3 health memories into " in summary
        await press(pilot, "ctrl+n", rounds=3)
        assert app.screen is app.main_screen
        merged = app.main_screen.current
    assert commits(wizard_vault) == before + 1
    assert subjects(wizard_vault, 1)[0].startswith(
        f"consolidate: merge 3 health memories into {merged[:8]} (")
    vault = on_disk(wizard_vault)
    assert all(vault.get(i).status == MemoryStatus.ARCHIVED for i in DUPES)
    assert vault.get(merged).content == DUPE_TEXTS[0]  # each fact once (core.ops.merge_text)


async def test_consolidate_undo(wizard_vault):
    app = make_app(wizard_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "M")
        await wait_clusters(pilot)
        for _ in range(4):
            await press(pilot, "ctrl+n", rounds=3)
        assert app.screen is app.main_screen
        merged = app.main_screen.current
        assert not any(i in on_disk(wizard_vault).memories for i in DUPES)
        await press(pilot, "ctrl+z", rounds=3)
        vault = on_disk(wizard_vault)
        assert merged not in vault.memories and all(i in vault.memories for i in DUPES)
        assert app.main_screen.current == DUPES[0]


# -- how the wizards open ---------------------------------------------------------------------
async def test_wizards_open_from_the_palette_the_pane_and_remapped_keys(wizard_vault):
    app = make_app(wizard_vault, keymap={"memvault.split": "V", "memvault.mark": "K"})
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main_screen
        commands = {c.title: c for c in app.get_system_commands(main)}
        for title in ("Split…", "Consolidate…", "Mark / unmark", "Clear marks"):
            assert title in commands
        await goto(pilot, GARDEN)
        commands["Split…"].callback()
        await settle(pilot, 1)
        assert isinstance(app.screen, SplitWizard) and app.screen.chosen_id == GARDEN
        await press(pilot, "escape")
        commands["Consolidate…"].callback()
        await settle(pilot, 1)
        await wait_clusters(pilot)
        assert isinstance(app.screen, ConsolidateWizard)
        await press(pilot, "escape")
        # the keymap: v no longer opens the split wizard, V does
        await press(pilot, "v")
        assert app.screen is main
        await press(pilot, "V")
        assert isinstance(app.screen, SplitWizard)
        await press(pilot, "escape")
        await press(pilot, "p")  # the provenance pane's buttons name the keys
        assert str(main.query_one("#prov-split").label) == "Split… (V)"
        await pilot.click("#prov-split")
        await settle(pilot, 1)
        assert isinstance(app.screen, SplitWizard) and app.screen.chosen_id == GARDEN
        await press(pilot, "escape")
        await press(pilot, "K")  # remapped mark key
        assert list(main.memory_tree.marks) == [GARDEN]
        commands["Clear marks"].callback()
        assert not main.memory_tree.marks
