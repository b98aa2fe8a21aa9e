"""The search rows of the memories an open is reading, made by a process of its own while the
open reads the files (:class:`RowsWhileReading`), for the index in memory a search answers from
while the index file is first built (:mod:`.memory_index`); and the rows themselves
(:func:`row_texts`, :func:`insert_rows`), the same either way.

Why a process: the first search after a clone reads and checks every file (mostly system calls
and pydantic, holding the interpreter's lock) and then fills FTS5 (a second or more at 100k
memories). A thread filling FTS5 meanwhile was slower than one after the other: each row it
writes has to win the interpreter's lock back from the reading thread. A child process has a
lock of its own, so the rows go in on the second core while the files are read. The open hands
it the text of each folder's memories as it loads them (``marshal`` over a pipe, written only as
fast as the pipe takes it: the open never waits for the child); the child writes the rows into
an index in memory and, once the last are in, sends back the database's image
(``sqlite3.Connection.serialize``), which the search opens in memory. Any failure (no child, a
child that dies, an image SQLite cannot read) leaves the rows to :func:`.memory_index.memory_index`
as before.

The child runs this module of the installed memvault from memvault's own folder (never from the
vault's work tree): ``python -m core.search.read_rows``, reading frames on its standard input.
"""

from __future__ import annotations

import contextlib
import fcntl
import marshal
import os
import sqlite3
import struct
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import IO

from ..model.records import Memory
from . import first_build
from .index import SearchIndex, index_path
from .transaction import transaction

#: How the child is started: ``python`` and these arguments.
CHILD_ARGS = ("-m", "core.search.read_rows")
#: A frame's length, before its ``marshal`` bytes (a list of :func:`row_texts` tuples).
FRAME = struct.Struct("<Q")
#: The pipe's size asked for (Linux; the default limit for anyone): a few folders' rows.
PIPE_SIZE = 1 << 20

#: A memory's search row: (id, content, gist, tags, entities), in the columns' order.
RowTexts = tuple[str, str, str, str, str]


def row_texts(m: Memory) -> RowTexts:
    """What the search row of ``m`` holds (one line a tag, one line an entity)."""
    return (m.id, m.content, m.gist or "", "\n".join(m.meta.tags), "\n".join(m.entities))


def no_merging(conn: sqlite3.Connection) -> None:
    """No merging of FTS5's segments as the rows go in: made once and thrown away, the index is
    built a fifth quicker so, and searched as quickly (same rows, so the same bm25)."""
    conn.execute("INSERT INTO fts (fts, rank) VALUES ('automerge', 0)")


def insert_rows(conn: sqlite3.Connection, rows: Iterable[RowTexts], first: int) -> int:
    """The search rows ``rows`` (:func:`row_texts`), rowids from ``first`` on, in the caller's
    transaction; returns the next rowid."""
    records, texts = [], []
    for rowid, (memory_id, *columns) in enumerate(rows, first):
        records.append((rowid, memory_id))
        texts.append((rowid, *columns))
    # (no fingerprint: these rows are never compared with the memories again)
    conn.executemany("INSERT INTO records (rowid, id, fingerprint) VALUES (?, ?, '')", records)
    conn.executemany("INSERT INTO fts (rowid, content, gist, tags, entities) "
                     "VALUES (?, ?, ?, ?, ?)", texts)
    return first + len(records)


class RowsWhileReading:
    """The index in memory :func:`.memory_index.memory_index` makes, made by a child process while
    an open reads the files of the vault at ``root`` (the first search after a clone:
    ``memvault search``): the open hands over the memories of each folder as it loads them
    (:meth:`add`). :meth:`index_for` gives the index only when it holds the rows of exactly the
    memories the vault ended with, in their order (so the very rows and rowids ``memory_index``
    would make); otherwise (a memory with two files, a second load, a failure) None, and the
    caller makes it as usual. Nothing is started for a vault whose search index file exists (a
    search then reads that) or that is in no repository."""

    def __init__(self, root: Path):
        path = index_path(root)
        #: whether rows are wanted at all
        self.wanted = path is not None and not path.exists()
        self._fed: list[Memory] = []
        self._child: subprocess.Popen[bytes] | None = None
        self._pipe: IO[bytes] | None = None
        self._backlog: list[memoryview] = []
        self._failed = False

    @property
    def child_pid(self) -> int | None:
        """The child's process id while it runs."""
        return None if self._child is None else self._child.pid

    def add(self, memories: list[Memory]) -> None:
        """The next memories the open loaded, in its order."""
        if not memories or not self.wanted:
            return
        self._fed.extend(memories)
        if self._failed:
            return
        payload = marshal.dumps([row_texts(m) for m in memories])
        self._backlog.append(memoryview(FRAME.pack(len(payload)) + payload))
        if self._child is None:
            # (a vault too small to hand its index's first build over starts no child)
            if len(self._fed) < first_build.FIRST_BUILD_FROM or not self._start():
                return
        self._send(wait=False)

    def _start(self) -> bool:
        package_root = Path(__file__).resolve().parents[2]
        try:
            self._child = subprocess.Popen(  # noqa: S603 (memvault's own module)
                [sys.executable, *CHILD_ARGS], cwd=package_root,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                close_fds=True)
        except OSError:
            self._failed = True
            self._backlog.clear()
            return False
        self._pipe = self._child.stdin
        assert self._pipe is not None
        fd = self._pipe.fileno()
        if hasattr(fcntl, "F_SETPIPE_SZ"):
            with contextlib.suppress(OSError):
                fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_SIZE)
        os.set_blocking(fd, False)
        return True

    def _send(self, *, wait: bool) -> None:
        """Write what the pipe takes of the frames not sent yet (all of them, ``wait``ing)."""
        assert self._pipe is not None
        fd = self._pipe.fileno()
        if wait:
            os.set_blocking(fd, True)
        backlog = self._backlog
        try:
            while backlog:
                sent = os.write(fd, backlog[0])
                if sent == len(backlog[0]):
                    backlog.pop(0)
                else:
                    backlog[0] = backlog[0][sent:]
        except BlockingIOError:
            return
        except OSError:  # the child is gone: the rows are made as before
            self._failed = True
            backlog.clear()

    def index_for(self, memories: Mapping[str, Memory]) -> SearchIndex | None:
        """The index, once the child has written every row, when its rows are those of
        ``memories``."""
        child, self._child = self._child, None
        fed, self._fed = self._fed, []
        if child is None:
            return None
        image = b""
        try:
            if not self._failed:
                self._send(wait=True)
            with contextlib.suppress(OSError):
                child.stdin.close()  # type: ignore[union-attr]
            if not self._failed:
                image = child.stdout.read()  # type: ignore[union-attr]
        finally:
            _end(child)
        if self._failed or not image or child.returncode != 0 or len(fed) != len(memories):
            return None
        if any(m is not held for m, held in zip(fed, memories.values())):
            return None
        index = SearchIndex(None, image=image)
        try:
            index.conn.execute("SELECT count(*) FROM records").fetchone()
        except sqlite3.Error:
            index.close()
            return None
        return index

    def discard(self) -> None:
        """Stop the child, its rows unused."""
        child, self._child = self._child, None
        self._fed, self._backlog = [], []
        if child is not None:
            with contextlib.suppress(OSError):
                child.kill()
            _end(child)


def _end(child: subprocess.Popen[bytes]) -> None:
    for stream in (child.stdin, child.stdout):
        with contextlib.suppress(OSError):
            if stream is not None:
                stream.close()
    child.wait()


def _read_exactly(stream: IO[bytes], size: int) -> bytes:
    data = stream.read(size)
    if len(data) != size:
        raise EOFError("a frame cut short")
    return data


def main() -> int:
    """The child's work: frames of rows on standard input until its end, the database's image
    on standard output."""
    index = SearchIndex(None)
    conn = index.conn
    no_merging(conn)
    source, rowid = sys.stdin.buffer, 1
    with transaction(conn):
        while header := source.read(FRAME.size):
            if len(header) != FRAME.size:
                raise EOFError("a frame cut short")
            (size,) = FRAME.unpack(header)
            rowid = insert_rows(conn, marshal.loads(_read_exactly(source, size)), rowid)
    sys.stdout.buffer.write(conn.serialize())
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
