"""The MCP logging capability: ``logging/setLevel`` and ``notifications/message``, fed from the
server's own events (each a logger name and one line):

* ``memvault.writes`` (info): a tool's commit, ``save_memory: committed 1a2b3c4d``; (debug) the
  use records committed;
* ``memvault.vault`` (info): commits another process made (the app, the command line, a sync),
  seen by the change watch; (notice) what the vault did that a person should hear of;
* ``memvault.index`` (info): the search index's first build, begun and done;
* ``memvault.requests`` (warning): a refusal, a tool's error (``isError``) or a request refused
  ``-32602``; (error) a request that failed inside the server.

A client hears them once it has sent ``logging/setLevel`` (a client that never asks is not
flooded), at that level and above (RFC 5424's order), on its own connection; each client of an
HTTP server at its own level. It hears the latest :data:`KEPT` events from before it asked first
(the index build begun at the handshake, say), each event once. Events come from any thread (the tools run in worker threads):
:meth:`ServerLog.tell` queues them, :meth:`ServerLog.run` (in the server's lifespan) sends them.
The 2026-07-28 era has no ``logging/setLevel``: its clients are not sent these.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict, deque
from dataclasses import dataclass
from typing import Any

from .boundary import invalid
from .notifications import MAX_CLIENTS, SESSION_HEADER, STDIO_CLIENT

LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
#: the latest events kept: a client that starts listening hears these first (what happened
#: before it asked: the index build that began at the handshake), then each new one
KEPT = 200
_MESSAGE_LIMIT = 2000


@dataclass
class _Listener:
    session: Any  # the SDK's ServerSession of its setLevel request: its connection's channel
    rank: int  # the lowest level it hears (index into LEVELS)
    heard: int = -1  # the number of the last event sent to it


class ServerLog:
    """The latest events, and who listens at which level."""

    def __init__(self) -> None:
        self._clients: OrderedDict[str, _Listener] = OrderedDict()
        self._events: deque[tuple[int, str, str, str]] = deque(maxlen=KEPT)
        self._told = 0
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None

    def tell(self, level: str, logger: str, message: str) -> None:
        """Keep one event (from any thread) and wake the sender."""
        with self._lock:
            self._events.append((self._told, level, logger, message[:_MESSAGE_LIMIT]))
            self._told += 1
            loop, wake = self._loop, self._wake
        if loop is not None and wake is not None and self._clients:
            try:
                loop.call_soon_threadsafe(wake.set)
            except RuntimeError:  # the loop closed: the server is stopping
                pass

    async def run(self) -> None:
        """Send each client what it has not heard, at its level, until cancelled (the
        server's lifespan runs this)."""
        wake = asyncio.Event()
        with self._lock:
            self._loop, self._wake = asyncio.get_running_loop(), wake
        try:
            while True:
                await wake.wait()
                wake.clear()
                await self._send()
        finally:
            with self._lock:
                self._loop = self._wake = None

    async def _send(self) -> None:
        with self._lock:
            events = list(self._events)
            clients = list(self._clients.items())
        for key, client in clients:
            try:
                for number, level, logger, message in events:
                    if number > client.heard:
                        client.heard = number
                        if LEVELS.index(level) >= client.rank:
                            await client.session.send_log_message(level, message, logger)
            except Exception:  # noqa: BLE001 - a connection that is gone: forget it
                with self._lock:
                    self._clients.pop(key, None)

    async def middleware(self, ctx: Any, call_next: Any) -> Any:
        """Answers ``logging/setLevel``; says so in ``initialize``'s capabilities; tells of each
        tool error as a warning."""
        if ctx.method == "logging/setLevel":
            level = ctx.params.get("level") if isinstance(ctx.params, dict) else None
            if level not in LEVELS:
                raise invalid(f"logging/setLevel takes a level, one of: {', '.join(LEVELS)}")
            self._listen(ctx, LEVELS.index(level))
            return {}
        result = await call_next(ctx)
        if ctx.method == "initialize":
            capabilities = result.get("capabilities") if isinstance(result, dict) else None
            if isinstance(capabilities, dict):
                capabilities["logging"] = {}
        elif ctx.method == "tools/call" and _is_error(result):
            name = ctx.params.get("name") if isinstance(ctx.params, dict) else "?"
            self.tell("warning", "memvault.requests", f"{name}: {_first_text(result)}")
        return result

    def _listen(self, ctx: Any, rank: int) -> None:
        headers = getattr(ctx.request, "headers", None)
        key = (headers.get(SESSION_HEADER) if headers is not None else None) or STDIO_CLIENT
        with self._lock:
            client = self._clients.get(key)
            if client is None:
                self._clients[key] = _Listener(ctx.session, rank)
            else:
                client.session, client.rank = ctx.session, rank
                self._clients.move_to_end(key)
            while len(self._clients) > MAX_CLIENTS:
                self._clients.popitem(last=False)
            wake = self._wake
        if wake is not None:
            wake.set()  # (on the loop: the middleware runs there)


def _is_error(result: Any) -> bool:
    if isinstance(result, dict):
        return result.get("isError") is True
    return getattr(result, "is_error", None) is True


def _first_text(result: Any) -> str:
    content = result.get("content") if isinstance(result, dict) else getattr(result, "content", [])
    for item in content or ():
        text = item.get("text") if isinstance(item, dict) else getattr(item, "text", None)
        if isinstance(text, str):
            return text.splitlines()[0] if text else ""
    return ""
