"""Where a vault's repository is: the vault folder, the git and common directories, the work
tree, memvault's own folder in the git directory, and GitPython's view of the repository (opened
on first use: reading a vault imports no GitPython). Paths between the vault, the work tree and
git are converted here."""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import JournalError
from .intent import IntentLog
from .runner import Location, locate
from ..store.private import make_folders

if TYPE_CHECKING:  # GitPython is imported lazily: reading a vault needs no git
    import git

PRIVATE_MODE = "0600"  # core.sharedRepository of a private vault: git makes files 0600, dirs 0700


class Repository:
    """The repository holding one vault folder (which may sit anywhere inside it)."""

    def __init__(self, root: Path):
        self.root = Path(root).resolve()
        self._gitpython: git.Repo | None = None

    @functools.cached_property
    def location(self) -> Location:
        """Where the repository is (found by git, :func:`~.runner.locate`; no GitPython). A
        folder in no repository gets one (``git init`` at the vault folder); a bare repository
        is refused."""
        found = locate(self.root) if self.root.is_dir() else None
        if found is None:
            self._gitpython = self._init()
            found = locate(self.root)
        if found is None:
            raise JournalError(f"git finds no repository at {self.root} after creating one there")
        if found.bare or found.worktree is None:
            where = "a bare git repository" if found.bare else "a git directory"
            raise JournalError(f"{self.root} is inside {where}; a vault needs a work tree")
        return found

    @property
    def git_dir(self) -> Path:
        return self.location.git_dir

    @property
    def common_dir(self) -> Path:
        return self.location.common_dir

    @functools.cached_property
    def worktree(self) -> Path:
        worktree = self.location.worktree
        if worktree is None:  # (refused by :attr:`location`)
            raise JournalError(f"{self.root} has no work tree")
        return worktree

    @functools.cached_property
    def state_dir(self) -> Path:
        """memvault's own files in the git directory: lock, intent record, private index."""
        d = self.git_dir / "memvault"
        d.mkdir(mode=0o700, exist_ok=True)
        return d

    @functools.cached_property
    def intents(self) -> IntentLog:
        """The intent records of operations under way (:mod:`.intent`)."""
        return IntentLog(self.state_dir)

    @property
    def gitpython(self) -> git.Repo:
        """GitPython's view of the repository, opened (and GitPython imported) on first use:
        by the commands of a write."""
        if self._gitpython is None:
            self._gitpython = self._open()
        return self._gitpython

    @property
    def gitpython_opened(self) -> git.Repo | None:
        """GitPython's view if it was opened, without opening it."""
        return self._gitpython

    def _open(self) -> git.Repo:
        import git

        location = self.location  # creates the repository when there is none
        if self._gitpython is not None:
            return self._gitpython
        try:
            repo = git.Repo(self.root, search_parent_directories=True)
        except (git.InvalidGitRepositoryError, git.NoSuchPathError) as exc:
            raise JournalError(f"GitPython cannot open the repository at {self.root}: {exc}") from None
        if Path(repo.git_dir).resolve() != location.git_dir:
            raise JournalError(f"git and GitPython find different repositories for {self.root}: "
                               f"{location.git_dir} and {repo.git_dir}")
        return repo

    def _init(self) -> git.Repo:
        """``git init`` at the vault folder, made in a scratch folder and renamed into place: a
        second process creating the same new vault at the same moment never sees (or collides
        with) a half-made ``.git``. One rename wins; the other process uses the winner's."""
        import git

        make_folders(self.root)
        scratch = Path(tempfile.mkdtemp(prefix=".memvault-init-", dir=self.root))
        try:
            git.Repo.init(scratch, shared=PRIVATE_MODE)
            with contextlib.suppress(OSError):
                os.rename(scratch / ".git", self.root / ".git")
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        return git.Repo(self.root)

    # -- paths ------------------------------------------------------------------------------
    @functools.cached_property
    def rel_root(self) -> str:
        """The vault folder relative to the work tree, with forward slashes (``.``: the top)."""
        return os.path.relpath(self.root, self.worktree).replace(os.sep, "/")

    def relpath(self, path: Path) -> str:
        """A vault path as git sees it: relative to the work tree, with forward slashes."""
        text, root = str(path), str(self.root)
        if text == root:
            return self.rel_root
        if text.startswith(root + os.sep):
            tail = text[len(root) + 1:].replace(os.sep, "/")
            return tail if self.rel_root == "." else f"{self.rel_root}/{tail}"
        absolute = Path(path) if Path(path).is_absolute() else self.root / path
        return os.path.relpath(absolute.resolve(), self.worktree).replace(os.sep, "/")

    def vault_rel(self, repo_rel: str) -> str:
        """A repository path as a path relative to the vault root."""
        rel_root = self.rel_root
        if rel_root == ".":
            return repo_rel
        return repo_rel[len(rel_root) + 1:] if repo_rel.startswith(rel_root + "/") else repo_rel

    def vault_spec(self) -> list[str]:
        """The pathspec of the vault folder for a git command (nothing: the whole work tree)."""
        return [] if self.rel_root == "." else ["--", self.rel_root]
