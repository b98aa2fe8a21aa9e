"""The vault's record files as git holds them at one commit, kept in the derived index
(``.git/memvault/index.sqlite``, tables ``files`` and ``state``), so that opening a vault reads
only the files that changed since that commit instead of every file.

A row is ``(path, blob, kind, record_id, body)``: a repository path, the id of the blob git
holds there, what the path holds ("memory" or "relation" and its id, as the layout named them
when the row was written) and the blob's bytes (None when memvault does not read it from the
index: a link, a file that is not a record, one over the size limit; the opener then reads the
file on disk). ``state`` names, for
each vault in the repository (its folder, ``.`` at the top), the commit the rows are for.

The rows are derived and checked against git: a row is written from the blob git names, and the
set of rows is replaced in one transaction together with the commit it is for. Deleting the file
loses nothing: the next open reads every file, and writes the rows again.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from ..model.values import PIN_KEY
from ..textutil import neutralise_controls, neutralise_line
from .index import SearchIndex, index_path
from .index_file import is_damage
from .index_counts import COMMIT_KEY, IN_RANGE, open_readonly, reading, record_ranges
from .index_counts import read_counts as read_counts  # (read from here by the glance)
from .row_sources import blob_id as blob_id  # (read from here by the open)
from .sql_values import int_value
from .transaction import transaction



#: How much of a memory's text (gist, or content) a summary keeps: more than a tree row shows.
HEAD_CHARS = 300
TAG_SEPARATOR = "\x1f"
_NO_SUMMARY = (None,) * 8


def summary(kind: str | None, body: bytes | None) -> tuple[Any, ...]:
    """(status, use_count, last_used, strength, created_at, tags, head, pinned) of a memory file's
    ``body``, for the first paint (:mod:`core.vault.preview`); all None for anything else or a
    body that is not a memory as the model reads it (the open reports what is wrong). Made for
    display only: the head and the tags have their control characters shown as escapes."""
    if kind != "memory" or body is None:
        return _NO_SUMMARY
    try:
        record = json.loads(body)
        meta = record.get("meta") or {}
        tags = meta.get("tags") or []
        text = record.get("gist") or record["content"]
        values = (str(record.get("status", "active")), int(record.get("use_count", 0)),
                  int(record["last_used"]), float(record.get("strength", 1.0)),
                  int(record["created_at"]),
                  TAG_SEPARATOR.join(neutralise_line(str(t)) for t in tags),
                  neutralise_controls(str(text)[:HEAD_CHARS]),
                  int((meta.get("extra") or {}).get(PIN_KEY) is True))
    except (ValueError, TypeError, KeyError, AttributeError):
        return _NO_SUMMARY
    return values


def tag_rows(path: str, status: str, tags: str) -> list[tuple[str, str, str]]:
    """The ``summary_tags`` rows (status, tag, path) of a summary: one for each of its ``tags``
    (as the summary holds them: joined by :data:`TAG_SEPARATOR`), or one with the tag ``''``
    for a memory without tags."""
    return [(status, tag, path) for tag in (tags.split(TAG_SEPARATOR) if tags else ("",))]


class IndexedFiles:
    """The ``files`` rows of the index at ``path``, for the vault at ``folder`` of the
    repository (a repository path, ``.`` for the top)."""

    def __init__(self, path: Path, folder: str, readonly: bool = False,
                 notices: list[str] | None = None):
        self._index = SearchIndex(path)
        #: Where a note goes that the file was found damaged and built again (a vault's notices)
        self._notices = notices
        self.folder = folder
        self._prefix = "" if folder in ("", ".") else folder.rstrip("/") + "/"
        self._memories, self._relations = record_ranges(folder)
        #: Read-only (a read-only vault): the file is only read, never created, rebuilt or moved
        #: on; one of another schema is not used.
        self.readonly = readonly
        self._readonly = open_readonly(path) if readonly else None

    @classmethod
    def for_root(cls, root: Path, folder: str, readonly: bool = False,
                 notices: list[str] | None = None) -> IndexedFiles | None:
        path = index_path(root)
        return None if path is None else cls(path, folder, readonly, notices)

    def close(self) -> None:
        if self._readonly is not None:
            self._readonly.close()
            self._readonly = None
        self._index.close()

    def _conn(self) -> sqlite3.Connection | None:
        if self.readonly:
            return self._readonly
        conn = self._index.conn
        if self._index.notes and self._notices is not None:
            self._notices.extend(self._index.take_notes())
        return None if self._index.path is None else conn  # an index in memory keeps nothing

    def mend(self, exc: sqlite3.Error) -> None:
        """After ``exc`` reading the rows: a file found damaged inside (:func:`.index_file.
        is_damage`) is emptied and made anew, unless read-only, said in the notices; the caller
        then reads every file and writes the rows from them."""
        if self.readonly or not is_damage(exc):
            return
        self._index.rebuild(f"damaged ({exc})")
        self._conn()  # (passes the note on)

    def commit(self) -> str | None:
        """The commit the rows are for (None: no rows, or the index cannot be used)."""
        try:
            conn = self._conn()
            if conn is None:
                return None
            row = conn.execute("SELECT value FROM state WHERE key = ?",
                               (COMMIT_KEY + self.folder,)).fetchone()
        except sqlite3.Error:
            return None
        return None if row is None else row[0]

    def rows(self) -> Iterator[tuple[str, str, str | None, str | None, bytes | None]]:
        """(path relative to the vault, blob id, kind, record id, body or None) of every row, one at a time (the
        bodies are never all held at once). Raises sqlite3.Error when the index cannot be read."""
        conn = self._conn()
        if conn is None:
            return
        prefix = self._prefix
        select = f"SELECT path, blob, kind, record_id, body FROM files{IN_RANGE}"
        cursor = conn.execute(f"{select} UNION ALL {select}", self._memories + self._relations)
        if not prefix:
            yield from cursor
            return
        cut = len(prefix)
        for path, blob, kind, record_id, body in cursor:
            yield path[cut:], blob, kind, record_id, body

    def count(self) -> int:
        """How many rows this vault has (no body is read)."""
        conn = self._conn()
        if conn is None:
            return 0
        count = f"SELECT count(*) FROM files{IN_RANGE}"
        return int_value(conn, f"SELECT ({count}) + ({count})", self._memories + self._relations)

    def blob_of(self, path: str) -> str | None:
        """The blob id of the row for ``path`` (relative to the vault), if there is one."""
        conn = self._conn()
        if conn is None:
            return None
        row = conn.execute("SELECT blob FROM files WHERE path = ?",
                           (self._prefix + path,)).fetchone()
        return None if row is None else row[0]

    def update(self, base: str | None, commit: str,
               rows: Mapping[str, tuple[str, str | None, str | None, bytes | None] | None], *,
               replace: bool = False) -> bool:
        """Move the rows from ``base`` to ``commit``: ``rows`` maps a path relative to the vault
        to (blob, kind, record id, body), or None for a path gone. ``replace``: ``rows`` is every file at
        ``commit`` (the others are removed). Done in one transaction, only if the rows are
        still for ``base`` (another process may have moved them meanwhile): True when done."""
        if self.readonly:
            return False
        try:
            conn = self._conn()
            if conn is None:
                return False
            key = COMMIT_KEY + self.folder
            prefix = self._prefix
            with transaction(conn):
                found = conn.execute("SELECT value FROM state WHERE key = ?", (key,)).fetchone()
                if not replace and (None if found is None else found[0]) != base:
                    return False
                if replace:  # (the summaries are of memories only)
                    for table, paths in (("files", self._memories), ("files", self._relations),
                                         ("summaries", self._memories),
                                         ("summary_tags", self._memories)):
                        conn.execute(f"DELETE FROM {table}{IN_RANGE}", paths)
                gone = [(prefix + p,) for p, row in rows.items() if row is None]
                conn.executemany("DELETE FROM files WHERE path = ?", gone)
                conn.executemany(
                    "INSERT OR REPLACE INTO files (path, blob, kind, record_id, body) "
                    "VALUES (?, ?, ?, ?, ?)",
                    [(prefix + p, *row) for p, row in rows.items() if row is not None])
                row_paths = [(prefix + p,) for p in rows]
                if not replace:  # (a replace left none of this vault's rows)
                    conn.executemany(
                        "DELETE FROM summary_tags WHERE status = ? AND tag = ? AND path = ?",
                        [tag_row for path in row_paths for status, tags in conn.execute(
                            "SELECT status, tags FROM summaries WHERE path = ?", path)
                         for tag_row in tag_rows(path[0], status, tags)])
                conn.executemany("DELETE FROM summaries WHERE path = ?", row_paths)
                summaries = [(prefix + p, row[2], *found) for p, row in rows.items()
                             if row is not None
                             and (found := summary(row[1], row[3]))[0] is not None]
                conn.executemany(
                    "INSERT INTO summaries (path, record_id, status, use_count, last_used, "
                    "strength, created_at, tags, head, pinned) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", summaries)
                conn.executemany(  # OR IGNORE: a memory may name a tag twice
                    "INSERT OR IGNORE INTO summary_tags (status, tag, path) VALUES (?, ?, ?)",
                    [tag_row for path, _id, status, *_, tags, _head, _pinned in summaries
                     for tag_row in tag_rows(path, status, tags)])
                conn.execute("INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)",
                             (key, commit))
            return True
        except sqlite3.Error:
            return False


def holds_rows(path: Path, n: int) -> bool:
    """Whether the index at ``path`` holds ``n`` file rows or more (of any vault of the
    repository; counted up to ``n``, not all), read without creating or changing anything and
    without git (a vault's own rows need its folder in the repository, which asks git); False
    when it is missing, unreadable or of another schema."""
    try:
        conn = open_readonly(path)
        if conn is None:
            return False
        try:
            return _count_up_to(conn, "SELECT 1 FROM files", (), n) >= n
        finally:
            conn.close()
    except sqlite3.Error:
        return False


def _count_up_to(conn: sqlite3.Connection, select: str, params: tuple[Any, ...], n: int) -> int:
    """The rows ``select`` gives, counted up to ``n``: a count of every row reads every page of
    the table, its bodies too (~30 ms at 100k memories with the pages cached)."""
    return int_value(conn, f"SELECT count(*) FROM ({select} LIMIT ?)", (*params, n))


def read_summaries(path: Path, folder: str, at_least: int = 0
                   ) -> tuple[str | None, list[tuple[Any, ...]]]:
    """(the commit the rows are for, and of every memory row with a summary: record id, status,
    use_count, last_used, strength, created_at, tags, head, pinned) from the index file at ``path``,
    for the vault at ``folder`` of the repository; opened read-only, so nothing is created or
    rebuilt. (None, []) when the file is missing or of another schema, or has fewer than
    ``at_least`` rows (counted, not read); raises sqlite3.Error when it cannot be read."""
    with reading(path, folder) as found:
        if found is None:
            return None, []
        conn, commit, paths = found
        columns = ("record_id, status, use_count, last_used, strength, created_at, tags, head, "
                   "pinned")
        if at_least and _count_up_to(conn, f"SELECT 1 FROM summaries{IN_RANGE}", paths,
                                     at_least) < at_least:
            return None, []
        return commit, conn.execute(f"SELECT {columns} FROM summaries{IN_RANGE}",
                                    paths).fetchall()
