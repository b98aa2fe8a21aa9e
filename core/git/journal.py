"""The git journal: the only code that runs git.

Every change to the vault is one commit that touches only the vault's own paths. The hot path is
git plumbing through GitPython's ``repo.git`` command interface, on a private index kept in the
repository's git directory, so a person's own staged work in the same repository is never
committed and git's porcelain (hooks, status summaries) stays out of the way:

    intent recorded -> files written -> update-index (private) -> write-tree -> commit-tree
    -> update-ref HEAD new old (the commit point, compare-and-swap) -> update-index (real index)

An inter-process lock (``flock`` on a file in the git directory) is held by the caller across
read-modify-commit. The intent record, written before any vault file is touched, lets the next
opener tell a crashed operation (roll it back, or forward if its commit landed) from a person's
edit (commit it as ``external:``).

Reading needs no GitPython: the repository is found by ``git rev-parse`` and the commands run
outside the write lock (opening a vault: HEAD, status, diff; history; show) go through
``runner.py``'s own runner; while the lock is held (every write) git runs through ``repo.git``
(:meth:`~.plumbing.Plumbing._runner` is the one place that decides).

:class:`Journal` is composed of one part per job: ``plumbing.py`` (running git, paths on stdin),
``commit.py`` (one operation, one commit; putting back on failure), ``recovery.py`` (finishing
crashed operations), ``reading.py`` (history and the one blob reader), ``remote.py`` (what sync
needs), ``rewrite.py`` (rewriting history: ``memvault purge``). This module holds the repository, its privacy, the lock, HEAD and the status of the
vault's own paths. ``entries.py`` holds what is read out of git.
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import JournalError, LockTimeoutError
from .gitdir import read_head
from .intent import IntentLog
from .objects import ObjectWriter
from .lock import process_lock
from .runner import GitRunner, Location, locate

if TYPE_CHECKING:  # GitPython is imported lazily: reading a vault needs no git
    import git
from .commit import Committing
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
from .plumbing import (
    ARGV_PATH_LIMIT,
    DEFAULT_LOCK_TIMEOUT,
    PRIVATE_MODE,
    ZERO_OID,
    Plumbing,
    finish,
)
from .reading import Reading
from .recovery import Recovery
from .remote import Remote
from .rewrite import Rewriting


class Journal(Plumbing, Committing, Recovery, Reading, Remote, Rewriting):
    """Git history of one vault folder, which may sit anywhere inside a repository."""

    def __init__(self, root: Path, *, lock_timeout: float = DEFAULT_LOCK_TIMEOUT):
        self.root = Path(root).resolve()
        self.lock_timeout = lock_timeout
        self._repo: git.Repo | None = None
        self._own_runner: GitRunner | None = None
        self._identity_env: dict[str, str] | None = None
        self._lock_depth = 0
        self._thread_lock = threading.RLock()
        self._index_stale: set[str] = set()  # paths git's index could not be updated for
        #: Who writes through this journal (``mcp/claude-code``): every commit it makes carries
        #: the trailer ``Memvault-Via: <via>``, so history tells an assistant's writes apart.
        self.via: str | None = None
        #: Which tool of that door makes the commits now (``save_memory``): the trailer
        #: ``Memvault-Tool: <tool>``; set around one operation, None otherwise.
        self.tool: str | None = None
        #: Tests set this to raise at a named step of ``commit`` (fault injection).
        self.fault_hook: Callable[[str], None] | None = None
        #: A read-only vault's journal: git runs with optional locks off (``git status``
        #: refreshes no stat data in git's index), so reading writes nothing under ``.git``.
        self.read_only = False
        #: Build every commit's tree on the private index (the whole vault's paths), as memvault
        #: did before trees were built from the parent commit's (:mod:`.trees`); tests compare
        #: the two.
        self.trees_from_index = False
        self._split_index_setting: str | None = None  # core.splitIndex as git reads it ("": unset)

    # -- repository -------------------------------------------------------------------------
    @functools.cached_property
    def location(self) -> Location:
        """Where the repository is (found by git, :func:`~.runner.locate`; no GitPython). A
        folder in no repository gets one (``git init`` at the vault folder); a bare repository
        is refused."""
        found = locate(self.root) if self.root.is_dir() else None
        if found is None:
            self._repo = self._init_repo()
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

    @property
    def repo(self) -> git.Repo:
        """GitPython's view of the repository, opened (and GitPython imported) on first use:
        by the commands of a write (:meth:`_runner`)."""
        if self._repo is None:
            self._repo = self._open_repo()
        return self._repo

    def _open_repo(self) -> git.Repo:
        import git

        location = self.location  # creates the repository when there is none
        if self._repo is not None:
            return self._repo
        try:
            repo = git.Repo(self.root, search_parent_directories=True)
        except (git.InvalidGitRepositoryError, git.NoSuchPathError) as exc:
            raise JournalError(f"GitPython cannot open the repository at {self.root}: {exc}") from None
        if Path(repo.git_dir).resolve() != location.git_dir:
            raise JournalError(f"git and GitPython find different repositories for {self.root}: "
                               f"{location.git_dir} and {repo.git_dir}")
        return repo

    def _init_repo(self) -> git.Repo:
        """``git init`` at the vault folder, made in a scratch folder and renamed into place: a
        second process creating the same new vault at the same moment never sees (or collides
        with) a half-made ``.git``. One rename wins; the other process uses the winner's."""
        import shutil
        import tempfile

        import git

        self.root.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix=".memvault-init-", dir=self.root))
        try:
            git.Repo.init(scratch, shared=PRIVATE_MODE)
            with contextlib.suppress(OSError):
                os.rename(scratch / ".git", self.root / ".git")
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        return git.Repo(self.root)

    @functools.cached_property
    def worktree(self) -> Path:
        return self.location.worktree  # type: ignore[return-value]  (never None: refused)

    @functools.cached_property
    def state_dir(self) -> Path:
        """memvault's own files in the git directory: lock, intent record, private index."""
        d = self.git_dir / "memvault"
        d.mkdir(mode=0o700, exist_ok=True)
        return d

    @functools.cached_property
    def intents(self) -> IntentLog:
        return IntentLog(self.state_dir)

    @functools.cached_property
    def object_format(self) -> str:
        head = self.head()
        if head is not None:
            return "sha256" if len(head) == 64 else "sha1"
        return self.config_get("extensions.objectformat") or "sha1"

    @functools.cached_property
    def object_writer(self) -> ObjectWriter:
        """Long-lived ``hash-object`` processes for the objects of a commit (:mod:`.objects`),
        started through GitPython's ``repo.git`` on first use."""
        return ObjectWriter(self._start_piped)

    def _start_piped(self, args: list[str]) -> Any:
        import subprocess

        import git

        try:
            return self.repo.git.execute(["git", *args], as_process=True,
                                         istream=subprocess.PIPE)
        except (git.GitCommandError, git.GitCommandNotFound, OSError) as exc:
            raise JournalError(f"git {args[0]} could not be started: {exc}") from None

    def close(self) -> None:
        """Stop the long-lived git processes (object writers, GitPython's ``cat-file``); the
        next write starts them again. Skipped while another thread writes."""
        if not self._thread_lock.acquire(blocking=False):
            return
        try:
            if "object_writer" in self.__dict__:
                self.object_writer.stop()
            if self._repo is not None:
                self._repo.git.clear_cache()
        finally:
            self._thread_lock.release()

    @functools.cached_property
    def _file_modes(self) -> dict[str, bool]:
        """``core.fileMode`` and ``core.symlinks`` as git reads them (any scope; one process):
        whether git takes a file's executable bit, and symbolic links, for modes."""
        status, out, _ = self._run("config", "-z", "--get-regexp", r"^core\.(filemode|symlinks)$",
                                   check=False)
        found = {"core.filemode": True, "core.symlinks": True}
        for item in (out.split("\0") if status == 0 else []):
            key, _, value = item.partition("\n")
            if key in found:
                found[key] = value.strip().lower() not in ("false", "no", "off", "0")
        return found

    @property
    def trust_executable_bit(self) -> bool:
        return self._file_modes["core.filemode"]

    @property
    def has_symlinks(self) -> bool:
        return self._file_modes["core.symlinks"]

    def ensure_private(self) -> bool:
        """Keep everything under the git directory out of other local users' reach: the git
        directory is made 0700 (one ``stat`` when it already is), so its objects, refs and
        memvault's own files cannot be read whatever their own modes. Not when the person shares
        the repository on purpose (``core.sharedRepository`` group, all or an octal mode other
        than 0600). A repository memvault creates is also made with ``--shared=0600`` (git
        then creates its files 0600 and folders 0700). Returns True when it changed a mode."""
        git_dir = self.common_dir
        mode = os.stat(git_dir).st_mode
        if not mode & 0o077:
            return False
        shared = (self.config_get("core.sharedRepository") or "").strip().lower()
        if shared not in ("", PRIVATE_MODE, "false", "umask", "0", "no", "off"):
            return False  # shared on purpose: the person's choice
        os.chmod(git_dir, mode & 0o700)
        return True

    def write_refusal(self) -> str | None:
        """Why git's state forbids a write now (HEAD detached, a merge, rebase, cherry-pick,
        revert or bisect in progress), naming the git command that ends it; None when writing
        is safe. A commit made then would be lost when the person's operation ends."""
        git_dir = self.git_dir
        for name, what, ends in (
            ("rebase-merge", "a git rebase", "`git rebase --continue` or `git rebase --abort`"),
            ("rebase-apply", "a git rebase or am",
             "`git rebase --continue`/`--abort` (or `git am --continue`/`--abort`)"),
            ("MERGE_HEAD", "a git merge", "`git commit` or `git merge --abort`"),
            ("CHERRY_PICK_HEAD", "a git cherry-pick",
             "`git cherry-pick --continue` or `git cherry-pick --abort`"),
            ("REVERT_HEAD", "a git revert", "`git revert --continue` or `git revert --abort`"),
            ("BISECT_LOG", "a git bisect", "`git bisect reset`"),
        ):
            if os.path.lexists(git_dir / name):
                return (f"{what} is in progress in {self.worktree}: memvault does not write "
                        f"until it ends; run {ends}, then try again")
        try:
            text = (git_dir / "HEAD").read_text().strip()
        except OSError:
            return None
        if not text.startswith("ref: "):
            return (f"HEAD is detached (at {text[:8]}) in {self.worktree}: memvault writes only "
                    "on a branch; run `git switch <branch>` (or `git switch -c <new-branch>` to "
                    "keep this commit), then try again")
        return None

    def check_writable(self) -> None:
        refusal = self.write_refusal()
        if refusal:
            raise JournalError(refusal)


    # -- lock -------------------------------------------------------------------------------
    @contextlib.contextmanager
    def lock(self, timeout: float | None = None) -> Iterator[None]:
        """Hold the repository's memvault write lock: first this object's thread lock (so threads
        of one process take turns), then ``flock`` (so processes do). Re-entrant."""
        wait = self.lock_timeout if timeout is None else timeout
        if not self._thread_lock.acquire(timeout=wait):
            raise LockTimeoutError(
                f"the vault is being written by another thread of this process; gave up after "
                f"{wait:g} s")
        try:
            if self._lock_depth:
                self._lock_depth += 1
                try:
                    yield
                finally:
                    self._lock_depth -= 1
            else:
                with self._process_lock(wait):
                    yield
        finally:
            self._thread_lock.release()

    @contextlib.contextmanager
    def _process_lock(self, wait: float) -> Iterator[None]:
        with process_lock(self.state_dir, wait):
            self._lock_depth = 1
            try:
                yield
            finally:
                self._lock_depth = 0

    @property
    def locked(self) -> bool:
        return self._lock_depth > 0

    # -- HEAD -------------------------------------------------------------------------------
    def head(self) -> str | None:
        """The commit HEAD points at, or None on an unborn branch. Reads the ref files directly
        when it can (no process), else asks ``git rev-parse``."""
        with contextlib.suppress(OSError):
            found = read_head(self.git_dir, self.common_dir)
            if found is not None:
                return found
        try:
            return self._git("rev-parse", "--verify", "-q", "HEAD")
        except JournalError:
            return None

    def changed_between(self, old: str | None, new: str | None) -> list[str]:
        """Vault paths (relative to the vault root) that differ between two commits; the paths
        ``new`` no longer has come first, so a reader reloading them in order sees a record
        that moved (a memory's file in the other layout) go, then come back at its new path."""
        if old == new:
            return []
        if new is None:
            return []
        spec = [] if self._rel_root == "." else ["--", self._rel_root]
        if old is None:
            out = self._git("ls-tree", "-r", "-z", "--name-only", new, *spec)
            return [self._vault_rel(p) for p in out.split("\0") if p]
        return [p for _status, p in self.changes_between(old, new)]

    def changes_between(self, old: str, new: str) -> list[tuple[str, str]]:
        """(git's status letter: A, M, D or T; vault path) of each path that differs between two
        commits, the deleted ones first (see :meth:`changed_between`)."""
        if old == new:
            return []
        spec = [] if self._rel_root == "." else ["--", self._rel_root]
        # plumbing: no person's diff settings; identical subtrees are skipped unread
        out = self._git("diff-tree", "-r", "--name-status", "--no-renames", "-z", old, new,
                        *spec)
        parts = out.split("\0")
        pairs = [(parts[i], parts[i + 1]) for i in range(0, len(parts) - 1, 2)]
        return [(status, self._vault_rel(p))
                for status, p in sorted(pairs, key=lambda x: x[0] != "D")]

    def vault_rel(self, repo_rel: str) -> str:
        """A repository path as a path relative to the vault root."""
        return self._vault_rel(repo_rel)

    def _vault_rel(self, repo_rel: str) -> str:
        rel_root = self._rel_root
        if rel_root == ".":
            return repo_rel
        return repo_rel[len(rel_root) + 1:] if repo_rel.startswith(rel_root + "/") else repo_rel

    # -- status of the vault's own paths ----------------------------------------------------
    def start_status(self, paths: list[Path]) -> Any:
        """Start ``git status`` for the vault paths in the background; pass the handle to
        :meth:`finish_status`. Lets git stat the files while Python reads them. Many paths are
        never put on the command line: git looks at the whole vault and the answer is filtered."""
        rels = [self.relpath(p) for p in paths]
        spec = rels if len(rels) <= ARGV_PATH_LIMIT else [self._rel_root]
        started = self._start("status", "--porcelain=v1", "-z", "--untracked-files=all",
                              "--no-renames", "--ignored=no", "--", *spec)
        return started, (None if spec is rels else set(rels))

    def finish_status(self, handle: Any) -> list[str]:
        """Vault paths (relative to the vault root) whose work-tree content differs from HEAD."""
        started, wanted = handle
        out = finish(started).decode("utf-8", "surrogateescape")
        candidates = {entry[3:] for entry in out.split("\0") if len(entry) > 3}
        if wanted is not None:
            candidates &= wanted
        if not candidates:
            return []
        # The index can lag behind HEAD (a crash between commit and index update); compare the
        # work tree with HEAD itself before calling anything a change.
        head = self.head()
        if head is None:
            return sorted(self._vault_rel(c) for c in candidates)
        spec = sorted(candidates) if len(candidates) <= ARGV_PATH_LIMIT else [self._rel_root]
        out = self._git("diff", "--name-only", "--no-renames", "-z", head, "--", *spec)
        tracked = {p for p in out.split("\0") if p}
        untracked = self._git("ls-files", "--others", "-z", "--", *spec)
        changed = (tracked | {p for p in untracked.split("\0") if p}) & candidates
        return sorted(self._vault_rel(p) for p in changed)



__all__ = ["CommitChanges", "FileChange", "HistoryEntry", "Journal", "MergeTreeResult", "TreeChange",
           "TOOL_TRAILER", "VIA_TRAILER", "ZERO_OID", "operation_of", "with_trailer"]
