"""No import circle among the modules of core and tui: every import statement counts (at module
level, under ``if TYPE_CHECKING:``, inside a function), relative imports resolved. The graph's
strongly connected components (Tarjan's algorithm) must all be single modules.

``from a.b import c`` is an edge to the module ``a.b.c`` when there is one, else to ``a.b``;
importing a module does not add an edge to its parent packages (that is Python's business, and
a package's ``__init__`` importing its parts is no circle)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("core", "tui")

#: Circles in core still known while core is being recomposed: each entry is one strongly
#: connected component (its modules, sorted). An ALLOW-LIST THAT ONLY SHRINKS: remove an entry
#: when its circle is broken; a new circle, or a known one that grew, fails the test.
KNOWN_CORE_CIRCLES: list[list[str]] = []


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def resolve_from(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute name of the module a ``from ... import`` statement reads from."""
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def import_graph(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, set[str]]:
    """Module -> the modules of ``packages`` it imports, from every import statement."""
    sources: dict[str, tuple[Path, bool]] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            sources[module_name(path, root)] = (path, path.name == "__init__.py")
    graph: dict[str, set[str]] = {name: set() for name in sources}
    for module, (path, is_package) in sources.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = resolve_from(module, is_package, node)
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in sources else base
                           for alias in node.names]
            for target in targets:
                while target and target not in sources:  # `import a.b.c` of a name: its module
                    target = target.rpartition(".")[0]
                if target and target != module:
                    graph[module].add(target)
    return graph


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of ``graph`` (iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, list[str]]] = [(start, sorted(graph[start]))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, pending = work[-1]
            if pending:
                child = pending.pop()
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, sorted(graph.get(child, ()))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(sorted(component))
    return components


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    return sorted(c for c in strongly_connected(graph) if len(c) > 1)


def test_tarjan_finds_a_circle_and_only_it() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert sorted(strongly_connected(graph)) == [["a", "b", "c"], ["d"], ["e"]]


def test_the_graph_counts_every_kind_of_import(tmp_path: Path) -> None:
    package = tmp_path / "core"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("from . import leaf\n")
    (package / "sub" / "leaf.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..top import T\n")
    (package / "top.py").write_text("def f():\n    from .sub.leaf import x\n")
    (package / "other.py").write_text("import core.sub.leaf.thing\n")
    graph = import_graph(tmp_path, ("core",))
    assert graph["core.sub"] == {"core.sub.leaf"}
    assert graph["core.sub.leaf"] == {"core.top"}  # a TYPE_CHECKING import
    assert graph["core.top"] == {"core.sub.leaf"}  # a function-level relative import
    assert graph["core.other"] == {"core.sub.leaf"}  # a name inside a module: the module
    assert circles(graph) == [["core.sub.leaf", "core.top"]]


def test_no_import_circle() -> None:
    found = circles(import_graph())
    tui_circles = [c for c in found if any(m.startswith("tui") for m in c)]
    assert tui_circles == [], f"import circles in tui: {tui_circles}"
    unknown = [c for c in found if c not in KNOWN_CORE_CIRCLES]
    assert unknown == [], f"import circles not in KNOWN_CORE_CIRCLES: {unknown}"


def test_the_allow_list_only_names_circles_still_there() -> None:
    found = circles(import_graph())
    gone = [c for c in KNOWN_CORE_CIRCLES if c not in found]
    assert gone == [], f"circles broken: remove them from KNOWN_CORE_CIRCLES: {gone}"
