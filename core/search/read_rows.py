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

The child is :mod:`.rows_child`, a script of the installed memvault (never a file of the vault's
work tree) that needs the standard library alone.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import secrets
import sqlite3
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, IO

from ..git.lock import process_alive
from .word_forms import indexed
from ..store.files import read_vault_file
from . import first_build, rows_child
from .index import SearchIndex, index_path
from .index_file import SCHEMA
from .rows_child import DONE, frame
from ..store.private import make_folders

if TYPE_CHECKING:
    from ..model.records import Memory

#: The names of the files the children write the rows into, in ``.git/memvault/``.
ROWS_PREFIX, ROWS_SUFFIX = "first-search-rows-", ".sqlite"
#: The pipe's size asked for (Linux; the default limit for anyone): a few folders' rows.
PIPE_SIZE = 1 << 20

#: A memory's search row: (id, created_at, content, gist, tags, entities), the columns' order.
RowTexts = tuple[str, int, str, str, str, str]


def row_texts(m: Memory) -> RowTexts:
    """What the search row of ``m`` holds (one line a tag, one line an entity), and its time."""
    return (m.id, m.created_at, indexed(m.content), m.gist or "", "\n".join(m.meta.tags),
            "\n".join(m.entities))


def child_argv() -> list[str]:
    """How the child is started: this ``python``, isolated, running :mod:`.rows_child`."""
    return [sys.executable, "-I", "-S", str(Path(rows_child.__file__).resolve())]


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
        #: the file the child writes the rows into, beside the index (private, removed once read)
        self._database = None if path is None else path.parent / (
            f"{ROWS_PREFIX}{os.getpid()}-{secrets.token_hex(4)}{ROWS_SUFFIX}")
        self._fed: list[Memory] = []
        self._child: subprocess.Popen[bytes] | None = None
        self._pipe: IO[bytes] | None = None
        self._backlog: list[memoryview] = []
        self._failed = False
        self._ended = False
        #: how many entries the folders the open announced hold (:meth:`expect`)
        self._expected = 0

    @property
    def child_pid(self) -> int | None:
        """The child's process id while it runs."""
        return None if self._child is None else self._child.pid

    def expect(self, count: int) -> None:
        """The open is about to read a folder of ``count`` entries: once the folders announced
        reach :data:`.first_build.FIRST_BUILD_FROM`, the child is started at once, so that it
        starts and fills FTS5 while the files are read (at 10k memories in one flat folder it
        was started only once half of them were read)."""
        self._expected += count
        if self._child is None and self._expected >= first_build.FIRST_BUILD_FROM:
            self._begin()

    def add(self, memories: list[Memory]) -> None:
        """The next memories the open loaded, in its order."""
        if not memories or not self.wanted:
            return
        self._fed.extend(memories)
        if self._failed or self._ended:
            return
        self._backlog.append(memoryview(frame([row_texts(m) for m in memories])))
        if self._child is None:
            # (a vault too small to hand its index's first build over starts no child)
            if len(self._fed) < first_build.FIRST_BUILD_FROM:
                return
            self._begin()
        else:
            self._send(wait=False)

    def _begin(self) -> None:
        """Start the child (once; not for rows not wanted or after a failure) and send it what
        is waiting."""
        if not self.wanted or self._failed or self._ended or self._child is not None:
            return
        if self._start():
            self._send(wait=False)

    def _start(self) -> bool:
        package_root = Path(__file__).resolve().parents[2]
        database = self._make_database()
        try:
            self._child = subprocess.Popen(  # noqa: S603 (memvault's own script)
                child_argv(), cwd=package_root,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                close_fds=True)
        except OSError:
            self._failed = True
            self._backlog.clear()
            self._remove_database()
            return False
        self._pipe = self._child.stdin
        assert self._pipe is not None
        fd = self._pipe.fileno()
        if hasattr(fcntl, "F_SETPIPE_SZ"):
            with contextlib.suppress(OSError):
                fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_SIZE)
        os.set_blocking(fd, False)
        self._backlog.insert(0, memoryview(frame((SCHEMA, database))))
        return True

    def _make_database(self) -> str | None:
        """The child's file, made empty and private here (SQLite would make it as the umask
        says); leftovers of searches killed before they removed theirs are removed first. None:
        the child sends its rows' image instead."""
        if self._database is None:
            return None
        folder = self._database.parent
        try:
            make_folders(folder)
            remove_leftovers(folder)
            os.close(os.open(self._database, os.O_CREAT | os.O_EXCL | os.O_WRONLY
                             | getattr(os, "O_NOFOLLOW", 0), 0o600))
        except OSError:
            self._database = None
            return None
        return str(self._database)

    def _remove_database(self) -> None:
        if self._database is not None:
            with contextlib.suppress(OSError):
                self._database.unlink()

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

    def end(self) -> None:
        """No more memories: the child is sent the rest and its input ends, so it finishes its
        rows while the caller goes on (the next :meth:`add` counts as a second load)."""
        if self._child is None or self._ended:
            return
        self._ended = True
        if not self._failed:
            self._send(wait=True)
        with contextlib.suppress(OSError):
            self._child.stdin.close()  # type: ignore[union-attr]

    def index_for(self, memories: Mapping[str, Memory]) -> SearchIndex | None:
        """The index, once the child has written every row, when its rows are those of
        ``memories``."""
        self.end()
        child, self._child = self._child, None
        fed, self._fed = self._fed, []
        if child is None:
            return None
        output = b""
        try:
            if not self._failed:
                output = child.stdout.read()  # type: ignore[union-attr]
        finally:
            _end(child)
        try:
            if self._failed or child.returncode != 0 or len(fed) != len(memories):
                return None
            if any(m is not held for m, held in zip(fed, memories.values())):
                return None
            image = output
            if self._database is not None and output == DONE:
                image, _ = read_vault_file(self._database, limit=1 << 40)
            return _opened(image)
        except OSError:
            return None
        finally:
            self._remove_database()

    def discard(self) -> None:
        """Stop the child, its rows unused."""
        child, self._child = self._child, None
        self._fed, self._backlog = [], []
        if child is not None:
            with contextlib.suppress(OSError):
                child.kill()
            _end(child)
            self._remove_database()


def _opened(image: bytes) -> SearchIndex | None:
    """An index in memory from the child's rows (a database's bytes); None when they are not
    one."""
    if not image:
        return None
    index = SearchIndex(None)
    try:  # (the image takes the place of the empty index's database, schema and all)
        index.conn.deserialize(image)
        index.conn.execute("SELECT count(*) FROM records").fetchone()
    except sqlite3.Error:
        index.close()
        return None
    return index


def remove_leftovers(folder: Path) -> None:
    """Remove the rows' files in ``folder`` whose search is gone (killed before it removed
    its own)."""
    for leftover in folder.glob(f"{ROWS_PREFIX}*{ROWS_SUFFIX}"):
        pid = leftover.name[len(ROWS_PREFIX):].split("-", 1)[0]
        if pid.isdigit() and not process_alive(int(pid)):
            with contextlib.suppress(OSError):
                leftover.unlink()


def _end(child: subprocess.Popen[bytes]) -> None:
    for stream in (child.stdin, child.stdout):
        with contextlib.suppress(OSError):
            if stream is not None:
                stream.close()
    child.wait()
