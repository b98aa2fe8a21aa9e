"""What ``memvault mcp`` does before it answers ``initialize``: nothing but the SDK's server and
memvault's thin middleware. Its tools, resources and prompts (their modules, and the SDK's
argument model and schema of every tool), the search and SQLite are left for after the
handshake, and rich (the SDK's log handler, replaced by one line a record) is never imported (:mod:`tui.mcp.surface`); a client that asks for them at once waits for them, and gets
them all. How long a start takes is measured in ``bench/mcp_server.py``, not here."""

from __future__ import annotations

import json
import subprocess
import sys

from mcp_support import ROOT, McpServer, server_env

LATE = ("tui.mcp.tools_read", "tui.mcp.tools_write", "tui.mcp.tools_lifecycle",
        "tui.mcp.tools_conversation", "tui.mcp.tools_unified", "tui.mcp.tools_server",
        "tui.mcp.prompts", "tui.mcp.search", "core.search.index", "sqlite3", "rich")

_PROBE = """
import asyncio, json, sys
from pathlib import Path
from tui.mcp.server import build_server
server, access = build_server(Path(sys.argv[1]), deferred=True)
late = [m for m in json.loads(sys.argv[2]) if m in sys.modules]
tools = asyncio.run(server.list_tools())
print(json.dumps({"late": late, "tools": len(tools)}))
"""


def test_the_server_is_built_without_its_tools_until_the_handshake_is_over(tmp_path):
    done = subprocess.run([sys.executable, "-c", _PROBE, str(tmp_path / "vault"), json.dumps(LATE)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"late": [], "tools": 0}


def test_a_client_asking_at_once_gets_every_tool_resource_and_prompt(tmp_path):
    with McpServer(tmp_path / "vault", server_env(tmp_path / "home")) as server:
        tools = server.tools()  # the first request after the handshake
        prompts = server.run(lambda s: s.list_prompts()).prompts
        templates = server.run(lambda s: s.list_resource_templates()).resource_templates
    assert len(tools) == 25 and {t.name for t in tools} >= {"search_memory", "save_memory"}
    assert {p.name for p in prompts} == {"review_inbox", "split_memory", "consolidate_memories",
                                         "recall_for_task"}
    assert len(templates) == 2
