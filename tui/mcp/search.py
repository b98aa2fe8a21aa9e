"""The one place the MCP server asks which memories match a search: core's ranked search
(:mod:`core.search`: bm25 over the derived SQLite index, combined with the decay score; hybrid
with wordllama when ``memvault[semantic]`` is installed) for any query, and the vault's own
filter (best decay score first) for none.

A query of fields alone (``tag:ops``) or of punctuation alone is ranked by the decay score, its
fields applied, as ``memvault search`` does. One :class:`Finder` per server
keeps the index open (and the embedder loaded) between searches."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from core import Memory, Vault
from core.model.records import now_epoch
from core.search import Searcher, parse
from core.search.rank import SearchResult
from core.search import first_build
from core.search.completion import complete
from core.search.index import SearchIndex
from core.search.rank import Hit, combine

SECONDS_PER_DAY = 86_400


class Finder:
    """Searches on one vault at a time: the views each tool call gets of it
    (:meth:`Vault.acting_for`: the same cache and files) share one searcher, its index kept
    open and level; another vault (a read-only server opens the vault again after a commit)
    gets a new searcher."""

    def __init__(self) -> None:
        self._searcher: Searcher | None = None
        self._state: object | None = None  # the shared state of the vault searched
        #: What the last ranked search said of the index (its first build under way: the
        #: results are from every memory, read in memory), for the tool to pass on; None if
        #: nothing. ``building``: the same in JSON (:func:`core.search.first_build.building_json`)
        self.note: str | None = None
        self.building: dict[str, object] | None = None

    def find(self, vault: Vault, query: str | None, *, tags: Iterable[str] | None = None,
             statuses: Iterable[str] | None = None,
             window_days: float | None = None, limit: int | None = None) -> list[Memory]:
        """Memories matching ``query`` and the filters, best first; at most ``limit``. A ranked
        search with a limit and no recent-use filter works out only the best ``limit``
        (:func:`core.search.rank.rank`'s bounded ranking), not every match."""
        return [m for m, _ in self.ranked(vault, query, tags=tags, statuses=statuses,
                                          window_days=window_days, limit=limit)]

    def ranked(self, vault: Vault, query: str | None, *, tags: Iterable[str] | None = None,
               statuses: Iterable[str] | None = None, window_days: float | None = None,
               limit: int | None = None) -> list[tuple[Memory, float]]:
        """:meth:`find` with each memory's score (core's ranked score; for a query without
        words, the same formula with full relevance: the decay score alone orders them, the
        query's fields applied)."""
        tags = list(tags) if tags else None
        statuses = list(statuses) if statuses else None
        self.note = self.building = None
        parsed = parse(query or "")
        if parsed.empty:  # no query: the vault's own filter, best decay score first
            now = now_epoch()
            found = vault.search(query=query or None, tags=tags, status=statuses,
                                 window_days=window_days, limit=limit)
            return [(m, combine(1.0, vault.score(m, now))) for m in found]
        bounded = limit if window_days is None else None
        result = self._searcher_for(vault).search(parsed, statuses=statuses, tags=tags,
                                                  limit=bounded, snippets=False)
        self._said(result)
        pairs = [(hit.memory, hit.score) for hit in result.hits]
        if window_days is not None:
            since = now_epoch() - window_days * SECONDS_PER_DAY
            pairs = [(m, s) for m, s in pairs if m.last_used >= since]
        return pairs[:limit]

    def hits(self, vault: Vault, query: str, statuses: Iterable[str],
             limit: int) -> list[Hit]:
        """The ranked hits of a plain-words ``query`` (each with its relevance), best first."""
        parsed = parse(query)
        if not parsed.has_text:
            return []
        result = self._searcher_for(vault).search(parsed, statuses=list(statuses), limit=limit,
                                                  snippets=False)
        self._said(result)
        return result.hits

    def _said(self, result: SearchResult) -> None:
        """Keep what ``result`` says of the index's first build (:attr:`note`, :attr:`building`)."""
        self.note = _building_note(result.notes)
        self.building = first_build.building_json(result.building)

    def tell(self, answer: dict[str, Any]) -> None:
        """Put what the last ranked search said of the index's first build into a tool's
        ``answer``: its ``note`` (a line) and ``index_building`` (the figures)."""
        if self.note:
            answer["note"] = self.note
        if self.building is not None:
            answer["index_building"] = self.building

    def warm(self, vault: Vault) -> None:
        """Open the index and bring it level with the vault now (a search then starts ready)."""
        self._searcher_for(vault).index.sync(vault.memories)

    @staticmethod
    def build_first(root: Path, memories: Mapping[str, Memory],
                    tell: Callable[[str], None] | None = None) -> None:
        """The index's first build (after a clone), when it lacks rows for many memories: on a
        connection of its own, so that it runs outside the server's lock and a search meanwhile
        answers from every memory, saying so (:mod:`core.search.first_build`). ``tell``
        hears when it begins and ends."""
        if len(memories) < first_build.FIRST_BUILD_FROM:
            return
        with SearchIndex.for_root(root) as index:
            missing = len(memories) - index.row_count()
            if missing >= first_build.FIRST_BUILD_FROM:
                began = time.monotonic()
                if tell is not None:
                    tell(f"building the search index: {missing} of {len(memories)} memories")
                complete(index, memories)  # (the rows first; then the near-duplicate keys)
                if tell is not None:
                    tell(f"search index built: {len(memories)} memories in "
                         f"{time.monotonic() - began:.1f} s")

    def index(self, vault: Vault) -> SearchIndex:
        """The search index of ``vault`` (opened once, kept)."""
        return self._searcher_for(vault).index

    def close(self) -> None:
        if self._searcher is not None:
            self._searcher.close()
        self._searcher = self._state = None

    def _searcher_for(self, vault: Vault) -> Searcher:
        if self._state is not vault.state:  # (a view of the same vault shares its state)
            self.close()
            self._searcher, self._state = Searcher(vault), vault.state
        assert self._searcher is not None
        return self._searcher


def _building_note(notes: list[str]) -> str | None:
    """The note of a search made while the index's first build runs, if it is one of them."""
    found = [n for n in notes if n.startswith(first_build.NOTE_START)]
    return found[0] if found else None
