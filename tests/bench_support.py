"""The bench's scripts, loaded by the tests that check them: ``bench/`` is not a package (each
script runs with its own folder first on ``sys.path``), so a test loads one by its path."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[1] / "bench"


def load_bench(name: str) -> ModuleType:
    """``bench/<name>.py`` as the module ``memvault_bench_<name>`` (registered in sys.modules,
    so its dataclasses resolve their own types), with ``bench/`` on ``sys.path`` as a script run
    has it, so a script's import of a sibling (``scale`` of ``tui_probe``) finds it."""
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(f"memvault_bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
