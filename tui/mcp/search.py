"""The one place the MCP server asks which memories match a search: today
:meth:`core.Vault.search` (every word of the query in the content, gist, tags or entities, best
decay score first); a ranked index can take its place here without touching the tools."""

from __future__ import annotations

from collections.abc import Iterable

from core import Memory, Vault


def find(vault: Vault, query: str | None, *, tags: Iterable[str] | None = None,
         statuses: Iterable[str] | None = None, window_days: float | None = None) -> list[Memory]:
    """Memories matching ``query`` and the filters, best first."""
    return vault.search(query=query or None, tags=list(tags) if tags else None,
                        status=list(statuses) if statuses else None, window_days=window_days)
