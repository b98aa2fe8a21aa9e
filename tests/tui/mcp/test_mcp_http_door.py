"""What the HTTP door checks around the SDK's app (tui/mcp/door.py), on a spawned server: a
request id that is neither a string nor an integer is refused as over stdio, a body cut short
leaves no traceback, and a token rotation ends the event streams opened with the old token."""

from __future__ import annotations

import json
import socket

import anyio
import httpx2
import pytest
from mcp_http_support import (ACCEPT, HttpServer, make_vault, raw_post, raw_session,
                              token_file)
from mcp_support import TIMEOUT, server_env

from tui.mcp.bearer import write_token

INVALID_REQUEST = -32600


@pytest.fixture
def env(tmp_path) -> dict[str, str]:
    return server_env(tmp_path / "home", MEMVAULT_MCP_USE_INTERVAL="3600",
                      MEMVAULT_MCP_WATCH_INTERVAL="0.05")


@pytest.mark.parametrize("bad_id", [1.5, {"a": 1}, [7], True])
def test_an_id_neither_string_nor_integer_is_an_invalid_request_as_over_stdio(tmp_path, env,
                                                                                bad_id):
    vault = make_vault(tmp_path, env)
    with HttpServer(vault, env) as server:
        common = raw_session(server, server.token)
        answer = raw_post(server, {"jsonrpc": "2.0", "id": bad_id, "method": "ping"}, **common)
        assert answer.status_code == 400, answer.text  # (before: 202, and no answer ever)
        assert answer.json() == {"jsonrpc": "2.0", "id": None, "error": {
            "code": INVALID_REQUEST, "message": "Invalid Request: an id is a string or an integer"}}
        fine = raw_post(server, {"jsonrpc": "2.0", "id": 5, "method": "ping"}, **common)
        assert fine.status_code == 200 and '"id":5' in fine.text.replace(" ", "")


def test_a_batch_gets_an_invalid_request_for_each_request_in_it(tmp_path, env):
    vault = make_vault(tmp_path, env)
    with HttpServer(vault, env) as server:
        common = raw_session(server, server.token)
        batch = [{"jsonrpc": "2.0", "id": 1, "method": "ping"},
                 {"jsonrpc": "2.0", "id": "two", "method": "ping"}]
        answer = raw_post(server, batch, **common)
        assert answer.status_code == 400
        assert [(e["id"], e["error"]["code"]) for e in answer.json()] == [
            (1, INVALID_REQUEST), ("two", INVALID_REQUEST)]


def test_a_body_cut_short_leaves_no_traceback(tmp_path, env):
    vault = make_vault(tmp_path, env)
    server = HttpServer(vault, env)
    with server:
        common = raw_session(server, server.token)
        host, port = server.hostport
        call = json.dumps({"jsonrpc": "2.0", "id": 9, "method": "ping"})
        head = ["POST /mcp HTTP/1.1", f"Host: {host}:{port}", "Content-Type: application/json",
                f"Accept: {ACCEPT}", *(f"{k}: {v}" for k, v in common.items()),
                f"Content-Length: {len(call)}"]
        for _ in range(3):
            with socket.create_connection((host, port), timeout=TIMEOUT) as raw:
                raw.sendall(("\r\n".join(head) + "\r\n\r\n" + call[:12]).encode())
                raw.shutdown(socket.SHUT_WR)  # the body ends here, short of its length
                while raw.recv(4096):  # until the server lets the connection go
                    pass
        still = raw_post(server, {"jsonrpc": "2.0", "id": 10, "method": "ping"}, **common)
        assert still.status_code == 200
        server.stop()  # (its stderr is all read once it exits)
    after = server.stderr.split("memvault: listening on", 1)[1].splitlines()[1:]
    assert "Traceback" not in server.stderr and "ClientDisconnect" not in server.stderr
    assert len(after) <= 3, after  # at most a line each


async def test_a_rotation_ends_the_streams_opened_with_the_old_token(tmp_path, env):
    vault = make_vault(tmp_path, env)
    with HttpServer(vault, env) as server:
        common = raw_session(server, server.token)
        stream_headers = {**common, "accept": "text/event-stream"}
        async with httpx2.AsyncClient(timeout=httpx2.Timeout(30)) as http:
            async with http.stream("GET", server.url, headers=stream_headers) as stream:
                assert stream.status_code == 200
                new = write_token(token_file(env))  # as `memvault mcp token --rotate` does
                with anyio.fail_after(30):  # (a failsafe: the stream ends within a look)
                    async for _chunk in stream.aiter_bytes():  # until the server ends it
                        pass  # (before: it stayed open, and kept every notification coming)
            refused = await http.get(server.url, headers=stream_headers)
            assert refused.status_code == 401
            # the session goes on with the new token, on a new stream (the old one is gone)
            renewed = {**stream_headers, "authorization": f"Bearer {new}"}
            async with http.stream("GET", server.url, headers=renewed) as again:
                assert again.status_code == 200
