"""The files of one folder of the work tree that git's index holds unchanged, read from git's
objects in one stream (:class:`CleanFiles`) instead of one by one from disk: what the first
search after a clone does with its 100k memory files (each file read on its own is an open, a
``fstat``, a read and a close, most of that open's time).

Which files: those ``git ls-files -s -v`` lists as plainly cached (tag ``H``: not marked
assume-unchanged nor skip-worktree), at stage 0, as a regular file (``100644``/``100755``), and
that ``git diff-files`` does not list: git's own check of the file on disk against its index
entry (the stat data it recorded, and the content itself when that data cannot tell, git's
"racy" entries). Such a file holds that very blob, by git's own account: the trust an open from
the derived index already puts in git's status (:mod:`core.vault.indexed_open`). Any other
file, a file git does not know (untracked or ignored), a blob over the size limit or anything
git cannot answer is read from disk by the caller as before, with every check it makes.

The blobs come from one ``git cat-file --batch``, asked for in git's order (the paths sorted);
a caller that takes them in that order reads them as git writes them, and one that asks for
another path first has the ones before it kept until asked for.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from typing import IO, Any

from ..errors import JournalError
from .plumbing import GitCommands, abandon, finish
from .repository import Repository

#: The ``mode`` of a regular file in git's index (plain, executable).
_REGULAR = (b"100644", b"100755")
#: git's tag for an entry that is plainly cached (``ls-files -v``: lower case when marked
#: assume-unchanged; ``S`` skip-worktree).
_CACHED = b"H"
_EMPTY_BLOBS = (b"e69de29bb2d1d6434b8b29ae775ad8c2e48c5391",
                b"473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813")


class CleanFiles:
    """The files under ``folder`` (a vault-relative folder: ``memories``) that git's index
    holds unchanged, each taken once by its vault-relative path (:meth:`take`). Made by
    :meth:`start`; :meth:`close` ends the git process (whatever was not taken is dropped)."""

    def __init__(self, wanted: dict[str, bytes], proc: Any, limit: int) -> None:
        #: vault path -> blob id, in the order the blobs come
        self._wanted = wanted
        self._order = iter(list(wanted))
        self._proc = proc
        self._limit = limit
        #: blobs read before they were asked for (a caller taking them in another order)
        self._early: dict[str, bytes | None] = {}
        self._failed = proc is None

    def __len__(self) -> int:
        return len(self._wanted)

    @classmethod
    def start(cls, commands: GitCommands, repository: Repository, folder: str,
              limit: int) -> CleanFiles:
        """List the clean files under the vault's ``folder`` and start reading their blobs (at
        most ``limit`` bytes each: a bigger one is left to the caller, which refuses it). Raises
        JournalError when git cannot answer (the caller reads every file from disk)."""
        spec = ":(literal)" + repository.relpath(repository.root / folder)
        dirty_started = commands.start("diff-files", "--name-only", "-z", "--", spec)
        try:
            listing = commands.output_bytes("ls-files", "-s", "-v", "-z", "--", spec)
        except BaseException:
            abandon(dirty_started)
            raise
        dirty = set(finish(dirty_started).split(b"\0"))
        if getattr(dirty_started, "proc", dirty_started).returncode != 0:
            raise JournalError("git diff-files failed")
        cut = 0 if repository.rel_root == "." else len(repository.rel_root) + 1
        wanted: dict[str, bytes] = {}
        for entry in listing.split(b"\0"):
            # "<tag> <mode> <blob> <stage>\t<path>"
            head, tab, path = entry.partition(b"\t")
            fields = head.split(b" ")
            if not tab or len(fields) != 4 or path in dirty:
                continue
            tag, mode, blob, stage = fields
            if tag != _CACHED or mode not in _REGULAR or stage != b"0" or blob in _EMPTY_BLOBS:
                continue
            wanted[path[cut:].decode("utf-8", "surrogateescape")] = blob
        if not wanted:
            return cls({}, None, limit)
        proc = _cat_file(commands, b"".join(blob + b"\n" for blob in wanted.values()))
        return cls(wanted, proc, limit)

    def blobs(self) -> dict[str, bytes]:
        """vault path -> blob id (hex) of every file git vouches for, taken or not."""
        return self._wanted

    def take(self, rel: str) -> bytes | None:
        """The bytes of the file at the vault path ``rel`` as git holds it, once; None when git
        does not vouch for it (or could not read it): the caller reads it from disk."""
        if rel not in self._wanted:
            return None
        found = self._early.pop(rel, _MISSING)
        if found is not _MISSING:
            return found  # type: ignore[return-value]
        if self._failed:
            return None
        try:
            for path in self._order:
                data = self._next()
                if path == rel:
                    return data
                self._early[path] = data
        except (OSError, ValueError, JournalError):
            self._fail()
        return None

    def _next(self) -> bytes | None:
        """The next blob of the stream (None: missing, or over the limit: read past)."""
        out: IO[bytes] = self._proc.stdout
        header = out.readline()
        parts = header.split()
        if len(parts) == 2 and parts[1] == b"missing":
            return None
        if len(parts) != 3 or parts[1] != b"blob":
            raise JournalError(f"git cat-file answered {header[:80]!r}")
        size = int(parts[2])
        if size > self._limit:
            while size > 0:  # (never held whole: a blob from a remote is untrusted)
                chunk = out.read(min(size, 1 << 20))
                if not chunk:
                    raise JournalError("git cat-file ended early")
                size -= len(chunk)
            data = None
        else:
            data = out.read(size)
            if len(data) != size:
                raise JournalError("git cat-file ended early")
        if out.read(1) != b"\n":
            raise JournalError("git cat-file's answer is out of step")
        return data

    def _fail(self) -> None:
        self._failed = True
        self._early.clear()
        self.close()

    def close(self) -> None:
        """End the git process (the blobs not taken are not read)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        with contextlib.suppress(OSError):
            proc.kill()
        with contextlib.suppress(OSError, ValueError):
            proc.communicate()


_MISSING = object()


def _cat_file(commands: GitCommands, names: bytes) -> subprocess.Popen[bytes]:
    """``git cat-file --batch`` reading ``names`` (one object a line) from an unnamed file."""
    with commands.stdin(names) as fh:
        started = commands.start("cat-file", "--batch", istream=fh)
    proc: subprocess.Popen[bytes] = getattr(started, "proc", started)
    if proc.stdout is None:
        raise JournalError("git cat-file could not be started")
    os.set_blocking(proc.stdout.fileno(), True)
    return proc
