"""The child process that writes the search rows of the first search after a clone
(:class:`.read_rows.RowsWhileReading`), and the rows' one writer (:func:`insert_rows`), which
the in-process index (:func:`.memory_index.memory_index`) uses too.

It is run as a script of the installed memvault, ``python -I -S rows_child.py`` (isolated, no
site packages: the standard library alone, so it starts in milliseconds instead of importing
memvault), and reads frames on its standard input: each a length (:data:`FRAME`) and ``marshal``
bytes. The first frame is the SQL that makes the empty index (the index's schema, sent by the
parent, so there is one schema); each later one a list of rows (id, content, gist, tags,
entities), written with rowids counted from 1 in one transaction. At the end of its input it
writes the database's image (``sqlite3.Connection.serialize``) on its standard output.
"""

from __future__ import annotations

import marshal
import sqlite3
import struct
import sys
from collections.abc import Iterable
from typing import IO

#: A frame's length, before its ``marshal`` bytes.
FRAME = struct.Struct("<Q")


def insert_rows(conn: sqlite3.Connection, rows: Iterable[tuple[str, str, str, str, str]],
                first: int) -> int:
    """The search rows ``rows`` ((id, content, gist, tags, entities) each), rowids from
    ``first`` on, in the caller's transaction; returns the next rowid."""
    records, texts = [], []
    for rowid, (memory_id, *columns) in enumerate(rows, first):
        records.append((rowid, memory_id))
        texts.append((rowid, *columns))
    # (no fingerprint: these rows are never compared with the memories again)
    conn.executemany("INSERT INTO records (rowid, id, fingerprint) VALUES (?, ?, '')", records)
    conn.executemany("INSERT INTO fts (rowid, content, gist, tags, entities) "
                     "VALUES (?, ?, ?, ?, ?)", texts)
    return first + len(records)


def frame(value: object) -> bytes:
    """``value`` as one frame of the child's input."""
    payload = marshal.dumps(value)
    return FRAME.pack(len(payload)) + payload


def _frames(source: IO[bytes]) -> Iterable[object]:
    while header := source.read(FRAME.size):
        if len(header) != FRAME.size:
            raise EOFError("a frame cut short")
        (size,) = FRAME.unpack(header)
        payload = source.read(size)
        if len(payload) != size:
            raise EOFError("a frame cut short")
        yield marshal.loads(payload)


def main() -> int:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    frames = iter(_frames(sys.stdin.buffer))
    for statement in next(frames):  # type: ignore[attr-defined]
        conn.execute(statement)
    rowid = 1
    conn.execute("BEGIN")
    for rows in frames:
        rowid = insert_rows(conn, rows, rowid)  # type: ignore[arg-type]
    conn.execute("COMMIT")
    sys.stdout.buffer.write(conn.serialize())
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
