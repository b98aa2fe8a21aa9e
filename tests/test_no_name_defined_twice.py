"""No module defines a top-level class or function twice, no class a method twice, and no dict
literal a key twice: the later one silently replaces the earlier (two branches once both added a
``DuplicatesFound`` message, a ``Vault.promote`` and a ``promote`` verb, and one of each
stopped working)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(p for folder in ("core", "tui", "bench") for p in (ROOT / folder).rglob("*.py")
                 if ".cache" not in p.parts)


def _twice(body: list[ast.stmt]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if any(isinstance(d, ast.Attribute) and d.attr in ("setter", "deleter", "register")
                   or isinstance(d, ast.Name) and d.id == "overload" for d in node.decorator_list):
                continue  # a property's setter, a singledispatch case, a typing overload
            if node.name in seen:
                out.append(f"{node.name} (lines {seen[node.name]} and {node.lineno})")
            seen[node.name] = node.lineno
    return out


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_each_name_is_defined_once(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = _twice(tree.body)
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            found += [f"{node.name}.{n}" for n in _twice(node.body)]
        if isinstance(node, ast.Dict):
            keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
            found += [f"the key {k!r} (line {node.lineno})" for k in sorted(
                {k for k in keys if keys.count(k) > 1}, key=repr)]
    assert not found, f"{path.relative_to(ROOT)} defines twice: {', '.join(found)}"
