"""``resources/list`` lists the memories, newest first, a page at a time with ``nextCursor``,
so that it agrees with the ``list_changed`` the server sends when memories come or go: a page
read after a change starts where the last stopped; read with the package's own stdio client from
a spawned server."""

from __future__ import annotations

import pytest
from mcp.shared.exceptions import MCPError
from mcp.types import PaginatedRequestParams
from mcp_support import McpServer, server_env

from core import Memory, Vault
from tui.mcp.listing import PAGE


@pytest.fixture(scope="module")
def listed(tmp_path_factory):
    base = tmp_path_factory.mktemp("resource-list")
    env = server_env(base / "home", MEMVAULT_MCP_USE_INTERVAL="3600")
    with pytest.MonkeyPatch.context() as mp:
        for key, value in env.items():
            mp.setenv(key, value)
        with Vault.open(base / "vault") as v:
            v.save_many([Memory(id=f"m{n:05d}", content=f"Memory number {n}.",
                                created_at=10_000 + n) for n in range(PAGE + 30)])
    with McpServer(base / "vault", env) as server:
        yield server


def _page(server, cursor: str | None = None):
    params = PaginatedRequestParams(cursor=cursor) if cursor else None
    return server.run(lambda s: s.list_resources(params=params))


def test_every_memory_is_listed_newest_first_a_page_at_a_time(listed):
    first = _page(listed)
    uris = [str(r.uri) for r in first.resources]
    assert uris[:2] == ["memvault://inbox", "memvault://stats"]
    assert uris[2] == f"memvault://memory/m{PAGE + 29:05d}" and len(uris) == 2 + PAGE
    memory = first.resources[2]
    assert memory.name == f"m{PAGE + 29:05d}"[:8] and memory.title == f"Memory number {PAGE + 29}."
    assert memory.mime_type == "application/json"
    assert first.next_cursor
    listed.call("save_memory", content="A memory saved between two pages.")  # (list_changed)
    second = _page(listed, first.next_cursor)
    assert [str(r.uri) for r in second.resources] == [
        f"memvault://memory/m{n:05d}" for n in range(29, -1, -1)]  # where the first stopped
    assert second.next_cursor is None
    again = [str(r.uri) for r in _page(listed).resources]
    assert len(again) == 2 + PAGE and again[2] not in uris  # the new memory heads the list


def test_a_listed_memory_reads(listed):
    uri = str(_page(listed).resources[3].uri)
    (content,) = listed.run(lambda s: s.read_resource(uri)).contents
    assert uri in content.text


def test_a_cursor_the_server_did_not_make_is_invalid_params(listed):
    with pytest.raises(MCPError) as caught:
        _page(listed, "not-a-cursor")
    assert caught.value.error.code == -32602
