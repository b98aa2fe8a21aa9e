"""The exports read by the programs they are for: the MCP memory server (npm
``@modelcontextprotocol/server-memory``) answering ``read_graph`` over the file
``export --to mcp-memory`` wrote, driven by the ``mcp`` package's own stdio client; and
basic-memory's own parser reading the folder ``export --to basic-memory`` wrote.

Neither program is installed by ``pip install -e '.[test]'`` (one is a node package, the other
needs Python 3.12 and a hundred packages): each test skips, saying why, unless it is found:

- the memory server: ``MEMVAULT_TEST_MCP_MEMORY`` = its ``dist/index.js``, or
  ``mcp-server-memory`` on PATH (``npm install -g @modelcontextprotocol/server-memory``);
- basic-memory: ``MEMVAULT_TEST_BASIC_MEMORY_PYTHON`` = a Python that imports ``basic_memory``
  (``python3.12 -m venv v && v/bin/pip install basic-memory``), or ``basic_memory`` importable
  here.

The mapping itself is checked without them in test_mcp_memory.py and test_basic_memory.py."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from vault_support import FIXTURES
from core.io.basic_memory import read_basic_memory
from core.io.basic_memory_export import export_basic_memory
from core.io.foreign_import import import_snapshot
from core.io.mcp_memory import read_mcp_memory
from core.io.mcp_memory_export import export_mcp_memory

NOW = 1_790_000_000
BM_READER = FIXTURES / "basic-memory" / "read_with_basic_memory.py"


def memory_server() -> list[str] | None:
    given = os.environ.get("MEMVAULT_TEST_MCP_MEMORY")
    node = shutil.which("node")
    if given and node and Path(given).is_file():
        return [node, given]
    found = shutil.which("mcp-server-memory")
    return [found] if found else None


def basic_memory_python() -> str | None:
    given = os.environ.get("MEMVAULT_TEST_BASIC_MEMORY_PYTHON")
    if given and Path(given).is_file():
        return given
    return sys.executable if importlib.util.find_spec("basic_memory") else None


def read_graph(command: list[str], memory_file: Path) -> dict:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    async def run() -> dict:
        env = {"MEMORY_FILE_PATH": str(memory_file), "PATH": os.environ.get("PATH", "")}
        params = StdioServerParameters(command=command[0], args=command[1:], env=env)
        with open(memory_file.parent / "server-stderr.txt", "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    result = await session.call_tool("read_graph", {})
                    return json.loads(result.content[0].text)

    return asyncio.run(run())


def test_the_memory_server_reads_the_export_as_the_graph_it_wrote(vault, tmp_path):
    command = memory_server()
    if command is None:
        pytest.skip("the MCP memory server is not installed (npm install -g "
                    "@modelcontextprotocol/server-memory, or MEMVAULT_TEST_MCP_MEMORY=<its "
                    "dist/index.js>)")
    fixture = FIXTURES / "mcp-memory" / "memory.jsonl"
    import_snapshot(vault, read_mcp_memory(fixture, now=NOW))
    note = vault.add("Backups run nightly at 02:00")
    vault.relate(note.id, next(iter(vault.memories)), "related")
    out = tmp_path / "export" / "memory.jsonl"
    export_mcp_memory(vault, out)
    got, wrote = read_graph(command, out), read_graph(command, fixture)
    entities = {e["name"]: e for e in got["entities"]}
    for e in wrote["entities"]:
        assert entities.pop(e["name"]) == e
    assert entities == {"Backups run nightly at 02:00": {
        "name": "Backups run nightly at 02:00", "entityType": "memory",
        "observations": ["Backups run nightly at 02:00"]}}
    pairs = {json.dumps(r, sort_keys=True) for r in got["relations"]}
    assert {json.dumps(r, sort_keys=True) for r in wrote["relations"]} < pairs
    assert len(pairs) == len(wrote["relations"]) + 1


def parse_with_basic_memory(python: str, folder: Path) -> list[dict]:
    out = subprocess.run([python, str(BM_READER), str(folder)], capture_output=True, text=True,
                         timeout=300, env={**os.environ, "HOME": str(folder.parent / "bm-home")})
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout)


def test_basic_memory_parses_the_export_as_the_notes_it_wrote(vault, tmp_path):
    python = basic_memory_python()
    if python is None:
        pytest.skip("basic-memory is not installed (it needs Python 3.12: pip install "
                    "basic-memory in a 3.12 venv, and MEMVAULT_TEST_BASIC_MEMORY_PYTHON=<its "
                    "python>)")
    import_snapshot(vault, read_basic_memory(FIXTURES / "basic-memory" / "notes", now=NOW))
    mine = vault.add("Descale the kettle monthly", tags=["home"])
    grinder = next(m for m in vault.memories.values() if m.entities == ["Burr Grinder"])
    vault.relate(mine.id, grinder.id, "related")
    out = tmp_path / "export"
    export_basic_memory(vault, out)
    parsed = {n["path"]: n for n in parse_with_basic_memory(python, out)}
    expected = json.loads((FIXTURES / "basic-memory" / "expected_graph.json").read_text())
    for note in expected:
        assert parsed.pop(note["path"]) == note
    (added,) = parsed.values()
    assert (added["title"], added["type"], added["tags"], added["relations"]) == \
        ("Descale the kettle monthly", "memory", ["home"],
         [["related", "Burr Grinder", None]])
