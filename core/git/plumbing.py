"""Running git for the journal: every git command goes through :meth:`Plumbing._git`; many paths
go on stdin (:meth:`Plumbing._with_paths`), never as a long argument list."""

from __future__ import annotations

import contextlib
import functools
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import JournalError
from ..store.layout import remove_file

from .runner import GitPythonRunner, GitRunner

FALLBACK_NAME = "memvault"
FALLBACK_EMAIL = "memvault@localhost"
DEFAULT_LOCK_TIMEOUT = 30.0
ARGV_PATH_LIMIT = 200  # above this many paths, pass them on stdin rather than argv
PRIVATE_MODE = "0600"  # core.sharedRepository of a private vault: git makes files 0600, dirs 0700
ZERO_OID = "0" * 40


class Plumbing:
    """Running git for one journal: commands, stdin, path lists, identity, the private index."""

    @functools.cached_property
    def _rel_root(self) -> str:
        return os.path.relpath(self.root, self.worktree).replace(os.sep, "/")

    def relpath(self, path: Path) -> str:
        """A vault path as git sees it: relative to the work tree, with forward slashes."""
        text, root = str(path), str(self.root)
        if text == root:
            return self._rel_root
        if text.startswith(root + os.sep):
            tail = text[len(root) + 1:].replace(os.sep, "/")
            return tail if self._rel_root == "." else f"{self._rel_root}/{tail}"
        absolute = Path(path) if Path(path).is_absolute() else self.root / path
        return os.path.relpath(absolute.resolve(), self.worktree).replace(os.sep, "/")

    def _runner(self) -> GitRunner | GitPythonRunner:
        """The one place that decides how git runs. While this journal holds the write lock
        (a commit, recovery, sync, purge: every write), through GitPython's ``repo.git``;
        otherwise memvault only reads (opening a vault, status, history, show), and git runs
        through :class:`~.runner.GitRunner`, the same way without importing GitPython."""
        if self.locked:
            return GitPythonRunner(self.repo)
        if self._own_runner is None:
            self._own_runner = GitRunner(self.location, write_nothing=self.read_only)
        return self._own_runner

    def _run(self, *args: str, env: dict[str, str] | None = None, istream: Any = None,
             check: bool = True, stdout_as_string: bool = True,
             strip_newline_in_stdout: bool = True) -> tuple[int, Any, str]:
        """Run ``git <args>``: (status, stdout, stderr). ``check``: JournalError on a non-zero
        status, with git's message."""
        status, out, err = self._runner().run(list(args), env=env, istream=istream,
                                              binary=not stdout_as_string,
                                              strip=strip_newline_in_stdout)
        if check and status != 0:
            raise JournalError(f"git {args[0]} failed: {err.strip() or f'exit code {status}'}")
        return status, out, err

    def _git(self, *args: str, env: dict[str, str] | None = None, istream: Any = None,
             stdout_as_string: bool = True, strip_newline_in_stdout: bool = True) -> Any:
        """The output of ``git <args>`` (text, or bytes when not ``stdout_as_string``);
        JournalError when git fails."""
        return self._run(*args, env=env, istream=istream, stdout_as_string=stdout_as_string,
                         strip_newline_in_stdout=strip_newline_in_stdout)[1]

    def _start(self, *args: str) -> Any:
        """Start ``git <args>`` in the background (the same choice of runner as :meth:`_run`);
        :func:`finish` reads its output."""
        return self._runner().start(list(args))

    @contextlib.contextmanager
    def _stdin(self, data: bytes) -> Iterator[Any]:
        """An unnamed file (mode 0600, in the git directory) holding ``data``, for git's stdin."""
        with tempfile.TemporaryFile(dir=self.state_dir) as fh:
            fh.write(data)
            fh.flush()
            fh.seek(0)
            yield fh

    def _with_paths(self, args: list[str], rels: list[str], env: dict[str, str] | None = None) -> str:
        if len(rels) <= ARGV_PATH_LIMIT:
            return self._git(*args, "--", *rels, env=env)
        with self._stdin("\0".join(rels).encode("utf-8", "surrogateescape") + b"\0") as fh:
            return self._git(*args, "-z", "--stdin", env=env, istream=fh)

    def _private_env(self) -> dict[str, str]:
        return {"GIT_INDEX_FILE": str(self.state_dir / "index")}

    def _forget_private_index(self) -> None:
        """Make the next commit read the private index afresh from its base commit. Raises
        when the marker cannot be removed (then nothing may be staged on that index)."""
        remove_file(self.state_dir / "index.head")

    def _identity(self) -> dict[str, str]:
        """Author/committer for commits: the person's git identity when git knows one, else a
        memvault identity passed in the environment (their git config is never changed)."""
        if self._identity_env is None:
            env: dict[str, str] = {}
            for key, var in (("user.name", "NAME"), ("user.email", "EMAIL")):
                if os.environ.get(f"GIT_AUTHOR_{var}") and os.environ.get(f"GIT_COMMITTER_{var}"):
                    continue
                try:
                    value = self._git("config", "--get", key)
                except JournalError:
                    value = ""
                if not value:
                    fallback = FALLBACK_NAME if var == "NAME" else FALLBACK_EMAIL
                    env[f"GIT_AUTHOR_{var}"] = os.environ.get(f"GIT_AUTHOR_{var}", fallback)
                    env[f"GIT_COMMITTER_{var}"] = os.environ.get(f"GIT_COMMITTER_{var}", fallback)
            self._identity_env = env
        return self._identity_env



def finish(started: Any) -> bytes:
    """All the output of a command :meth:`Plumbing._start` started, once it has ended."""
    proc = getattr(started, "proc", started)  # GitPython's handle holds the Popen as ``proc``
    out = proc.stdout.read()
    proc.wait()
    return out


def one_line(text: str) -> str:
    return " ".join((text or "").split())[:500]


def reason(exc: BaseException | None) -> str:
    if isinstance(exc, OSError):
        return f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else "")
    return str(exc) or type(exc).__name__
