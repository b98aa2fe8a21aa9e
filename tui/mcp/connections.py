"""The HTTP door's connections: how long a client may take to send a request, how long an idle
connection is kept, and how many are open at once.

uvicorn (h11) keeps a connection whose request never ends for as long as the client keeps it
open: its keep-alive timer is cancelled by the first byte of a request and never armed again,
and a request's header has no timeout at all. Any local user could hold every file descriptor
with sockets that each sent half a header, and authenticated calls then timed out. uvicorn's
``limit_concurrency`` does not help: it counts those sockets too and answers everyone else 503.

So the server runs uvicorn's own h11 protocol with two rules added (:class:`GuardedProtocol`):

* **a request arrives whole in time**: from the moment a connection opens, or its previous
  answer ends, the client has :attr:`Limits.request_timeout` seconds to send the next request's
  header and body; bytes trickling in do not extend it. Past it, the connection is closed. While
  the server works on a request (a tool call, an open event stream) no such clock runs.
* **a cap on open connections**: when :attr:`Limits.max_connections` are open, a new one closes
  the connection that has waited longest for a request (one the server is not serving), or, when
  every one is being served, is itself answered ``503`` and closed. A client with the token is
  never locked out by sockets that send nothing useful.

An idle connection between two requests is closed after :attr:`Limits.idle_timeout` seconds
(uvicorn's keep-alive timeout). Settings: ``MEMVAULT_MCP_HTTP_REQUEST_TIMEOUT`` (default 10),
``MEMVAULT_MCP_HTTP_IDLE_TIMEOUT`` (default 5), ``MEMVAULT_MCP_HTTP_MAX_CONNECTIONS`` (default
100, and never more than a third of the process's file descriptor limit); the listening queue
is :attr:`Limits.backlog`.
"""

from __future__ import annotations

import asyncio
import os
import resource
from dataclasses import dataclass
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from core import VaultError

REQUEST_TIMEOUT_ENV = "MEMVAULT_MCP_HTTP_REQUEST_TIMEOUT"
IDLE_TIMEOUT_ENV = "MEMVAULT_MCP_HTTP_IDLE_TIMEOUT"
MAX_CONNECTIONS_ENV = "MEMVAULT_MCP_HTTP_MAX_CONNECTIONS"
DEFAULT_REQUEST_TIMEOUT = 10.0
DEFAULT_IDLE_TIMEOUT = 5.0
DEFAULT_MAX_CONNECTIONS = 100
_LONGEST = 3600.0
_FEWEST_CONNECTIONS = 8
_BUSY_TEXT = b"busy: every connection is in use\n"
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
        b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(_BUSY_TEXT), _BUSY_TEXT))
#: the client's states in which the server waits for bytes of a request
_WAITING = (h11.IDLE, h11.SEND_BODY)


@dataclass(frozen=True)
class Limits:
    """Seconds to send a request whole, seconds an idle connection is kept, connections open."""

    request_timeout: float = DEFAULT_REQUEST_TIMEOUT
    idle_timeout: float = DEFAULT_IDLE_TIMEOUT
    max_connections: int = DEFAULT_MAX_CONNECTIONS

    @property
    def backlog(self) -> int:
        """The listening socket's queue, which is also how many connections the event loop
        accepts at a time before any of them is seen: fewer than the cap, so a client that
        sends its request at once is read before enough newer connections came to close it,
        and the descriptors in use stay under the cap and this (uvicorn's 2048 let a burst
        take every descriptor before one was closed, and the server died of it)."""
        return max(4, min(64, self.max_connections // 2))


def _seconds(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise VaultError(f"{name} must be a number of seconds, not {raw!r}") from None
    if not 0 < value <= _LONGEST:
        raise VaultError(f"{name} must be more than 0 and at most {_LONGEST:.0f} seconds, "
                         f"not {raw!r}")
    return value


def _file_limit() -> int | None:
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft


def limits_from_env() -> Limits:
    """The limits the environment sets (VaultError for a value that is not one); the cap is
    lowered to a third of the file descriptor limit (with the backlog, half of it), so the
    vault's own files always have room."""
    raw = os.environ.get(MAX_CONNECTIONS_ENV, "").strip()
    cap = DEFAULT_MAX_CONNECTIONS
    if raw:
        if not raw.isdigit() or not _FEWEST_CONNECTIONS <= int(raw) <= 100_000:
            raise VaultError(f"{MAX_CONNECTIONS_ENV} must be a whole number from "
                             f"{_FEWEST_CONNECTIONS} to 100000, not {raw!r}")
        cap = int(raw)
    files = _file_limit()
    if files is not None:
        cap = max(_FEWEST_CONNECTIONS, min(cap, files // 3))
    return Limits(_seconds(REQUEST_TIMEOUT_ENV, DEFAULT_REQUEST_TIMEOUT),
                  _seconds(IDLE_TIMEOUT_ENV, DEFAULT_IDLE_TIMEOUT), cap)


class Waiting:
    """The connections waiting for a request, longest waiting first, and the limits they keep
    (one for the whole server, shared by its connections)."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self._since: dict[GuardedProtocol, None] = {}  # (a dict keeps the order they came in)

    def add(self, connection: GuardedProtocol) -> None:
        self._since[connection] = None

    def discard(self, connection: GuardedProtocol) -> None:
        self._since.pop(connection, None)

    def make_room(self) -> bool:
        """Close the connection that has waited longest for a request and is not being served;
        False when every open connection is being served."""
        for connection in self._since:
            if not connection.serving:
                self.discard(connection)
                connection.transport.close()
                return True
        return False


class GuardedProtocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request and a cap on connections."""

    def __init__(self, config: Any, server_state: Any, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None, *, waiting: Waiting):
        super().__init__(config, server_state, app_state, _loop)
        self.waiting = waiting
        self._deadline: asyncio.TimerHandle | None = None

    @property
    def serving(self) -> bool:
        """The application holds a request of this connection and has not answered it."""
        return self.cycle is not None and not self.cycle.response_complete

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        open_ = sum(1 for c in self.connections if not c.transport.is_closing())
        full = open_ >= self.waiting.limits.max_connections
        super().connection_made(transport)
        if full and not self.waiting.make_room():
            transport.write(BUSY)
            transport.close()
            return
        self._watch()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_clock()
        super().connection_lost(exc)

    def _watch(self) -> None:
        """Start the clock when the connection begins to wait for a request; stop it once the
        request is whole. A clock already running goes on: more bytes do not extend it."""
        if self.transport.is_closing():
            self._stop_clock()
        elif self.conn.their_state in _WAITING:
            if self._deadline is None:
                self._deadline = self.loop.call_later(self.waiting.limits.request_timeout,
                                                      self._expire)
                self.waiting.add(self)
        else:
            self._stop_clock()

    def _stop_clock(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self.waiting.discard(self)

    def _expire(self) -> None:
        self._deadline = None
        self.waiting.discard(self)
        if not self.transport.is_closing():
            self.transport.close()


def protocol_class(limits: Limits) -> type[GuardedProtocol]:
    """uvicorn's ``http`` option: :class:`GuardedProtocol` for one server, its connections
    sharing one :class:`Waiting` (uvicorn builds each with its own arguments only)."""
    waiting = Waiting(limits)

    class ServerProtocol(GuardedProtocol):
        def __init__(self, config: Any, server_state: Any, app_state: dict[str, Any],
                     _loop: asyncio.AbstractEventLoop | None = None):
            super().__init__(config, server_state, app_state, _loop, waiting=waiting)

    return ServerProtocol
