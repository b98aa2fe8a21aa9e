"""The HTTP door's connections (tui/mcp/connections.py): sockets that never finish a request are
closed within the request deadline, trickling bytes does not extend it, and a client with the
token gets through while they are open, past the connection cap. Each socket is waited for until
the server closes it (its read timeout only a failsafe)."""

from __future__ import annotations

import socket
import time

import pytest
from mcp_http_support import HttpServer, http_session, make_vault, tool_text
from mcp_support import server_env

from core import VaultError
from tui.mcp import connections
from tui.mcp.connections import Limits, limits_from_env

SLOW_SOCKETS = 50
CAP = 10
FAILSAFE = 30.0  # seconds a socket waits for the server to close it (today: well under 2)
HALF_HEADER = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: appl"


def _closed_by_server(sock: socket.socket, until: float) -> bool:
    """Read until the server closes the connection: True, or False at ``until`` (monotonic)."""
    sock.settimeout(max(0.01, until - time.monotonic()))
    try:
        while sock.recv(4096):
            pass
    except ConnectionResetError:
        pass
    except TimeoutError:
        return False
    return True


def _trickled_until_closed(sock: socket.socket, data: bytes) -> bool:
    """Send ``data`` a byte whenever the server has said nothing for 0.2 s, until the server
    closes the connection (True) or every byte is sent without that (False)."""
    sock.settimeout(0.2)
    for i in range(len(data)):
        try:
            while sock.recv(4096):
                pass
            return True
        except ConnectionResetError:
            return True
        except TimeoutError:
            try:
                sock.sendall(data[i:i + 1])
            except (BrokenPipeError, ConnectionResetError):
                return True
    return False


@pytest.fixture
def env(tmp_path) -> dict[str, str]:
    return server_env(tmp_path / "home", MEMVAULT_MCP_USE_INTERVAL="3600",
                      MEMVAULT_MCP_HTTP_REQUEST_TIMEOUT="1",
                      MEMVAULT_MCP_HTTP_MAX_CONNECTIONS=str(CAP))


async def test_half_requests_are_dropped_and_the_token_still_gets_through(tmp_path, env):
    vault = make_vault(tmp_path, env, 2)
    with HttpServer(vault, env) as server:
        host, port = server.hostport
        slow = []
        try:
            for _ in range(SLOW_SOCKETS):  # more than the cap: the oldest are closed for room
                sock = socket.create_connection((host, port), timeout=FAILSAFE)
                slow.append(sock)
                sock.sendall(HALF_HEADER)
            async with http_session(server.url, server.token) as session:
                found = await session.call_tool("search_memory", {"query": "kite"})
                assert not found.is_error and "kite-0000" in tool_text(found)
            until = time.monotonic() + FAILSAFE
            still_open = [i for i, sock in enumerate(slow) if not _closed_by_server(sock, until)]
            assert still_open == []  # (before: every one held for as long as it stayed open)
        finally:
            for sock in slow:
                sock.close()


async def test_under_a_low_file_limit_a_flood_of_half_requests_starves_no_one(tmp_path):
    env = server_env(tmp_path / "home", MEMVAULT_MCP_USE_INTERVAL="3600")  # (default limits)
    vault = make_vault(tmp_path, env, 2)
    with HttpServer(vault, env, file_limit=128) as server:
        host, port = server.hostport
        slow = []
        try:
            for _ in range(160):  # more sockets than the server may open files
                sock = socket.create_connection((host, port), timeout=FAILSAFE)
                slow.append(sock)
                sock.sendall(HALF_HEADER)
            async with http_session(server.url, server.token) as session:
                found = await session.call_tool("search_memory", {"query": "kite"})
                assert not found.is_error and "kite-0000" in tool_text(found)
        finally:
            for sock in slow:
                sock.close()
        assert server.proc is not None and server.proc.poll() is None  # (before: it died)
        assert "Too many open files" not in server.stderr


def test_bytes_trickling_in_do_not_extend_the_deadline(tmp_path, env):
    vault = make_vault(tmp_path, env)
    with HttpServer(vault, env) as server:
        host, port = server.hostport
        padding = b"X-Pad: " + b"a" * 150
        with socket.create_connection((host, port)) as header:  # a header that never ends
            header.sendall(HALF_HEADER + b"\r\n")
            assert _trickled_until_closed(header, padding)
        # a body the answer did not need, trickling in after it (401: no token)
        with socket.create_connection((host, port)) as body:
            body.sendall(b"POST /mcp HTTP/1.1\r\nHost: %s:%d\r\nContent-Type: application/json"
                         b"\r\nContent-Length: 100000\r\n\r\n{" % (host.encode(), port))
            body.settimeout(FAILSAFE)
            assert body.recv(4096).startswith(b"HTTP/1.1 401")
            assert _trickled_until_closed(body, padding)


def test_the_limits_come_from_the_environment(monkeypatch):
    for name in ("REQUEST_TIMEOUT", "IDLE_TIMEOUT", "MAX_CONNECTIONS"):
        monkeypatch.delenv(f"MEMVAULT_MCP_HTTP_{name}", raising=False)
    monkeypatch.setattr(connections, "_file_limit", lambda: 1024)
    assert limits_from_env() == Limits(10.0, 5.0, 100)
    monkeypatch.setenv("MEMVAULT_MCP_HTTP_REQUEST_TIMEOUT", "2.5")
    monkeypatch.setenv("MEMVAULT_MCP_HTTP_IDLE_TIMEOUT", "1")
    monkeypatch.setenv("MEMVAULT_MCP_HTTP_MAX_CONNECTIONS", "20")
    assert limits_from_env() == Limits(2.5, 1.0, 20)
    assert limits_from_env().backlog == 10  # (fewer than the cap)
    monkeypatch.setattr(connections, "_file_limit", lambda: 45)  # (ulimit -n 45)
    assert limits_from_env().max_connections == 15
    for name, bad in (("REQUEST_TIMEOUT", "0"), ("REQUEST_TIMEOUT", "soon"),
                      ("IDLE_TIMEOUT", "-1"), ("MAX_CONNECTIONS", "3"),
                      ("MAX_CONNECTIONS", "many")):
        with monkeypatch.context() as mp:
            mp.setenv(f"MEMVAULT_MCP_HTTP_{name}", bad)
            with pytest.raises(VaultError, match=f"MEMVAULT_MCP_HTTP_{name}"):
                limits_from_env()


class _Transport:
    """What the protocol needs of a socket's transport, and what it wrote and whether it closed."""

    def __init__(self) -> None:
        self.written = b""
        self.closed = False

    def get_extra_info(self, name: str, default: object = None) -> object:
        return ("127.0.0.1", 1) if name in ("peername", "sockname") else default

    def write(self, data: bytes) -> None:
        self.written += data

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed


def test_at_the_cap_the_longest_waiting_goes_and_when_all_are_served_the_new_one_is_503():
    import asyncio
    from types import SimpleNamespace

    import uvicorn
    from uvicorn.server import ServerState

    from tui.mcp.connections import BUSY, GuardedProtocol, Waiting

    async def app(scope, receive, send):  # (never called: no request is sent)
        raise AssertionError

    loop = asyncio.new_event_loop()
    try:
        config, state = uvicorn.Config(app, lifespan="off"), ServerState()
        waiting = Waiting(Limits(10.0, 5.0, 8))

        def connect() -> tuple[GuardedProtocol, _Transport]:
            protocol = GuardedProtocol(config, state, {}, loop, waiting=waiting)
            transport = _Transport()
            protocol.connection_made(transport)  # type: ignore[arg-type]
            return protocol, transport

        opened = [connect() for _ in range(8)]
        opened[0][0].cycle = SimpleNamespace(response_complete=False)  # being answered
        ninth, ninth_transport = connect()
        assert not ninth_transport.closed  # room was made: the longest waiting, not served
        assert [t.closed for _p, t in opened] == [False, True] + [False] * 6
        opened[1][0].connection_lost(None)
        for protocol, _t in [*opened[2:], (ninth, ninth_transport)]:
            protocol.cycle = SimpleNamespace(response_complete=False)
        _tenth, refused = connect()  # every open one is being answered
        assert refused.closed and refused.written == BUSY
    finally:
        loop.close()
