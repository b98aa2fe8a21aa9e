"""The stdio wire of ``memvault mcp``: every line a client sends gets an answer or is served.

The SDK's stdio transport hands a line it cannot read to the server as an exception, which
answers nothing, so a client that sent a JSON-RPC batch, a wrong ``jsonrpc`` version, a request
without a method, params that are an array, JSON nested deeper than its parser goes, a lone
surrogate, a raw control byte or bytes that are not UTF-8 waited for its own timeout. Here each
line is checked first (:func:`check_line`); one the SDK would not take is answered with the
error JSON-RPC 2.0 names for it (with the request's id whenever one can be read, so the client
stops waiting) and the server goes on serving:

- not UTF-8, not JSON (a raw control byte in a string is not JSON): ``-32700`` Parse error, id null;
- a batch (MCP has no batches since 2025-06-18): ``-32600`` Invalid Request for each request in
  it, with its id (id null when none has one);
- not an object, a wrong or missing ``jsonrpc``, no ``method`` (nor a result or an error), an id
  that is neither a string nor an integer, nesting deeper than :data:`MAX_DEPTH`, a lone
  surrogate outside params: ``-32600`` Invalid Request;
- params that are not an object, a lone surrogate inside them: ``-32602`` Invalid params.

The HTTP door checks each POST's body with the same :func:`check_line` (:mod:`tui.mcp.door`),
so both transports answer a bad message alike.

A line the SDK takes as it is costs one extra validation by the SDK's own message model (a few
microseconds for a search); only a refused line is looked at further. The server itself runs on
the SDK's public stdio entry (``MCPServer.run_stdio_async``), reading and writing through
:class:`WireIn` and :class:`WireOut`.
"""

from __future__ import annotations

import fcntl
import io
import json
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import mcp_types as types
from mcp.server.mcpserver import MCPServer

#: Deeper than this, a message is refused (the SDK's JSON parser stops at 200 levels; no MCP
#: message needs more than a few, and a memory's meta is stored far below it).
MAX_DEPTH = 100
_NO_ID = object()


def error(code: int, message: str, request_id: Any = None) -> types.JSONRPCError:
    return types.JSONRPCError(jsonrpc="2.0", id=request_id,
                              error=types.ErrorData(code=code, message=message))


def check_line(raw: bytes) -> tuple[str | None, list[types.JSONRPCError]]:
    """(the line to serve, None when there is none) and the errors to answer instead."""
    if not raw.strip():
        return None, []
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, [error(types.PARSE_ERROR, f"Parse error: the message is not UTF-8 "
                                               f"(byte {exc.start})")]
    try:
        message = types.jsonrpc_message_adapter.validate_json(text, by_name=False)
    except Exception:  # noqa: BLE001 - any refusal: find out why, and answer it
        return None, _diagnose(text)
    if isinstance(message, types.JSONRPCNotification) and '"id"' in text:
        # (a request whose id is neither a string nor an integer reads as a notification,
        # which gets no answer: the client would wait for one)
        request = json.loads(text)
        if isinstance(request, dict) and "id" in request:
            return None, _diagnose(text)
    return text, []


def _diagnose(text: str) -> list[types.JSONRPCError]:
    try:
        message = json.loads(text)
    except RecursionError:
        return [error(types.INVALID_REQUEST, f"Invalid Request: nested deeper than {MAX_DEPTH} "
                                             "levels")]
    except ValueError as exc:
        return [error(types.PARSE_ERROR, f"Parse error: {_plain(exc)}")]
    if isinstance(message, list):
        ids = [m["id"] for m in message if isinstance(m, dict) and _valid_id(m.get("id"))]
        why = "Invalid Request: batches are not supported (MCP sends one message a line)"
        return [error(types.INVALID_REQUEST, why, i) for i in ids] or [
            error(types.INVALID_REQUEST, why)]
    if not isinstance(message, dict):
        return [error(types.INVALID_REQUEST, "Invalid Request: a message is a JSON object")]
    raw_id = message.get("id", _NO_ID)
    request_id = raw_id if _valid_id(raw_id) else None
    code, why = _what_is_wrong(message, raw_id)
    return [error(code, why, request_id)]


def _what_is_wrong(message: dict[str, Any], raw_id: object) -> tuple[int, str]:
    if raw_id is not _NO_ID and not _valid_id(raw_id):
        return types.INVALID_REQUEST, "Invalid Request: an id is a string or an integer"
    if message.get("jsonrpc") != "2.0":
        return types.INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"'
    if _depth(message) > MAX_DEPTH:
        return types.INVALID_REQUEST, f"Invalid Request: nested deeper than {MAX_DEPTH} levels"
    if "method" not in message and "result" not in message and "error" not in message:
        return types.INVALID_REQUEST, "Invalid Request: no method"
    if "method" in message and not isinstance(message["method"], str):
        return types.INVALID_REQUEST, "Invalid Request: the method is a string"
    params = message.get("params")
    if params is not None and not isinstance(params, dict):
        return types.INVALID_PARAMS, "Invalid params: params are an object (named parameters)"
    if _has_lone_surrogate(params):
        return types.INVALID_PARAMS, "Invalid params: a string holds a lone surrogate"
    if _has_lone_surrogate(message):
        return types.INVALID_REQUEST, "Invalid Request: a string holds a lone surrogate"
    return types.INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message MCP knows"


def _valid_id(value: object) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _depth(value: object) -> int:
    """How deep the containers in ``value`` nest (iteratively: no recursion limit)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, level)
            if level <= MAX_DEPTH:
                stack.extend((v, level + 1) for v in item)
    return deepest


def _has_lone_surrogate(value: object) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _plain(exc: ValueError) -> str:
    text = str(exc)
    return text.encode("ascii", "backslashreplace").decode("ascii")


class WireOut(io.RawIOBase):
    """The client's end of stdout: the SDK's answers and this module's error answers, each
    written whole (a line at a time, under one lock), so two writers never tear a frame."""

    def __init__(self, fd: int):
        super().__init__()
        self._fd = fd
        self._lock = threading.Lock()
        self._partial = b""  # the SDK's message being written, not yet ended by a newline

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:  # (the SDK's writes: its text layer's buffer)
        chunk = bytes(data)
        with self._lock:
            self._partial += chunk
            end = self._partial.rfind(b"\n") + 1
            if end:
                whole, self._partial = self._partial[:end], self._partial[end:]
                self._write_all(whole)
        return len(chunk)

    def reply(self, message: types.JSONRPCError) -> None:
        """Answer a refused line (one whole line, between two of the SDK's messages)."""
        line = message.model_dump_json(by_alias=True, exclude_unset=True).encode() + b"\n"
        with self._lock:
            self._write_all(line)

    def close(self) -> None:
        with self._lock:  # (the descriptor is closed after this: nothing is written to it later)
            self._fd = -1
        super().close()

    def _write_all(self, data: bytes) -> None:
        if self._fd < 0:
            raise ValueError("the wire is closed")
        view = memoryview(data)
        while view:
            view = view[os.write(self._fd, view):]


class WireIn(io.RawIOBase):
    """The client's end of stdin as the SDK's stdio transport reads it: only the lines it can
    serve; each of the others is answered on ``out`` (:func:`check_line`)."""

    def __init__(self, fd: int, out: WireOut):
        super().__init__()
        # (never closed: the SDK's reader thread may still wait on it when the server stops)
        self._file = os.fdopen(fd, "rb", buffering=1 << 16, closefd=False)
        self._out = out
        self._ready = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self._ready:
            raw = self._file.readline()
            if not raw:
                return 0  # the client closed the connection
            text, errors = check_line(raw)
            for reply in errors:
                self._out.reply(reply)
            if text is not None:
                self._ready = raw if raw.endswith(b"\n") else raw + b"\n"
        size = min(len(buffer), len(self._ready))
        buffer[:size] = self._ready[:size]
        self._ready = self._ready[size:]
        return size


@contextmanager
def _claimed_stdio() -> Iterator[tuple[int, int]]:
    """The wire's stdin and stdout on private descriptors while fd 0 reads the null device (a
    child process, git, never reads the client's bytes) and fd 1 writes to stderr (no stray
    output reaches the wire), as the SDK does for the streams it owns."""
    wire_in = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
    wire_out = fcntl.fcntl(1, fcntl.F_DUPFD_CLOEXEC, 3)
    saved_in, saved_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    try:
        yield wire_in, wire_out
    finally:
        os.dup2(saved_in, 0)
        os.dup2(saved_out, 1)
        os.close(saved_in)
        os.close(saved_out)
        os.close(wire_out)


async def serve_stdio(server: MCPServer) -> None:
    """Serve ``server`` over stdin/stdout until the client closes the connection.

    The SDK's own stdio transport (``MCPServer.run_stdio_async``) serves ``sys.stdin`` and
    ``sys.stdout`` as they are when they are not the process's descriptors 0 and 1: here they
    are the checked lines of :class:`WireIn` and the whole-line writer :class:`WireOut`, for
    as long as the server runs."""
    saved = sys.stdin, sys.stdout
    with _claimed_stdio() as (wire_in, wire_out):
        out = WireOut(wire_out)
        sys.stdin = io.TextIOWrapper(io.BufferedReader(WireIn(wire_in, out)), encoding="utf-8")
        sys.stdout = io.TextIOWrapper(io.BufferedWriter(out), encoding="utf-8")
        try:
            await server.run_stdio_async()
        finally:
            sys.stdin, sys.stdout = saved
            out.close()
