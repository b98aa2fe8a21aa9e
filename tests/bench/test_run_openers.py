"""bench/run.py's openers load every record, in both layouts: a figure of an opener that loaded
nothing (the plain per-file loop read only flat files, 0 memories at 100k) compares nothing."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from core import Memory, Relation
from core.store.layout import LAYOUTS, Layout

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _loop_snippet() -> str:
    """bench/run.py's LOOP_AFTER_IMPORTS, read from its source (importing the script would set
    its git environment in this process)."""
    tree = ast.parse((BENCH / "run.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "LOOP_AFTER_IMPORTS" for t in node.targets):
            assert isinstance(node.value, ast.Call)  # textwrap.dedent("""...""")
            return textwrap.dedent(ast.literal_eval(node.value.args[0]))
    raise AssertionError("bench/run.py has no LOOP_AFTER_IMPORTS")


@pytest.mark.parametrize("layout_name", LAYOUTS)
def test_plain_loop_loads_every_record(tmp_path, layout_name):
    layout = Layout(tmp_path, layout_name)
    layout.ensure_dirs()
    ids = [f"m{i}" for i in range(5)] + ["ab12", "zz-9"]
    for memory_id in ids:
        path = layout.memory_path(memory_id)
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(layout.encode(Memory(id=memory_id, content=f"about {memory_id}")))
    relation = Relation(id="r1", from_memory_id="m1", to_memory_id="m2", relation_type="related")
    layout.relation_path("r1").write_bytes(layout.encode(relation))
    out = subprocess.run([sys.executable, "-c", _loop_snippet(), str(tmp_path)],
                         capture_output=True, text=True, check=True)
    loaded = json.loads(out.stdout.strip().splitlines()[-1])
    assert (loaded["memories"], loaded["relations"]) == (len(ids), 1)
