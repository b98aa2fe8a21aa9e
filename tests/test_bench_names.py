"""The bench scripts run with bench/ first on sys.path (and ``tests/bench_support.load_bench``
puts it there for the tests that load one): a script named like a module anything else imports
would be imported in its place. Once ``secrets.py`` (the standard library's, imported by core
itself); once ``tui.py`` (the project's own package: CI failed with "'tui' is not a package" when
a test importing ``tui.cli`` ran after one that loaded a bench script)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
PROJECT_PACKAGES = {p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file()}


def _bench_names() -> set[str]:
    names = {p.stem for p in BENCH.glob("*.py")}
    assert names, "no bench scripts found"
    return names


def test_no_bench_script_shadows_a_standard_library_module():
    assert sorted(_bench_names() & set(sys.stdlib_module_names)) == []


def test_no_bench_script_shadows_a_project_package():
    assert {"core", "tui"} <= PROJECT_PACKAGES
    assert sorted(_bench_names() & PROJECT_PACKAGES) == []


def test_no_bench_script_shadows_an_installed_module():
    """Found with bench/ off the path: any hit is a module of the project or of its venv that a
    bench script would hide."""
    saved = sys.path[:]
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != BENCH]
    try:
        hits = {}
        for name in sorted(_bench_names()):
            if name in sys.modules and getattr(sys.modules[name], "__file__", None) and \
                    Path(sys.modules[name].__file__).resolve().parent == BENCH:
                continue  # the bench script itself, loaded by an earlier test
            spec = importlib.util.find_spec(name)
            if spec is not None and spec.origin and Path(spec.origin).resolve().parent != BENCH:
                hits[name] = spec.origin
    finally:
        sys.path[:] = saved
    assert hits == {}
