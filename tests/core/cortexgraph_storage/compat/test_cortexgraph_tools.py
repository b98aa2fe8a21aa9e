"""CortexGraph 1.2.1's own tool functions run on ``PerFileStorage`` as on its ``JSONLStorage``.

CortexGraph 1.2.1 imports ``mcp.server.fastmcp``, which the mcp 2.x memvault depends on does not
have, so the calls run in an environment of their own: once per test session a virtual
environment is built under the session's temporary folder with ``cortexgraph==1.2.1``,
``mcp<2`` and memvault's own runtime dependencies but mcp (the project itself on
``PYTHONPATH``), and ``cortexgraph_driver.py`` runs there, once; the tests read its report.
With pytest-xdist the workers share that one environment and report (a lock file in the
folder all workers' temporary folders sit in).

``MEMVAULT_CORTEXGRAPH_VENV=/path/to/venv`` uses an existing environment instead of building
one (it must have cortexgraph 1.2.1, mcp<2 and memvault's dependencies). The tests are skipped
only when the packages cannot be installed for want of a network.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement

HERE = Path(__file__).resolve().parent
PROJECT = HERE.parents[3]
PEER = ["cortexgraph==1.2.1", "mcp<2"]
VENV_VAR = "MEMVAULT_CORTEXGRAPH_VENV"
#: what pip says when it cannot reach an index
OFFLINE = ("Could not find a version that satisfies", "No matching distribution found",
           "NewConnectionError", "Temporary failure in name resolution",
           "Network is unreachable", "ConnectTimeout", "ProxyError", "Failed to establish")
TOOLS = {"save", "search", "search_unified", "touch", "gc", "promote", "open", "relations",
         "read_graph", "cluster", "consolidate", "auto_recall", "web"}

pytestmark = pytest.mark.xdist_group("cortexgraph_compat")


def runtime_dependencies() -> list[str]:
    """memvault's own dependencies, mcp left out (cortexgraph needs mcp<2)."""
    project = tomllib.loads((PROJECT / "pyproject.toml").read_text("utf-8"))["project"]
    return [d for d in project["dependencies"] if Requirement(d).name.lower() != "mcp"]


def build_venv(folder: Path) -> tuple[Path | None, str]:
    """(the environment's python, "") or (None, why it could not be built offline)."""
    python = folder / "bin" / "python"
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True, capture_output=True)
    proc = subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                           *PEER, *runtime_dependencies()],
                          capture_output=True, text=True, timeout=1200)
    if proc.returncode != 0:
        output = proc.stdout + proc.stderr
        if any(marker in output for marker in OFFLINE):
            return None, f"cannot install {' '.join(PEER)} (no network?): {output[-300:]}"
        raise AssertionError(f"pip install failed:\n{output[-3000:]}")
    return python, ""


def run_driver(python: Path, work: Path) -> dict[str, Any]:
    home = work / "home"
    home.mkdir(parents=True, exist_ok=True)
    (work / "gitconfig").write_text("")
    env = {k: v for k, v in os.environ.items()
           if not (k.startswith(("CORTEXGRAPH_", "GIT_", "LTM_", "PYTHON")) or k == "MEMVAULT_PATH")}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
               XDG_DATA_HOME=str(home / ".local/share"), GIT_CONFIG_GLOBAL=str(work / "gitconfig"),
               GIT_CONFIG_NOSYSTEM="1", PYTHONPATH=str(PROJECT))
    out = work / "report.json"
    proc = subprocess.run([str(python), str(HERE / "cortexgraph_driver.py"), "--work",
                           str(work / "run"), "--out", str(out)],
                          capture_output=True, text=True, env=env, cwd=work, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(out.read_text("utf-8"))


@pytest.fixture(scope="session")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    base = tmp_path_factory.getbasetemp()
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "cortexgraph-compat"
    shared.mkdir(exist_ok=True)
    with open(shared / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one worker builds and runs; the others wait, then read
        done, skipped = shared / "report.json", shared / "skipped.txt"
        if not done.exists() and not skipped.exists():
            given = os.environ.get(VENV_VAR)
            python, why = (Path(given) / "bin" / "python", "") if given else \
                build_venv(shared / "venv")
            if python is None:
                skipped.write_text(why, "utf-8")
            else:
                done.write_text(json.dumps(run_driver(python, shared / "work")), "utf-8")
        if skipped.exists():
            pytest.skip(skipped.read_text("utf-8"))
        return json.loads(done.read_text("utf-8"))


def test_every_tool_function_is_driven(report):
    assert set(report["tools"]) == TOOLS
    assert report["total"] >= 300


def test_calls_behave_as_on_cortexgraphs_storage(report, record_property):
    """Result, records (by the per-file rule for relations of a deleted memory: lineage
    relations outlive the memory they point at, so CortexGraph's consolidation, which saves the
    merged memory, relates it to the originals and deletes them, keeps its provenance) and
    commits: every call, none excepted."""
    count = f"{report['same']} of {report['total']}"
    record_property("cortexgraph_calls_behaving_the_same", count)  # (pytest --junitxml)
    print(f"{count} CortexGraph 1.2.1 tool calls behave as on CortexGraph's JSONLStorage")
    wrong = [{k: c.get(k) for k in ("tool", "label", "differences", "jsonl", "perfile",
                                    "records_differ")}
             for c in report["calls"] if not c["same"]]
    assert wrong == []
    assert report["same"] == report["total"]


def test_every_write_is_one_commit_of_the_right_files(report):
    writes = sum(c["writes"] for c in report["calls"])
    commits = sum(c["commits"] for c in report["calls"])
    assert writes >= 40 and commits >= 40  # saves, touches, relations, promotions, gc, merges
    assert not [c for c in report["calls"]
                if any(d.startswith(("commits:", "git_status")) for d in c["differences"])]
    by_tool = {c["tool"] for c in report["calls"] if c["commits"]}
    assert {"save", "touch", "relations", "promote", "consolidate", "gc", "auto_recall"} <= by_tool
