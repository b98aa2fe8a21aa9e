"""The cached embeddings of semantic search, in the index's ``embeddings`` table: read from the
file once, then kept in memory (read again when another process wrote the index). A part of
:class:`core.search.index.SearchIndex`, handed the way to its connection."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping

from .transaction import transaction


class EmbeddingCache:
    """The embeddings of the index whose connection ``conn()`` gives."""

    def __init__(self, conn: Callable[[], sqlite3.Connection]):
        self._conn = conn
        self._vectors: dict[str, dict[str, tuple[str, bytes]]] = {}  # model -> id -> (fp, v)
        self._vectors_version: int | None = None

    def forget(self) -> None:
        """Drop what is held (the connection was closed)."""
        self._vectors, self._vectors_version = {}, None

    def vectors(self, model: str, wanted: Mapping[str, str]) -> dict[str, bytes]:
        """The cached embeddings by ``model`` of the ids in ``wanted`` (id -> fingerprint)
        whose fingerprint is still the one they were made from. Read from the file once, then
        kept in memory (read again when another process wrote the index)."""
        conn = self._conn()
        version = conn.execute("PRAGMA data_version").fetchone()[0]
        held = self._vectors.get(model)
        if held is None or self._vectors_version != version:
            held = self._vectors[model] = {i: (fp, v) for i, fp, v in conn.execute(
                "SELECT id, fingerprint, vector FROM embeddings WHERE model = ?", (model,))}
            self._vectors_version = version
        return {i: v for i, (fp, v) in held.items() if wanted.get(i) == fp}

    def put_vectors(self, model: str, items: list[tuple[str, str, bytes]]) -> None:
        """Cache embeddings: (id, fingerprint, vector bytes), in one transaction."""
        if not items:
            return
        conn = self._conn()
        with transaction(conn):
            conn.executemany("INSERT OR REPLACE INTO embeddings (id, fingerprint, model, vector) "
                             "VALUES (?, ?, ?, ?)", [(i, fp, model, v) for i, fp, v in items])
        self._vectors.setdefault(model, {}).update({i: (fp, v) for i, fp, v in items})
