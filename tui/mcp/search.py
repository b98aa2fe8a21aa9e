"""The one place the MCP server asks which memories match a search: core's ranked search
(:mod:`core.search`: bm25 over the derived SQLite index, combined with the decay score; hybrid
with wordllama when ``memvault[semantic]`` is installed) when the query has words, and the
vault's own filter (best decay score first) when it has none. One :class:`Finder` per server
keeps the index open (and the embedder loaded) between searches."""

from __future__ import annotations

from collections.abc import Iterable

from core import Memory, Vault
from core.model.records import now_epoch
from core.search import Searcher, parse

SECONDS_PER_DAY = 86_400


class Finder:
    """Searches on one vault at a time (a new vault object, as after a read-only server opens
    the vault again, gets a new searcher)."""

    def __init__(self) -> None:
        self._searcher: Searcher | None = None
        self._vault: Vault | None = None

    def find(self, vault: Vault, query: str | None, *, tags: Iterable[str] | None = None,
             statuses: Iterable[str] | None = None,
             window_days: float | None = None, limit: int | None = None) -> list[Memory]:
        """Memories matching ``query`` and the filters, best first; at most ``limit``. A ranked
        search with a limit and no recent-use filter works out only the best ``limit``
        (:func:`core.search.rank.rank`'s bounded ranking), not every match."""
        tags = list(tags) if tags else None
        statuses = list(statuses) if statuses else None
        parsed = parse(query or "")
        if not parsed.has_text:
            return vault.search(query=query or None, tags=tags, status=statuses,
                                window_days=window_days, limit=limit)
        bounded = limit if window_days is None else None
        result = self._searcher_for(vault).search(parsed, statuses=statuses, tags=tags,
                                                  limit=bounded, snippets=False)
        found = [hit.memory for hit in result.hits]
        if window_days is not None:
            since = now_epoch() - window_days * SECONDS_PER_DAY
            found = [m for m in found if m.last_used >= since]
        return found[:limit]

    def close(self) -> None:
        if self._searcher is not None:
            self._searcher.close()
        self._searcher = self._vault = None

    def _searcher_for(self, vault: Vault) -> Searcher:
        if self._vault is not vault:
            self.close()
            self._searcher, self._vault = Searcher(vault), vault
        assert self._searcher is not None
        return self._searcher
