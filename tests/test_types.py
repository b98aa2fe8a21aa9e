"""mypy (the settings in pyproject.toml: its default strictness for tui) passes on the app's
modules, each checked on its own terms (what they import is read, its errors are its own
module's business). The main screen's parts still built as mixins of one class are not typed yet:
:data:`NOT_TYPED_YET` names them, an ALLOW-LIST THAT ONLY SHRINKS (a module that passes must
leave it; a new module must pass)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHECKED = ("tui/app", "tui/cli/importing.py", "tui/cli/migrate.py", "tui/cli/interchange.py")

NOT_TYPED_YET = {
    "tui/app/query.py",
    "tui/app/screens/consolidate_wizard.py",
    "tui/app/screens/help.py",
    "tui/app/screens/main.py",
    "tui/app/screens/main_actions.py",
    "tui/app/screens/main_bulk.py",
    "tui/app/screens/main_edit.py",
    "tui/app/screens/main_filtering.py",
    "tui/app/screens/main_follow.py",
    "tui/app/screens/main_marks.py",
    "tui/app/screens/main_opening.py",
    "tui/app/screens/main_panes.py",
    "tui/app/screens/main_views.py",
    "tui/app/screens/new_memory.py",
    "tui/app/screens/version_diff.py",
    "tui/app/widgets/detail.py",
    "tui/app/widgets/memory_list.py",
    "tui/app/widgets/memory_tree.py",
}


def test_the_app_type_checks(tmp_path: Path) -> None:
    files = sorted({str(p.relative_to(ROOT)) for where in CHECKED
                    for p in ([ROOT / where] if where.endswith(".py")
                              else (ROOT / where).rglob("*.py"))})
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--follow-imports=silent", "--no-error-summary",
         "--cache-dir", str(tmp_path / "mypy-cache"), *files],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert "error:" in result.stdout or result.returncode == 0, result.stderr
    failing = {m.group(1) for m in re.finditer(r"^(\S+\.py):\d+: error:", result.stdout, re.M)}
    assert failing - NOT_TYPED_YET == set(), \
        "\n".join(line for line in result.stdout.splitlines()
                  if line.split(":")[0] in failing - NOT_TYPED_YET)
    assert NOT_TYPED_YET - failing == set(), \
        f"these pass now: take them out of NOT_TYPED_YET: {sorted(NOT_TYPED_YET - failing)}"
