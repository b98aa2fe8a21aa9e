"""Search: one query language (:mod:`.query`), a derived SQLite FTS5 index in the git directory
(:mod:`.index`), ranking by bm25 and the decay score (:mod:`.rank`), snippets with match spans
(:mod:`.snippet`) and optional semantic search (:mod:`.semantic`).

The names below are imported on first use (PEP 562), so that opening a vault, which reads the
index's rows of files (:mod:`.indexed_files`), does not import the ranking code."""

from __future__ import annotations

import importlib
from typing import Any

_WHERE = {
    "SearchIndex": ".index", "SyncReport": ".index", "fingerprint": ".index",
    "index_path": ".index", "Query": ".query", "Term": ".query", "parse": ".query",
    "Hit": ".rank", "Searcher": ".rank", "SearchResult": ".rank", "search": ".rank",
    "Snippet": ".snippet",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value
