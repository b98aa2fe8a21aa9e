"""git's own ``index.lock``, held by memvault from a commit's ``update-ref`` until git's index
holds the commit's paths.

Between the two, git's index is behind HEAD: a person's ``git commit`` made then would commit
that stale index, deleting the memories memvault just committed (12 of 38 such commits did,
with the index update just after the answer; 4 of 55 with it at once). git takes
``index.lock`` (``O_EXCL``) for every change of its index and every commit from it, so while
memvault holds it a person's ``git commit`` or ``git add`` fails with git's own clear message
("Unable to create '.git/index.lock': File exists"), and commits nothing; ``git status`` and
every command that only reads still work. A git command that holds it first makes memvault
wait for it (:data:`GIT_LOCK_WAIT` seconds at most; then the operation is put back and says so).

memvault changes git's index as git does under the lock: on a copy, put in place by a rename.
The lock file holds memvault's mark (``memvault index lock`` with its process id and a token of
its own), and is only taken, given back or taken over under the vault's write lock: so a writer
that finds another memvault process's mark (waiting for its thread to update git's index, or
killed) takes it over and finishes that update (:mod:`.recovery`), and the other process later
removes it only if its own mark is still in it. A lock left by a killed process (its process
gone) is removed by the next memvault process that opens the vault, read-only too.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import time
from collections.abc import Callable
from pathlib import Path

from ..errors import JournalError
from ..store.files import remove_file
from .lock import process_alive
from .repository import Repository

#: How long memvault waits for a git command of the person's that holds ``index.lock``.
GIT_LOCK_WAIT = 10.0
MARK = b"memvault index lock "


class IndexLock:
    """``index.lock`` of ``repository``'s git index, taken and given back by memvault."""

    def __init__(self, repository: Repository):
        self.repository = repository
        self._mark = MARK + f"pid={os.getpid()} token={secrets.token_hex(8)}\n".encode()

    @property
    def path(self) -> Path:
        return self.repository.git_dir / "index.lock"

    def _holder(self) -> bytes | None:
        """What the lock file holds (its first bytes), or None when there is none."""
        try:
            with open(self.path, "rb") as fh:
                return fh.read(200)
        except FileNotFoundError:
            return None

    @property
    def held(self) -> bool:
        """This object's mark is in the lock file (another memvault may have taken it over)."""
        return self._holder() == self._mark

    def take(self, wait: float = GIT_LOCK_WAIT) -> None:
        """Hold the lock (the caller holds the vault's write lock): made, or taken over from
        another memvault process, or waited for while a git command holds it. JournalError
        when it cannot be (nothing is changed)."""
        deadline = time.monotonic() + wait
        while True:
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
                             | os.O_NOFOLLOW, 0o600)
            except FileExistsError:
                holder = self._holder()
                if holder == self._mark:
                    return
                if holder is not None and holder.startswith(MARK):
                    self._take_over()  # (it waits for the write lock we hold: ours now)
                    return
                if time.monotonic() >= deadline:
                    raise JournalError(
                        f"git's index is locked ({self.path} exists: a git command is running, "
                        f"or one stopped half-way) and stayed locked for {wait:.0f} s; nothing "
                        "of this operation was committed. If no git command runs, remove "
                        "that file and try again") from None
                time.sleep(0.005)
                continue
            except OSError as exc:
                raise _not_locked(exc) from None
            try:
                try:
                    os.write(fd, self._mark)
                finally:
                    os.close(fd)
            except OSError as exc:  # (a full disk): git's index is left as it was
                with contextlib.suppress(OSError):
                    os.unlink(self.path)
                raise _not_locked(exc) from None
            return

    def _take_over(self) -> None:
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_TRUNC | os.O_CLOEXEC | os.O_NOFOLLOW)
            try:
                os.write(fd, self._mark)
            finally:
                os.close(fd)
        except OSError as exc:
            raise _not_locked(exc) from None

    def release(self) -> None:
        """Remove the lock file if it holds this object's mark."""
        if self.held:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)

    def remove_if_left(self) -> bool:
        """Remove a lock a killed memvault process left (its mark, its process gone); True
        when one was removed. A git command's lock is never touched."""
        holder = self._holder()
        if holder is None or not holder.startswith(MARK):
            return False
        try:
            pid = int(holder[len(MARK):].split(b" ")[0].removeprefix(b"pid="))
        except ValueError:
            pid = 0
        if pid > 0 and process_alive(pid):
            return False
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        return True

    def edit(self, run: Callable[[dict[str, str]], object]) -> None:
        """Change git's index (the lock held) as git does: ``run`` changes a copy (the
        environment it is given names it; git writes it anew beside it and renames it in, so
        the copy starts as a second name of the index), which then takes the index's place by
        a rename."""
        index = self.repository.git_dir / "index"
        copy = self.repository.state_dir / "git-index-next"
        remove_file(copy)
        try:  # a second name, not a copy: git never writes an index in place (lock, rename)
            os.link(index, copy)
        except FileNotFoundError:
            pass  # (no index yet: git makes one)
        except OSError:  # (a file system without hard links)
            shutil.copyfile(index, copy)
            shutil.copymode(index, copy)
        try:
            run({"GIT_INDEX_FILE": str(copy)})
            os.replace(copy, index)
        except BaseException:
            with contextlib.suppress(OSError):
                remove_file(copy)
            raise


def _not_locked(exc: OSError) -> JournalError:
    return JournalError(f"could not lock git's index ({exc.strerror or exc}); nothing was "
                        "changed")
