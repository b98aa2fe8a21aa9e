"""Search: one query language (:mod:`.query`), a derived SQLite FTS5 index in the git directory
(:mod:`.index`), ranking by bm25 and the decay score (:mod:`.rank`), snippets with match spans
(:mod:`.snippet`) and optional semantic search (:mod:`.semantic`)."""

from .index import SearchIndex, SyncReport, fingerprint, index_path
from .query import Query, Term, parse
from .rank import Hit, Searcher, SearchResult, search
from .snippet import Snippet

__all__ = ["Hit", "Query", "SearchIndex", "SearchResult", "Searcher", "Snippet", "SyncReport",
           "Term", "fingerprint", "index_path", "parse", "search"]
