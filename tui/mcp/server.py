"""Build and run the MCP server of ``memvault mcp``: over stdio, or over Streamable HTTP with
``--http`` (:mod:`tui.mcp.http`). Beside the tools it serves resources (:mod:`tui.mcp.resources`),
prompts (:mod:`tui.mcp.prompts`) and change notifications (:mod:`tui.mcp.notifications`, whose
watch runs in the lifespan).

The server names the client from the initialize request (``clientInfo.name``, read by a
middleware), so every commit it makes carries ``Memvault-Via: mcp/<client>``, and opens the
vault in a worker thread as soon as the handshake is over. A background task commits pending
use records every interval; when the client closes the connection (or stdin ends) what is
pending is committed before the process exits.
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import anyio.to_thread
from mcp.server.mcpserver import MCPServer
from mcp.server.subscriptions import InMemorySubscriptionBus

from core import VaultError

from .access import VaultAccess
from .boundary import Boundary, install_one_line_log
from .completions import Completions
from .listing import ResourceList
from .logs import ServerLog
from .metrics import ToolTimings, timing_middleware
from .notifications import ChangeWatcher
from .surface import Surface

if TYPE_CHECKING:
    from .http import HttpSettings

NAME = "memvault"
INSTRUCTIONS = (
    "memvault keeps long-lived memories about the user and their work, one file each in a git "
    "repository the user reads and corrects. search_memory or recall before answering from "
    "memory; save_memory what is worth keeping (one idea a memory); observe_memory_usage for the "
    "memories an answer used. When a note is longer than a sentence or two, write its gist "
    "yourself (save_memory's gist: one short line saying what it is about, shorter than the "
    "note); recall shows gists first. Ids: the full id or its first 8 characters. Every change "
    "is a git commit the user can see and undo; delete_memory is kept in history "
    "(restore_memory)."
)


def package_version() -> str:
    """memvault's version as installed (``serverInfo.version``)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("memvault")
    except PackageNotFoundError:  # (running from a source tree never installed)
        return "0+unknown"


def _client_middleware(access: VaultAccess, surface: Surface) -> Any:
    """Names the client from the initialize request; once the handshake is over, registers the
    tools (:mod:`tui.mcp.surface`) and opens the vault in a worker thread, so the first tool
    call does not wait for a large vault to load."""

    def open_up() -> None:
        try:
            surface.ensure()
        except Exception:  # noqa: BLE001 - told by the first request, which tries again
            pass
        access.warm_up()


    def name(ctx: Any) -> None:
        params = getattr(ctx.session, "client_params", None)
        label = getattr(getattr(params, "client_info", None), "name", None)
        if label is not None:
            access.set_client(label)

    async def name_client(ctx: Any, call_next: Any) -> Any:
        if ctx.method == "tools/call":
            name(ctx)
        result = await call_next(ctx)
        if ctx.method == "notifications/initialized":
            name(ctx)
            threading.Thread(target=open_up, name="memvault-open", daemon=True).start()
        return result

    return name_client


def _lifespan(access: VaultAccess, watcher: ChangeWatcher, log: ServerLog) -> Any:
    @asynccontextmanager
    async def lifespan(_server: MCPServer) -> AsyncIterator[None]:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(watcher.run)  # change notifications (tui/mcp/notifications.py)
            tasks.start_soon(log.run)  # notifications/message (tui/mcp/logs.py)

            async def flush_periodically() -> None:
                while True:
                    await anyio.sleep(access.interval)
                    await anyio.to_thread.run_sync(access.flush_uses)

            tasks.start_soon(flush_periodically)
            try:
                yield None
            finally:
                tasks.cancel_scope.cancel()
                with anyio.CancelScope(shield=True):
                    await anyio.to_thread.run_sync(access.close)

    return lifespan


def build_server(path: Path, *, read_only: bool = False, deferred: bool = False,
                 **options: Any) -> tuple[MCPServer, VaultAccess]:
    """The server on the vault at ``path`` and its access to the vault (opened at the first
    tool call). ``deferred``: the tools, resources and prompts are registered once the
    handshake is over (stdio: :mod:`tui.mcp.surface`), not now. ``options``: more MCPServer
    options (the HTTP door's token check)."""
    install_one_line_log()  # (before MCPServer configures its Rich handler)
    log = ServerLog()
    bus = InMemorySubscriptionBus()
    watcher = ChangeWatcher(path, bus, tell=log.tell)
    access = VaultAccess(path, read_only=read_only, landed=watcher.own.landed, tell=log.tell)
    timings = ToolTimings()
    surface = Surface(None, access, timings)
    boundary = Boundary(None, log.tell, prepare=surface.ready_for)
    server: MCPServer = MCPServer(NAME, version=package_version(), instructions=INSTRUCTIONS,
                                  lifespan=_lifespan(access, watcher, log),
                                  middleware=[boundary, log.middleware,
                                              timing_middleware(timings),
                                              _client_middleware(access, surface),
                                              watcher.middleware],
                                  subscriptions=bus, log_level="WARNING", **options)
    boundary.server = surface.server = server
    server.middleware.append(ResourceList(server, access))
    server.completion()(Completions(access))
    if not deferred:
        surface.ensure()
    return server, access


def run(path: Path, *, read_only: bool = False, http: HttpSettings | None = None) -> None:
    """Serve the vault over stdin/stdout until the client closes the connection; or, with
    ``http``, over Streamable HTTP until SIGINT/SIGTERM."""
    if http is None:
        server, access = build_server(path, read_only=read_only, deferred=True)
    else:  # (uvicorn is imported only for HTTP)
        from .http import auth_options, serve

        server, access = build_server(path, read_only=read_only, **auth_options(http))
    try:
        if http is None:
            from .wire import serve_stdio

            anyio.run(serve_stdio, server)
        else:
            serve(server, http)
    finally:
        try:
            access.close()  # (a second close is a no-op: the lifespan closed it already)
        except VaultError:
            pass
