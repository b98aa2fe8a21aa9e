"""The child process that writes the search rows of the first search after a clone
(:class:`.read_rows.RowsWhileReading`), and the rows' one writer (:func:`insert_rows`), which
the in-process index (:func:`.memory_index.memory_index`) uses too.

It is run as a script of the installed memvault, ``python -I -S rows_child.py`` (isolated, no
site packages: the standard library alone, so it starts in milliseconds instead of importing
memvault), and reads frames on its standard input: each a length (:data:`FRAME`) and ``marshal``
bytes. The first frame is the SQL that makes the empty index (the index's schema, sent by the
parent, so there is one schema) and the file to write it into (made empty and private by the
parent; None: in memory); each later one a list of rows (id, created_at, content, gist, tags,
entities),
written with rowids counted from 1 in one transaction. At the end of its input it writes
:data:`DONE` on its standard output once the rows are in the file (written as they went in,
not all at the end), or, in memory, the database's image (``sqlite3.Connection.serialize``).
"""

from __future__ import annotations

import marshal
import sqlite3
import struct
import sys
from collections.abc import Iterable, Iterator
from typing import IO, Any

#: A frame's length, before its ``marshal`` bytes.
FRAME = struct.Struct("<Q")
#: What the child writes when the rows are in the file it was given.
DONE = b"rows written\n"
#: FTS5's settings for an index made once and thrown away: no merging of its segments as the
#: rows go in, and a 32 MiB table of words in memory before a segment is written (1 MiB by
#: default). Measured at 100k memories: a quarter quicker to build, as quick to search; the same
#: rows, so the same bm25.
MADE_ONCE = ("INSERT INTO fts (fts, rank) VALUES ('automerge', 0)",
             "INSERT INTO fts (fts, rank) VALUES ('hashsize', 33554432)")


def insert_rows(conn: sqlite3.Connection,
                rows: Iterable[tuple[str, int, str, str, str, str]], first: int) -> int:
    """The search rows ``rows`` ((id, created_at, content, gist, tags, entities) each), rowids
    from ``first`` on, in the caller's transaction; returns the next rowid."""
    records, texts = [], []
    for rowid, (memory_id, created_at, *columns) in enumerate(rows, first):
        records.append((rowid, memory_id, created_at))
        texts.append((rowid, *columns))
    # (no fingerprint: these rows are never compared with the memories again)
    conn.executemany("INSERT INTO records (rowid, id, fingerprint, created_at) "
                     "VALUES (?, ?, '', ?)", records)
    conn.executemany("INSERT INTO fts (rowid, content, gist, tags, entities) "
                     "VALUES (?, ?, ?, ?, ?)", texts)
    return first + len(records)


def made_once(conn: sqlite3.Connection) -> None:
    """:data:`MADE_ONCE` on the index of ``conn`` (each one an SQLite does not know is left
    out: they change how quickly it is built, never what it holds)."""
    for setting in MADE_ONCE:
        try:
            conn.execute(setting)
        except sqlite3.Error:
            pass


def frame(value: Any) -> bytes:
    """``value`` as one frame of the child's input."""
    payload = marshal.dumps(value)
    return FRAME.pack(len(payload)) + payload


def _frames(source: IO[bytes]) -> Iterator[Any]:
    while header := source.read(FRAME.size):
        if len(header) != FRAME.size:
            raise EOFError("a frame cut short")
        (size,) = FRAME.unpack(header)
        payload = source.read(size)
        if len(payload) != size:
            raise EOFError("a frame cut short")
        yield marshal.loads(payload)


def main() -> int:
    frames = iter(_frames(sys.stdin.buffer))
    first: tuple[list[str], str | None] = next(frames)
    statements, database = first
    if database is None:
        conn = sqlite3.connect(":memory:", isolation_level=None)
    else:  # (a private file the parent made, read by it once the rows are in: no journal)
        conn = sqlite3.connect(database, isolation_level=None)
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
    for statement in statements:
        conn.execute(statement)
    made_once(conn)
    rowid = 1
    conn.execute("BEGIN")
    for rows in frames:
        rowid = insert_rows(conn, rows, rowid)
    conn.execute("COMMIT")
    if database is None:
        sys.stdout.buffer.write(conn.serialize())
    else:
        conn.close()
        sys.stdout.buffer.write(DONE)
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
