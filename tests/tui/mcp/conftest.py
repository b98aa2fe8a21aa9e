"""One writable and one read-only ``memvault mcp`` server per test session (per xdist worker),
each on its own vault, so the suite spawns few servers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from mcp_support import McpServer, server_env

#: No use record is committed by the timer during the tests (only at shutdown).
LONG_INTERVAL = "3600"


@pytest.fixture(scope="session")
def mcp_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[McpServer]:
    base = tmp_path_factory.mktemp("mcp-server")
    env = server_env(base / "home", MEMVAULT_MCP_USE_INTERVAL=LONG_INTERVAL)
    with McpServer(base / "vault", env) as server:
        first = server.call("save_memory", content="The vault exists from the first save.")
        assert first.error is False
        yield server


@pytest.fixture(scope="session")
def read_only_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[McpServer]:
    from core import Vault

    base = tmp_path_factory.mktemp("mcp-read-only")
    env = server_env(base / "home", MEMVAULT_MCP_USE_INTERVAL=LONG_INTERVAL)
    vault = base / "vault"
    with pytest.MonkeyPatch.context() as mp:  # made with the git settings the server has
        for key, value in env.items():
            mp.setenv(key, value)
        with Vault.open(vault) as v:
            v.add("Read-only servers answer searches about deploys.", tags=["ops"])
            v.add("Deploys happen on Tuesdays.", tags=["ops"])
    with McpServer(vault, env, "--read-only") as server:
        yield server
