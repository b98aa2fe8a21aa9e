"""``resources/list`` with the memories in it, so that it agrees with the
``notifications/resources/list_changed`` the server sends when memories come or go
(:mod:`tui.mcp.notifications`): the fixed resources (the inbox, the stats), then every memory
the vault holds (``memvault://memory/{id}``), newest first, :data:`PAGE` a page, with the spec's
``nextCursor`` for the next page.

The order is by creation time (then id): only a memory added or removed changes which memories
a page lists, exactly when ``list_changed`` is sent. The cursor names the last memory listed
(its creation time and id), so a page read after a memory came or went starts where the last
one stopped: nothing listed twice, nothing skipped but what was removed meanwhile. A cursor
the server did not make is ``-32602``.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

import anyio.to_thread

from core import Memory, Vault
from core.textutil import neutralise_line

from .access import ToolRefusal, VaultAccess
from .boundary import invalid
from .resources import JSON, memory_uri

PAGE = 100
_TITLE = 80


def _key(memory: Memory) -> tuple[int, str]:
    return (-memory.created_at, memory.id)


def encode_cursor(memory: Memory) -> str:
    raw = f"{memory.created_at}:{memory.id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[int, str]:
    """The sort key after which a page starts (``-32602`` for a cursor not made here)."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        created, _, memory_id = raw.partition(":")
        if not memory_id:
            raise ValueError(cursor)
        return (-int(created), memory_id)
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise invalid("resources/list: not a cursor this server made") from None


def listed(memory: Memory) -> dict[str, Any]:
    """A memory as ``resources/list`` shows it (wire form)."""
    title = neutralise_line(" ".join(memory.text.split()))
    if len(title) > _TITLE:
        title = title[:_TITLE - 1] + "…"
    status = getattr(memory.status, "value", memory.status)
    tags = ", ".join(neutralise_line(t) for t in memory.meta.tags) or "none"
    return {"uri": memory_uri(memory.id), "name": memory.id[:8], "title": title or memory.id[:8],
            "mimeType": JSON, "description": f"{status} memory, tags: {tags}"}


def memory_page(vault: Vault, after: tuple[int, str] | None,
                size: int = PAGE) -> tuple[list[dict[str, Any]], str | None]:
    """The memories of one page, newest first, after the cursor's key; and the next cursor."""
    ordered = sorted(vault.memories.values(), key=_key)
    start = 0
    if after is not None:
        from bisect import bisect_right

        start = bisect_right([_key(m) for m in ordered], after)
    page = ordered[start:start + size]
    more = start + size < len(ordered)
    return [listed(m) for m in page], (encode_cursor(page[-1]) if more and page else None)


class ResourceList:
    """The middleware answering ``resources/list`` (``server``: the MCPServer, for its fixed
    resources)."""

    def __init__(self, server: Any, access: VaultAccess, page: int = PAGE):
        self.server = server
        self.access = access
        self.page = page

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        if ctx.method != "resources/list":
            return await call_next(ctx)
        cursor = ctx.params.get("cursor") if isinstance(ctx.params, dict) else None
        if cursor is not None and not isinstance(cursor, str):
            raise invalid("resources/list: the cursor must be a string")
        after = decode_cursor(cursor) if cursor else None
        fixed = [] if after is not None else [
            r.model_dump(by_alias=True, mode="json", exclude_none=True)
            for r in await self.server.list_resources()]
        try:
            memories, following = await anyio.to_thread.run_sync(
                self.access.read, lambda vault: memory_page(vault, after, self.page))
        except ToolRefusal:  # no vault yet (made at the first write): the fixed ones only
            memories, following = [], None
        result: dict[str, Any] = {"resources": fixed + memories}
        if following is not None:
            result["nextCursor"] = following
        return result
