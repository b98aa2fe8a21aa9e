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
"""

from __future__ import annotations

import atexit
import threading
from pathlib import Path

from core.search import SearchIndex, first_build
from core.search import query as language
from core.search.completion import complete
from core.search.first_build import Progress
from core.search.index import index_path
from core.search.rank import rank

from .query import Query
from .view import VaultView

#: The most hits of the filter's words the ranked search hands the filter (the best ones): a
#: question's common words match much of a big vault, and a bounded search reads only its top.
FILTER_HITS = 1000

_lock = threading.Lock()
_indexes: dict[Path, SearchIndex] = {}


def search_filter(view: VaultView, query: Query) -> tuple[dict[str, float], list[str]]:
    """What the filter ``query`` keeps, with its words searched as ``memvault search`` does:
    (id -> search score of the ranked search's best :data:`FILTER_HITS` hits among the
    memories the query's fields allow, the ids kept in the view's order: those hits and every
    memory the substring filter keeps). A question ("which editor does the user prefer") holds
    words no memory holds all of as substrings, and finds what the search finds."""
    now, rows = view.now, view.rows
    allowed = [i for i, row in rows.items() if query.allows(row, now)]
    scores = rank_ids(view, query.parsed, allowed, top=FILTER_HITS)
    return scores, [i for i in allowed if i in scores or query.matches(rows[i], now)]


def rank_ids(view: VaultView, query: language.Query, ids: list[str], *,
             top: int | None = None) -> dict[str, float]:
    """id -> score of the memories among ``ids`` that the query's words match in the index
    (those the filter kept by a substring alone are not in it: they come after); ``top``: only
    the best ``top`` of them."""
    if not query.has_text or not ids:
        return {}
    with _lock:
        index = _indexes.get(view.root)
        if index is None:
            index = _indexes[view.root] = SearchIndex.for_root(view.root)
        memories = {i: row.memory for i, row in view.rows.items()}
        hits = rank(index, memories, query, ids, lambda m: view.rows[m.id].score, top=top).hits
    return {h.memory.id: h.score for h in hits}


def build_index(view: VaultView, progress: Progress) -> bool:
    """Bring the view's index level with it when it lacks rows for many memories (after a
    clone, a ``reindex``): its first build, in chunks, ``progress(phase, done, total)`` told
    as it goes (:mod:`core.search.first_build`). A connection of its own: the filter's
    ranking (:func:`rank_ids`) meanwhile reads the rows built so far. True when it built."""
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


atexit.register(close_all)  # the app's indexes closed (and their WAL checkpointed) on exit
