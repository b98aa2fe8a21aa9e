"""The ``memvault-merge-driver`` program: the ``memory-latest`` git merge driver.

git calls it (``memvault-merge-driver %O %A %B %P``, the installed program of :func:`main`, by
its absolute path) for a vault file changed on both sides of a merge. :func:`run` reads the
three versions (never past the size limit of a vault file), writes the decision of
:func:`core.sync.memory_latest.merge` into git's ``%A`` and, when sync asks, appends it to a log
(:func:`read_log`). A side too large to read is never merged: the result is conflict markers
around the other side and a line saying so, and the driver exits non-zero (an ancestor that
large is left out: the merge goes on as if both sides added the file).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from ..store.layout import MAX_FILE_BYTES
from ..textutil import neutralise_line
from .memory_latest import conflict_outcome, kind_of, merge

DRIVER_NAME = "memory-latest"
PROGRAM = "memvault-merge-driver"  # the console script of :func:`main` (pyproject.toml)
LOG_ENV = "MEMVAULT_MERGE_LOG"  # sync sets it: the driver appends one JSON line per file


# -- the driver ----------------------------------------------------------------------------------
class _TooLarge:
    def __init__(self, size: int):
        self.size = size

    def placeholder(self, side: str) -> bytes:
        return (f"({side}: {self.size} bytes, larger than the {MAX_FILE_BYTES // (1024 * 1024)} "
                "MiB a vault file may be; not read)\n").encode()


def run(ancestor_file: str, current_file: str, other_file: str, path: str,
        log_file: str | None = None) -> int:
    """What ``memvault-merge-driver %O %A %B %P`` does: merge, write the result into
    ``current_file`` (git's %A), and return 0 (merged) or 1 (conflict markers left)."""
    if log_file is None:
        log_file = os.environ.get(LOG_ENV) or None
    ancestor, ours, theirs = (_read(ancestor_file), _read(current_file) or b"",
                              _read(other_file) or b"")
    if isinstance(ancestor, _TooLarge):
        ancestor = None  # as if both sides added the file
    if isinstance(ours, _TooLarge) or isinstance(theirs, _TooLarge):
        big = [(side, value) for side, value in (("ours", ours), ("theirs", theirs))
               if isinstance(value, _TooLarge)]
        reason = "; ".join(f"{side} is {value.size} bytes, larger than the "
                           f"{MAX_FILE_BYTES // (1024 * 1024)} MiB a vault file may be: "
                           "not merged" for side, value in big)
        ours_text = ours.placeholder("ours") if isinstance(ours, _TooLarge) else ours
        theirs_text = theirs.placeholder("theirs") if isinstance(theirs, _TooLarge) else theirs
        outcome = conflict_outcome(None, ours_text, theirs_text, path, reason, kind_of(path))
    else:
        try:
            outcome = merge(ancestor, ours, theirs, path)
        except Exception as exc:  # never leave git a half-merged file: markers, and a failure
            outcome = conflict_outcome(ancestor, ours, theirs, path, f"merge driver failed: {exc}",
                                kind_of(path))
    with open(current_file, "wb") as fh:
        fh.write(outcome.data)
    if log_file:
        _log(log_file, outcome.as_dict(path))
    if not outcome.clean:
        print(f"memvault merge-driver: {neutralise_line(path)}: {neutralise_line(outcome.reason)}; "
              "conflict markers left", file=sys.stderr)
    return 0 if outcome.clean else 1


def main(argv: list[str] | None = None) -> int:
    """The ``memvault-merge-driver`` program git runs: ``memvault-merge-driver O A B P`` (git's
    %O %A %B %P). Every argument is a file name, never an option. Exit 0 when it merged, 1 when
    it left conflict markers, 2 on a wrong call."""
    args = sys.argv[1:] if argv is None else list(argv)
    if len(args) != 4:
        print(f"usage: {PROGRAM} ANCESTOR CURRENT OTHER PATH (git's %O %A %B %P): merges two "
              "versions of one memvault file, the result into CURRENT", file=sys.stderr)
        return 2
    return run(*args)


def _read(name: str) -> bytes | _TooLarge | None:
    """A side, or None when git gave none (no ancestor), or _TooLarge: never read past the
    limit of a vault file."""
    try:
        with open(name, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            if size > MAX_FILE_BYTES:
                return _TooLarge(size)
            data = fh.read(MAX_FILE_BYTES + 1)
    except (FileNotFoundError, IsADirectoryError):
        return None
    return _TooLarge(len(data)) if len(data) > MAX_FILE_BYTES else data


def _log(log_file: str, record: dict[str, Any]) -> None:
    line = (json.dumps(record, ensure_ascii=False) + "\n").encode()
    try:
        fd = os.open(log_file, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, line)
        finally:
            os.close(fd)
    except OSError:
        pass


def read_log(log_file: Path) -> list[dict[str, Any]]:
    """The driver's decisions appended to ``log_file`` (by :func:`run`), in order."""
    try:
        text = log_file.read_text("utf-8")
    except FileNotFoundError:
        return []
    found = []
    for line in text.splitlines():
        try:
            found.append(json.loads(line))
        except ValueError:
            continue
    return found
