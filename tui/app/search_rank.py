"""Ranking the app's filter results (no textual): when the ``/`` filter has words, the memories
it keeps are ordered by :mod:`core.search.rank`'s score (bm25 relevance times the decay score)
inside each group of the tree. Called from a worker thread: the first call on a vault builds
its index (``.git/memvault/index.sqlite``), later ones only bring it level.

It reads only the view (the memories as the app shows them), not the service: the index is the
one the CLI keeps, opened once per vault folder and kept open for the next keystroke.
"""

from __future__ import annotations

import atexit
import threading
from pathlib import Path

from core.search import SearchIndex, first_build
from core.search import query as language
from core.search.first_build import Progress
from core.search.index import index_path
from core.search.rank import rank

from .view import VaultView

_lock = threading.Lock()
_indexes: dict[Path, SearchIndex] = {}


def rank_ids(view: VaultView, query: language.Query, ids: list[str]) -> dict[str, float]:
    """id -> score of the memories among ``ids`` that the query's words match in the index
    (those the filter kept by a substring alone are not in it: they come after)."""
    if not query.has_text or not ids:
        return {}
    with _lock:
        index = _indexes.get(view.root)
        if index is None:
            index = _indexes[view.root] = SearchIndex.for_root(view.root)
        memories = {i: row.memory for i, row in view.rows.items()}
        hits = rank(index, memories, query, ids, lambda m: view.rows[m.id].score).hits
    return {h.memory.id: h.score for h in hits}


def build_index(view: VaultView, progress: Progress) -> bool:
    """Bring the view's index level with it when it lacks rows for many memories (after a
    clone, a ``reindex``): its first build, in chunks, ``progress(phase, done, total)`` told
    as it goes (:mod:`core.search.first_build`). A connection of its own: the filter's
    ranking (:func:`rank_ids`) meanwhile reads the rows built so far. True when it built."""
    memories = {i: row.memory for i, row in view.rows.items()}
    if len(memories) < first_build.FIRST_BUILD_FROM or index_path(view.root) is None:
        return False
    with SearchIndex.for_root(view.root) as index:
        if len(memories) - index.row_count() < first_build.FIRST_BUILD_FROM:
            return False
        report = index.sync(memories, progress=progress)
    return report.building is None


def close_all() -> None:
    with _lock:
        for index in _indexes.values():
            index.close()
        _indexes.clear()


atexit.register(close_all)  # the app's indexes closed (and their WAL checkpointed) on exit
