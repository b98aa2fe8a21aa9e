"""LangGraph stays an optional extra: nothing but ``tui/langgraph_store/`` imports ``langgraph``
or ``langmem`` (core never does), and neither core, the command line nor the MCP server loads
them."""

from __future__ import annotations

import subprocess
import sys

import test_import_contract as contract

STORE = "tui.langgraph_store"


def test_only_the_store_package_imports_langgraph_or_langmem():
    bad = [(m, t) for m, entries in contract._imports().items()
           if not contract._within(m, STORE) for t, _ in entries
           if contract._within(t, "langgraph") or contract._within(t, "langmem")
           or contract._within(t, STORE)]
    assert bad == []


def test_core_the_cli_and_the_mcp_server_load_no_langgraph():
    script = ("import sys, core, tui.cli, tui.mcp.server\n"
              "print(sorted({m.split('.')[0] for m in sys.modules} & {'langgraph', 'langmem', "
              "'langchain_core'}))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
