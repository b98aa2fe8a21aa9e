"""An open that commits nothing (no crashed operation, no outside edit, an existing vault) makes
no write path: it imports neither the models (pydantic) nor the journal's commit (an open from
the derived index; after a clone, a small vault's open parses its records to write the index,
which makes them). One that commits something makes it then."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from core import Vault

SCRIPT = """
import json, sys
import core
vault = core.Vault.open(sys.argv[1])
loaded = sorted(m for m in sys.modules
                if m in ("pydantic", "core.model.records", "core.vault.writing"))
vault.close()
print(json.dumps({"loaded": loaded, "memories": len(vault.memories),
                  "initialised": vault.report.initialised}))
"""


def _open_in_a_new_process(root) -> dict:
    proc = subprocess.run([sys.executable, "-c", SCRIPT, str(root)], capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture
def made(tmp_path):
    root = tmp_path / "vault"
    with Vault.open(root) as vault:
        vault.add("Prefers pytest fixtures", tags=["python"])
        vault.add("Runs the suite on two cores")
    Vault.open(root).close()  # the derived index now matches HEAD
    return root


def test_an_open_that_commits_nothing_imports_no_models(made):
    seen = _open_in_a_new_process(made)
    assert seen == {"loaded": [], "memories": 2, "initialised": False}


def test_an_open_that_commits_makes_the_write_path_then(made, tmp_path):
    """A person's outside edit is committed by the open (the write path made for it); a new
    vault's ``.meta.json`` too."""
    memory = next((made / "memories").iterdir())
    record = json.loads(memory.read_bytes())
    record["content"] = "Edited outside memvault"
    memory.write_text(json.dumps(record, indent=2))
    seen = _open_in_a_new_process(made)
    assert "core.vault.writing" in seen["loaded"] and seen["memories"] == 2
    with Vault.open(made, readonly=True) as vault:
        assert any(m.content == "Edited outside memvault" for m in vault.memories.values())
    last = subprocess.run(["git", "log", "-1", "--format=%s"], cwd=made, check=True,
                          capture_output=True, text=True).stdout
    assert last.startswith("external:")
    fresh = tmp_path / "fresh"
    subprocess.run(["git", "init", "-q", str(fresh)], check=True)
    (fresh / "memories").mkdir()  # (a vault's folder: the open may make it)
    assert _open_in_a_new_process(fresh)["initialised"] is True
