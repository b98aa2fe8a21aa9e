"""The relations of a big vault loaded by a child process while the open loads the memories:
read and checked on the second core while the memories are read on the first (the first search
after a clone reads every file: at 100k memories and 33k relations, the relations are half a
second of it).

The child runs :meth:`core.store.layout.Layout.load_folder`, the very loader an open runs, and
sends back what it found (``marshal`` on its standard output): each record that loaded, as its
id and its file's bytes; the files it could not load, with the reason; the ``(mtime, size)`` it
saw of each. The open then holds those records as their bytes, each parsed when first read
(:meth:`core.store.cache.Store.fill_loaded`: bytes the same model found valid), and reports the
problems as its own. Anything else (no child, a child that fails, output that is not what it
sends) means the open loads the folder itself, as without a child.

The child is a fork of the opening process (it starts in milliseconds, memvault already loaded,
and runs nothing but the loader), made only where that is safe: on Linux, from a process with
one thread (the command line's opens; the app and the MCP server open with threads running and
load the folder themselves).
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from .record_loading import LoadProblem

#: A relations folder with at least this many entries is loaded by a child (below, starting
#: Python takes longer than loading it).
CHILD_FROM = 10_000

_MAX_FD = os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else 1 << 16


@dataclass
class LoadedElsewhere:
    """What the child loaded: id -> bytes of each valid record, vault path -> bytes of the same
    files (as an open's ``keep``), the problems, and the files' ``(mtime_ns, size)`` by path."""

    records: dict[str, bytes]
    kept: dict[str, bytes]
    problems: list[LoadProblem]
    seen: dict[str, tuple[int, int]]


def fork_is_safe() -> bool:
    """Whether this process may fork a child that runs Python: on Linux, with one thread (a
    lock another thread held at the fork would stay held in the child for good)."""
    return sys.platform.startswith("linux") and threading.active_count() == 1


class RelationsInChild:
    """The relations folder ``folder`` of the vault at ``root``, loaded by a child forked here
    when it has :data:`CHILD_FROM` entries or more and forking is safe (:attr:`started`)."""

    def __init__(self, root: Path, folder: Path):
        self._pid: int | None = None
        self._read_end: int | None = None
        if not fork_is_safe():
            return
        try:
            with os.scandir(folder) as entries:
                if sum(1 for _ in entries) < CHILD_FROM:
                    return
        except OSError:
            return
        read_end, write_end = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(read_end)
            os.close(write_end)
            return
        if pid == 0:  # the child: load, send, and end without running the parent's exit work
            code = 1
            try:
                # (no other file of the parent's stays open in the child: a lock's or a pipe's
                # copy here would hold it for as long as the child runs)
                os.closerange(3, write_end)
                os.closerange(write_end + 1, _MAX_FD)
                data = load(root)
                with os.fdopen(write_end, "wb") as out:
                    out.write(data)
                code = 0
            finally:
                os._exit(code)
        os.close(write_end)
        self._pid, self._read_end = pid, read_end

    @property
    def started(self) -> bool:
        return self._pid is not None

    @property
    def pid(self) -> int | None:
        """The child's process id until it is reaped."""
        return self._pid

    def result(self) -> LoadedElsewhere | None:
        """What the child loaded, once it is done; None when it failed (the caller loads the
        folder itself)."""
        if self._pid is None or self._read_end is None:
            return None
        chunks = []
        try:
            while chunk := os.read(self._read_end, 1 << 20):
                chunks.append(chunk)
        except OSError:
            chunks = []
        if not self._reap() or not chunks:
            return None
        try:
            records, kept, problems, seen = marshal.loads(b"".join(chunks))
            return LoadedElsewhere(records, kept,
                                   [LoadProblem(Path(path), reason) for path, reason in problems],
                                   seen)
        except (ValueError, TypeError, EOFError):
            return None

    def stop(self) -> None:
        """End the child, its result unused (nothing when it was reaped)."""
        if self._pid is not None:
            with contextlib.suppress(OSError):
                os.kill(self._pid, 9)
            self._reap()

    def _reap(self) -> bool:
        """Wait for the child to end; True when it ended well."""
        pid, self._pid = self._pid, None
        if self._read_end is not None:
            os.close(self._read_end)
            self._read_end = None
        if pid is None:
            return False
        _, status = os.waitpid(pid, 0)
        return os.waitstatus_to_exitcode(status) == 0


def load(root: Path) -> bytes:
    """The child's work: the relations folder loaded as an open loads it, as ``marshal``
    bytes."""
    from .layout import RELATIONS_DIR, SUFFIX, Layout

    layout = Layout(root)
    kept: dict[str, bytes] = {}
    records, problems = layout.load_folder("relation", kept)
    raw = {r.id: kept[f"{RELATIONS_DIR}/{r.id}{SUFFIX}"] for r in records}
    return marshal.dumps((raw, kept, [(str(p.path), p.reason) for p in problems],
                          dict(layout.seen)))
