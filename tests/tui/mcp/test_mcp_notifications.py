"""Change notifications: a client subscribed to a memory (or the inbox, or the stats) hears when
it changes, whoever changed it: here another process (the test's own ``Vault``, the command line),
never the server itself. Read with the package's own stdio client; each wait is for a
notification to arrive, never a fixed time."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any

import pytest
from mcp_support import ROOT, McpServer, server_env

from core import Vault


class Heard:
    """What the server sent unasked, as it arrives."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self._changed = threading.Condition()

    async def __call__(self, message: Any) -> None:
        with self._changed:
            self.items.append(message)
            self._changed.notify_all()

    def updated(self) -> list[str]:
        return [str(m.params.uri) for m in list(self.items)
                if getattr(m, "method", "") == "notifications/resources/updated"]

    def list_changes(self) -> int:
        return sum(getattr(m, "method", "") == "notifications/resources/list_changed"
                   for m in list(self.items))

    def wait_for(self, condition: Callable[[], bool], timeout: float = 30.0) -> None:
        with self._changed:
            if not self._changed.wait_for(condition, timeout):
                raise AssertionError(f"not heard; heard {self.items}")


@pytest.fixture
def watched(tmp_path):
    env = server_env(tmp_path / "home", MEMVAULT_MCP_WATCH_INTERVAL="0.05",
                     MEMVAULT_MCP_USE_INTERVAL="3600")
    vault = tmp_path / "vault"
    with pytest.MonkeyPatch.context() as mp:
        for key, value in env.items():
            mp.setenv(key, value)
        with Vault.open(vault) as v:
            a = v.add("Kites need wind.").id
            b = v.add("Gliders need thermals.").id
        heard = Heard()
        with McpServer(vault, env, message_handler=heard) as server:
            yield server, heard, vault, env, a, b


def _subscribe(server: McpServer, uri: str) -> None:
    server.run(lambda s: s.send_request(_subscribe_request(uri), _empty()))


def _subscribe_request(uri: str) -> Any:
    from mcp.types import SubscribeRequest, SubscribeRequestParams

    return SubscribeRequest(params=SubscribeRequestParams(uri=uri))


def _empty() -> Any:
    from mcp.types import EmptyResult

    return EmptyResult


def test_a_change_by_another_process_reaches_the_subscriber(watched):
    server, heard, vault, _env, a, b = watched
    uri_a, uri_b = f"memvault://memory/{a}", f"memvault://memory/{b}"
    _subscribe(server, uri_a)
    _subscribe(server, "memvault://stats")
    with Vault.open(vault) as v:  # another process than the server
        v.update(b, content="Gliders need thermals and a tow.")
        v.update(a, content="Kites need steady wind.")
    heard.wait_for(lambda: uri_a in heard.updated() and "memvault://stats" in heard.updated())
    assert uri_b not in heard.updated()  # never subscribed to
    assert heard.list_changes() == 0  # no memory came or went
    answer = server.run(lambda s: s.read_resource(uri_a))
    assert "steady wind" in answer.contents[0].text  # what the notification says to re-read


def test_the_servers_own_changes_reach_the_subscriber(watched):
    """The server's own commits are announced from what its write path wrote (git is not asked
    about them: tests/tui/mcp/test_mcp_changes.py), and reach the subscriber all the same."""
    server, heard, _vault, _env, a, b = watched
    uri_a, uri_b = f"memvault://memory/{a}", f"memvault://memory/{b}"
    _subscribe(server, uri_a)
    assert not server.call("touch_memory", memory_id=a).error
    heard.wait_for(lambda: uri_a in heard.updated())
    assert not server.call("save_memory", content="Parachutes need drag.").error
    heard.wait_for(lambda: heard.list_changes() == 1)
    assert uri_b not in heard.updated()


def test_memories_that_come_or_go_change_the_list(watched):
    server, heard, vault, _env, a, _b = watched
    with Vault.open(vault) as v:
        v.add("Balloons need calm air.")
    heard.wait_for(lambda: heard.list_changes() == 1)
    with Vault.open(vault) as v:
        v.delete(a)
    heard.wait_for(lambda: heard.list_changes() == 2)


def test_the_inbox_subscriber_hears_a_review_made_on_the_command_line(watched):
    server, heard, vault, env, _a, _b = watched
    _subscribe(server, "memvault://inbox")
    saved = server.call("save_memory", content="The assistant wrote this.")  # the server's own
    assert not saved.error
    heard.wait_for(lambda: heard.updated().count("memvault://inbox") == 1)
    subprocess.run([sys.executable, "-m", "tui.cli", "inbox", "accept", "--all",
                    "--vault", str(vault)], env=env, cwd=str(ROOT), check=True,
                   capture_output=True)
    heard.wait_for(lambda: heard.updated().count("memvault://inbox") == 2)
    inbox = server.run(lambda s: s.read_resource("memvault://inbox"))
    assert '"count": 0' in inbox.contents[0].text


def test_a_relation_changed_elsewhere_updates_both_of_its_memories(watched):
    server, heard, vault, _env, a, b = watched
    for mid in (a, b):
        _subscribe(server, f"memvault://memory/{mid}")
    with Vault.open(vault) as v:
        v.relate(a, b, "related")
    heard.wait_for(lambda: {f"memvault://memory/{a}", f"memvault://memory/{b}"}
                   <= set(heard.updated()))


def test_unsubscribing_stops_the_updates(watched):
    server, heard, vault, _env, a, b = watched
    uri_a, uri_b = f"memvault://memory/{a}", f"memvault://memory/{b}"
    _subscribe(server, uri_a)
    _subscribe(server, uri_b)
    server.run(lambda s: s.send_request(_unsubscribe_request(uri_a), _empty()))
    with Vault.open(vault) as v:
        v.update(a, content="Kites need gusts.")
        v.update(b, content="Gliders need lift.")
    heard.wait_for(lambda: uri_b in heard.updated())
    assert uri_a not in heard.updated()


def _unsubscribe_request(uri: str) -> Any:
    from mcp.types import UnsubscribeRequest, UnsubscribeRequestParams

    return UnsubscribeRequest(params=UnsubscribeRequestParams(uri=uri))


async def test_a_client_of_the_listen_era_hears_changes_on_its_stream(tmp_path):
    """A client speaking 2026-07-28 has no resources/subscribe: it opens a subscriptions/listen
    stream (the SDK's ``Client.listen``), which the same watch feeds."""
    import anyio
    from mcp.client.client import Client
    from mcp.client.stdio import StdioServerParameters
    from mcp.shared.subscriptions import ResourcesListChanged, ResourceUpdated

    env = server_env(tmp_path / "home", MEMVAULT_MCP_WATCH_INTERVAL="0.05")
    vault = tmp_path / "vault"
    with pytest.MonkeyPatch.context() as mp:
        for key, value in env.items():
            mp.setenv(key, value)
        with Vault.open(vault) as v:
            mid = v.add("Kites need wind.").id
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "tui.cli", "mcp", "--vault", str(vault)],
                                   env=env, cwd=str(ROOT))
    uri = f"memvault://memory/{mid}"
    async with Client(params) as client:
        assert client.protocol_version >= "2026-07-28"
        with anyio.fail_after(60):
            async with client.listen(resources_list_changed=True,
                                     resource_subscriptions=[uri]) as stream:
                with pytest.MonkeyPatch.context() as mp:
                    for key, value in env.items():
                        mp.setenv(key, value)
                    with Vault.open(vault) as v:
                        v.update(mid, content="Kites need steady wind.")
                        v.add("Balloons need calm air.")
                heard: list[object] = []
                async for event in stream:
                    heard.append(event)
                    if ResourcesListChanged() in heard and ResourceUpdated(uri=uri) in heard:
                        break
