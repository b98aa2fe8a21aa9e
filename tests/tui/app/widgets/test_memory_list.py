"""The flat list beside the tree: f switches, every memory the filter keeps in one
sortable table (s: next sort column, o: the other way, a header click), the sort in its title,
the filter's words highlighted in the rows and in the detail, j/k/G moving, the panes following
its cursor, rows added in chunks."""

from __future__ import annotations

import pytest

from tui.app.view import MATCH_STYLE
from tui.app.widgets.memory_list import MemoryList

from tui_support import (
    FADING,
    FRESH,
    SIZE,
    goto,
    make_app,
    on_disk,
    settle,
    text_of,
    tui_vault,  # noqa: F401  (fixture)
    until,
)

pytestmark = pytest.mark.asyncio


def listed(app) -> list[str]:
    table = app.main_screen.memory_list
    return [str(table.coordinate_to_cell_key((r, 0)).row_key.value)
            for r in range(table.row_count)]


def styled(text, style: str) -> list[str]:
    return [text.plain[s.start:s.end] for s in text.spans if str(s.style) == style]


async def _list(pilot):
    await settle(pilot)
    await pilot.press("f")
    await settle(pilot)
    return pilot.app.main_screen.memory_list


async def test_f_switches_to_the_list_and_back(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        main = app.main_screen
        table = await _list(pilot)
        assert main.showing_list and table.display and not main.memory_tree.display
        assert app.focused is table
        view = main.view
        assert sorted(listed(app)) == sorted(view.rows)
        scores = [view.rows[i].score for i in listed(app)]
        assert scores == sorted(scores, reverse=True)
        assert table.border_title == f"memories {len(view.rows)} · sorted by score ↓"
        assert main.current == listed(app)[0]
        await pilot.press("j", "j")
        assert main.current == listed(app)[2]
        assert main.detail.row.id == listed(app)[2]
        await pilot.press("k")
        assert main.current == listed(app)[1]
        chosen = main.current
        await pilot.press("f")  # back to the tree, on the same memory
        await settle(pilot)
        assert main.memory_tree.display and not table.display and app.focused is main.memory_tree
        assert main.memory_tree.cursor_node.data.memory_id == chosen


async def test_s_o_and_a_header_click_sort_the_list(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        main = app.main_screen
        table = await _list(pilot)
        rows = main.view.rows
        await pilot.press("s")  # status, a to z (active first)
        assert table.sort_column == "status" and not table.descending
        assert "sorted by status ↑" in table.border_title
        statuses = [rows[i].memory.status.value for i in listed(app)]
        assert statuses[0] == "active" and statuses[-1] in ("archived", "superseded")
        await pilot.press("s")  # id
        assert listed(app) == sorted(rows)
        await pilot.press("o")
        assert listed(app) == sorted(rows, reverse=True)
        assert "sorted by id ↓" in table.border_title
        await pilot.press("s", "s")  # text, then tags
        assert table.sort_column == "tags"
        await pilot.press("s")  # last used: newest first
        used = [rows[i].memory.last_used for i in listed(app)]
        assert used == sorted(used, reverse=True)
        await pilot.click(MemoryList, offset=(3, 1))  # the score column's header
        await settle(pilot)
        assert table.sort_column == "score" and table.descending
        await pilot.click(MemoryList, offset=(3, 1))  # again: the other way
        await settle(pilot)
        assert table.sort_column == "score" and not table.descending
        assert "sorted by score ↑" in table.border_title


async def test_the_list_order_is_a_reactive_the_screen_watches(tui_vault):
    """The sort is the list's reactive ``order`` (as the tree's ``sort``): set from anywhere
    (the palette, the settings, a test), the rows are sorted at once, the title says it and
    the settings keep it, with no message to send; a column it cannot sort by is refused."""
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        main = app.main_screen
        table = await _list(pilot)
        rows = main.view.rows
        current = main.current
        table.order = ("id", False)
        assert listed(app) == sorted(rows)  # (sorted at once: no pause)
        await settle(pilot)
        assert "sorted by id ↑" in table.border_title
        assert (app.settings.list_sort, app.settings.list_descending) == ("id", False)
        assert main.current == current  # the cursor stays on its memory
        table.order = ("id", True)
        assert listed(app) == sorted(rows, reverse=True)
        await settle(pilot)
        assert "sorted by id ↓" in table.border_title and app.settings.list_descending
        with pytest.raises(ValueError, match="cannot sort by 'colour'"):
            table.order = ("colour", True)
        assert table.order == ("id", True)


async def test_the_filter_keeps_rows_and_its_words_are_highlighted(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        main = app.main_screen
        table = await _list(pilot)
        await pilot.press("slash", *"pytest")
        await settle(pilot)
        assert set(listed(app)) == {FRESH, FADING}
        assert table.border_title.startswith(f"memories 2 of {len(main.view.rows)}")
        text = table.get_cell(FRESH, "text").text  # (FADING's "pytest" is past the column's end)
        assert [w.lower() for w in styled(text, MATCH_STYLE)] == ["pytest"]
        await pilot.press("enter")  # back to the list
        assert app.focused is table
        await table.run_action("scroll_bottom")  # (G)
        await settle(pilot)
        body = main.detail.query_one("#body").content
        assert "pytest" in [w.lower() for w in styled(body, MATCH_STYLE)]
        await pilot.press("escape")  # clears the filter; the list keeps the focus
        await settle(pilot)
        assert len(listed(app)) == len(main.view.rows) and app.focused is table


async def test_G_and_an_archive_in_the_list(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        main = app.main_screen
        table = await _list(pilot)
        await pilot.press("G")
        assert table.cursor_row == table.row_count - 1
        await goto(pilot, FADING)
        assert main.current == FADING and app.focused is table
        assert table.current_id == FADING
        await pilot.press("a")
        await settle(pilot)
        assert on_disk(tui_vault).get(FADING).status.value == "archived"
        assert main.showing_list and table.current_id == FADING
        assert table.get_cell(FADING, "status").text.plain == "archived"
        assert "archived" in text_of(main.query_one("#detail-fields"))


async def test_c_shows_content_first_in_the_text_column(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        main = app.main_screen
        table = await _list(pilot)
        gist = main.view.rows[FRESH].memory.gist
        assert table.get_cell(FRESH, "text").text.plain.startswith(gist[:14])
        await pilot.press("c")
        await settle(pilot)
        assert table.get_cell(FRESH, "text").text.plain.startswith("The user prefers")
        assert not table.gist_first


async def test_rows_are_added_as_the_cursor_and_the_scroll_come_near(tui_vault, monkeypatch):
    monkeypatch.setattr(MemoryList, "FIRST", 2)
    monkeypatch.setattr(MemoryList, "AHEAD", 1)
    monkeypatch.setattr(MemoryList, "CHUNK", 2)
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        main = app.main_screen
        await settle(pilot)
        table = main.memory_list
        table.display = True
        table.show(main.view, list(main.view.rows))
        assert table.added == 2 and table.row_count == 2
        assert table.border_subtitle == f"2 of {len(table.ids)} listed: more as you go down"
        table.focus()
        await pilot.press("j")  # the last added row is in reach: up to one ahead and two more
        await settle(pilot)
        assert table.row_count == 4
        assert table.go_to(table.ids[-1]) and table.row_count == len(table.ids)
        assert table.border_subtitle == ""
        table.show(main.view, list(main.view.rows))  # (the cursor stays on the last one)
        assert table.current_id == table.ids[-1]
        table.move_cursor(row=0)
        table.show(main.view, list(main.view.rows))
        await settle(pilot)  # the scroll back to the top: what comes into sight is added
        assert table.row_count == len(table.ids)  # (a screen is taller than the 11 memories)
        assert not table.go_to("no-such-memory")


async def test_the_palette_switches_between_the_list_and_the_tree(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main_screen
        commands = {c.title: c for c in app.get_system_commands(main)}
        commands["Flat list / tree"].callback()
        await settle(pilot)
        assert main.showing_list and app.focused is main.memory_list
        commands["Flat list / tree"].callback()
        await settle(pilot)
        assert not main.showing_list and app.focused is main.memory_tree
        assert "Group by possible duplicates" in commands


async def test_a_write_in_the_list_makes_again_only_its_rows_and_undims_the_rest(tui_vault,
                                                                                 monkeypatch):
    """Archiving two marked memories, one archived already: the list is not emptied and
    measured again (issue 42: a bulk archive waited on the whole table rebuilt); the changed
    row says archived, the row left as it was is not dimmed any more, the others are the
    cells they were."""
    from tui.app.main.pending import PENDING_STYLE

    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        table = await _list(pilot)
        view = app.main_screen.view
        archived = next(i for i, r in view.rows.items() if r.brief.status.value == "archived")
        other = next(i for i in listed(app) if i not in (FRESH, archived))
        untouched = table.get_cell(other, "text")
        for memory_id in (FRESH, archived):
            assert table.go_to(memory_id)
            await pilot.pause()
            await pilot.press("space")
        await settle(pilot)
        cleared: list[bool] = []
        real_clear = table.clear

        def clear(*args, **kwargs):
            cleared.append(True)
            return real_clear(*args, **kwargs)

        monkeypatch.setattr(table, "clear", clear)
        view = app.main_screen.view
        await pilot.press("a")
        await until(pilot, lambda: app.main_screen.view is not view)
        await settle(pilot)
        assert on_disk(tui_vault).get(FRESH).status.value == "archived"
        assert not cleared
        assert table.get_cell(FRESH, "status").text.plain == "archived"
        assert table.get_cell(other, "text") is untouched
        for memory_id in (FRESH, archived):
            for column in table.shown_columns:
                cell = table.get_cell(memory_id, column)
                assert all(PENDING_STYLE not in str(s.style) for s in cell.text.spans)
