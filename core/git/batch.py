"""A history built in one go: the commits of a new vault's build (``memvault demo``) sent to ONE
long-lived ``git fast-import`` instead of three git processes a commit.

A :class:`~.commit.Committer` runs ``commit-tree``, ``update-ref`` and ``update-index`` for each
commit (and flushes each file to disk), which is what a vault that people and assistants write
to one operation at a time needs. A build that replays half a year of history into a new folder
(94 commits) spent most of its time there: 300 git processes and 685 flushes. Inside
:meth:`core.git.journal.Journal.batch` each commit is one block of the fast-import stream
instead: the files are written to the work tree as always (atomically, mode 0600, not flushed
one by one), the commit's id is read back at once (``get-mark``), and the branch moves once,
when the batch ends; git's own index then takes HEAD's entries (``read-tree``) and the files'
stat data (``update-index --refresh``).

What the batch promises is less than a commit's, and it is only for a vault being built: the
write lock is held from start to end (no other writer interleaves); nothing reads history
meanwhile (git cannot see the commits until the batch ends); a process killed half-way leaves
the branch where it was and the files on disk, which the next open commits as ``external:``
(nothing is lost, the history is shorter). Every change is still one commit, with its own
message, trailers and date (``GIT_AUTHOR_DATE``/``GIT_COMMITTER_DATE`` in git's raw format,
``<epoch> <+zone>``, as the demo sets them; any other value: now).
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import IO, Any, cast

from ..errors import JournalError
from ..store.checked_replace import replace_checked
from ..textutil import neutralise_line
from .entries import commit_message
from .intent import ABSENT, read_state
from .plumbing import FALLBACK_EMAIL, FALLBACK_NAME, GitCommands, abandon
from .repository import Repository

_RAW_DATE = re.compile(r"^\d+ [+-]\d{4}$")


class FastImportBatch:
    """The commits of one batch, each a block of one ``git fast-import`` stream (see the module
    docstring). ``head``: the commit the branch will point at when the batch ends. The caller
    holds the write lock from :meth:`start` to :meth:`finish` (or :meth:`abandon`)."""

    def __init__(self, repository: Repository, commands: GitCommands):
        self.repository = repository
        self.commands = commands
        self.head: str | None = None
        #: the stat key of each file the last commit wrote (as :attr:`.commit.Committer.written`)
        self.written: dict[Path, tuple[int, int, int]] = {}
        self.commits = 0
        self._process: Any = None
        self._branch = ""

    def start(self) -> None:
        """Start ``git fast-import`` on HEAD's branch (HEAD must be on a branch)."""
        head_file = (self.repository.git_dir / "HEAD").read_text().strip()
        if not head_file.startswith("ref: refs/heads/"):
            raise JournalError("a batch of commits needs HEAD on a branch (it is detached)")
        self._branch = head_file[5:]
        self.head = self.commands.head()
        self._process = self.commands.start("fast-import", "--quiet", "--done",
                                            "--date-format=raw",
                                            istream=cast(IO[bytes], subprocess.PIPE))

    @property
    def _proc(self) -> subprocess.Popen[bytes]:
        proc: subprocess.Popen[bytes] = getattr(self._process, "proc", self._process)
        return proc

    def commit(self, message: str, writes: Mapping[Path, bytes | None] | None = None,
               adopt: Iterable[Path] = (), *, via: str | None = None,
               tool: str | None = None) -> str | None:
        """Write (bytes) or remove (None) each path of ``writes``, take the ``adopt`` paths as
        they are in the work tree, and record all of it as one commit of the batch; its id, or
        the current head when nothing would change (no empty commit)."""
        message = commit_message(message, via, tool)
        writes = dict(writes or {})
        adopted = [p for p in adopt if p not in writes]
        previous = {path: read_state(path) for path in writes}
        if not adopted and all(previous[p] == (("file", d) if d is not None else (ABSENT, None))
                               for p, d in writes.items()):
            return self.head
        self.written = {}
        lines = []
        for path, data in writes.items():
            key = replace_checked(path, data, previous[path], durable=False)
            if key is not None:
                self.written[path] = key
            lines.append(self._change(path, data))
        for path in adopted:
            kind, data = read_state(path)
            lines.append(self._change(path, data if kind == "file" else None))
        self.commits += 1
        mark = self.commits
        author = self._person("AUTHOR")
        committer = self._person("COMMITTER")
        body = message if message.endswith("\n") else message + "\n"
        block = [f"commit {self._branch}\nmark :{mark}\n".encode(),
                 f"author {author}\ncommitter {committer}\n".encode(),
                 _data(body.encode("utf-8", "surrogateescape"))]
        parent = f":{mark - 1}" if mark > 1 else self.head  # (git knows the batch's by mark)
        if parent is not None:
            block.append(f"from {parent}\n".encode())
        block += lines
        block.append(f"\nget-mark :{mark}\n".encode())
        self.head = self._send(b"".join(block))
        return self.head

    def _change(self, path: Path, data: bytes | None) -> bytes:
        rel = self.repository.relpath(path)
        if '"' in rel or "\n" in rel or rel.startswith(" "):
            raise JournalError(f"a batch cannot commit the path {rel!r}")
        if data is None:
            return f"D {rel}\n".encode()
        return f"M 100644 inline {rel}\n".encode() + _data(data)

    def _person(self, role: str) -> str:
        """``Name <email> <epoch> <zone>`` for the author or the committer, as a commit made by
        the journal would have it (the identity of :meth:`.plumbing.GitCommands.identity`)."""
        env = {**self.commands.identity(), **{k: v for k, v in os.environ.items()
                                              if k.startswith(f"GIT_{role}_")}}
        settings = self.commands.write_settings
        name = env.get(f"GIT_{role}_NAME") or settings.get("user.name") or FALLBACK_NAME
        email = env.get(f"GIT_{role}_EMAIL") or settings.get("user.email") or FALLBACK_EMAIL
        date = os.environ.get(f"GIT_{role}_DATE", "").strip()
        if not _RAW_DATE.match(date):
            date = f"{int(time.time())} +0000"
        name, email = (neutralise_line(v).replace("<", "").replace(">", "") for v in (name, email))
        return f"{name} <{email}> {date}"

    def _send(self, block: bytes) -> str:
        proc = self._proc
        try:
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(block)
            proc.stdin.flush()
            oid = proc.stdout.readline().decode().strip()
        except (OSError, ValueError) as exc:
            raise JournalError(f"git fast-import stopped: {exc}") from None
        if not re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", oid):
            err = proc.stderr.read().decode(errors="replace").strip() if proc.stderr else ""
            raise JournalError(f"git fast-import stopped (exit code {proc.poll()}): {err}")
        return oid

    def finish(self) -> None:
        """End the stream: git writes the pack and moves the branch to :attr:`head`; git's own
        index then takes HEAD's entries and the files' stat data."""
        proc = self._proc
        try:
            assert proc.stdin is not None
            proc.stdin.write(b"done\n")
            proc.stdin.flush()
            _out, err = proc.communicate()  # (closes its stdin: the end of the stream)
        except (OSError, ValueError) as exc:
            raise JournalError(f"git fast-import stopped: {exc}") from None
        if proc.returncode != 0:
            raise JournalError(f"git fast-import failed: {(err or b'').decode(errors='replace')}")
        if self.commits:
            self.commands.output("read-tree", "HEAD")
            self.commands.try_run("update-index", "-q", "--refresh")

    def abandon(self) -> None:
        """Stop ``git fast-import`` without moving the branch (the files stay on disk)."""
        abandon(self._process)


def _data(data: bytes) -> bytes:
    return f"data {len(data)}\n".encode() + data + b"\n"
