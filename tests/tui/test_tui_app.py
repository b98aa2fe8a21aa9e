"""The app driven through Textual's pilot, on a small real vault in tmp_path: groups and counts,
group modes, the filter, gist/content, archive and delete (with the modal), go to id, undo, gc,
history and restore, provenance, following the vault, the palette, help and the keymap."""

from __future__ import annotations

import re

import pytest

from core import MemoryStatus, Vault
from tui.app.screens.delete import DeleteScreen
from tui.app.screens.gc import GcScreen
from tui.app.screens.goto import GoToScreen
from tui.app.screens.help import HelpScreen
from tui.app.screens.version import VersionScreen
from tui.app.widgets.detail import DetailPane
from tui.app.widgets.provenance import ProvenanceGraph, ProvenancePane

from tui_support import (
    said,
    ARCHIVED,
    COMPOSITE,
    CRITICAL,
    DANGER,
    FADING,
    FRESH,
    GIST,
    PART_IDS,
    PROMOTED,
    SIZE,
    STALE,
    STALE2,
    make_app,
    log,
    on_disk,
    goto,
    settle,
    text_of,
    top_labels,
    tree_lines,
    pane_shows,
    until,
    tui_vault,  # noqa: F401  (fixture)
)

pytestmark = pytest.mark.asyncio





async def test_tree_shows_groups_and_counts(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main_screen
        assert top_labels(app) == ["active  8", "promoted  1", "archived  2"]
        # the first group is open, showing its tags with counts
        lines = tree_lines(app)
        assert "  ci  3" in lines and "  home  2" in lines and "  work  2" in lines
        assert main.memory_tree.border_title == "memories 11"
        assert "group: status → tag" in main.memory_tree.border_subtitle
        # opening a tag shows leaves: score, bar, short id, first words
        await pilot.press("down")  # first tag: admin
        await pilot.press("enter")
        await settle(pilot, 1)
        leaf = next(line for line in tree_lines(app) if PART_IDS[1][:8] in line)
        assert re.match(r"^\s+\d\.\d\d [█▏▎▍▌▋▊▉░]{5} 9a9a0002 Payroll runs on the 25th", leaf)


async def test_app_opens_the_vault_in_a_worker(tui_vault):
    app = make_app(tui_vault, open_now=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert top_labels(app)[0] == "active  8"
        assert app.main_screen.view is not None and len(app.main_screen.view) == 11


async def test_group_modes(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("m")
        await settle(pilot, 1)
        assert app.main_screen.memory_tree.mode == "tag"
        labels = top_labels(app)
        assert labels[:3] == ["admin  2", "assistant  1", "ci  3"]
        await pilot.press("m")
        await settle(pilot, 1)
        assert app.main_screen.memory_tree.mode == "band"
        labels = top_labels(app)
        assert [label.split("  ")[0] for label in labels] == [
            "fresh", "fading", "danger zone", "critical", "below forget threshold"]
        counts = [int(label.split("  ")[1]) for label in labels]
        assert sum(counts) == 11 and counts[-1] == 3  # STALE, STALE2, ARCHIVED
        await pilot.press("m")
        await settle(pilot, 1)
        assert app.main_screen.memory_tree.mode == "lineage"
        labels = top_labels(app)
        assert COMPOSITE[:8] in labels[0] and labels[0].endswith("+2")
        assert labels[-1] == "no lineage  8"
        app.main_screen.memory_tree.expand_node(app.main_screen.memory_tree.root.children[0])
        await settle(pilot, 1)
        children = [n.label.plain for n in app.main_screen.memory_tree.root.children[0].children]
        assert all(c.startswith("split ") for c in children) and len(children) == 2
        await pilot.press("m")
        await settle(pilot, 1)
        assert app.main_screen.memory_tree.mode == "duplicates"  # (tests/tui/test_tui_duplicates.py)
        await pilot.press("m")
        await settle(pilot, 1)
        assert app.main_screen.memory_tree.mode == "status_tag"


async def test_sort_orders(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main_screen
        main.memory_tree.mode = "band"
        await settle(pilot, 1)
        tree = main.memory_tree
        group = tree.root.children[-1]  # below the forget threshold: STALE2, STALE, ARCHIVED
        tree.expand_node(group)
        by_score = [n.data.memory_id for n in group.children]
        assert by_score == [ARCHIVED, STALE2, STALE]  # higher score first
        await pilot.press("s")  # last used
        await settle(pilot, 1)
        group = tree.root.children[-1]
        assert [n.data.memory_id for n in group.children] == [ARCHIVED, STALE2, STALE]
        await pilot.press("s")  # created
        await settle(pilot, 1)
        group = tree.root.children[-1]
        assert [n.data.memory_id for n in group.children][0] == ARCHIVED
        assert "sort: created" in tree.border_subtitle


@pytest.mark.parametrize("text, expected", [
    ("tag:ci", {FADING, DANGER, CRITICAL}),
    ("status:archived", {ARCHIVED, COMPOSITE}),
    ("status:arch tag:admin", {COMPOSITE}),
    ("score<0.05", {STALE, STALE2, ARCHIVED}),
    ("pytest", {FRESH, FADING}),
    ("has:gist", {FRESH}),
    ("-tag:ci tag:work", {ARCHIVED, COMPOSITE, PART_IDS[0]}),
    ("id:e5f6", {STALE, STALE2}),
    ("uses>5", {FRESH, PROMOTED}),
])
async def test_filter_terms(tui_vault, text, expected):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await pilot.press(*list(text))
        await settle(pilot, 1)
        main = app.main_screen
        assert set(main.memory_tree.matched) == expected
        assert main.memory_tree.border_title == f"memories {len(expected)} of 11"
        await pilot.press("enter")  # back to the tree
        assert app.focused is main.memory_tree


async def test_filter_reports_terms_it_cannot_read(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *list("status:nope ci"))
        await settle(pilot, 1)
        error = app.main_screen.query_one("#filter-error")
        assert error.display and "status:nope" in text_of(error)
        # "ci" still applies (FRESH mentions "the CI matrix")
        assert set(app.main_screen.memory_tree.matched) == {FRESH, FADING, DANGER, CRITICAL}


async def test_toggle_gist_and_content(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, FRESH)
        detail = app.main_screen.query_one(DetailPane)
        body = detail.query_one("#body")
        title = detail.query_one("#body-title")
        assert text_of(body).strip() == GIST and text_of(title).startswith("gist")
        await pilot.press("c")
        assert "[memvault] repository" in text_of(body)
        assert text_of(title).startswith("content")
        await pilot.press("c")
        assert text_of(body).strip() == GIST
        await goto(pilot, FADING)  # no gist: the content, and it says so
        assert "no gist" in text_of(title)
        assert text_of(body).startswith("CI runs the test suite")
        fields = text_of(detail.query_one("#detail-fields"))
        for label in ("id", "status", "tags", "entities", "created", "last used", "use count",
                      "strength", "score", "forgotten"):
            assert label in fields


async def test_archive_by_key_changes_the_vault(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, DANGER)
        await pilot.press("a")
        await settle(pilot)
        assert on_disk(tui_vault).get(DANGER).status == MemoryStatus.ARCHIVED
        assert log(tui_vault)[0].startswith(f"archive: {DANGER[:8]}")
        assert app.main_screen.view.rows[DANGER].memory.status == MemoryStatus.ARCHIVED
        assert app.main_screen.current != DANGER  # the cursor stayed: the next row
        assert top_labels(app) == ["active  7", "promoted  1", "archived  3"]
        # again: unarchive
        await goto(pilot, DANGER)
        await pilot.press("a")
        await settle(pilot)
        assert on_disk(tui_vault).get(DANGER).status == MemoryStatus.ACTIVE
        assert log(tui_vault)[0].startswith(f"unarchive: {DANGER[:8]}")


async def test_delete_asks_and_says_what_goes_with_it(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, FRESH)
        await pilot.press("x")
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, DeleteScreen)
        text = " ".join(text_of(s) for s in modal.query("Static"))
        assert "With it go 2 relations" in text and "supports" in text and "related" in text
        await pilot.press("n")  # cancel: nothing happens
        await settle(pilot, 1)
        assert FRESH in on_disk(tui_vault).memories
        await pilot.press("x")
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot)
        vault = on_disk(tui_vault)
        assert FRESH not in vault.memories and not vault.relations_of(FADING)
        assert log(tui_vault)[0] == (f"delete: {FRESH[:8]} Prefers pytest with plain assert "
                                     "statements;… (+2 relations)")
        assert FRESH not in app.main_screen.view.rows


async def test_delete_by_mouse(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, STALE)
        await pilot.press("delete")
        await pilot.pause()
        await pilot.click("#confirm")
        await settle(pilot)
        assert STALE not in on_disk(tui_vault).memories


async def test_go_to_id_with_a_unique_prefix(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("i")
        await pilot.pause()
        assert isinstance(app.screen, GoToScreen)
        await pilot.press(*list("e5f6"))
        await pilot.pause()
        hint = text_of(app.screen.query_one("#goto-hint"))
        assert "2 memories start with it" in hint
        await pilot.press("enter")  # ambiguous: stays open, into the list of the two
        await pilot.pause()
        assert isinstance(app.screen, GoToScreen)
        await pilot.press("a")  # e5f6a (typed in the box again): unique
        await pilot.press("enter")
        await settle(pilot, 1)
        assert app.main_screen.current == STALE
        assert app.main_screen.memory_tree.cursor_memory == STALE


async def test_delete_of_a_memory_with_one_relation_says_goes(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, DANGER)
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, DeleteScreen))
        text = " ".join(text_of(s) for s in app.screen.query("Static"))
        assert "With it goes 1 relation:" in text and "With it go 1" not in text
        await pilot.press("n")


async def test_go_to_a_prefix_too_short_says_so_and_how_many_start_with_it(tui_vault):
    """``i e5f`` (two memories start with it): the hint and the refusal explain prefixes, as
    the command line does, instead of "no memory"."""
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("i", *list("e5f"))
        await pilot.pause()
        hint = " ".join(text_of(app.screen.query_one("#goto-hint")).split())
        assert "a prefix needs at least 4 characters; 2 memories start with it" in hint
        await pilot.press("enter")
        await until(pilot, lambda: any("a prefix needs at least 4" in str(n.message)
                                       for n in said(app)))


async def test_go_to_clears_a_filter_that_hides_the_memory(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *list("tag:ci"), "enter")
        await settle(pilot, 1)
        await pilot.press("i", *list(PROMOTED[:6]), "enter")
        await settle(pilot, 1)
        assert app.main_screen.current == PROMOTED
        assert app.main_screen.memory_tree.filter.text == ""


async def test_undo_and_redo_revert_exactly_the_operation(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, FRESH)
        await pilot.press("a")
        await settle(pilot)
        uses = on_disk(tui_vault).get(FRESH).use_count
        Vault.open(tui_vault).touch(FRESH)  # another process (the CLI) uses it meanwhile
        await pilot.press("ctrl+z")
        await settle(pilot)
        memory = on_disk(tui_vault).get(FRESH)
        assert memory.status == MemoryStatus.ACTIVE
        assert memory.use_count == uses + 1  # the other process's touch is kept
        assert log(tui_vault)[0].startswith(f"undo: archive: {FRESH[:8]}")
        await goto(pilot, FRESH)
        await pilot.press("x")
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot)
        assert FRESH not in on_disk(tui_vault).memories
        await pilot.press("ctrl+z")
        await settle(pilot)
        vault = on_disk(tui_vault)
        assert FRESH in vault.memories and len(vault.relations_of(FRESH)) == 2
        assert log(tui_vault)[0].startswith(f"undo: delete: {FRESH[:8]}")
        assert app.main_screen.current == FRESH
        await pilot.press("ctrl+y")  # redo: the delete again
        await settle(pilot)
        assert FRESH not in on_disk(tui_vault).memories
        assert log(tui_vault)[0].startswith(f"redo: delete: {FRESH[:8]}")


async def test_gc_preview_then_apply(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("C")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GcScreen)
        table = screen.query_one("#gc-table")
        assert table.row_count == 2  # the active ones below 0.05; ARCHIVED is not a candidate
        assert [str(k.value) for k in table.rows] == [STALE, STALE2]
        await pilot.press("x")
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot)
        vault = on_disk(tui_vault)
        assert STALE not in vault.memories and STALE2 not in vault.memories
        assert log(tui_vault)[0] == "gc: prune 2 memories below 0.05"
        assert app.screen is app.main_screen
        await pilot.press("ctrl+z")
        await settle(pilot)
        vault = on_disk(tui_vault)
        assert STALE in vault.memories and STALE2 in vault.memories


async def test_history_view_an_earlier_version_and_restore_it(tui_vault):
    vault = Vault.open(tui_vault)
    vault.update(FADING, content="CI runs the test suite with pytest -n 4 on Python 3.12 only.")
    vault.close()
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, FADING)
        await pilot.press("H")
        await until(pilot, lambda: pane_shows(app, "history", FADING))
        pane = app.main_screen.query_one("#history")
        assert pane.info is not None and [e.action for e in pane.info.entries] == [
            "changed", "created"]
        table = pane.query_one("#history-table")
        table.focus()
        await pilot.press("down", "enter")  # the first version
        await settle(pilot)
        assert isinstance(app.screen, VersionScreen)
        text = text_of(app.screen.query_one("#version-content"))
        assert "pytest -n 2 on Python 3.11 and 3.12" in text
        await pilot.press("r")
        await settle(pilot)
        assert app.screen is app.main_screen
        assert on_disk(tui_vault).get(FADING).content.startswith(
            "CI runs the test suite with pytest -n 2")
        assert log(tui_vault)[0].startswith(f"restore: {FADING[:8]}")
        # the history pane reloads with the restore on top
        await settle(pilot)
        assert pane.info.entries[0].message.startswith("restore:")


async def test_history_of_a_deleted_memory_by_id(tui_vault):
    vault = Vault.open(tui_vault)
    vault.delete(CRITICAL)
    vault.close()
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("i", *list(CRITICAL[:8]), "enter")
        await settle(pilot)
        main = app.main_screen
        assert main.current == CRITICAL
        assert "deleted" in text_of(main.query_one("#detail-fields"))
        pane = main.query_one("#history")
        assert pane.info is not None and not pane.info.live
        assert pane.info.entries[0].action == "deleted"
        pane.query_one("#history-table").focus()
        await pilot.press("r")  # restore the version the deletion removed
        await settle(pilot)
        assert CRITICAL in on_disk(tui_vault).memories


async def test_provenance_pane_shows_a_split_and_jumps(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, COMPOSITE)
        await pilot.press("p")
        await until(pilot, lambda: pane_shows(app, "provenance", COMPOSITE))
        pane = app.main_screen.query_one(ProvenancePane)
        graph = pane.query_one(ProvenanceGraph)
        assert graph.drawing is not None
        assert set(graph.drawing.boxes) == {COMPOSITE, *PART_IDS}
        drawn = "\n".join(line.plain for line in graph.drawing.lines())
        assert "split" in drawn and "┬" in drawn and "┴" in drawn
        assert COMPOSITE[:8] in drawn and PART_IDS[0][:8] in drawn
        # the original is above its parts
        assert graph.drawing.boxes[COMPOSITE].y < graph.drawing.boxes[PART_IDS[0]].y
        graph.focus()
        await pilot.press("right")
        assert graph.highlighted in PART_IDS
        chosen = graph.highlighted
        await pilot.press("enter")
        await settle(pilot)
        assert app.main_screen.current == chosen


async def test_provenance_click_jumps_and_lists_other_relations(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, PART_IDS[0])
        await pilot.press("p")
        await until(pilot, lambda: pane_shows(app, "provenance", PART_IDS[0]))
        graph = app.main_screen.query_one(ProvenanceGraph)
        box = graph.drawing.boxes[COMPOSITE]
        await pilot.click(ProvenanceGraph, offset=(box.x + 2, box.y + 1))
        await settle(pilot)
        assert app.main_screen.current == COMPOSITE
        await goto(pilot, FRESH)
        await settle(pilot)
        options = app.main_screen.query_one("#prov-relations")
        assert options.option_count == 2  # supports (from FADING) and related (from DANGER)


async def test_reload_key_after_an_external_change(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        other = Vault.open(tui_vault)  # another process
        other.archive(FADING)
        other.add("A memory from elsewhere", tags=["ci"], memory_id="feedf00d-ext")
        other.close()
        await pilot.press("ctrl+r")
        await settle(pilot)
        view = app.main_screen.view
        assert view.rows[FADING].memory.status == MemoryStatus.ARCHIVED
        assert "feedf00d-ext" in view.rows
        assert top_labels(app)[0] == "active  8"


async def test_follows_the_vault_on_its_own(tui_vault):
    app = make_app(tui_vault, poll_interval=0.1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        other = Vault.open(tui_vault)
        other.delete(DANGER)
        other.close()
        for _ in range(30):
            await pilot.pause(0.1)
            await app.workers.wait_for_complete()
            if DANGER not in app.main_screen.view.rows:
                break
        assert DANGER not in app.main_screen.view.rows


async def test_a_file_written_outside_memvault_is_adopted(tui_vault):
    app = make_app(tui_vault, poll_interval=0.1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        vault = on_disk(tui_vault)
        memory = vault.get(STALE).model_copy(update={"content": "Edited in an editor."})
        (tui_vault / "memories" / "feedbeef-new.json").write_bytes(
            vault.layout.encode(memory.model_copy(update={"id": "feedbeef-new"})))
        for _ in range(30):
            await pilot.pause(0.1)
            await app.workers.wait_for_complete()
            if "feedbeef-new" in app.main_screen.view.rows:
                break
        assert "feedbeef-new" in app.main_screen.view.rows
        assert log(tui_vault)[0].startswith("external: 1 file")


async def test_command_palette_finds_memories(tui_vault):
    from tui.app.commands import MemoryCommands

    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        provider = MemoryCommands(app.screen)
        hits = [hit async for hit in provider.search("standing desk")]
        assert len(hits) == 1 and STALE[:8] in str(hits[0].match_display)
        hits = [hit async for hit in provider.search(PROMOTED[:8])]
        assert len(hits) == 1
        hits[0].command()
        await settle(pilot, 1)
        assert app.main_screen.current == PROMOTED
        titles = [c.title for c in app.get_system_commands(app.main_screen)]
        for title in ("Archive / unarchive", "Delete", "Undo", "Go to id", "gc preview",
                      "Stats", "Group by lineage", "Sort by created", "Reload", "Help"):
            assert title in titles


async def test_help_lists_keys_and_the_keymap_remaps_them(tui_vault):
    app = make_app(tui_vault, keymap={"memvault.archive": "A"})
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = "\n".join(text_of(s) for s in app.screen.query("#help-body Static"))
        assert "memvault.archive" in text and "Archive" in text
        await pilot.press("escape")
        await goto(pilot, FADING)
        await pilot.press("a")  # no longer bound
        await settle(pilot, 1)
        assert on_disk(tui_vault).get(FADING).status == MemoryStatus.ACTIVE
        await pilot.press("A")
        await settle(pilot)
        assert on_disk(tui_vault).get(FADING).status == MemoryStatus.ARCHIVED


async def test_stats_screen(tui_vault):
    from tui.app.screens.stats import StatsScreen

    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("S")
        await settle(pilot)
        assert isinstance(app.screen, StatsScreen)
        status = text_of(app.screen.query_one("#stats-status"))
        assert "active" in status and "archived" in status
        await pilot.press("escape")
        assert app.screen is app.main_screen


async def test_refusal_is_a_notification_not_a_crash(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # another process deletes the memory under the cursor; the app has not reloaded yet
        await goto(pilot, FADING)
        other = Vault.open(tui_vault)
        other.delete(FADING)
        other.close()
        await pilot.press("a")
        await settle(pilot)
        assert any(n.severity == "error" for n in said(app))
        assert app.is_running


async def test_gc_on_a_machine_that_is_not_the_maintenance_machine(tui_vault, monkeypatch):
    from core.vault import Plan

    vault = Vault.open(tui_vault)
    vault.apply(lambda v: Plan("sync: designate maintenance machine",
                                    meta={"maintenance_machine": "the-server"}))
    vault.close()
    monkeypatch.setenv("MEMVAULT_MACHINE_ID", "this-laptop")
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("C")
        await settle(pilot)
        assert "the-server" in text_of(app.screen.query_one("#gc-title"))
        await pilot.press("x")
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot)
        assert any(n.severity == "error" and "maintenance machine" in n.message
                   for n in said(app))
        assert STALE in on_disk(tui_vault).memories
