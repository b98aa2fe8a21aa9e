"""The house's import contract, read from the source (every import statement, also those inside
functions): core never imports tui, textual or rich; the app never imports the command line; the
command line imports the app (or textual) only in ``tui/cli/app.py`` and only inside the function
that launches it; the MCP server (``tui/mcp/``) never imports textual, rich, the command line or
the app, and the command line imports it (and the ``mcp`` package) only in ``tui/cli/mcp.py``,
inside the command; only the memory tool (``tui/memory_tool/``) imports ``anthropic``, and
nothing of the house imports it; no import cycles among modules at import time."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("core", "tui")
#: The app (Textual): tui/app/. The command line, the MCP server, the demo builder and the helpers
#: shared by the app and the command line sit beside it in tui/.
APP = "tui.app"
CLI = "tui.cli"
SHARED = ("tui.text", "tui.terminal", "tui.tour")
#: The console script: answers --version itself, else runs the command line.
ENTRY = "tui.launch"
#: The MCP server: neither the app nor the command line.
MCP = "tui.mcp"
#: Anthropic's memory tool (the optional extra memvault[anthropic]): a user's program imports it.
MEMORY_TOOL = "tui.memory_tool"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _runtime_top_level(body: list[ast.stmt]) -> list[ast.stmt]:
    """Statements run when the module is imported (``if TYPE_CHECKING:`` blocks are not; the
    bodies of functions and classes' methods are not walked as import-time either)."""
    run: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, ast.If):
            checking = isinstance(stmt.test, ast.Name) and stmt.test.id == "TYPE_CHECKING"
            run += _runtime_top_level(stmt.orelse if checking else [*stmt.body, *stmt.orelse])
        elif isinstance(stmt, ast.Try):
            run += _runtime_top_level([*stmt.body, *stmt.orelse, *stmt.finalbody,
                                       *[s for h in stmt.handlers for s in h.body]])
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            run.append(stmt)
    return run


def _imports() -> dict[str, list[tuple[str, bool]]]:
    """Module -> [(imported module, at import time?)] for every module of core and tui."""
    found: dict[str, list[tuple[str, bool]]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            module = _module_name(path)
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            top_level = {id(n) for stmt in _runtime_top_level(tree.body) for n in ast.walk(stmt)}
            entries = []
            for node in ast.walk(tree):
                at_import = id(node) in top_level
                if isinstance(node, ast.Import):
                    entries += [(alias.name, at_import) for alias in node.names]
                elif isinstance(node, ast.ImportFrom):
                    target = _resolve(module, path.name == "__init__.py", node)
                    entries.append((target, at_import))
                    entries += [(f"{target}.{alias.name}", at_import) for alias in node.names]
            found[module] = entries
    return found


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_core_never_imports_tui_textual_or_rich():
    bad = [(m, t) for m, entries in _imports().items() if _within(m, "core")
           for t, _ in entries if any(_within(t, p) for p in ("tui", "textual", "rich"))]
    assert bad == []


def _app_modules(imports: dict[str, list[tuple[str, bool]]]) -> set[str]:
    return {m for m in imports if _within(m, APP)}


def test_only_the_app_imports_textual():
    """textual (and the app) stay inside tui/app/: the demo builder, the MCP server and the
    helpers shared with the command line never import them."""
    bad = [(m, t) for m, entries in _imports().items()
           if _within(m, "tui") and not _within(m, APP) and not _within(m, CLI)
           for t, _ in entries if _within(t, "textual") or _within(t, APP)]
    assert bad == []


def test_the_app_never_imports_the_command_line():
    bad = [(m, t) for m, entries in _imports().items()
           if _within(m, "tui") and not _within(m, CLI) and m not in SHARED and m != ENTRY
           for t, _ in entries if _within(t, CLI)]
    assert bad == []


def test_the_command_line_imports_the_app_only_to_launch_it():
    imports = _imports()
    app_modules = _app_modules(imports)
    bad = []
    for module, entries in imports.items():
        if not _within(module, CLI):
            continue
        for target, at_import in entries:
            reaches_app = _within(target, "textual") or any(_within(target, a) for a in app_modules)
            if reaches_app and (at_import or module != "tui.cli.app"):
                bad.append((module, target, "at import" if at_import else "in a function"))
    assert bad == []


def test_the_mcp_server_imports_neither_textual_rich_the_command_line_nor_the_app():
    imports = _imports()
    app_modules = _app_modules(imports)
    bad = [(m, t) for m, entries in imports.items() if _within(m, MCP) for t, _ in entries
           if any(_within(t, p) for p in ("textual", "rich", CLI, *app_modules))]
    assert bad == []


def test_only_the_mcp_command_imports_the_mcp_server_and_package():
    """``mcp`` costs ~0.65 s of start-up: only ``memvault mcp`` may pay it."""
    bad = []
    for module, entries in _imports().items():
        for target, at_import in entries:
            if _within(module, MCP) or not (_within(target, MCP) or _within(target, "mcp")):
                continue
            if module != "tui.cli.mcp" or at_import:
                bad.append((module, target, "at import" if at_import else "in a function"))
    assert bad == []


def test_only_the_memory_tool_imports_anthropic_and_nothing_imports_the_memory_tool():
    """``anthropic`` is an optional extra: core, the command line, the app and the MCP server
    run without it; the memory tool reaches the vault through core only."""
    imports = _imports()
    bad = [(m, t) for m, entries in imports.items() if not _within(m, MEMORY_TOOL)
           for t, _ in entries if _within(t, "anthropic") or _within(t, MEMORY_TOOL)]
    bad += [(m, t) for m, entries in imports.items() if _within(m, MEMORY_TOOL)
            for t, _ in entries
            if any(_within(t, p) for p in ("textual", "rich", "mcp", CLI, APP, MCP))]
    assert bad == []


def test_no_import_cycles():
    imports = _imports()
    modules = set(imports)
    graph = {m: {t for t, at_import in entries if at_import and t in modules and t != m}
             for m, entries in imports.items()}
    # a package's __init__ importing its own submodules is not a cycle of the house
    graph = {m: {t for t in targets if not _within(t, m)} for m, targets in graph.items()}
    cycles, state = [], {}

    def visit(node: str, stack: list[str]) -> None:
        state[node] = "open"
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                cycles.append(stack[stack.index(nxt):] + [nxt] if nxt in stack else [node, nxt])
            elif nxt not in state:
                visit(nxt, [*stack, nxt])
        state[node] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert cycles == []
