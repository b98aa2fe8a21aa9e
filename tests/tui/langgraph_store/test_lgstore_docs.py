"""docs/langgraph.md's example runs as written (its python block, in a fresh HOME) and prints
what the page shows after it (the key LangMem makes is a new uuid each run)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from vault_support import run_git

PAGE = Path(__file__).resolve().parents[3] / "docs" / "langgraph.md"


def test_the_pages_example_prints_what_the_page_shows(tmp_path: Path) -> None:
    text = PAGE.read_text()
    code = re.findall(r"```python\n(.*?)```", text, flags=re.S)[0]
    shown = re.findall(r"```text\n(.*?)```", text, flags=re.S)[0]
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMVAULT_")}
    env.update(HOME=str(tmp_path), PYTHONWARNINGS="ignore")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    uuid = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
    assert re.sub(uuid, "<key>", done.stdout) == re.sub(uuid, "<key>", shown)
    subjects = run_git(tmp_path / "memvault", "log", "--format=%s").splitlines()
    assert [s.split(":")[0] for s in subjects] == ["archive", "add", "add", "init"]
