"""What each tool tells a client about itself besides its schema: a title a person reads in the
client's tool list, and the four hints of the MCP spec (``readOnlyHint``, ``destructiveHint``,
``idempotentHint``, ``openWorldHint``). A vault is a closed world (no tool reaches outside it), so
``openWorldHint`` is always false; the others say what a call does to the vault. Use records
(``last_used``/``use_count`` of what a search returns) are bookkeeping, not a change a person made:
the tools that only leave them are read-only here, as they are on a ``--read-only`` server.

Each helper returns the keyword arguments of ``MCPServer.tool``:
``@server.tool(**hints.reads("Search memories"))``."""

from __future__ import annotations

from typing import Any

from mcp.types import ToolAnnotations


def _tool(title: str, *, read_only: bool, destructive: bool, idempotent: bool) -> dict[str, Any]:
    return {"title": title,
            "annotations": ToolAnnotations(title=title, read_only_hint=read_only,
                                           destructive_hint=destructive,
                                           idempotent_hint=idempotent, open_world_hint=False)}


def reads(title: str) -> dict[str, Any]:
    """A tool that changes nothing (a second call gives the same answer on the same vault)."""
    return _tool(title, read_only=True, destructive=False, idempotent=True)


def writes(title: str, *, idempotent: bool = False) -> dict[str, Any]:
    """A tool that adds or updates, never removing what a person wrote."""
    return _tool(title, read_only=False, destructive=False, idempotent=idempotent)


def destructive(title: str, *, idempotent: bool = False) -> dict[str, Any]:
    """A tool that deletes, replaces or takes back (kept in git history: undo brings it back)."""
    return _tool(title, read_only=False, destructive=True, idempotent=idempotent)
