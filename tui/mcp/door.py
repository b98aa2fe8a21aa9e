"""What the HTTP door checks around the SDK's Streamable HTTP app, for a request carrying the
token (any other one goes straight to the SDK, which answers ``401`` without reading its body):

* **the message**, as the stdio wire checks a line (:func:`tui.mcp.wire.check_line`): a body
  the SDK would not take as it is gets the JSON-RPC error named for it, ``400``, with the
  request's id when it can be read. Before, a request whose ``id`` was a float, an object, an
  array or a boolean read as a notification: ``202`` and no answer, the client waiting forever.
* **a body cut short**: a client that goes before its body is whole is let go without a word
  (the SDK logged ~40 lines of traceback on stderr each time); a body over :data:`MAX_BODY` is
  ``413``, as the SDK answers it.
* **the token, for as long as the answer lasts**: an event stream (or any answer still being
  sent) opened with a token that is no longer the one in the token file, after
  ``memvault mcp token --rotate`` or its removal, is ended: no more is sent on it from the
  moment the file changed, and the stream is closed within one look (every ``interval``
  seconds) even when nothing is sent.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import anyio
from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE

from .bearer import TokenFile
from .wire import check_line

#: the SDK's 4 MiB: a larger body is 413 (a memory over ~4 MiB is saved over stdio or the CLI)
MAX_BODY = DEFAULT_MAX_REQUEST_BODY_SIZE
_TOO_LARGE = b"Request body too large"
_REVOKED = (b'{"error": "invalid_token", "error_description": '
            b'"the token was replaced or removed"}')


def _bearer(scope: dict[str, Any]) -> str | None:
    for name, value in scope.get("headers", ()):
        if name.lower() == b"authorization" and value[:7].lower() == b"bearer ":
            return value[7:].decode("latin-1")
    return None


async def _answer(send: Any, status: int, body: bytes, kind: bytes,
                  *extra: tuple[bytes, bytes]) -> None:
    headers = [(b"content-type", kind), (b"content-length", str(len(body)).encode()), *extra]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body, "more_body": False})


class _Body:
    """A request's body as read here: whole, too large, or cut short by the client."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.whole = False
        self.too_large = False


async def _read_body(scope: dict[str, Any], receive: Any, limit: int) -> _Body:
    body = _Body()
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-length" and value.isdigit() and int(value) > limit:
            body.too_large = True
            return body
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return body  # the client went before its body was whole
        body.data += message.get("body", b"")
        if len(body.data) > limit:
            body.too_large = True
            return body
        if not message.get("more_body", False):
            body.whole = True
            return body


class Door:
    """ASGI middleware around the SDK's app (see the module's docstring)."""

    def __init__(self, app: Any, tokens: TokenFile, *, path: str, interval: float,
                 max_body: int = MAX_BODY):
        self.app = app
        self.tokens = tokens
        self.path = path
        self.interval = interval
        self.max_body = max_body

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        token = _bearer(scope) if scope["type"] == "http" else None
        if token is None or not self.tokens.accepts(token):
            await self.app(scope, receive, send)  # (the SDK answers 401, or serves the lifespan)
            return
        if scope["method"] == "POST" and scope["path"] == self.path:
            body = await _read_body(scope, receive, self.max_body)
            if body.too_large:
                await _answer(send, 413, _TOO_LARGE, b"text/plain; charset=utf-8")
                return
            if not body.whole:
                return  # nothing to answer: the client is gone
            _text, errors = check_line(bytes(body.data))
            if errors:
                payload = [e.model_dump_json(by_alias=True, exclude_unset=True) for e in errors]
                text = payload[0] if len(payload) == 1 else "[" + ",".join(payload) + "]"
                await _answer(send, 400, text.encode(), b"application/json")
                return
            receive = _replay(bytes(body.data), receive)
        await self._serve_while_valid(token, scope, receive, send)

    async def _serve_while_valid(self, token: str, scope: dict[str, Any], receive: Any,
                                 send: Any) -> None:
        """The SDK serves the request; the answer ends when ``token`` stops being accepted."""
        answer = _Answer(send)

        try:
            await self._serve_watched(token, answer, scope, receive)
        except BaseExceptionGroup as group:  # (the app's own error as it raised it, for its log)
            if len(group.exceptions) == 1:
                raise group.exceptions[0] from None
            raise
        if answer.revoked:
            await answer.end()

    async def _serve_watched(self, token: str, answer: _Answer, scope: dict[str, Any],
                             receive: Any) -> None:
        async with anyio.create_task_group() as tasks:

            def revoke() -> None:
                answer.revoked = True
                tasks.cancel_scope.cancel()

            async def guarded(message: dict[str, Any]) -> None:
                if not answer.revoked and not self.tokens.accepts(token):
                    revoke()
                if answer.revoked:
                    return  # (nothing more is sent on a token no longer valid)
                await answer.send(message)

            async def look() -> None:
                while True:
                    await anyio.sleep(self.interval)
                    if not self.tokens.accepts(token):
                        revoke()
                        return

            tasks.start_soon(look)
            await self.app(scope, receive, guarded)
            tasks.cancel_scope.cancel()


class _Answer:
    """The response as sent so far, so that it can be ended properly when the token goes."""

    def __init__(self, send: Any):
        self._send = send
        self.revoked = False
        self.started = False
        self.complete = False

    async def send(self, message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            self.started = True
        elif message["type"] == "http.response.body" and not message.get("more_body", False):
            self.complete = True
        await self._send(message)

    async def end(self) -> None:
        if self.complete:
            return
        if self.started:  # the stream ends here, as if the answer were over
            await self._send({"type": "http.response.body", "body": b"", "more_body": False})
        else:
            await _answer(self._send, 401, _REVOKED, b"application/json",
                          (b"www-authenticate", b'Bearer error="invalid_token"'))
        self.complete = True


def _replay(body: bytes, receive: Any) -> Any:
    """``receive`` for the SDK: the body read here, then whatever the client sends next (its
    disconnection)."""
    pending: deque[dict[str, Any]] = deque(
        [{"type": "http.request", "body": body, "more_body": False}])

    async def replay() -> dict[str, Any]:
        if pending:
            return pending.popleft()
        return await receive()

    return replay
