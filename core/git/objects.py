"""Writing git objects through long-lived ``git hash-object -w --stdin-paths`` processes.

A commit of one file needs a blob and a few trees written; starting a git process for each
kind of object, on every commit, costs more than the writing. :class:`ObjectWriter` keeps one
``hash-object`` process per object type (``blob``: files of the work tree, with git's
attributes applied as ``git add`` would; ``tree``: raw tree objects from scratch files, checked
by git) and hands it paths on stdin, one line each, reading back one object id a line. The
scratch files are kept for the writer's life, in a private folder of memvault's named after
the process (``objects-PID-*``), and written over in place: creating and removing 257 files
for a gc's trees cost 0.13 s, writing over them 0.03-0.06 s. A folder left by a process that
was killed is removed by the next writer that makes its own. Paths go
in chunks small enough that neither pipe can fill while the other waits; what git says on
stderr (a line-ending warning a file, a filter's chatter) is read as it comes by a thread, so
that pipe never fills either. A process that fails (or answers anything but an object id) is
stopped and JournalError raised, with git's last words; the next call starts a new one.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import os
import re
import shutil
import tempfile
import threading
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import JournalError
from .lock import process_alive

#: The scratch files' folders: ``objects-PID-*`` in memvault's folder of the git directory.
SCRATCH_PREFIX = "objects-"
#: Paths written before their ids are read back: well under a pipe's 64 KiB either way.
CHUNK = 200
_OID = re.compile(rb"[0-9a-f]{40}(?:[0-9a-f]{24})?\n")


class ObjectWriter:
    """``start(args)`` starts ``git <args>`` with pipes for stdin and stdout and returns its
    :class:`subprocess.Popen` (or a handle holding it as ``proc``)."""

    def __init__(self, start: Callable[[list[str]], Any],
                 options: Callable[[str], list[str]] | None = None,
                 scratch_parent: Callable[[], Path] | None = None):
        """``options(kind)``: git's options for the process of that object type (``-c ...``);
        ``scratch_parent()``: the private folder the scratch files' folder is made in."""
        self._options = options
        self._start = start
        self._scratch_parent = scratch_parent
        self._scratch: str | None = None
        self._running: dict[str, Any] = {}
        self._said: dict[str, collections.deque[bytes]] = {}
        self._drains: dict[str, threading.Thread] = {}
        _WRITERS.add(self)

    def write(self, kind: str, paths: list[str]) -> list[str]:
        """Store the file at each path (relative to the work tree, or absolute) as an object of
        ``kind``; their ids, in order."""
        found: list[str] = []
        for start in range(0, len(paths), CHUNK):
            chunk = paths[start:start + CHUNK]
            for path in chunk:
                if "\n" in path or path.startswith('"'):
                    raise JournalError(f"git hash-object cannot be given the path {path!r}")
            process = self._process(kind)
            try:
                process.stdin.write("".join(f"{p}\n" for p in chunk).encode(
                    "utf-8", "surrogateescape"))
                process.stdin.flush()
                for _ in chunk:
                    line = process.stdout.readline()
                    if not _OID.fullmatch(line):
                        raise JournalError(self._failure(kind, process, line))
                    found.append(line[:-1].decode())
            except (OSError, ValueError, JournalError) as exc:
                self.stop(kind)
                if isinstance(exc, JournalError):
                    raise
                raise JournalError(f"git hash-object failed: {exc}") from None
        return found

    def write_objects(self, kind: str, objects: list[bytes]) -> list[str]:
        """Store each of ``objects`` (an object's content) as an object of ``kind`` (git checks
        a tree's format); their ids, in order. Through this writer's scratch files."""
        folder = self._scratch_folder()
        names = []
        for index, data in enumerate(objects):
            name = os.path.join(folder, str(index))
            fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
            try:  # written over in place, then cut to size (no blocks freed to be taken again)
                view, at = memoryview(data), 0
                while at < len(data):
                    at += os.pwrite(fd, view[at:], at)
                os.ftruncate(fd, len(data))
            finally:
                os.close(fd)
            names.append(name)
        return self.write(kind, names)

    def _scratch_folder(self) -> str:
        if self._scratch is None or not os.path.isdir(self._scratch):
            if self._scratch_parent is None:
                raise JournalError("this object writer has no folder for scratch files")
            parent = self._scratch_parent()
            remove_leftover_scratch(parent)
            self._scratch = tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-",
                                             dir=parent)
        return self._scratch

    def _process(self, kind: str) -> Any:
        handle = self._running.get(kind)
        process = getattr(handle, "proc", handle)
        if process is None or process.poll() is not None:
            options = self._options(kind) if self._options is not None else []
            handle = self._start([*options, "hash-object", "-w", "-t", kind, "--stdin-paths"])
            self._running[kind] = handle
            process = getattr(handle, "proc", handle)
            said = self._said[kind] = collections.deque(maxlen=20)
            if process.stderr is not None:
                drain = self._drains[kind] = threading.Thread(
                    target=_drain, args=(process.stderr, said), daemon=True,
                    name=f"git hash-object {kind} stderr")
                drain.start()
        return process

    def _failure(self, kind: str, process: Any, line: bytes) -> str:
        """What git said when it answered ``line`` instead of an object id."""
        try:
            process.stdin.close()
            process.wait(timeout=5)
            if kind in self._drains:
                self._drains[kind].join(timeout=5)
        except Exception:  # noqa: BLE001 - the message is a courtesy; stop() ends it
            pass
        err = b"".join(self._said.get(kind, ())).decode("utf-8", "replace").strip()
        said = err or line.decode("utf-8", "replace").strip() or "no answer"
        return f"git hash-object failed: {said.splitlines()[-1] if said else said}"

    def running(self) -> list[Any]:
        """The handles of the processes running now (one a kind of object)."""
        return list(self._running.values())

    def stop(self, kind: str | None = None) -> None:
        """End the process for ``kind`` (every one when None, and remove the scratch files)."""
        if kind is None and self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None
        for name in [kind] if kind else list(self._running):
            handle = self._running.pop(name, None)
            process = getattr(handle, "proc", handle)
            if process is None:
                continue
            try:
                process.stdin.close()
            except OSError:
                pass
            try:
                process.wait(timeout=5)
            except Exception:  # noqa: BLE001 - a process that does not end is killed
                process.kill()
                process.wait()


def remove_leftover_scratch(parent: Path) -> None:
    """Remove the scratch folders in ``parent`` of processes no longer running (killed before
    they removed theirs), and those named as before they were kept (``objects-`` and no process
    id: a writer used one only while it committed, under the write lock the caller holds)."""
    with contextlib.suppress(OSError):
        for entry in os.scandir(parent):
            if not entry.name.startswith(SCRATCH_PREFIX) or not entry.is_dir(follow_symlinks=False):
                continue
            pid, dash, _ = entry.name[len(SCRATCH_PREFIX):].partition("-")
            if pid.isdigit() and dash and process_alive(int(pid)):
                continue
            shutil.rmtree(entry.path, ignore_errors=True)


def _drain(stream: Any, said: collections.deque[bytes]) -> None:
    """Read a process's stderr to its end, keeping the last lines. Straight from the file
    descriptor: the stream's own buffer (and its lock) is never held by this thread, so closing
    it at exit never waits for it."""
    try:
        fd = stream.fileno()
        while chunk := os.read(fd, 4096):
            said.append(chunk)
    except (OSError, ValueError):
        pass


#: Every writer, for ending their processes at exit (before the interpreter shuts down).
_WRITERS: weakref.WeakSet[ObjectWriter] = weakref.WeakSet()


@atexit.register
def _stop_all() -> None:
    for writer in list(_WRITERS):
        try:
            writer.stop()
        except Exception:  # noqa: BLE001 - at exit, nothing more to do
            pass
