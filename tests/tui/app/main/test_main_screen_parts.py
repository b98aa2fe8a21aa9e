"""The main screen by composition (tui/app/main/, issue 42 steps 4-6): the tree owns what the
person chose of it (grouping, sort, filter, marks) as reactive attributes with the keys that
change them; each key's action is a method of the part that does the work (the screen has no
one-line forwards); the parts are handed the parts they use (no shared state object, no
late-binding lambda)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest
from textual.binding import Binding
from textual.reactive import Reactive

from tui.app.keys import bindings_of
from tui.app.main import screen as screen_module
from tui.app.main.screen import MAIN_WIDGETS, MainScreen

from tui_support import FRESH, SIZE, STALE, make_app, settle, tui_vault, until  # noqa: F401

MAIN = Path(screen_module.__file__).resolve().parent


def test_the_tree_owns_its_grouping_sort_filter_and_marks_as_reactive_attributes():
    (tree_class,) = MAIN_WIDGETS
    for name in ("mode", "sort", "filter", "marks"):
        assert isinstance(inspect.getattr_static(tree_class, name), Reactive), name
    tree_keys = {b.action for b in bindings_of(tree_class, own=True)}
    screen_keys = {b.action for b in bindings_of(MainScreen, own=True)}
    moving = {"cursor_down", "cursor_up", "top", "bottom", "open_node", "close_node",
              "expand_all", "collapse_all", "cycle_mode", "cycle_sort"}
    assert moving <= tree_keys and not moving & screen_keys  # the widget's keys, not the screen's


def test_the_screen_forwards_no_action_each_key_runs_its_parts_method(tui_vault):
    """No ``action_*`` on MainScreen: Textual finds the action of each of its keys on the part
    that does the work (one part an action)."""
    assert [n for n in vars(MainScreen) if n.startswith("action_")] == []
    main = make_app(tui_vault).get_default_screen()
    assert isinstance(main, MainScreen)
    for binding in bindings_of(MainScreen, own=True):
        if not isinstance(binding, Binding) or "." in binding.action:
            continue
        name = binding.action.split("(")[0]
        method = getattr(main, f"action_{name}")
        owners = [a for a in vars(main).values()
                  if callable(getattr(a, f"action_{name}", None)) and a is not main]
        assert owners == [method.__self__], name
    with pytest.raises(AttributeError):
        getattr(main, "action_no_such_thing")


def test_no_shared_state_object_and_no_late_binding_lambda_among_the_parts():
    assert not (MAIN / "state.py").exists()
    for path in sorted(MAIN.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == "__init__":
                lambdas = [n for n in ast.walk(node) if isinstance(n, ast.Lambda)]
                assert lambdas == [], f"{path.name}: a part built with a lambda"
            if isinstance(node, ast.Name):
                assert node.id != "MainState", path.name


@pytest.mark.asyncio
async def test_the_tree_grouped_by_setting_its_mode_and_the_title_follows_its_marks(tui_vault):
    """Setting the tree's reactive ``mode`` (as the palette and the settings screen do) rebuilds
    it; marks changed on the tree by anyone (a wizard, a bulk operation) are said in the title
    at once."""
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main_screen
        tree = main.memory_tree
        tree.mode = "tag"
        await until(pilot, lambda: "group: tag" in str(tree.border_subtitle))
        assert app.settings.mode == "tag"  # saved, as the key saves it
        tree.toggle_mark(FRESH)
        tree.toggle_mark(STALE)
        assert "2 marked" in str(tree.border_title)
        tree.clear_marks([FRESH])
        assert "1 marked" in str(tree.border_title)
        tree.clear_marks()
        assert "marked" not in str(tree.border_title)


@pytest.mark.asyncio
async def test_the_git_panes_are_found_by_their_tab_not_by_their_class(tui_vault):
    """A pane that reads git needs only its TabPane in compose and its tab in TABS: the git
    panes' part finds it there (and tells it the memory the cursor rests on)."""
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main_screen
        panes = main.git_panes.reading_panes()
        assert set(panes) == {"provenance", "history"}
        main.jumps.jump(FRESH)
        await pilot.press("H")
        await until(pilot, lambda: panes["history"].memory_id == FRESH == main.current)
