"""Running git for the journal: every git command goes through :meth:`GitCommands.run`; many
paths go on stdin (:meth:`GitCommands.with_paths`), never as a long argument list. Also what
every part of the journal asks git about the repository: HEAD, config, the object format, the
identity commits are made with, and the long-lived object reader and writers."""

from __future__ import annotations

import contextlib
import functools
import os
import subprocess
import tempfile
from collections.abc import Iterator
from typing import IO, Any, cast

from ..errors import JournalError
from ..store.files import remove_file
from .gitdir import ZERO_OID as ZERO_OID, read_head
from .lock import DEFAULT_LOCK_TIMEOUT as DEFAULT_LOCK_TIMEOUT, WriteLock
from .objects import ObjectWriter
from .repository import Repository
from .runner import GitPythonRunner, GitRunner

FALLBACK_NAME = "memvault"
FALLBACK_EMAIL = "memvault@localhost"
ARGV_PATH_LIMIT = 200  # above this many paths, pass them on stdin rather than argv
#: The git settings a write reads, read together (:attr:`GitCommands.write_settings`).
WRITE_SETTINGS = (r"^(core\.(filemode|symlinks|compression|loosecompression|splitindex)"
                  r"|user\.(name|email))$")


class GitCommands:
    """Running git in one repository: commands, stdin, path lists, identity, the private index.
    While ``lock`` is held git runs through GitPython's ``repo.git``, otherwise through
    :class:`~.runner.GitRunner` (see :meth:`runner`)."""

    def __init__(self, repository: Repository, lock: WriteLock, *, read_only: bool = False):
        self.repository = repository
        self.lock = lock
        #: A read-only vault's journal: git runs with optional locks off (``git status``
        #: refreshes no stat data in git's index), so reading writes nothing under ``.git``.
        self.read_only = read_only
        self._own_runner: GitRunner | None = None
        self._identity_env: dict[str, str] | None = None

    def runner(self) -> GitRunner | GitPythonRunner:
        """The one place that decides how git runs. While this journal holds the write lock
        (a commit, recovery, sync, purge: every write), through GitPython's ``repo.git``;
        otherwise memvault only reads (opening a vault, status, history, show), and git runs
        through :class:`~.runner.GitRunner`, the same way without importing GitPython."""
        if self.lock.held:
            return GitPythonRunner(self.repository.gitpython)
        if self._own_runner is None:
            self._own_runner = GitRunner(self.repository.location, write_nothing=self.read_only)
        return self._own_runner

    def run(self, *args: str, env: dict[str, str] | None = None, istream: IO[bytes] | None = None,
            check: bool = True, binary: bool = False, strip: bool = True
            ) -> tuple[int, Any, str]:
        """Run ``git <args>``: (status, stdout, stderr); stdout is text, or bytes when
        ``binary``. ``check``: JournalError on a non-zero status, with git's message."""
        status, out, err = self.runner().run(list(args), env=env, istream=istream,
                                             binary=binary, strip=strip)
        if check and status != 0:
            raise JournalError(f"git {args[0]} failed: {err.strip() or f'exit code {status}'}")
        return status, out, err

    def output(self, *args: str, env: dict[str, str] | None = None,
             istream: IO[bytes] | None = None, strip: bool = True) -> str:
        """The output of ``git <args>`` as text; JournalError when git fails."""
        out: str = self.run(*args, env=env, istream=istream, strip=strip)[1]
        return out

    def output_bytes(self, *args: str, istream: IO[bytes] | None = None) -> bytes:
        """The output of ``git <args>`` as bytes, as git wrote it; JournalError when git fails."""
        out: bytes = self.run(*args, istream=istream, binary=True, strip=False)[1]
        return out

    def try_run(self, *args: str, env: dict[str, str] | None = None,
               istream: IO[bytes] | None = None) -> tuple[int, str, str]:
        """Run git and return (status, stdout, stderr) instead of raising on a non-zero status."""
        return self.run(*args, env=env, istream=istream, check=False)

    def start(self, *args: str, istream: IO[bytes] | None = None) -> Any:
        """Start ``git <args>`` in the background (the same choice of runner as :meth:`run`;
        ``istream``: its standard input, else nothing); :func:`finish` reads its output."""
        return self.runner().start(list(args), istream=istream)

    @contextlib.contextmanager
    def stdin(self, data: bytes) -> Iterator[IO[bytes]]:
        """An unnamed file (mode 0600, in the git directory) holding ``data``, for git's stdin."""
        with tempfile.TemporaryFile(dir=self.repository.state_dir) as fh:
            fh.write(data)
            fh.flush()
            fh.seek(0)
            yield fh

    def with_paths(self, args: list[str], rels: list[str], env: dict[str, str] | None = None
                   ) -> str:
        """``git <args>`` for the repository paths ``rels``: as arguments when they are few, on
        stdin (``-z --stdin``) when they are many."""
        if len(rels) <= ARGV_PATH_LIMIT:
            return self.output(*args, "--", *rels, env=env)
        with self.stdin("\0".join(rels).encode("utf-8", "surrogateescape") + b"\0") as fh:
            return self.output(*args, "-z", "--stdin", env=env, istream=fh)

    # -- the private index ------------------------------------------------------------------
    def private_env(self) -> dict[str, str]:
        return {"GIT_INDEX_FILE": str(self.repository.state_dir / "index")}

    def forget_private_index(self) -> None:
        """Make the next commit read the private index afresh from its base commit. Raises
        when the marker cannot be removed (then nothing may be staged on that index)."""
        remove_file(self.repository.state_dir / "index.head")

    # -- what git says about the repository --------------------------------------------------
    def identity(self) -> dict[str, str]:
        """Author/committer for commits: the person's git identity when git knows one, else a
        memvault identity passed in the environment (their git config is never changed)."""
        if self._identity_env is None:
            env: dict[str, str] = {}
            for key, var in (("user.name", "NAME"), ("user.email", "EMAIL")):
                if os.environ.get(f"GIT_AUTHOR_{var}") and os.environ.get(f"GIT_COMMITTER_{var}"):
                    continue
                if not self.write_settings.get(key, "").strip():
                    fallback = FALLBACK_NAME if var == "NAME" else FALLBACK_EMAIL
                    env[f"GIT_AUTHOR_{var}"] = os.environ.get(f"GIT_AUTHOR_{var}", fallback)
                    env[f"GIT_COMMITTER_{var}"] = os.environ.get(f"GIT_COMMITTER_{var}", fallback)
            self._identity_env = env
        return self._identity_env

    def head(self) -> str | None:
        """The commit HEAD points at, or None on an unborn branch. Reads the ref files directly
        when it can (no process), else asks ``git rev-parse``."""
        repository = self.repository
        with contextlib.suppress(OSError):
            found = read_head(repository.git_dir, repository.common_dir)
            if found is not None:
                return found
        try:
            return self.output("rev-parse", "--verify", "-q", "HEAD")
        except JournalError:
            return None

    def config_get(self, key: str) -> str | None:
        status, out, _ = self.try_run("config", "--local", "--get", key)
        return out if status == 0 else None

    @functools.cached_property
    def object_format(self) -> str:
        head = self.head()
        if head is not None:
            return "sha256" if len(head) == 64 else "sha1"
        return self.config_get("extensions.objectformat") or "sha1"

    @functools.cached_property
    def write_settings(self) -> dict[str, str]:
        """The settings of git's a write reads (:data:`WRITE_SETTINGS`: the modes, the
        compression, the identity, ``core.splitIndex``), as git reads them (any scope; the
        last value of a key), all in one process the first time one is asked for: a first
        commit ran five ``git config``. A key set without a value (``[core] symlinks``) is
        ``""``; an unset one is left out."""
        status, out, _ = self.run("config", "-z", "--get-regexp", WRITE_SETTINGS, check=False,
                                  strip=False)
        found: dict[str, str] = {}
        for item in (out.split("\0") if status == 0 else []):
            if item:
                key, _, value = item.partition("\n")
                found[key.lower()] = value
        return found

    @functools.cached_property
    def file_modes(self) -> dict[str, bool]:
        """``core.fileMode`` and ``core.symlinks`` as git reads them: whether git takes a
        file's executable bit, and symbolic links, for modes."""
        found = {"core.filemode": True, "core.symlinks": True}
        for key in found:
            if key in self.write_settings:
                found[key] = self.write_settings[key].strip().lower() not in (
                    "false", "no", "off", "0")
        return found

    @property
    def trust_executable_bit(self) -> bool:
        return self.file_modes["core.filemode"]

    @property
    def has_symlinks(self) -> bool:
        return self.file_modes["core.symlinks"]

    # -- the long-lived processes of a write -----------------------------------------------
    @functools.cached_property
    def object_writer(self) -> ObjectWriter:
        """Long-lived ``hash-object`` processes for the objects of a commit (:mod:`.objects`),
        started through GitPython's ``repo.git`` on first use."""
        return ObjectWriter(self._start_piped, self._object_options,
                            lambda: self.repository.state_dir)

    def _object_options(self, kind: str) -> list[str]:
        """Trees are stored uncompressed (``core.looseCompression=0``) unless the person set a
        compression level (``core.looseCompression`` or ``core.compression``, git then follows
        theirs): a tree's entries are mostly object ids, which do not compress (the 0.7 MB
        ``memories/`` tree of a flat vault of 10,000 memories: 0.49 MB at git's default level
        1, written 3-6 times slower than stored). Every git reads either; ``git gc`` packs
        them compressed as always. Blobs keep git's default."""
        if kind != "tree":
            return []
        if any(self.write_settings.get(key, "").strip()
               for key in ("core.compression", "core.loosecompression")):
            return []
        return ["-c", "core.looseCompression=0"]

    def _start_piped(self, args: list[str]) -> Any:
        import git

        try:
            return self.repository.gitpython.git.execute(["git", *args], as_process=True,
                                                         istream=subprocess.PIPE)
        except (git.GitCommandError, git.GitCommandNotFound, OSError) as exc:
            raise JournalError(f"git {args[0]} could not be started: {exc}") from None

    def read_object(self, oid: str) -> tuple[bytes, bytes]:
        """(type, content) of one object, through GitPython's persistent ``cat-file --batch``
        (started on first use, kept for the next commits); JournalError when it cannot be
        read, and the process is stopped (the next read starts a new one)."""
        import git

        cmd = self.repository.gitpython.git
        try:
            # (GitPython's stubs say the type is text; it hands the bytes of git's header)
            _, kind, _, data = cast(tuple[str, bytes, int, bytes], cmd.get_object_data(oid))
        except (git.GitCommandError, ValueError, OSError) as exc:
            cmd.clear_cache()
            raise JournalError(f"git cat-file could not read {oid}: "
                               f"{one_line(str(exc)) or type(exc).__name__}") from None
        return kind, data

    def stop_processes(self) -> None:
        """Stop the long-lived git processes (object writers, GitPython's ``cat-file``)."""
        if "object_writer" in self.__dict__:
            self.object_writer.stop()
        opened = self.repository.gitpython_opened
        if opened is not None:
            opened.git.clear_cache()


def finish(started: Any) -> bytes:
    """All the output of a command :meth:`GitCommands.start` started, once it has ended."""
    proc = getattr(started, "proc", started)  # GitPython's handle holds the Popen as ``proc``
    out: bytes = proc.communicate()[0]  # (its pipes closed: none left to the collector)
    return out


def abandon(started: Any) -> None:
    """End a command :meth:`GitCommands.start` started whose output is not wanted (the caller
    failed before reading it): stopped, waited for, its pipes closed."""
    proc = getattr(started, "proc", started)
    if proc.stdout is not None and proc.stdout.closed:
        return  # (read already: :func:`finish`)
    if proc.returncode is None:
        with contextlib.suppress(OSError):
            proc.kill()
    with contextlib.suppress(OSError, ValueError):
        proc.communicate()


def one_line(text: str) -> str:
    return " ".join((text or "").split())[:500]


def reason(exc: BaseException | None) -> str:
    if isinstance(exc, OSError):
        return f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else "")
    return str(exc) or type(exc).__name__
