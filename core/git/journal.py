"""The git journal: the only code that runs git.

Every change to the vault is one commit that touches only the vault's own paths. The hot path is
git plumbing through GitPython's ``repo.git`` command interface, the new tree built from the
parent commit's trees (or on a private index kept in the repository's git directory), so a
person's own staged work in the same repository is never committed and git's porcelain (hooks,
status summaries) stays out of the way:

    intent recorded -> files written -> hash-object / trees -> commit-tree
    -> update-ref HEAD new old (the commit point, compare-and-swap) -> update-index (real index)

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
:class:`~.reading.HistoryReader`, :class:`~.status.WorkTree` (may we write; what changed),
:class:`~.commit.Committer` (one operation, one commit; putting back on failure),
:class:`~.recovery.Recovery` (finishing crashed operations), :class:`~.remote.Remote` (what sync
needs), :class:`~.rewrite.Rewriting` (``memvault purge``) and :class:`~.faults.FaultPoints`.
Its methods hand each call to the part that does it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..store.files import MAX_FILE_BYTES
from .blobs import ObjectStore
from .commit import Committer, LandedCommit
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
from .intent import IntentLog
from .lock import WriteLock
from .objects import ObjectWriter
from .plumbing import DEFAULT_LOCK_TIMEOUT, ZERO_OID, GitCommands
from .reading import HistoryReader
from .recovery import Recovery
from .remote import Remote
from .repository import Repository
from .rewrite import Rewriting
from .runner import Location
from .status import WorkTree

if TYPE_CHECKING:  # GitPython is imported lazily: reading a vault needs no git
    import git


class Journal:
    """Git history of one vault folder, which may sit anywhere inside a repository."""

    def __init__(self, root: Path, *, lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
                 read_only: bool = False, faults: FaultPoints | None = None):
        self.repository = Repository(root)
        self.root = self.repository.root
        self.write_lock = WriteLock(lambda: self.repository.state_dir, lock_timeout)
        self.commands = GitCommands(self.repository, self.write_lock, read_only=read_only)
        #: Tests set ``faults.hook`` to raise at a named step of a write (fault injection).
        self.faults = faults or FaultPoints()
        self.objects = ObjectStore(self.commands)
        self.history = HistoryReader(self.repository, self.commands, self.objects)
        self.work_tree = WorkTree(self.repository, self.commands)
        self.committer = Committer(self.repository, self.commands, self.objects, self.work_tree,
                                   self.write_lock, self.faults)
        self.recovery = Recovery(self.repository, self.commands, self.history, self.committer,
                                 self.faults)
        self.remote = Remote(self.repository, self.commands, self.history, self.work_tree,
                             self.committer, self.write_lock, self.faults)
        self.rewriting = Rewriting(self.repository, self.commands)

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
        return self.commands.read_only

    @read_only.setter
    def read_only(self, value: bool) -> None:
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
        """The commit HEAD points at, or None on an unborn branch."""
        return self.commands.head()

    def config_get(self, key: str) -> str | None:
        return self.commands.config_get(key)

    def close(self) -> None:
        """Stop the long-lived git processes (object writers, GitPython's ``cat-file``); the
        next write starts them again. Skipped while another thread writes."""
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

    # -- the work tree and the git directory -----------------------------------------------
    def ensure_private(self) -> bool:
        return self.work_tree.ensure_private()

    def shared_on_purpose(self) -> bool:
        return self.work_tree.shared_on_purpose()

    def write_refusal(self) -> str | None:
        return self.work_tree.write_refusal()

    def check_writable(self) -> None:
        return self.work_tree.check_writable()

    def operation_in_progress(self) -> bool:
        return self.work_tree.operation_in_progress()

    def start_status(self, paths: list[Path]) -> Any:
        return self.work_tree.start_status(paths)

    def finish_status(self, handle: Any) -> list[str]:
        return self.work_tree.finish_status(handle)

    # -- committing and recovery ----------------------------------------------------------
    def commit(
        self,
        message: str,
        writes: dict[Path, bytes | None] | None = None,
        adopt: Iterable[Path] = (),
        *,
        via: str | None = None,
        tool: str | None = None,
    ) -> str | None:
        return self.committer.commit(message, writes, adopt, via=via, tool=tool)

    def has_intent(self) -> bool:
        return self.recovery.has_intent()

    def pending_paths(self) -> list[str]:
        return self.recovery.pending_paths()

    def recover(self) -> str | None:
        return self.recovery.recover()

    # -- history -------------------------------------------------------------------------
    def log(self, path: Path | list[Path], limit: int | None = None) -> list[HistoryEntry]:
        return self.history.log(path, limit)

    def show(self, rev: str, path: Path) -> bytes | None:
        return self.history.show(rev, path)

    def resolve_rev(self, rev: str) -> str:
        return self.history.resolve_rev(rev)

    def rev_parse(self, rev: str) -> str | None:
        return self.history.rev_parse(rev)

    def files_in_commit(self, rev: str, folder: Path) -> list[tuple[str, str]]:
        return self.history.files_in_commit(rev, folder)

    def names_ever(self, folder: Path) -> set[str]:
        return self.history.names_ever(folder)

    def commits_with_changes(self, since: str | None = None, *, all_refs: bool = False
                             ) -> list[CommitChanges]:
        return self.history.commits_with_changes(since, all_refs=all_refs)

    def changed_between(self, old: str | None, new: str | None) -> list[str]:
        return self.history.changed_between(old, new)

    def changes_between(self, old: str, new: str) -> list[tuple[str, str]]:
        return self.history.changes_between(old, new)

    def is_ancestor(self, ancestor: str, descendant: str) -> bool:
        return self.history.is_ancestor(ancestor, descendant)

    def merge_base(self, a: str, b: str) -> str | None:
        return self.history.merge_base(a, b)

    def count_commits(self, tip: str, exclude: str | None) -> int:
        return self.history.count_commits(tip, exclude)

    def deleting_subjects(self, path: str, tip: str, exclude: str | None) -> list[str]:
        return self.history.deleting_subjects(path, tip, exclude)

    # -- objects -------------------------------------------------------------------------
    def blob(self, sha: str) -> bytes:
        return self.objects.blob(sha)

    def read_blob(self, sha: str, limit: int | None = MAX_FILE_BYTES) -> bytes:
        return self.objects.read_blob(sha, limit)

    def read_blobs(self, shas: Iterable[str], limit: int | None = MAX_FILE_BYTES
                   ) -> dict[str, bytes]:
        return self.objects.read_blobs(shas, limit)

    def files_at(self, rev: str, rels: list[str]) -> dict[str, bytes]:
        return self.objects.files_at(rev, rels)

    def ls_tree(self, rev: str, under: str | None = None, paths: Iterable[str] = ()
                ) -> dict[str, tuple[str, str]]:
        return self.objects.ls_tree(rev, under, paths)

    def entries_at(self, rev: str, paths: Iterable[str]) -> dict[str, str]:
        return self.objects.entries_at(rev, paths)

    def tree_changes(self, old: str | None, new: str, under: str | None = None
                     ) -> dict[str, TreeChange]:
        return self.objects.tree_changes(old, new, under)

    def write_blob(self, data: bytes) -> str:
        return self.objects.write_blob(data)

    # -- sync ----------------------------------------------------------------------------
    def config_set(self, key: str, value: str) -> None:
        return self.remote.config_set(key, value)

    def current_branch(self) -> str | None:
        return self.remote.current_branch()

    def upstream(self, branch: str) -> tuple[str, str] | None:
        return self.remote.upstream(branch)

    def remotes(self) -> list[str]:
        return self.remote.remotes()

    def fetch(self, remote: str, branch: str) -> str | None:
        return self.remote.fetch(remote, branch)

    def push(self, remote: str, commit: str, branch: str) -> str:
        return self.remote.push(remote, commit, branch)

    def merge_tree(self, ours: str, theirs: str, *, env: dict[str, str] | None = None,
                   allow_unrelated: bool = False) -> MergeTreeResult:
        return self.remote.merge_tree(ours, theirs, env=env, allow_unrelated=allow_unrelated)

    def build_tree(self, base_tree: str, entries: dict[str, tuple[str, str] | None]) -> str:
        return self.remote.build_tree(base_tree, entries)

    def commit_tree(self, tree: str, parents: list[str], message: str) -> str:
        return self.remote.commit_tree(tree, parents, message)

    def advance(self, pre: str, new: str, message: str) -> list[str]:
        return self.remote.advance(pre, new, message)

    # -- rewriting history ---------------------------------------------------------------
    def refs(self) -> dict[str, str]:
        return self.rewriting.refs()

    def set_ref(self, ref: str, sha: str | None) -> None:
        return self.rewriting.set_ref(ref, sha)

    def touches(self, revs: list[str], paths: list[str]) -> bool:
        return self.rewriting.touches(revs, paths)

    def rewrite_without(self, paths: list[str], message: Callable[[str], str]) -> None:
        return self.rewriting.rewrite_without(paths, message)

    def drop_from_index(self, paths: list[str]) -> None:
        return self.rewriting.drop_from_index(paths)

    def forget_transient_heads(self) -> None:
        return self.rewriting.forget_transient_heads()

    def expire_and_prune(self) -> None:
        return self.rewriting.expire_and_prune()

    def forget_fetch(self, ref: str, before: str | None) -> None:
        return self.rewriting.forget_fetch(ref, before)


__all__ = ["CommitChanges", "FaultPoints", "FileChange", "HistoryEntry", "Journal", "MergeTreeResult",
           "TreeChange", "TOOL_TRAILER", "VIA_TRAILER", "ZERO_OID", "operation_of", "with_trailer"]
