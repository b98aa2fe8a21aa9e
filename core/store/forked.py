"""Work done by a fork of this process, its result sent back as bytes on a pipe: what the open
leaves to a child (:mod:`.relations_in_child`, :mod:`.shards_in_child`). A fork starts in
milliseconds with memvault already loaded; it is made only where that is safe
(:func:`fork_is_safe`), runs nothing but the work it is given, keeps none of this process's
files open but its pipes, and ends without running this process's exit work."""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Callable, Iterable

MAX_FD = os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else 1 << 16


def fork_is_safe() -> bool:
    """Whether this process may fork a child that runs Python: on Linux, with one thread (a
    lock another thread held at the fork would stay held in the child for good)."""
    return sys.platform.startswith("linux") and threading.active_count() == 1


class ForkedWork:
    """``work()`` run by a child forked here (:attr:`started`: the fork was made), its bytes
    read by :meth:`result`; ``also_open``: file descriptors the child keeps (it closes every
    other one of this process's but its pipe)."""

    def __init__(self, work: Callable[[], bytes], also_open: Iterable[int] = ()):
        self._pid: int | None = None
        self._read_end: int | None = None
        read_end, write_end = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(read_end)
            os.close(write_end)
            return
        if pid == 0:
            code = 1
            try:
                low = 3
                for fd in sorted({write_end, *also_open}):
                    os.closerange(low, fd)
                    low = fd + 1
                os.closerange(low, MAX_FD)
                data = work()
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

    def result(self) -> bytes | None:
        """What the child sent, once it has ended well; None otherwise (or when never
        started)."""
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
        return b"".join(chunks)

    def stop(self) -> None:
        """End the child, its result unused (nothing when it was reaped)."""
        if self._pid is not None:
            with contextlib.suppress(OSError):
                os.kill(self._pid, 9)
            self._reap()

    def _reap(self) -> bool:
        pid, self._pid = self._pid, None
        if self._read_end is not None:
            os.close(self._read_end)
            self._read_end = None
        if pid is None:
            return False
        _, status = os.waitpid(pid, 0)
        return os.waitstatus_to_exitcode(status) == 0
