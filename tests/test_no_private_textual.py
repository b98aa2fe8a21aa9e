"""No private Textual attribute is read or written by the app, its tests or the bench: a name with
one leading underscore that Textual's own source defines (a method, a class, an attribute it
sets) and memvault's code never defines is Textual's private business, and a Textual release may
rename it. Read from the source: every ``x._name`` in tui/, tests/ and bench/."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import textual

ROOT = Path(__file__).resolve().parents[1]
CHECKED = ("tui", "tests", "bench")
#: Private names of the standard library that Textual happens to define too (``os._exit``).
STDLIB = frozenset({"_exit"})


def _sources(folder: Path) -> Iterator[Path]:
    for path in folder.rglob("*.py"):
        inside = path.relative_to(folder).parts
        if ".cache" not in inside and ".venv" not in inside:
            yield path


def _private_names(tree: ast.AST) -> tuple[set[str], list[tuple[int, str]]]:
    """(the private names ``tree`` defines, every private attribute it reads or writes)."""
    defined: set[str] = set()
    used: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_") \
                and not node.attr.startswith("__"):
            if isinstance(node.ctx, ast.Store):
                defined.add(node.attr)
            used.append((node.lineno, node.attr))
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            defined.add(node.id)
        elif isinstance(node, ast.arg):
            defined.add(node.arg)
    return defined, used


def _textual_private() -> set[str]:
    names: set[str] = set()
    for path in _sources(Path(textual.__file__).parent):
        defined, _ = _private_names(ast.parse(path.read_text(encoding="utf-8")))
        names |= {name for name in defined if name.startswith("_") and not name.startswith("__")}
    return names


def test_no_private_textual_attribute_is_used_by_the_app_its_tests_or_the_bench() -> None:
    ours: set[str] = set()
    uses: list[tuple[str, int, str]] = []
    for folder in CHECKED:
        for path in _sources(ROOT / folder):
            defined, used = _private_names(ast.parse(path.read_text(encoding="utf-8")))
            ours |= defined
            uses += [(str(path.relative_to(ROOT)), line, name) for line, name in used]
    private = _textual_private() - ours - STDLIB
    found = [f"{path}:{line}: .{name}" for path, line, name in uses if name in private]
    assert not found, "Textual's private attributes used:\n" + "\n".join(found)


def _app_private() -> set[str]:
    """The private names of Textual's ``App`` (its methods and what it sets on itself), less
    those memvault's own app (``tui/app/app.py``) defines."""
    import textual.app

    defined, _ = _private_names(ast.parse(Path(textual.app.__file__).read_text(encoding="utf-8")))
    ours, _ = _private_names(ast.parse((ROOT / "tui" / "app" / "app.py").read_text(encoding="utf-8")))
    return {n for n in defined - ours if n.startswith("_") and not n.startswith("__")}


def _on_an_app(tree: ast.AST) -> list[tuple[int, str]]:
    """Every private attribute read or written on something named ``app`` (``app._x``,
    ``pilot.app._x``, ``self.app._x``): a name the house defines elsewhere is still Textual's
    there."""
    return [(node.lineno, node.attr) for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr.startswith("_")
            and ((isinstance(node.value, ast.Name) and node.value.id == "app")
                 or (isinstance(node.value, ast.Attribute) and node.value.attr == "app"))]


def test_no_private_attribute_of_textuals_app_is_used_on_an_app() -> None:
    """(The app and its tests; bench/app_speed.py times each frame Textual writes by wrapping
    ``App._display``, which no public hook marks.)"""
    private = _app_private()
    found = [f"{path.relative_to(ROOT)}:{line}: .{name}"
             for folder in ("tui", "tests") for path in _sources(ROOT / folder)
             for line, name in _on_an_app(ast.parse(path.read_text(encoding="utf-8")))
             if name in private]
    assert not found, "Textual App's private attributes used:\n" + "\n".join(found)


def test_the_check_finds_a_private_textual_attribute() -> None:
    defined, used = _private_names(ast.parse("app._notifications.clear()"))
    assert "_notifications" in _textual_private() - defined
    assert used == [(1, "_notifications")]
    assert _on_an_app(ast.parse("pilot.app._display(s, r)")) == [(1, "_display")]
    assert "_display" in _app_private()
