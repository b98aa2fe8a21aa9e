"""The git journal: the only code that runs git.

Every change to the vault is one commit that touches only the vault's own paths. The hot path is
git plumbing through GitPython's ``repo.git`` command interface, the new tree built from the
parent commit's trees (or on a private index kept in the repository's git directory), so a
person's own staged work in the same repository is never committed and git's porcelain (hooks,
status summaries) stays out of the way:

    intent recorded -> files written -> hash-object / trees -> commit-tree
    -> update-ref HEAD new old (the commit point, compare-and-swap) -> update-index (git's index)

An inter-process lock (``flock`` on a file in the git directory) is held by the caller across
read-modify-commit. The intent record, written before any vault file is touched, lets the next
opener tell a crashed operation (roll it back, or forward if its commit landed) from a person's
edit (commit it as ``external:``).

Reading needs no GitPython: the repository is found by ``git rev-parse`` and the commands run
outside the write lock go through ``runner.py``'s own runner; while the lock is held (every
write) git runs through ``repo.git`` (:meth:`.plumbing.GitCommands.runner` decides).

:class:`Journal` owns one part per job, each given the parts it uses when it is made:
:class:`~.repository.Repository` (where), :class:`~.lock.WriteLock`,
:class:`~.plumbing.GitCommands` (running git), :class:`~.blobs.ObjectStore` (blobs and trees),
:class:`~.git_index.GitIndex` (git's own index, told of each commit at once or just after),
:class:`~.reading.HistoryReader`, :class:`~.status.WorkTree` (may we write; what changed),
:class:`~.commit.Committer` (one operation, one commit; putting back on failure),
:class:`~.recovery.Recovery` (finishing crashed operations), :class:`~.remote.Remote` (what sync
needs), :class:`~.rewrite.Rewriting` (``memvault purge``) and :class:`~.faults.FaultPoints`.
Callers reach a part by its name (``journal.history.log(...)``, ``journal.remote.fetch``...);
the journal itself answers where the repository is, ``head``, ``lock``, ``commit``, ``close``.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import VaultError
from .entries import (
    TOOL_TRAILER,
    VIA_TRAILER,
    CommitChanges,
    FileChange,
    HistoryEntry,
    MergeTreeResult,
    TreeChange,
    operation_of,
    with_trailer,
)
from .faults import FaultPoints
from .gitdir import ZERO_OID
from .lock import DEFAULT_LOCK_TIMEOUT, WriteLock
from .repository import Repository

if TYPE_CHECKING:  # GitPython is imported lazily: reading a vault needs no git
    import git

    from .batch import FastImportBatch
    from .blobs import ObjectStore
    from .commit import Committer, LandedCommit
    from .git_index import GitIndex
    from .intent import IntentLog
    from .objects import ObjectWriter
    from .plumbing import GitCommands
    from .reading import HistoryReader
    from .recovery import Recovery
    from .remote import Remote
    from .rewrite import Rewriting
    from .runner import Location
    from .status import WorkTree


class Journal:
    """Git history of one vault folder, which may sit anywhere inside a repository."""

    def __init__(self, root: Path, *, lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
                 read_only: bool = False, faults: FaultPoints | None = None):
        self.repository = Repository(root)
        self.root = self.repository.root
        self.write_lock = WriteLock(lambda: self.repository.state_dir, lock_timeout)
        self._read_only = read_only
        #: The commits of a new vault's build, sent to one ``git fast-import`` (:meth:`batch`).
        self._batch: FastImportBatch | None = None
        #: Tests set ``faults.hook`` to raise at a named step of a write (fault injection).
        self.faults = faults or FaultPoints()

    # -- the parts, each made (and its module imported) on first use: a read-only open uses
    # -- none of the writing parts, and never pays for importing them
    @functools.cached_property
    def commands(self) -> GitCommands:
        """Running git (:class:`~.plumbing.GitCommands`)."""
        from .plumbing import GitCommands

        return GitCommands(self.repository, self.write_lock, read_only=self._read_only)

    @functools.cached_property
    def objects(self) -> ObjectStore:
        """Blobs and trees (:class:`~.blobs.ObjectStore`)."""
        from .blobs import ObjectStore

        return ObjectStore(self.commands)

    @functools.cached_property
    def history(self) -> HistoryReader:
        """Reading history (:class:`~.reading.HistoryReader`)."""
        from .reading import HistoryReader

        return HistoryReader(self.repository, self.commands, self.objects)

    @functools.cached_property
    def git_index(self) -> GitIndex:
        """Git's own index, told of each landed commit (:class:`~.git_index.GitIndex`)."""
        from .git_index import GitIndex

        return GitIndex(self.repository, self.commands, self.write_lock, self.faults)

    @functools.cached_property
    def work_tree(self) -> WorkTree:
        """May we write now, what changed on disk (:class:`~.status.WorkTree`)."""
        from .status import WorkTree

        return WorkTree(self.repository, self.commands, self.git_index)

    @functools.cached_property
    def committer(self) -> Committer:
        """One operation, one commit (:class:`~.commit.Committer`)."""
        from .commit import Committer

        return Committer(self.repository, self.commands, self.objects, self.work_tree,
                         self.write_lock, self.faults, self.git_index)

    @functools.cached_property
    def recovery(self) -> Recovery:
        """Finishing crashed operations (:class:`~.recovery.Recovery`)."""
        from .recovery import Recovery

        return Recovery(self.repository, self.commands, self.history, self.committer,
                        self.faults)

    @functools.cached_property
    def remote(self) -> Remote:
        """What sync needs (:class:`~.remote.Remote`)."""
        from .remote import Remote

        return Remote(self.repository, self.commands, self.history, self.work_tree,
                      self.committer, self.write_lock, self.faults)

    @functools.cached_property
    def rewriting(self) -> Rewriting:
        """Rewriting history, ``memvault purge`` (:class:`~.rewrite.Rewriting`)."""
        from .rewrite import Rewriting

        return Rewriting(self.repository, self.commands, self.git_index)

    # -- the repository ---------------------------------------------------------------------
    @property
    def location(self) -> Location:
        return self.repository.location

    @property
    def git_dir(self) -> Path:
        return self.repository.git_dir

    @property
    def common_dir(self) -> Path:
        return self.repository.common_dir

    @property
    def worktree(self) -> Path:
        return self.repository.worktree

    @property
    def state_dir(self) -> Path:
        return self.repository.state_dir

    @property
    def intents(self) -> IntentLog:
        return self.repository.intents

    @property
    def repo(self) -> git.Repo:
        """GitPython's view of the repository (opened on first use)."""
        return self.repository.gitpython

    def relpath(self, path: Path) -> str:
        return self.repository.relpath(path)

    def vault_rel(self, repo_rel: str) -> str:
        return self.repository.vault_rel(repo_rel)

    @property
    def read_only(self) -> bool:
        """A read-only vault's journal: git writes nothing under ``.git`` (no optional locks)."""
        if "commands" in self.__dict__:
            return self.commands.read_only
        return self._read_only

    @read_only.setter
    def read_only(self, value: bool) -> None:
        self._read_only = value
        if "commands" in self.__dict__:
            self.commands.read_only = value

    @property
    def trees_from_index(self) -> bool:
        """Build every commit's tree on the private index (tests compare the two ways)."""
        return self.committer.trees_from_index

    @trees_from_index.setter
    def trees_from_index(self, value: bool) -> None:
        self.committer.trees_from_index = value

    @property
    def landed(self) -> list[Callable[[LandedCommit], None]]:
        """Listeners told of each commit :meth:`commit` makes, once it has landed."""
        return self.committer.landed

    @property
    def object_writer(self) -> ObjectWriter:
        return self.commands.object_writer

    @property
    def object_format(self) -> str:
        return self.commands.object_format

    def head(self) -> str | None:
        """The commit HEAD points at, or None on an unborn branch (in a :meth:`batch`: the
        batch's last commit, where HEAD will point when it ends)."""
        if self._batch is not None:
            return self._batch.head
        return self.commands.head()

    def config_get(self, key: str) -> str | None:
        return self.commands.config_get(key)

    def close(self) -> None:
        """Bring git's index level with the commits waiting for it (:class:`~.git_index.GitIndex`,
        left to the next writer's recovery if git fails), then stop the long-lived git processes
        (object writers, GitPython's ``cat-file``; not while another thread writes); the next
        write starts them again."""
        if "commands" not in self.__dict__:  # (git never ran: nothing to settle or stop)
            return
        with contextlib.suppress(VaultError):  # (waits for the lock only when some wait)
            self.git_index.settle()
        with self.write_lock.unless_busy() as free:
            if free:
                self.commands.stop_processes()

    # -- the lock ---------------------------------------------------------------------------
    def lock(self, timeout: float | None = None) -> AbstractContextManager[None]:
        """Hold the repository's memvault write lock (:class:`~.lock.WriteLock`). Re-entrant."""
        return self.write_lock.hold(timeout)

    @property
    def locked(self) -> bool:
        return self.write_lock.held

    # -- committing ---------------------------------------------------------------------------
    def commit(
        self,
        message: str,
        writes: dict[Path, bytes | None] | None = None,
        adopt: Iterable[Path] = (),
        *,
        via: str | None = None,
        tool: str | None = None,
        seen: Mapping[Path, tuple[int, int, int]] | None = None,
    ) -> str | None:
        """One operation, one commit (:meth:`~.commit.Committer.commit`); ``via`` and ``tool``
        are the commit's trailers, ``seen`` the files as the caller last saw them."""
        if self._batch is not None:
            return self._batch.commit(message, writes, adopt, via=via, tool=tool)
        return self.committer.commit(message, writes, adopt, via=via, tool=tool, seen=seen)

    @property
    def written(self) -> dict[Path, tuple[int, int, int]]:
        """The stat key of each file the last commit wrote (what it wrote, even if a person's
        save replaced it since)."""
        return self._batch.written if self._batch is not None else self.committer.written

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """Every commit made inside is sent to one ``git fast-import`` and the branch moves when
        the block ends (:mod:`.batch`: for a new vault built in one go, ``memvault demo``; the
        write lock is held throughout and nothing may read history meanwhile). On an error
        inside, the branch stays where it was; the files written stay on disk."""
        from .batch import FastImportBatch

        if self._batch is not None:
            raise RuntimeError("a batch of commits is already under way")
        with self.lock():
            self.work_tree.check_writable()
            batch = FastImportBatch(self.repository, self.commands)
            batch.start()
            self._batch = batch
            try:
                yield
            except BaseException:
                batch.abandon()
                raise
            else:
                batch.finish()
            finally:
                self._batch = None


__all__ = ["CommitChanges", "FaultPoints", "FileChange", "HistoryEntry", "Journal", "MergeTreeResult",
           "TreeChange", "TOOL_TRAILER", "VIA_TRAILER", "ZERO_OID", "operation_of", "with_trailer"]
