"""Every test module has a name of its own: pytest imports test files by their base name (the
tests have no ``__init__.py``), so two ``test_x.py`` in different folders collected in one run
stop the run with "import file mismatch"."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_no_two_test_modules_share_a_name() -> None:
    where: dict[str, list[str]] = defaultdict(list)
    for path in TESTS.rglob("test_*.py"):
        if "__snapshots__" not in path.parts:
            where[path.name].append(str(path.relative_to(TESTS)))
    assert {name: paths for name, paths in where.items() if len(paths) > 1} == {}
