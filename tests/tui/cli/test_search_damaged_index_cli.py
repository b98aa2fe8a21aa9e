"""``memvault search`` over a derived index that is valid SQLite but damaged inside (FTS5
segments cut short): the index is built again at the first failed read, the answer is the
one a sound index gives, and one note on stderr says so; no traceback, and the next search is
quiet."""

from __future__ import annotations

import json
import sqlite3

from core.search.index import index_path

from cli_support import Run, cli_env, run, vdir  # noqa: F401  (fixtures)


def test_search_rebuilds_a_damaged_index_with_one_note(run):
    wanted = run.add("We meet on Tuesday about the 1200 euros")
    for i in range(20):
        run.add(f"note {i} about the garden and its roses")
    assert run.json("search", "Tuesday")["hits"][0]["id"] == wanted
    conn = sqlite3.connect(index_path(run.vdir))
    conn.execute("UPDATE fts_data SET block = substr(block, 1, 3) WHERE id > 10")
    conn.commit()
    conn.close()
    code, out, err = run("search", "Tuesday", "--json")
    assert code == 0, err
    assert "Traceback" not in err
    assert [line for line in err.splitlines() if "search index" in line] == [
        line for line in err.splitlines() if line.startswith("memvault: note: the search index")]
    assert err.count("built again") == 1
    data = json.loads(out)
    assert [h["id"] for h in data["hits"]] == [wanted]
    assert "1200 euros" in data["hits"][0]["content"]
    code, out, err = run("search", "garden")
    assert code == 0 and "built again" not in err
