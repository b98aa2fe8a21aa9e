"""A real ``memvault mcp --http`` server for tests: spawned on 127.0.0.1 with port 0 (the system
picks a free one), ready once it says on stderr where it listens (read, never waited for with a
sleep); clients are the ``mcp`` package's own Streamable HTTP client, or raw requests for what
that client cannot send (no token, a foreign Origin, an oversized body, a dropped connection)."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp_support import CLIENT_NAME, ROOT, TIMEOUT

#: ``python -c _FILE_LIMITED N ARGS...``: runs ``python ARGS...`` with RLIMIT_NOFILE N
_FILE_LIMITED = ("import os, resource, sys; n = int(sys.argv[1]); "
                 "resource.setrlimit(resource.RLIMIT_NOFILE, (n, n)); "
                 "os.execv(sys.executable, [sys.executable, *sys.argv[2:]])")
LISTENING = re.compile(r"memvault: listening on (http://\S+)")
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "raw", "version": "1"}}}
ACCEPT = "application/json, text/event-stream"


def token_file(env: dict[str, str]) -> Path:
    """The token file the server of ``env`` (made by ``server_env``) uses."""
    return Path(env["XDG_CONFIG_HOME"]) / "memvault" / "mcp-token"


class HttpServer:
    """``python -m tui.cli mcp --vault VAULT --http ADDRESS [args]``, its URL once listening."""

    def __init__(self, vault: Path, env: dict[str, str], *args: str,
                 address: str = "127.0.0.1:0", file_limit: int | None = None):
        self.argv = [sys.executable, "-m", "tui.cli", "mcp", "--vault", str(vault), "--create",
                     "--http", address, *args]
        if file_limit is not None:  # the server opens at most this many files (ulimit -n)
            self.argv[1:1] = ["-c", _FILE_LIMITED, str(file_limit)]
        self.env = env
        self.url = ""
        self.lines: list[str] = []
        self.proc: subprocess.Popen[str] | None = None
        self._ready = threading.Event()
        self._done = threading.Event()

    def __enter__(self) -> HttpServer:
        self.proc = subprocess.Popen(self.argv, env=self.env, cwd=str(ROOT), text=True,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        threading.Thread(target=self._drain, daemon=True).start()
        self._ready.wait(TIMEOUT)
        if not self.url:
            self.stop()
            raise RuntimeError("the server did not start:\n" + self.stderr)
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _drain(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        for line in self.proc.stderr:  # until the process closes stderr (it exits)
            self.lines.append(line)
            found = LISTENING.search(line)
            if found and not self.url:
                self.url = found.group(1)
                self._ready.set()
        self._ready.set()
        self._done.set()

    @property
    def stderr(self) -> str:
        return "".join(self.lines)

    @property
    def token(self) -> str:
        return token_file(self.env).read_text().strip()

    def stop(self, sig: int = signal.SIGTERM) -> int | None:
        """Stop it as a person does (SIGTERM, or SIGINT: ctrl+c) and wait for it to exit."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        code = self.proc.wait(TIMEOUT)
        self._done.wait(TIMEOUT)
        return code

    @property
    def hostport(self) -> tuple[str, int]:
        netloc = self.url.split("//", 1)[1].split("/", 1)[0]
        host, _, port = netloc.rpartition(":")
        return host, int(port)


def run_server(vault: Path, env: dict[str, str], *args: str,
               address: str = "127.0.0.1:0") -> subprocess.CompletedProcess[str]:
    """``memvault mcp --http`` expected to refuse to start: its exit and output."""
    argv = [sys.executable, "-m", "tui.cli", "mcp", "--vault", str(vault), "--create", "--http",
            address, *args]
    return subprocess.run(argv, env=env, cwd=str(ROOT), text=True, capture_output=True,
                          stdin=subprocess.DEVNULL, timeout=TIMEOUT)


@asynccontextmanager
async def http_session(url: str, token: str | None, *, client_name: str = CLIENT_NAME,
                       headers: dict[str, str] | None = None,
                       message_handler: Any = None) -> AsyncIterator[Any]:
    """An initialized ``ClientSession`` over the SDK's Streamable HTTP client."""
    import httpx2
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from mcp.types import Implementation

    sent = dict(headers or {})
    if token is not None:
        sent["Authorization"] = f"Bearer {token}"
    async with httpx2.AsyncClient(headers=sent, timeout=httpx2.Timeout(TIMEOUT)) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            info = Implementation(name=client_name, version="1.0")
            async with ClientSession(read, write, client_info=info,
                                     message_handler=message_handler) as session:
                await session.initialize()
                yield session


def tool_text(result: Any) -> str:
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


def raw_post(server: HttpServer, body: bytes | dict, *, token: str | None = None,
             **headers: str) -> Any:
    """One POST the SDK's client would not send as it is (its ``httpx2.Response``)."""
    import httpx2

    sent = {"content-type": "application/json", "accept": ACCEPT, **headers}
    if token is not None:
        sent["authorization"] = f"Bearer {token}"
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    return httpx2.post(server.url, content=data, headers=sent, timeout=30)


def raw_session(server: HttpServer, token: str) -> dict[str, str]:
    """A session opened with raw requests (initialize, then initialized): the headers that
    carry it, token included."""
    opened = raw_post(server, INIT, token=token)
    assert opened.status_code == 200, opened.text
    common = {"authorization": f"Bearer {token}",
              "mcp-session-id": opened.headers["mcp-session-id"],
              "mcp-protocol-version": "2025-06-18"}
    done = raw_post(server, {"jsonrpc": "2.0", "method": "notifications/initialized"}, **common)
    assert done.status_code == 202, done.text
    return common


def make_vault(tmp_path: Path, env: dict[str, str], n: int = 0) -> Path:
    """A vault of ``n`` kite notes at ``tmp_path/vault``, made with the server's settings."""
    import pytest

    from core import Memory, Vault

    vault = tmp_path / "vault"
    with pytest.MonkeyPatch.context() as mp:
        for key, value in env.items():
            mp.setenv(key, value)
        with Vault.open(vault) as v:
            v.save_many([Memory(id=f"kite-{i:04d}", content=f"Kite note {i}: fly on windy days.")
                         for i in range(n)])
    return vault
