"""``memvault mcp --http``: the SDK's Streamable HTTP transport behind a bearer token, checked with
the SDK's own HTTP client and, for what it cannot send, raw requests. Every server is spawned on
127.0.0.1 with a port the system picks."""

from __future__ import annotations

import json
import signal
import socket
import stat
import subprocess
import sys

import anyio
import pytest
from mcp.types import EmptyResult, SubscribeRequest, SubscribeRequestParams
from mcp_http_support import (ACCEPT, INIT, HttpServer, http_session, make_vault, raw_post,
                              run_server, token_file, tool_text)
from mcp_support import CLIENT_NAME, ROOT, commits_since, head, server_env, status

from core import Vault


@pytest.fixture
def env(tmp_path) -> dict[str, str]:
    return server_env(tmp_path / "home", MEMVAULT_MCP_USE_INTERVAL="3600")


async def test_the_sdk_client_works_with_the_token_made_at_first_start(tmp_path, env):
    vault = make_vault(tmp_path, env)
    before = head(vault)
    with HttpServer(vault, env) as server:
        assert "made the MCP bearer token" in server.stderr
        path = token_file(env)
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
        async with http_session(server.url, server.token) as session:
            assert len((await session.list_tools()).tools) >= 15
            saved = await session.call_tool("save_memory", {"content": "HTTP reaches the vault."})
            assert not saved.is_error, tool_text(saved)
    messages = commits_since(vault, before)
    assert len(messages) == 1 and messages[0].startswith("save_memory: ")
    assert f"Memvault-Via: mcp/{CLIENT_NAME}" in messages[0]


async def test_no_token_or_a_wrong_one_is_refused_with_401_and_nothing_is_written(tmp_path, env):
    vault = make_vault(tmp_path, env)
    before = head(vault)
    save = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "save_memory", "arguments": {"content": "must not be written"}}}
    with HttpServer(vault, env) as server:
        for token in (None, "wrong-" + server.token, server.token[:-1], server.token + "x"):
            for body in (INIT, save):
                answer = raw_post(server, body, token=token)
                assert answer.status_code == 401, (token, answer.text)
                assert answer.json()["error"] == "invalid_token"
        for header in (f"Basic {server.token}", "Bearer", server.token):
            assert raw_post(server, INIT, authorization=header).status_code == 401
        with pytest.raises(Exception):  # the SDK's client gets no session with a wrong token
            async with http_session(server.url, "wrong-token"):
                pass
    assert head(vault) == before and status(vault) == ""


async def test_a_foreign_origin_is_403_and_a_foreign_host_421(tmp_path, env):
    vault = make_vault(tmp_path, env)
    with HttpServer(vault, env) as server:
        host, port = server.hostport
        token = server.token
        assert raw_post(server, INIT, token=token, origin="http://evil.example").status_code == 403
        assert raw_post(server, INIT, token=token,
                    origin=f"http://127.0.0.1:{port + 1}").status_code == 403
        assert raw_post(server, INIT, token=token, host=f"evil.example:{port}").status_code == 421
        assert raw_post(server, INIT, token=token, host=f"localhost:{port}",
                    origin=f"http://localhost:{port}").status_code == 200
        # an origin the person allowed is let in
    with HttpServer(vault, env, "--allow-origin", "https://app.example") as server:
        assert raw_post(server, INIT, token=server.token,
                    origin="https://app.example").status_code == 200
        assert raw_post(server, INIT, token=server.token,
                    origin="https://other.example").status_code == 403


async def test_an_oversized_body_is_413_and_the_server_keeps_serving(tmp_path, env):
    vault = make_vault(tmp_path, env)
    before = head(vault)
    big = {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
           "params": {"name": "save_memory", "arguments": {"content": "x" * (5 * 1024 * 1024)}}}
    with HttpServer(vault, env) as server:
        answer = raw_post(server, big, token=server.token)
        assert answer.status_code == 413
        async with http_session(server.url, server.token) as session:
            refused = None
            try:
                refused = await session.call_tool("save_memory", big["params"]["arguments"])
            except Exception:  # noqa: BLE001 - the SDK's client reports the 413 as it likes
                pass
            assert refused is None or refused.is_error
            assert not (await session.call_tool("search_memory", {"query": "x"})).is_error
    assert head(vault) == before and status(vault) == ""


async def test_a_rotated_token_shuts_the_old_one_out_at_once(tmp_path, env):
    vault = make_vault(tmp_path, env)
    with HttpServer(vault, env) as server:
        old = server.token
        shown = subprocess.run([sys.executable, "-m", "tui.cli", "mcp", "token"], env=env,
                               cwd=str(ROOT), capture_output=True, text=True, check=True)
        assert shown.stdout.strip() == old
        rotated = subprocess.run([sys.executable, "-m", "tui.cli", "mcp", "token", "--rotate",
                                  "--json"], env=env, cwd=str(ROOT), capture_output=True,
                                 text=True, check=True)
        new = json.loads(rotated.stdout)["token"]
        assert new != old and server.token == new
        assert stat.S_IMODE(token_file(env).stat().st_mode) == 0o600
        assert raw_post(server, INIT, token=old).status_code == 401
        async with http_session(server.url, new) as session:
            assert (await session.list_tools()).tools


def test_an_address_beyond_loopback_is_refused_unless_asked_for_with_a_token_made(tmp_path, env):
    vault = make_vault(tmp_path, env)
    plain = run_server(vault, env, address="0.0.0.0:0")
    assert plain.returncode == 1 and "not a loopback address" in plain.stderr
    assert "--allow-remote" in plain.stderr
    asked = run_server(vault, env, "--allow-remote", address="0.0.0.0:0")
    assert asked.returncode == 1 and "token made beforehand" in asked.stderr
    assert not token_file(env).exists()  # no token was made behind the person's back
    usage = subprocess.run([sys.executable, "-m", "tui.cli", "mcp", "--allow-remote"], env=env,
                           cwd=str(ROOT), capture_output=True, text=True)
    assert usage.returncode == 2 and "go with --http" in usage.stderr


async def test_several_clients_at_once_all_write_through_the_lock(tmp_path, env):
    vault = make_vault(tmp_path, env)
    before = head(vault)
    with HttpServer(vault, env) as server:
        token = server.token

        async def client(name: str) -> None:
            async with http_session(server.url, token, client_name=name) as session:
                for i in range(4):
                    saved = await session.call_tool(
                        "save_memory", {"content": f"{name} writes note {i} about gliders."})
                    assert not saved.is_error, tool_text(saved)

        async with anyio.create_task_group() as tasks:
            for name in ("client-a", "client-b", "client-c"):
                tasks.start_soon(client, name)
    messages = commits_since(vault, before)
    assert len(messages) == 12 and all(m.startswith("save_memory: ") for m in messages)
    for message in messages:  # each commit names the client that made it
        writer = message.split(": ", 1)[1].split()[1]
        assert f"Memvault-Via: mcp/{writer}" in message, message
    assert status(vault) == ""
    with Vault.open(vault, readonly=True) as v:
        assert sum("gliders" in m.content for m in v.memories.values()) == 12


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_stopping_the_server_commits_pending_use_records(tmp_path, env, sig):
    vault = make_vault(tmp_path, env, 5)
    before = head(vault)
    server = HttpServer(vault, env)
    with server:
        async with http_session(server.url, server.token) as session:
            found = await session.call_tool("search_memory", {"query": "kite"})
            assert json.loads(tool_text(found))["count"] == 5
        assert commits_since(vault, before) == []  # pending: written, not committed
        server.stop(sig)
    messages = commits_since(vault, before)
    assert len(messages) == 1 and messages[0].startswith("use: 5 memories")
    assert status(vault) == ""


async def test_a_client_that_disconnects_mid_call_loses_nothing(tmp_path, env):
    vault = make_vault(tmp_path, env, 3)
    with HttpServer(vault, env) as server:
        token = server.token
        opened = raw_post(server, INIT, token=token)
        session_id = opened.headers["mcp-session-id"]
        common = {"authorization": f"Bearer {token}", "mcp-session-id": session_id,
                  "mcp-protocol-version": "2025-06-18"}
        raw_post(server, {"jsonrpc": "2.0", "method": "notifications/initialized"}, **common)
        host, port = server.hostport
        call = json.dumps({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
                           "params": {"name": "save_memory",
                                      "arguments": {"content": "Sent by a client that left."}}})
        for body, declared in ((call, len(call)), (call[:20], len(call))):  # whole; cut short
            lines = ["POST /mcp HTTP/1.1", f"Host: {host}:{port}",
                     "Content-Type: application/json", f"Accept: {ACCEPT}",
                     *(f"{k}: {v}" for k, v in common.items()), f"Content-Length: {declared}"]
            with socket.create_connection((host, port), timeout=30) as raw:
                raw.sendall(("\r\n".join(lines) + "\r\n\r\n" + body).encode())
                raw.shutdown(socket.SHUT_RDWR)  # gone before the answer
        async with http_session(server.url, token) as session:  # the server still serves
            after = await session.call_tool("save_memory", {"content": "Written afterwards."})
            assert not after.is_error, tool_text(after)
    assert status(vault) == ""  # nothing half-written: every file on disk is committed
    with Vault.open(vault, readonly=True) as v:
        contents = sorted(m.content for m in v.memories.values())
    assert "Written afterwards." in contents
    assert contents.count("Sent by a client that left.") <= 1


async def test_a_subscriber_over_http_hears_a_change_made_elsewhere(tmp_path):
    env = server_env(tmp_path / "home", MEMVAULT_MCP_WATCH_INTERVAL="0.05")
    vault = make_vault(tmp_path, env, 1)
    uri = "memvault://memory/kite-0000"
    heard = anyio.Event()

    async def on_message(message) -> None:
        if getattr(getattr(message, "params", None), "uri", None) == uri:
            heard.set()

    with HttpServer(vault, env) as server:
        async with http_session(server.url, server.token, message_handler=on_message) as session:
            await session.send_request(  # the handshake era's subscribe (ClientSession warns
                SubscribeRequest(params=SubscribeRequestParams(uri=uri)), EmptyResult)  # of it)
            with pytest.MonkeyPatch.context() as mp:
                for key, value in env.items():
                    mp.setenv(key, value)
                with Vault.open(vault) as v:  # another process than the server
                    v.update("kite-0000", content="Kite note 0: fly on steady wind.")
            with anyio.fail_after(30):
                await heard.wait()
            shown = await session.read_resource(uri)
            assert "steady wind" in shown.contents[0].text
