"""The vault's inter-process write lock: ``flock`` on ``{git dir}/memvault/lock``, taken in
arrival order.

``flock`` alone is unfair: a process that releases and takes the lock again at once wins over
waiters polling for it (``bench/lock.py`` measures it). So a writer first takes a
ticket, a file ``lock-queue/{arrival time}-{pid}-{random}`` holding its pid and its process's
start time, and tries the ``flock`` only while no live ticket older than its own is waiting:
first come, first served. A ticket whose process is gone (a crash) is removed by the next
waiter that sees it. The lock file and the queue are private to the vault's owner (0600 in a
0700 folder): another local user cannot take the lock. A wait that runs out names the process
holding the lock and how many are waiting.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import secrets
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from ..errors import JournalError, LockTimeoutError
from ..textutil import neutralise_line

#: How long a writer waits for the write lock by default, in seconds
DEFAULT_LOCK_TIMEOUT = 30.0
_POLL_START, _POLL_MAX = 0.001, 0.01
#: Tickets this process holds right now. A ticket with this process's pid that is not among
#: them was left behind (its removal failed): it never makes this process wait.
_OURS: set[str] = set()


def _process_start(pid: int) -> str:
    """The process's start time in clock ticks since boot (Linux), to tell a pid reused by
    another process from the one that took a ticket; "" where it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            text = fh.read().decode("ascii", "replace")
        return text.rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return ""


def process_alive(pid: int, started: str = "") -> bool:
    """Whether process ``pid`` is alive (another user's counts), and, given ``started`` (its
    start time as ``/proc`` tells it), still the process that started then."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return not started or _process_start(pid) in ("", started)


def _describe_self() -> str:
    argv = " ".join(os.path.basename(a) if i == 0 else a for i, a in enumerate(sys.argv[:4]))
    shown = neutralise_line(argv)[:120]
    return f"memvault pid {os.getpid()}" + (f" ({shown})" if shown else "")


@contextlib.contextmanager
def process_lock(state_dir: Path, wait: float) -> Iterator[None]:
    """Hold the vault's write lock (see the module docstring); LockTimeoutError after ``wait``
    seconds, JournalError when the lock's files cannot be made (a full disk)."""
    try:
        fd, ticket = _take_ticket(state_dir)
    except OSError as exc:
        raise JournalError(f"could not take the vault's write lock: {exc.strerror or exc} "
                           f"({state_dir}); nothing was changed") from None
    try:
        try:
            _wait_for_turn(fd, state_dir / "lock", ticket, wait)
        except OSError as exc:
            raise JournalError(f"could not take the vault's write lock: {exc.strerror or exc} "
                               f"({state_dir}); nothing was changed") from None
        with contextlib.suppress(OSError):  # who holds it, for a waiter's message only
            os.ftruncate(fd, 0)
            os.pwrite(fd, _describe_self().encode("utf-8", "replace"), 0)
        try:
            yield
        finally:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        _OURS.discard(ticket.name)
        with contextlib.suppress(OSError):
            os.unlink(ticket)
        os.close(fd)


class WriteLock:
    """The write lock of one journal: first a thread lock (threads of one process take turns),
    then :func:`process_lock` (processes do). Re-entrant within a thread."""

    def __init__(self, state_dir: Callable[[], Path], timeout: float):
        self.timeout = timeout
        self._state_dir = state_dir
        self._threads = threading.RLock()
        self._depth = 0

    @contextlib.contextmanager
    def hold(self, timeout: float | None = None) -> Iterator[None]:
        wait = self.timeout if timeout is None else timeout
        if not self._threads.acquire(timeout=wait):
            raise LockTimeoutError(
                f"the vault is being written by another thread of this process; gave up after "
                f"{wait:g} s")
        try:
            if self._depth:
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
            else:
                with process_lock(self._state_dir(), wait):
                    self._depth = 1
                    try:
                        yield
                    finally:
                        self._depth = 0
        finally:
            self._threads.release()

    @property
    def held(self) -> bool:
        return self._depth > 0

    @contextlib.contextmanager
    def unless_busy(self) -> Iterator[bool]:
        """The thread lock if no other thread holds it (True), else nothing (False)."""
        taken = self._threads.acquire(blocking=False)
        try:
            yield taken
        finally:
            if taken:
                self._threads.release()


def _take_ticket(state_dir: Path) -> tuple[int, Path]:
    queue = state_dir / "lock-queue"
    queue.mkdir(mode=0o700, exist_ok=True)
    fd = os.open(state_dir / "lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    try:
        me = f"{time.time_ns():020d}-{os.getpid()}-{secrets.token_hex(3)}"
        scratch = queue / f".{me}"
        tfd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        try:
            with os.fdopen(tfd, "w") as fh:
                fh.write(f"{os.getpid()} {_process_start(os.getpid())}\n")
            os.rename(scratch, queue / me)  # whole, or not there: never seen half made
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(scratch)
            raise
    except BaseException:
        os.close(fd)
        raise
    _OURS.add(me)
    return fd, queue / me


def _wait_for_turn(fd: int, path: Path, ticket: Path, wait: float) -> None:
    deadline = time.monotonic() + wait
    delay = _POLL_START
    while True:
        ahead = _live_tickets_before(ticket.parent, ticket.name)
        if not ahead:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EACCES):
                    raise
        if time.monotonic() >= deadline:
            raise LockTimeoutError(_timeout_message(fd, path, wait, len(ahead)))
        time.sleep(delay)
        delay = min(delay * 1.5, _POLL_MAX)


def _live_tickets_before(queue: Path, me: str) -> list[str]:
    ahead = []
    for name in sorted(os.listdir(queue)):
        if name.startswith("."):
            continue
        if name >= me:
            break
        try:
            pid_text, _, started = (queue / name).read_text().strip().partition(" ")
            pid = int(pid_text)
        except (OSError, ValueError):
            continue  # being written or removed right now: look again next round
        if pid == os.getpid() and name not in _OURS:
            stale = True  # this process's own leftover (its removal failed)
        else:
            stale = not process_alive(pid, started)
        if not stale:
            ahead.append(name)
        else:
            with contextlib.suppress(OSError):
                os.unlink(queue / name)
    return ahead


def _timeout_message(fd: int, path: Path, wait: float, waiting: int) -> str:
    holder = os.pread(fd, 300, 0).decode("utf-8", "replace").strip()
    holder = neutralise_line(holder)
    queued = f"; {waiting} other writer{'s' if waiting != 1 else ''} queued before this one" \
        if waiting else ""
    return (f"the vault is being written by {holder or 'another process'}; gave up after "
            f"{wait:g} s{queued} (lock file {path})")
