"""Ranking the app's filter results (no textual): the ``/`` filter's words go through the
ranked search of ``memvault search`` and the MCP server, and its hits are ordered by their score
inside each group of the tree.

The search (:mod:`core.search.rank`: question words and stopwords left out, any word finds,
bm25 x coverage x decay) runs among the memories the filter's fields allow; the filter keeps its
hits beside the memories holding every word as a substring (:func:`search_filter`). Called from
a worker thread: the first call on a vault builds its index (``.git/memvault/index.sqlite``),
later ones only bring it level.

It reads only the view (the memories as the app shows them), not the service: the index is the
one the CLI keeps, opened once per vault folder and kept open for the next keystroke.

While the index's first build runs (after a clone: the app's own, :func:`build_index`, or
another process's), the filter's search waits for it within ``MEMVAULT_SEARCH_WAIT``
(:func:`core.search.first_build.search_wait`) and past it ranks every memory of the view, made
into an index in memory (:mod:`core.search.memory_index`, once a view, the same ranking), as
``memvault search`` and the MCP server do: never the rows built so far alone, which would leave
out the memories not written yet (one the app has just saved among them). The filter says so
(:func:`core.search.first_build.building_note`).
"""

from __future__ import annotations

import atexit
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from core.search import SearchIndex, first_build
from core.search import query as language
from core.search.completion import complete
from core.search.first_build import Progress
from core.search.index import index_path
from core.search.memory_index import memory_index
from core.search.rank import rank

from .query import Query
from .view import VaultView

if TYPE_CHECKING:
    from core import Memory

#: The most hits of the filter's words the ranked search hands the filter (the best ones): a
#: question's common words match much of a big vault, and a bounded search reads only its top.
FILTER_HITS = 1000

_lock = threading.Lock()
_indexes: dict[Path, SearchIndex] = {}
#: the index in memory a view's searches answer from while the file's first build runs
_made: dict[Path, tuple[VaultView, SearchIndex]] = {}


def search_filter(view: VaultView, query: Query, notes: list[str] | None = None
                  ) -> tuple[dict[str, float], list[str]]:
    """What the filter ``query`` keeps, with its words searched as ``memvault search`` does:
    (id -> search score of the ranked search's best :data:`FILTER_HITS` hits among the
    memories the query's fields allow, the ids kept in the view's order: those hits and every
    memory the substring filter keeps). A question ("which editor does the user prefer") holds
    words no memory holds all of as substrings, and finds what the search finds. ``notes``:
    what the search has to say is appended there (a first build under way: :func:`rank_ids`)."""
    now, rows = view.now, view.rows
    allowed = [i for i, row in rows.items() if query.allows(row, now)]
    scores = rank_ids(view, query.parsed, allowed, top=FILTER_HITS, notes=notes)
    return scores, [i for i in allowed if i in scores or query.matches(rows[i], now)]


def rank_ids(view: VaultView, query: language.Query, ids: list[str], *,
             top: int | None = None, notes: list[str] | None = None) -> dict[str, float]:
    """id -> score of the memories among ``ids`` that the query's words match in the index
    (those the filter kept by a substring alone are not in it: they come after); ``top``: only
    the best ``top`` of them. While the index's first build runs past the wait, from every
    memory of the view in memory, the note saying so appended to ``notes``."""
    if not query.has_text or not ids:
        return {}
    with _lock:
        index = _indexes.get(view.root)
        if index is None:
            index = _indexes[view.root] = SearchIndex.for_root(view.root)
        memories = {i: row.memory for i, row in view.rows.items()}
        answering = _answering(view, index, memories, notes)
        hits = rank(answering, memories, query, ids, lambda m: view.rows[m.id].score, top=top,
                    synced=True).hits
    return {h.memory.id: h.score for h in hits}


def _answering(view: VaultView, index: SearchIndex, memories: dict[str, Memory],
               notes: list[str] | None) -> SearchIndex:
    """The index to rank ``view``'s memories from, level with them: the file's, once a first
    build under way was waited for (within the wait, or not again for a view already answered
    from memory), else the view's index in memory (made once a view), the note appended."""
    made = _made.get(view.root)
    if index.path is not None:
        first_build.waited(index.conn, 0.0 if made is not None and made[0] is view else None)
    report = index.sync(memories)
    if not report.building:
        if made is not None:
            del _made[view.root]
            made[1].close()
        return index
    if made is None or made[0] is not view:
        if made is not None:
            made[1].close()
        made = _made[view.root] = (view, memory_index(memories))
    if notes is not None:
        notes.append(first_build.building_note(*report.building))
    return made[1]


def build_index(view: VaultView, progress: Progress) -> bool:
    """Bring the view's index level with it when it lacks rows for many memories (after a
    clone, a ``reindex``): its first build, in chunks, ``progress(phase, done, total)`` told
    as it goes (:mod:`core.search.first_build`). A connection of its own: the filter's
    ranking (:func:`rank_ids`) meanwhile waits for it, then ranks every memory in memory. True
    when it built."""
    rows = view.rows
    if len(rows) < first_build.FIRST_BUILD_FROM or index_path(view.root) is None:
        return False
    with SearchIndex.for_root(view.root) as index:
        if len(rows) - index.row_count() < first_build.FIRST_BUILD_FROM:
            return False  # (counted first: a row made from a summary parses its memory on read)
        report = complete(index, {i: row.memory for i, row in rows.items()}, progress)
    return report.building is None


def close_all() -> None:
    with _lock:
        for index in _indexes.values():
            index.close()
        _indexes.clear()
        for _, made in _made.values():
            made.close()
        _made.clear()


atexit.register(close_all)  # the app's indexes closed (and their WAL checkpointed) on exit
