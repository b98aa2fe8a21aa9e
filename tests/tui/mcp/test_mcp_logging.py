"""The logging capability of ``memvault mcp``: ``logging/setLevel`` and the
``notifications/message`` the server sends of its own events (a write's commit, a refusal, a
commit from another process, the search index's first build), at the level the client set and
above; read with the package's own stdio client from a spawned server, each wait for a message
to arrive."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from mcp.shared.exceptions import MCPError
from mcp.types import EmptyResult, SetLevelRequest, SetLevelRequestParams
from mcp_support import McpServer, server_env

from core import Vault
from core.search import first_build
from tui.mcp.search import Finder


class Logged:
    """The ``notifications/message`` the server sent, as they arrive."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self._changed = threading.Condition()

    async def __call__(self, message: Any) -> None:
        if getattr(message, "method", "") == "notifications/message":
            with self._changed:
                self.items.append(message.params)
                self._changed.notify_all()

    def lines(self) -> list[tuple[str, str | None, str]]:
        return [(p.level, p.logger, str(p.data)) for p in list(self.items)]

    def wait_for(self, condition: Callable[[], bool], timeout: float = 30.0) -> None:
        with self._changed:
            if not self._changed.wait_for(condition, timeout):
                raise AssertionError(f"not heard; heard {self.lines()}")

    def saying(self, text: str) -> list[tuple[str, str | None, str]]:
        return [line for line in self.lines() if text in line[2]]


@pytest.fixture
def logged(tmp_path):
    env = server_env(tmp_path / "home", MEMVAULT_MCP_WATCH_INTERVAL="0.05",
                     MEMVAULT_MCP_USE_INTERVAL="3600")
    heard = Logged()
    with McpServer(tmp_path / "vault", env, message_handler=heard) as server:
        yield server, heard, env


def _set_level(server: McpServer, level: str) -> None:
    server.run(lambda s: s.set_logging_level(level))


@pytest.mark.filterwarnings("ignore:The logging capability is deprecated")
def test_the_server_logs_its_writes_refusals_and_others_commits_at_the_level_set(logged):
    server, heard, env = logged
    assert server.init.capabilities.logging is not None
    saved = server.call("save_memory", content="Before the client asked to hear anything.")
    _set_level(server, "info")  # the events from before it asked come first
    heard.wait_for(lambda: bool(heard.saying("save_memory: committed")))
    assert heard.saying("save_memory: committed")[0][:2] == ("info", "memvault.writes")
    assert server.call("touch_memory", memory_id="nosuchid").error
    heard.wait_for(lambda: bool(heard.saying("touch_memory: ")))
    assert heard.saying("touch_memory: ")[0][0] == "warning"
    assert "nosuchid" in heard.saying("touch_memory: ")[0][2]
    with pytest.MonkeyPatch.context() as mp:  # another process commits beside the server
        for key, value in env.items():
            mp.setenv(key, value)
        with Vault.open(server.vault) as v:
            v.add("Written by the command line.")
    heard.wait_for(lambda: bool(heard.saying("changed outside this server")))
    assert heard.saying("changed outside this server")[0][:2] == ("info", "memvault.vault")
    _set_level(server, "warning")  # from now on, info is not sent
    server.call("archive_memory", memory_id=saved.data["memory_id"])
    assert server.call("delete_memory", memory_id="nosuchid2").error
    heard.wait_for(lambda: bool(heard.saying("nosuchid2")))  # sent in order: the archive first
    assert not heard.saying("archive_memory: committed")
    assert all(level != "debug" for level, _, _ in heard.lines())
    assert len(heard.saying("save_memory: committed")) == 1  # each event once


@pytest.mark.filterwarnings("ignore:The logging capability is deprecated")
def test_nothing_is_sent_unasked_and_a_bad_level_is_invalid_params(logged):
    server, heard, _ = logged
    assert not server.call("save_memory", content="Nobody listens yet.").error
    assert server.call("touch_memory", memory_id="nosuchid").error
    with pytest.raises(MCPError) as caught:
        server.run(lambda s: s.send_request(SetLevelRequest(
            params=SetLevelRequestParams.model_construct(level="loud")), EmptyResult))
    assert caught.value.error.code == -32602
    server.run(lambda s: s.send_ping())  # (the server answers in order: anything sent came)
    assert heard.lines() == []
    _set_level(server, "debug")  # what happened before is told now, once asked
    heard.wait_for(lambda: bool(heard.saying("nosuchid")))
    assert heard.saying("save_memory: committed") and heard.saying("touch_memory: ")


def test_the_first_build_of_the_search_index_is_told(tmp_path, monkeypatch):
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", 3)
    with Vault.open(tmp_path / "v") as vault:
        for i in range(4):
            vault.add(f"note {i} about the garden")
        told: list[str] = []
        Finder.build_first(vault.root, dict(vault.memories.items()), told.append)
    assert told[0] == "building the search index: 4 of 4 memories"
    assert told[1].startswith("search index built: 4 memories in ")
