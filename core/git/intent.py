"""Intent records: what an unfinished write was doing, so a crash (or a failed rollback) can be
finished later without ever deleting a person's edits.

One record per operation, ``{git dir}/memvault/intents/{time}-{pid}-{random}.json``, written
(atomically) before any vault file is touched and removed once the operation is committed or
fully put back. A record names every path the operation writes with the state the path had
before and the state the operation gives it, each as a :func:`state_id`:

    "absent"            no file
    "file:<blob id>"    a regular file with those bytes (the git blob id of its content)
    "link:<blob id>"    a symbolic link (the blob id of its target text, as git stores it)

Putting a path back (:func:`rollback_rule`) is decided by what is on disk now: the operation's
own result is replaced by the earlier state; the earlier state is left alone; anything else was
written by someone else after the operation (a person's edit after a crash) and is KEPT, and
said so. Paths the operation only adopted (a person's outside edits being committed) are never
touched by a rollback. Every earlier state is restorable from git's object database: it is in
the commit the operation started from, or its bytes were stored as a blob before the operation
began (see ``Journal.commit``).
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..store.checked_replace import ABSENT as ABSENT
from ..store.checked_replace import file_state
from ..store.files import write_atomic

OTHER = "other"  # a directory, a fifo...: never the operation's own result
RECORD_VERSION = 2
#: what is at a path, never through a link: ("absent", None), ("file", bytes), ("link", target
#: bytes) or ("other", None); the state a checked write compares with
read_state = file_state


def blob_id(data: bytes, object_format: str = "sha1") -> str:
    """The git object id of a blob holding ``data`` (no git process)."""
    digest = hashlib.sha256 if object_format == "sha256" else hashlib.sha1
    return digest(b"blob %d\0" % len(data) + data).hexdigest()


def state_id(kind: str, data: bytes | None, object_format: str = "sha1") -> str:
    if kind in (ABSENT, OTHER):
        return kind
    return f"{kind}:{blob_id(data or b'', object_format)}"


@dataclass
class PathIntent:
    """One path an operation writes (repository-relative), before and after."""

    path: str
    before: str
    after: str


@dataclass
class Intent:
    """A record on disk for one unfinished operation."""

    file: Path
    kind: str  # "commit" or "sync"
    pre_head: str | None
    message: str
    writes: list[PathIntent] = field(default_factory=list)
    adopt: list[str] = field(default_factory=list)
    pid: int = 0
    time: float = 0.0
    legacy: bool = False  # a version-1 record: paths only, no states
    target: str | None = None  # the commit HEAD moves to, when known in advance (a sync)

    @property
    def paths(self) -> list[str]:
        return [w.path for w in self.writes] + self.adopt

    def as_json(self) -> dict[str, Any]:
        return {
            "version": RECORD_VERSION, "kind": self.kind, "pre_head": self.pre_head,
            "message": self.message, "pid": self.pid, "time": self.time,
            "writes": [[w.path, w.before, w.after] for w in self.writes],
            "adopt": self.adopt, "target": self.target,
        }


class IntentLog:
    """The folder of intent records of one repository."""

    def __init__(self, state_dir: Path):
        self.folder = state_dir / "intents"
        self.legacy_file = state_dir / "intent.json"  # memvault before per-operation records

    def begin(self, kind: str, pre_head: str | None, message: str, writes: list[PathIntent],
              adopt: list[str], target: str | None = None) -> Intent:
        """Write a new record (atomically, mode 0600); raises OSError when it cannot."""
        self.folder.mkdir(mode=0o700, exist_ok=True)
        now = time.time()
        name = f"{time.time_ns():020d}-{os.getpid()}-{secrets.token_hex(4)}.json"
        intent = Intent(self.folder / name, kind, pre_head, message, writes, adopt,
                        os.getpid(), now, target=target)
        write_atomic(intent.file, json.dumps(intent.as_json(), indent=1).encode())
        return intent

    def finish(self, intent: Intent) -> None:
        try:
            os.unlink(intent.file)
        except FileNotFoundError:
            pass

    def pending(self) -> list[Path]:
        """Records left by operations that did not finish, oldest first."""
        found = []
        try:
            found = sorted(self.folder / n for n in os.listdir(self.folder)
                           if n.endswith(".json") and not n.startswith("."))
        except (FileNotFoundError, NotADirectoryError):
            pass
        if os.path.lexists(self.legacy_file):
            found.insert(0, self.legacy_file)
        return found

    @staticmethod
    def read(path: Path) -> Intent:
        """A record from disk; ValueError when it cannot be read as one."""
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise ValueError("the record is a symbolic link") from None
            raise
        with os.fdopen(fd, "rb") as fh:
            data = json.loads(fh.read())
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        if data.get("version") == RECORD_VERSION:
            writes = [PathIntent(*map(str, w)) for w in data.get("writes", [])]
            adopt = [str(p) for p in data.get("adopt", [])]
            legacy = False
        else:  # version 1: {"pre_head", "paths", "message", ...}; written and adopted alike
            writes = [PathIntent(str(p), "", "") for p in data.get("paths", [])]
            adopt, legacy = [], True
        return Intent(path, str(data.get("kind", "commit")), data.get("pre_head"),
                      str(data.get("message", "")), writes, adopt, int(data.get("pid") or 0),
                      float(data.get("time") or 0), legacy, data.get("target"))


def rollback_rule(entry: PathIntent, current: str) -> str:
    """What to do with one written path, given the state on disk now: "restore" (it holds the
    operation's result: writes are atomic, so a path holds either state), "keep" (it already holds the earlier
    state) or "foreign" (someone else wrote it since: leave it and say so)."""
    if current == entry.before:
        return "keep"
    if current == entry.after:
        return "restore"
    return "foreign"
