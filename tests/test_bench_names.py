"""The bench scripts run with bench/ first on sys.path: a script named like a standard-library
module (secrets.py, once) would be imported in its place by core itself."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"


def test_no_bench_script_shadows_a_standard_library_module():
    names = {p.stem for p in BENCH.glob("*.py")}
    assert names, "no bench scripts found"
    assert sorted(names & set(sys.stdlib_module_names)) == []
