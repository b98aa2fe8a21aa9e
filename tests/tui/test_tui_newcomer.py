"""What a newcomer hit on a second pass through the app, driven through Textual's pilot on the
small test vault: each test failed before its fix."""

from __future__ import annotations

import re
from pathlib import Path


from core import Vault
from core.ops.revert import undo

from tui.app.screens.gc import GcScreen

from tui_support import (
    said,
    SIZE,
    STALE,
    STALE2,
    FADING,
    goto,
    log,
    make_app,
    on_disk,
    text_of,
    settle,
    until,
    tui_vault,  # noqa: F401  (fixture)
)


APP = Path(__file__).resolve().parents[2] / "tui" / "app"


async def test_j_and_k_move_in_the_gc_preview_and_the_undo_list(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("C")
        await until(pilot, lambda: isinstance(app.screen, GcScreen)
                    and app.screen.query_one("#gc-table").row_count == 2)
        table = app.screen.query_one("#gc-table")
        assert table.cursor_row == 0
        await pilot.press("j")
        assert table.cursor_row == 1
        await pilot.press("k")
        assert table.cursor_row == 0
        await pilot.press("end")  # DataTable's own end scrolled sideways: the cursor stayed
        assert table.cursor_row == 1
        await pilot.press("home")
        assert table.cursor_row == 0
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("u")
        await until(pilot, lambda: type(app.screen).__name__ == "UndoListScreen"
                    and app.screen.query_one("#undo-list").option_count >= 2)
        options = app.screen.query_one("#undo-list")
        assert options.highlighted == 0
        await pilot.press("j")
        assert options.highlighted == 1
        await pilot.press("k")
        assert options.highlighted == 0
        await pilot.press("up")  # at the top: stays (OptionList's own wrapped to the end)
        assert options.highlighted == 0
        last = options.option_count - 1
        await pilot.press(*["down"] * (last + 3))
        assert options.highlighted == last


def test_every_list_of_the_app_moves_with_j_and_k():
    """No screen or widget makes a bare DataTable or OptionList (they move with arrows only):
    each is a RowTable or RowOptions, or a subclass with its own j/k."""
    bare = re.compile(r"(?<![\w.])(DataTable|OptionList)\(")
    found = [f"{path.relative_to(APP)}: {line.strip()}"
             for path in APP.rglob("*.py") if path.name != "lists.py"
             for line in path.read_text().splitlines() if bare.search(line)
             and not line.lstrip().startswith("class ")]
    assert found == []


async def test_go_to_an_ambiguous_prefix_lists_the_memories_to_pick_from(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("i")
        await until(pilot, lambda: type(app.screen).__name__ == "GoToScreen")
        await pilot.press(*"e5f6")
        choices = app.screen.query_one("#goto-choices")
        await until(pilot, lambda: choices.display and choices.option_count == 2)
        assert [choices.get_option_at_index(i).id for i in range(2)] == sorted([STALE, STALE2])
        assert "standing desk" in str(choices.get_option_at_index(
            sorted([STALE, STALE2]).index(STALE)).prompt)
        await pilot.press("enter")  # into the list
        assert app.focused is choices
        target = choices.get_option_at_index(1).id
        await pilot.press("j", "enter")
        await until(pilot, lambda: app.screen is app.main_screen
                    and app.main_screen.current == target)


def notes(app) -> list[str]:
    return [str(n.message) for n in said(app)]


async def test_archive_or_delete_on_a_deleted_memory_says_it_is_deleted(tui_vault):
    with Vault.open(tui_vault) as vault:
        vault.delete(STALE)
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main_screen.jumps.jump(STALE)  # as "i" with its id does: only in history
        await until(pilot, lambda: app.main_screen.current == STALE)
        for key in ("a", "x"):
            await pilot.press(key)
            await until(pilot, lambda: any("is deleted" in n for n in notes(app)))
            said = [n for n in notes(app) if "is deleted" in n][-1]
            assert said.startswith(STALE[:8]) and "H shows its history" in said
            assert "restores" in said
            assert not any("Highlight a memory first" in n for n in notes(app))
            app.clear_notifications()
        assert app.screen is app.main_screen


async def test_a_filter_on_an_unknown_field_says_so_and_names_the_field_meant(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"tags:home")
        error = app.main_screen.query_one("#filter-error")
        await until(pilot, lambda: error.display and "tag:home" in text_of(error))
        assert 'no field "tags" (did you mean tag:home?)' in text_of(error)


async def test_a_refused_secret_says_what_was_found_and_offers_redact_allow_or_edit(
        tui_vault, monkeypatch):
    from textual.widgets import TextArea

    from tui.app.screens.new_memory import NewMemoryScreen

    monkeypatch.delenv("MEMVAULT_SECRETS", raising=False)
    key = "AKIAIOSFODNN7EXAMPLE"
    text = f"The deploy bot's AWS key is {key} for the staging account."
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, NewMemoryScreen))
        form = app.screen
        form.query_one("#new-content", TextArea).text = text
        for attempt in range(2):
            await pilot.press("ctrl+s")
            await until(pilot, lambda: form.query_one("#new-secret-buttons").display)
            error = text_of(form.query_one("#new-error"))
            assert "This looks like a secret: aws-key in the content (character 29)" in error
            assert "--allow-secret" not in error and "memory " not in error  # no made-up id
            assert not form.query_one("#new-duplicates").display  # no "looking for…" left
        assert key not in error
        await pilot.click("#new-edit")
        area = form.query_one("#new-content", TextArea)
        await until(pilot, lambda: area.selected_text == key)
        assert app.focused is area and not form.query_one("#new-secret-buttons").display
        await pilot.press("ctrl+s")
        await until(pilot, lambda: form.query_one("#new-secret-buttons").display)
        await pilot.click("#new-redact")
        await until(pilot, lambda: app.screen is app.main_screen)
        with Vault.open(tui_vault) as vault:
            [added] = [m for m in vault.memories.values() if "deploy bot" in m.content]
        assert key not in added.content and "[REDACTED:aws-key]" in added.content


async def test_a_refused_secret_can_be_added_as_it_is_once(tui_vault, monkeypatch):
    from textual.widgets import TextArea

    from tui.app.screens.new_memory import NewMemoryScreen

    monkeypatch.delenv("MEMVAULT_SECRETS", raising=False)
    text = "The deploy bot's AWS key is AKIAIOSFODNN7EXAMPLE for the staging account."
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, NewMemoryScreen))
        form = app.screen
        form.query_one("#new-content", TextArea).text = text
        await pilot.press("ctrl+s")
        await until(pilot, lambda: form.query_one("#new-secret-buttons").display)
        await pilot.click("#new-allow")
        await until(pilot, lambda: app.screen is app.main_screen)
        with Vault.open(tui_vault) as vault:
            assert any(m.content == text for m in vault.memories.values())
            assert vault.secret_policy is None
        assert app.service.state.vault_or_fail().secret_policy is None  # once: not kept


async def test_the_word_diff_header_and_the_history_show_the_subject_without_trailers(tui_vault):
    from tui.app.screens.version_diff import VersionDiffScreen

    with Vault.open(tui_vault) as vault:
        vault.archive(FADING)
        undo(vault)  # "undo: archive: ...", with the Memvault-Reverts trailer
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, FADING)
        await pilot.press("H")
        await settle(pilot)
        await pilot.press("H")
        pane = app.main_screen.query_one("#history")
        await until(pilot, lambda: pane.info is not None)
        shown = [str(pane.query_one("#history-table").get_cell_at((0, 4)))]
        assert shown[0].startswith("undo: archive") and "Memvault" not in shown[0]
        await pilot.press("D")
        await until(pilot, lambda: isinstance(app.screen, VersionDiffScreen))
        title = text_of(app.screen.query_one("#diff-title"))
        assert "undo: archive" in title and "Memvault-Reverts" not in title


async def test_archive_leaves_the_cursor_on_the_next_row_and_space_moves_down(tui_vault):

    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main_screen
        await goto(pilot, FADING)
        tree = main.memory_tree
        line = tree.cursor_line
        group = tree.cursor_node.parent
        following = tree.get_node_at_line(line + 1).data.memory_id
        await pilot.press("a")
        await until(pilot, lambda: main.view.rows[FADING].memory.status.value == "archived")
        await settle(pilot)
        assert main.current == following and tree.cursor_node.parent.data.key == group.data.key
        assert tree.cursor_line == line  # stayed in place: the next row moved up into it
        # space marks and moves down
        await pilot.press("space")
        assert list(tree.marks) == [following] and tree.cursor_line == line + 1


async def test_the_gc_preview_keeps_single_rows_out_or_pins_them(tui_vault):
    from core.model.records import is_pinned

    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("C")
        await until(pilot, lambda: isinstance(app.screen, GcScreen)
                    and app.screen.query_one("#gc-table").row_count == 2)
        gc = app.screen
        table = gc.query_one("#gc-table")
        assert [str(k.value) for k in table.rows] == [STALE, STALE2]
        await pilot.press("space")  # keep STALE out; the cursor goes on
        assert gc.kept == {STALE} and table.cursor_row == 1
        assert "1 kept out by you" in text_of(gc.query_one("#gc-title"))
        assert "1 active memory" in text_of(gc.query_one("#gc-title"))
        await pilot.press("x")
        await until(pilot, lambda: type(app.screen).__name__ == "ConfirmScreen")
        await pilot.press("y")
        await until(pilot, lambda: STALE2 not in on_disk(tui_vault).memories)
        await settle(pilot)
        vault = on_disk(tui_vault)
        assert STALE in vault.memories and log(tui_vault)[0] == "gc: prune 1 memory below 0.05"
        # F pins a row: one commit, and the row leaves the preview
        await pilot.press("C")
        await until(pilot, lambda: isinstance(app.screen, GcScreen)
                    and app.screen.query_one("#gc-table").row_count == 1)
        await pilot.press("F")
        await until(pilot, lambda: is_pinned(on_disk(tui_vault).get(STALE)))
        title = app.screen.query_one("#gc-title")
        await until(pilot, lambda: "Nothing to collect" in text_of(title))
        assert "1 pinned memory below it is kept out (F on the main screen unpins)" \
            in text_of(title)


async def test_provenance_boxes_use_the_width_and_one_commit_consumed_is_one_line(
        tui_vault):
    from core.ops.consolidate import execute_consolidation
    from tui.app.widgets.provenance import ProvenanceGraph, ProvenancePane

    from tui_support import CRITICAL, DANGER

    with Vault.open(tui_vault) as vault:
        merged = execute_consolidation(vault, [FADING, DANGER, CRITICAL], force=True)
    merged_id = merged.merged.id
    app = make_app(tui_vault)
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(pilot)
        app.main_screen.jumps.jump(merged_id)
        await settle(pilot, 1)
        await pilot.press("p")  # the pane was hidden when it was first drawn
        pane = app.main_screen.query_one(ProvenancePane)
        graph = pane.query_one(ProvenanceGraph)
        await until(pilot, lambda: graph.drawing is not None
                    and merged_id in graph.drawing.boxes
                    and graph.drawing.boxes[merged_id].w > 40)
        sources = [graph.drawing.boxes[i].w for i in (FADING, DANGER, CRITICAL)]
        assert min(sources) >= 25  # three share the pane's width, not 17 columns each
        title = text_of(pane.query_one("#prov-title"))
        consumed = [line for line in title.splitlines() if " consumed in " in line]
        assert len(consumed) == 1  # one commit consumed all three: one line
        assert all(i[:8] in consumed[0] for i in (FADING, DANGER, CRITICAL))


async def test_the_quit_key_shows_in_the_footer_at_80_columns(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)

        def footer_keys():  # (the footer's key widgets, by their CSS type name)
            return {k.key: k for k in app.main_screen.query("FooterKey")}

        await until(pilot, lambda: "q" in footer_keys())
        quit_key = footer_keys()["q"]
        assert quit_key.description == "Quit"
        assert quit_key.region.width > 0 and quit_key.region.right <= 80 - len("^p palette")
