"""A real ``memvault mcp`` server for tests, driven by the ``mcp`` package's own stdio client
(``stdio_client`` + ``ClientSession``) from plain synchronous test code: the client runs in a
thread with its own event loop, and :meth:`McpServer.call` waits for each answer."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import queue
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CLIENT_NAME = "pytest-client"
#: ``python -c _LIMITED N ARGS...``: runs ``python ARGS...`` with RLIMIT_FSIZE N (a disk that
#: fills up: a write past it fails with EFBIG, Python ignoring SIGXFSZ)
_LIMITED = ("import os, resource, sys; n = int(sys.argv[1]); "
            "resource.setrlimit(resource.RLIMIT_FSIZE, (n, n)); "
            "os.execv(sys.executable, [sys.executable, *sys.argv[2:]])")
TIMEOUT = 60.0


def server_env(home: Path, **extra: str) -> dict[str, str]:
    """An environment for the server like the suite's own: HOME and git's config in ``home``."""
    home.mkdir(parents=True, exist_ok=True)
    gitconfig = home / "gitconfig-empty"
    gitconfig.write_text("")
    return {"HOME": str(home), "XDG_DATA_HOME": str(home / "data"),
            "XDG_CONFIG_HOME": str(home / "config"), "XDG_CACHE_HOME": str(home / "cache"),
            "GIT_CONFIG_GLOBAL": str(gitconfig), "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_TERMINAL_PROMPT": "0", **extra}


@dataclass
class Answer:
    """A tool's answer: ``error`` (isError) and its text; ``data`` the JSON object, if any."""

    error: bool
    text: str

    @property
    def data(self) -> dict[str, Any]:
        return json.loads(self.text)


class McpServer:
    """``python -m tui.cli mcp --vault VAULT [args]`` with a connected client session."""

    def __init__(self, vault: Path, env: dict[str, str], *args: str,
                 client_name: str = CLIENT_NAME, errlog: Path | None = None,
                 file_size_limit: int | None = None,
                 message_handler: Callable[[Any], Awaitable[None]] | None = None):
        self.vault = vault
        self.message_handler = message_handler  # what the server sends unasked (notifications)
        # --create: a vault not made yet is made at the first write (the folder is named)
        self.argv = ["-m", "tui.cli", "mcp", "--vault", str(vault), "--create", *args]
        if file_size_limit is not None:  # no file the server writes may grow past this
            self.argv = ["-c", _LIMITED, str(file_size_limit), *self.argv]
        self.env = env
        self.client_name = client_name
        self.errlog = errlog or vault.parent / f"{vault.name}-server-stderr.txt"
        self.init: Any = None
        self._jobs: queue.Queue[Any] = queue.Queue()
        self._ready = concurrent.futures.Future()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True)

    def __enter__(self) -> McpServer:
        self._thread.start()
        self._ready.result(timeout=TIMEOUT)
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection (stdin ends: the server commits what is pending and exits)."""
        if self._thread.is_alive():
            self._jobs.put(None)
            self._thread.join(timeout=TIMEOUT)

    async def _main(self) -> None:
        from mcp import ClientSession
        from mcp.client.stdio import StdioServerParameters, stdio_client
        from mcp.types import Implementation

        params = StdioServerParameters(command=sys.executable, args=self.argv, env=self.env,
                                       cwd=str(ROOT))
        try:
            with open(self.errlog, "a", encoding="utf-8") as errlog:
                async with stdio_client(params, errlog=errlog) as (read, write):
                    info = Implementation(name=self.client_name, version="1.0")
                    async with ClientSession(read, write, client_info=info,
                                             message_handler=self.message_handler) as session:
                        self.init = await session.initialize()
                        self._ready.set_result(True)
                        await self._serve(session)
        except BaseException as exc:  # handed to the waiting test
            if not self._ready.done():
                self._ready.set_exception(exc)
            raise

    async def _serve(self, session: Any) -> None:
        loop = asyncio.get_running_loop()
        while True:
            job = await loop.run_in_executor(None, self._jobs.get)
            if job is None:
                return
            work, future = job
            try:
                future.set_result(await work(session))
            except Exception as exc:  # handed to the waiting test
                future.set_exception(exc)

    def run(self, work: Callable[[Any], Awaitable[Any]]) -> Any:
        future: concurrent.futures.Future = concurrent.futures.Future()
        self._jobs.put((work, future))
        return future.result(timeout=TIMEOUT)

    def call(self, tool: str, **arguments: Any) -> Answer:
        result = self.run(lambda s: s.call_tool(tool, arguments))
        text = "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")
        return Answer(bool(result.is_error), text)

    def tools(self) -> list[Any]:
        return self.run(lambda s: s.list_tools()).tools


# -- what git says ------------------------------------------------------------------------------
def git(vault: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(vault), *args], check=True, capture_output=True,
                          text=True).stdout


def head(vault: Path) -> str:
    return git(vault, "rev-parse", "HEAD").strip()


def commits_since(vault: Path, rev: str) -> list[str]:
    """Full messages of the commits after ``rev``, newest first."""
    out = git(vault, "log", "--format=%B%x1e", f"{rev}..HEAD")
    return [m.strip() for m in out.split("\x1e") if m.strip()]


def status(vault: Path) -> str:
    return git(vault, "status", "--porcelain")
