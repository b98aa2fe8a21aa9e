"""Where a request's failure becomes its JSON-RPC error, for every method, in one place (the
server's outermost middleware), and what reaches stderr:

* bad input from the client is ``-32602`` (Invalid params) with a message saying what was
  wrong: an unknown tool or prompt, a prompt argument missing, not a string or refused (the
  SDK answered error code 0 from its catch-all for these, and wrote a Rich traceback of ~200
  lines to stderr for each);
* any other failure is ``-32603`` (Internal error) saying what failed, and one line on stderr;
* nothing the SDK logs ever reaches stderr as more than one line (:func:`install_one_line_log`:
  no traceback).

A tool's own refusal stays a tool error (``isError``), as the spec asks for a tool's failures.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from mcp.shared.exceptions import MCPError
from mcp.types import INTERNAL_ERROR, INVALID_PARAMS
from pydantic import ValidationError

from core.textutil import neutralise_line

#: what the server tells of a failure: (level, logger, message), see :mod:`tui.mcp.logs`
Tell = Callable[[str, str, str], None]
_LINE_LIMIT = 500


class OneLineHandler(logging.Handler):
    """A log record as one line on stderr (``memvault: <level>: <message>``), an exception as
    its type and message, never a traceback; control characters escaped."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = record.getMessage()
            if record.exc_info and record.exc_info[1] is not None:
                text += f" ({_said(record.exc_info[1])})"
            print(f"memvault: {record.levelname.lower()}: {neutralise_line(text)[:_LINE_LIMIT]}",
                  file=sys.stderr, flush=True)
        except Exception:  # noqa: BLE001 - logging must never take the server down
            self.handleError(record)


def install_one_line_log() -> None:
    """Route every log record to :class:`OneLineHandler` (warnings and above), in place of the
    Rich handler MCPServer's constructor sets up: the SDK's ``configure_logging`` is replaced
    by this (it imported rich, ~40 ms of a start, for a handler ``logging.basicConfig`` then
    threw away: the root logger has a handler already)."""
    root = logging.getLogger()
    if not any(isinstance(h, OneLineHandler) for h in root.handlers):
        root.handlers[:] = [OneLineHandler(logging.WARNING)]
    root.setLevel(logging.WARNING)
    from mcp.server.mcpserver import server as sdk_server

    if hasattr(sdk_server, "configure_logging"):
        sdk_server.configure_logging = _configure_logging  # type: ignore[assignment]


def _configure_logging(level: str = "WARNING") -> None:
    """What MCPServer calls to configure logging: the one-line handler, nothing of Rich."""
    install_one_line_log()


def _said(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def invalid(message: str) -> MCPError:
    """The ``-32602`` error for a client's bad input."""
    return MCPError(code=INVALID_PARAMS, message=neutralise_line(message)[:_LINE_LIMIT])


class Boundary:
    """The middleware: checks what a request names before the SDK sees it, and turns whatever
    a handler raised into the right JSON-RPC error (``server`` is the MCPServer, asked for its
    tools and prompts the first time a request names one)."""

    def __init__(self, server: Any, tell: Tell | None = None,
                 prepare: Callable[[str], Awaitable[None]] | None = None):
        """``prepare``: awaited with the method's name before anything else (the late
        registration of the tools: :meth:`~tui.mcp.surface.Surface.ready_for`)."""
        self.server = server
        self.tell = tell
        self.prepare = prepare
        self._tools: set[str] | None = None
        self._prompts: dict[str, list[Any]] | None = None

    async def tool_names(self) -> set[str]:
        if self._tools is None:
            self._tools = {t.name for t in await self.server.list_tools()}
        return self._tools

    async def prompt_arguments(self) -> dict[str, list[Any]]:
        """Each prompt's arguments as ``prompts/list`` tells them, by the prompt's name."""
        if self._prompts is None:
            self._prompts = {p.name: list(p.arguments or ())
                             for p in await self.server.list_prompts()}
        return self._prompts

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        method = ctx.method
        try:
            if self.prepare is not None:
                await self.prepare(method)
            if method == "tools/call":
                await self._check_tool(ctx.params)
            elif method == "prompts/get":
                await self.check_prompt(ctx.params)
            return await call_next(ctx)
        except MCPError as exc:
            if exc.error.code == INVALID_PARAMS:
                self._tell("warning", f"{method} refused: {exc.error.message}")
            raise
        except ValidationError:
            self._tell("warning", f"{method} refused: invalid params")
            raise  # (the SDK answers it -32602, without pydantic's text)
        except Exception as exc:
            if method == "prompts/get" and isinstance(exc.__cause__, ValidationError):
                error = exc.__cause__.errors(include_url=False)[0]
                where = ".".join(str(p) for p in error.get("loc", ()))
                raise invalid(f"refused: {where}: {error.get('msg')}" if where
                              else f"refused: {error.get('msg')}") from None
            said = f"{method} failed: {_said(exc)}"
            print(f"memvault: error: {neutralise_line(said)[:_LINE_LIMIT]}", file=sys.stderr,
                  flush=True)
            self._tell("error", said)
            raise MCPError(code=INTERNAL_ERROR,
                           message=neutralise_line(said)[:_LINE_LIMIT]) from None

    def _tell(self, level: str, message: str) -> None:
        if self.tell is not None:
            self.tell(level, "memvault.requests", message)

    async def _check_tool(self, params: Any) -> None:
        name = params.get("name") if isinstance(params, dict) else None
        if isinstance(name, str) and name not in await self.tool_names():
            raise invalid(f"Unknown tool: {name}")

    async def check_prompt(self, params: Any) -> None:
        """An unknown prompt, a required argument missing, an argument not a string: ``-32602``
        (the spec's prompt arguments are strings)."""
        if not isinstance(params, dict) or not isinstance(params.get("name"), str):
            return  # (the SDK's own check of the params answers -32602)
        name = params["name"]
        prompts = await self.prompt_arguments()
        if name not in prompts:
            raise invalid(f"Unknown prompt: {name}")
        given = params.get("arguments") or {}
        if not isinstance(given, dict):
            return
        missing = [a.name for a in prompts[name] if a.required and a.name not in given]
        if missing:
            raise invalid(f"prompt {name} needs the argument(s): {', '.join(missing)}")
        known = {a.name for a in prompts[name]}
        unknown = sorted(k for k in given if k not in known)
        if unknown:
            raise invalid(f"prompt {name} takes no argument(s) {', '.join(map(repr, unknown))}"
                          + (f" (it takes: {', '.join(sorted(known))})" if known else ""))
        for key, value in given.items():
            if not isinstance(value, str):
                raise invalid(f"prompt {name}: argument {key} must be a string")
