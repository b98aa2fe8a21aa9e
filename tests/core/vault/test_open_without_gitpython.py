"""Opening a vault only reads git, and imports no GitPython for it (process start to
ready): read-write and read-only, from a warm derived index, and when HEAD moved since the index
was written (git diff). A write imports it (every command of a write runs through ``repo.git``)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from core import Vault

SCRIPT = """
import json, sys
import core
vault = core.Vault.open(sys.argv[1], readonly=sys.argv[2] == "1")
if sys.argv[3] == "1":
    vault.add("one more")
print(json.dumps({"git": sorted(m for m in sys.modules if m == "git" or m.startswith("git.")),
                  "memories": len(vault.memories)}))
"""


def _open_in_a_new_process(root, *, readonly: bool, write: bool = False) -> dict:
    proc = subprocess.run([sys.executable, "-c", SCRIPT, str(root), "1" if readonly else "0",
                           "1" if write else "0"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture
def warm_vault(tmp_path):
    root = tmp_path / "vault"
    with Vault.open(root) as vault:
        a = vault.add("Prefers pytest fixtures", tags=["python"])
        b = vault.add("Runs the suite on two cores")
        vault.relate(a.id, b.id, "related")
    Vault.open(root)  # the derived index now matches HEAD
    return root


@pytest.mark.parametrize("readonly", [False, True], ids=["read-write", "read-only"])
def test_open_imports_no_gitpython(warm_vault, readonly):
    seen = _open_in_a_new_process(warm_vault, readonly=readonly)
    assert seen == {"git": [], "memories": 2}


def test_open_after_a_commit_made_elsewhere_imports_no_gitpython(warm_vault):
    """HEAD moved past the index's commit: the open asks git what changed (diff), still
    without GitPython, and shows the new commit's memory."""
    memory = next((warm_vault / "memories").iterdir())
    record = json.loads(memory.read_bytes())
    record["content"] = "Edited and committed by a person"
    memory.write_text(json.dumps(record, indent=2))
    for args in (["add", "-A"], ["-c", "user.name=p", "-c", "user.email=p@x", "commit", "-q",
                                 "-m", "person: edit"]):
        subprocess.run(["git", *args], cwd=warm_vault, check=True, capture_output=True)
    seen = _open_in_a_new_process(warm_vault, readonly=False)
    assert seen == {"git": [], "memories": 2}
    assert any(m.content == "Edited and committed by a person"
               for m in Vault.open(warm_vault, readonly=True).memories.values())


def test_a_write_imports_gitpython(warm_vault):
    seen = _open_in_a_new_process(warm_vault, readonly=False, write=True)
    assert "git" in seen["git"] and seen["memories"] == 3
