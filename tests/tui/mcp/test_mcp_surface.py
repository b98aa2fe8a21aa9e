"""What the server says about itself: every tool with a title and all four hints (a vault is a
closed world: openWorldHint false), and the package's version as serverInfo.version."""

from __future__ import annotations

from importlib.metadata import version

from mcp_support import McpServer

READ_ONLY = {"search_memory", "open_memories", "read_graph", "recall", "memory_history",
             "cluster_memories"}


def test_every_tool_has_a_title_and_every_hint(mcp_server: McpServer):
    tools = mcp_server.tools()
    assert tools
    for tool in tools:
        hints = tool.annotations
        assert tool.title and hints is not None, tool.name
        assert hints.open_world_hint is False, tool.name
        for hint in (hints.read_only_hint, hints.destructive_hint, hints.idempotent_hint):
            assert isinstance(hint, bool), tool.name
        if hints.read_only_hint:
            assert hints.destructive_hint is False, tool.name
    by_name = {t.name: t.annotations for t in tools}
    for name in READ_ONLY:
        assert by_name[name].read_only_hint is True, name
    assert by_name["delete_memory"].destructive_hint is True
    assert by_name["save_memory"].read_only_hint is False
    assert by_name["save_memory"].destructive_hint is False


def test_server_version_is_the_packages(mcp_server: McpServer):
    info = mcp_server.init.server_info
    assert info.name == "memvault"
    assert info.version == version("memvault")
