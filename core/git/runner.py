"""Finding a vault's repository and running git without importing GitPython.

Opening a vault and the read-only verbs only read git (HEAD, ``status``, ``diff``, ``ls-tree``,
``config --get``, ``log``); importing GitPython for that costs more than everything else they do
with git. :func:`locate` asks git itself where the repository is (git dir, common dir, work
tree, bare or not): it follows a ``.git`` file (a linked work tree, a submodule), a vault folder
deep inside a repository, ``core.worktree``, as every later git command will. :class:`GitRunner`
runs one command the way GitPython's ``repo.git`` does (same working folder, same environment,
same output handling); :class:`GitPythonRunner` is the same interface over ``repo.git``.
Which one runs a command is decided in one place, :meth:`core.git.plumbing.Plumbing._runner`.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ..errors import JournalError

#: Result of one command: (exit status, standard output, standard error without its last "\n").
Result = tuple[int, "str | bytes", str]


@dataclass(frozen=True)
class Location:
    """Where a repository is, as git sees it from a folder inside it."""

    git_dir: Path  # the folder of HEAD and the index (``.git/worktrees/<name>`` in a linked work tree)
    common_dir: Path  # objects, refs and config (the main ``.git``)
    worktree: Path | None  # None: a bare repository, or a folder inside a git directory
    bare: bool


def locate(start: Path) -> Location | None:
    """The repository holding the folder ``start`` (None: there is none), found by
    ``git rev-parse`` run in ``start``. ``GIT_DIR`` in the environment is not used for finding
    it, as GitPython does when given a path: the vault's folder names its repository.
    JournalError when git finds one but cannot use it (a repository owned by another user...)."""
    env = git_environment()
    env.pop("GIT_DIR", None)
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--is-bare-repository", "--is-inside-work-tree",
             "--absolute-git-dir", "--git-common-dir", "--show-toplevel"],
            cwd=start, env=env, stdin=subprocess.DEVNULL, capture_output=True)
    except OSError as exc:
        raise not_started(exc) from None
    lines = done.stdout.decode("utf-8", "surrogateescape").splitlines()
    if len(lines) < 4:
        err = _text(done.stderr)
        if "not a git repository (or any" in err:  # none here nor above (git's words, LC_ALL=C)
            return None
        raise JournalError(f"git rev-parse failed in {start}: {err or f'exit code {done.returncode}'}")
    bare, inside_worktree = lines[0] == "true", lines[1] == "true"
    git_dir = Path(lines[2]).resolve()
    common_dir = (start / lines[3]).resolve()  # relative to ``start`` unless absolute
    worktree = Path(lines[4]).resolve() if inside_worktree and len(lines) > 4 else None
    return Location(git_dir, common_dir, worktree, bare)


def git_environment(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment git runs in: this process's, with git's messages in English (they are
    parsed), as GitPython sets it."""
    env = os.environ.copy()
    env["LANGUAGE"] = "C"
    env["LC_ALL"] = "C"
    if extra:
        env.update(extra)
    return env


class GitRunner:
    """Runs git in one repository's work tree as GitPython's ``repo.git`` does, without it: the
    same environment (``GIT_DIR``/``GIT_COMMON_DIR`` pinned to the repository found when the
    environment sets them, ``GIT_OBJECT_DIRECTORY`` made absolute), standard input from a file
    or nothing, output decoded as UTF-8 with the undecodable bytes kept (``surrogateescape``)."""

    def __init__(self, location: Location, *, write_nothing: bool = False):
        self.location = location
        self.cwd = location.worktree or location.common_dir
        self.pinned: dict[str, str] = {}
        if write_nothing:  # a read-only vault: not even the stat refresh ``git status`` writes
            self.pinned["GIT_OPTIONAL_LOCKS"] = "0"
        if os.environ.get("GIT_COMMON_DIR") is not None:
            self.pinned.update(GIT_DIR=str(location.git_dir), GIT_COMMON_DIR=str(location.common_dir))
        elif os.environ.get("GIT_DIR") is not None:
            self.pinned["GIT_DIR"] = str(location.git_dir)
        objects = os.environ.get("GIT_OBJECT_DIRECTORY")
        if objects is not None:
            self.pinned["GIT_OBJECT_DIRECTORY"] = os.path.abspath(objects)

    def _env(self, env: dict[str, str] | None) -> dict[str, str]:
        return git_environment({**self.pinned, **(env or {})})

    def run(self, args: list[str], *, env: dict[str, str] | None = None,
            istream: IO[bytes] | None = None, binary: bool = False, strip: bool = True) -> Result:
        """Run ``git <args>`` to its end: (status, stdout, stderr). ``binary``: stdout as bytes;
        ``strip``: without its one trailing newline."""
        try:
            done = subprocess.run(["git", *args], cwd=self.cwd, env=self._env(env),
                                  stdin=istream if istream is not None else subprocess.DEVNULL,
                                  capture_output=True)
        except OSError as exc:
            raise not_started(exc) from None
        raw: bytes = done.stdout
        if strip and raw.endswith(b"\n"):
            raw = raw[:-1]
        out: str | bytes = raw if binary else raw.decode("utf-8", "surrogateescape")
        return done.returncode, out, _text(done.stderr)

    def start(self, args: list[str], istream: IO[bytes] | None = None
              ) -> subprocess.Popen[bytes]:
        """Start ``git <args>`` in the background (``istream``: its standard input, else
        nothing); read its ``stdout``, then ``wait()``."""
        try:
            return subprocess.Popen(["git", *args], cwd=self.cwd, env=self._env(None),
                                    stdin=istream if istream is not None else subprocess.DEVNULL,
                                    stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL)
        except OSError as exc:
            raise not_started(exc) from None


class GitPythonRunner:
    """The :class:`GitRunner` interface over GitPython's ``repo.git`` (the commands of a write)."""

    def __init__(self, repo: Any):
        self.git = repo.git

    def run(self, args: list[str], *, env: dict[str, str] | None = None,
            istream: IO[bytes] | None = None, binary: bool = False, strip: bool = True) -> Result:
        import git

        try:
            result: Result = self.git.execute(
                ["git", *args], env=env, istream=istream, with_exceptions=False,
                with_extended_output=True, stdout_as_string=not binary,
                strip_newline_in_stdout=strip)
            return result
        except git.GitCommandNotFound as exc:
            raise not_started(exc) from None

    def start(self, args: list[str], istream: IO[bytes] | None = None) -> Any:
        """GitPython's process handle (it stops the process when dropped); its ``proc`` is the
        :class:`subprocess.Popen`."""
        import git

        try:
            return self.git.execute(["git", *args], as_process=True, istream=istream)
        except git.GitCommandNotFound as exc:
            raise not_started(exc) from None


def not_started(exc: BaseException) -> JournalError:
    """The error for a git that could not be run at all (not installed, no process left...)."""
    return JournalError(f"git could not be started: {exc}")


def _text(data: bytes) -> str:
    """git's standard error as text, without its last newline."""
    text = data.decode("utf-8", "surrogateescape")
    return text[:-1] if text.endswith("\n") else text
