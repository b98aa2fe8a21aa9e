"""bench/run.py's openers load every record, in both layouts: a figure of an opener that loaded
nothing (the plain per-file loop read only flat files, 0 memories at 100k) compares nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core import Memory, Relation
from core.store.layout import LAYOUTS, Layout

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _loop_snippet() -> str:
    sys.path.insert(0, str(BENCH))
    try:
        import run  # bench/run.py
    finally:
        sys.path.remove(str(BENCH))
    return run.LOOP_AFTER_IMPORTS


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
