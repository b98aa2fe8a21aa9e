"""The tour (``python -m tui.tour``) piped to a file, with no terminal and no ``COLUMNS``: its
rules are drawn at a sane width, not the pipe console's million columns."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def _tour(tmp_path: Path, **env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    clean.update(env)
    out = subprocess.run([sys.executable, "-m", "tui.tour", str(tmp_path / "vault")],
                         capture_output=True, text=True, env=clean, timeout=120,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_piped_tour_draws_its_rules_80_wide(tmp_path: Path) -> None:
    text = _tour(tmp_path)
    rules = [line for line in text.splitlines() if line.endswith("──")]
    assert len(rules) >= 10
    assert max(len(line) for line in rules) == 80
    assert len(text) < 100_000


def test_piped_tour_takes_columns_when_set(tmp_path: Path) -> None:
    text = _tour(tmp_path, COLUMNS="100")
    rules = [line for line in text.splitlines() if line.endswith("──")]
    assert max(len(line) for line in rules) == 100
