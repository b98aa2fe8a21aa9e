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
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import functools
import json
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import JournalError, LockTimeoutError
from .layout import remove_file, write_atomic

if TYPE_CHECKING:  # GitPython is imported lazily: reading a vault needs no git
    import git

FALLBACK_NAME = "memvault"
FALLBACK_EMAIL = "memvault@localhost"
DEFAULT_LOCK_TIMEOUT = 30.0
_ARGV_PATH_LIMIT = 200  # above this many paths, pass them on stdin rather than argv
ZERO_OID = "0" * 40


@dataclass(frozen=True)
class HistoryEntry:
    """One commit in the life of a vault file."""

    commit: str
    timestamp: int
    author: str
    message: str
    action: str  # "created", "changed" or "deleted"

    @property
    def operation(self) -> str:
        """The commit message's leading verb (``archive``, ``gc``, ...)."""
        head, sep, _ = self.message.partition(":")
        return head if sep and " " not in head else ""


@dataclass(frozen=True)
class FileChange:
    """One vault file changed by a commit (``status`` A, M or D; blob ids None when absent)."""

    status: str
    path: str  # relative to the vault root
    old_blob: str | None
    new_blob: str | None


@dataclass(frozen=True)
class CommitChanges:
    """A commit and the vault files it changed (see :meth:`Journal.commits_with_changes`)."""

    commit: str
    parents: tuple[str, ...]
    timestamp: int
    author: str
    message: str
    changes: tuple[FileChange, ...]

    @property
    def operation(self) -> str:
        head, sep, _ = self.message.partition(":")
        return head if sep and " " not in head else ""


class Journal:
    """Git history of one vault folder, which may sit anywhere inside a repository."""

    def __init__(self, root: Path, *, lock_timeout: float = DEFAULT_LOCK_TIMEOUT):
        self.root = Path(root).resolve()
        self.lock_timeout = lock_timeout
        self._repo: git.Repo | None = None
        self._identity_env: dict[str, str] | None = None
        self._lock_depth = 0
        self._lock_fh: Any = None
        self._thread_lock = threading.RLock()
        self._index_stale: set[str] = set()  # paths git's index could not be updated for
        #: Tests set this to raise at a named step of ``commit`` (fault injection).
        self.fault_hook: Callable[[str], None] | None = None

    # -- repository -------------------------------------------------------------------------
    @property
    def repo(self) -> git.Repo:
        if self._repo is None:
            self._repo = self._open_repo()
        return self._repo

    def _open_repo(self) -> git.Repo:
        import git

        try:
            repo = git.Repo(self.root, search_parent_directories=True)
        except (git.InvalidGitRepositoryError, git.NoSuchPathError):
            repo = self._init_repo()
        if repo.bare or repo.working_tree_dir is None:
            raise JournalError(f"{self.root} is inside a bare git repository; a vault needs a work tree")
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
            git.Repo.init(scratch)
            with contextlib.suppress(OSError):
                os.rename(scratch / ".git", self.root / ".git")
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        return git.Repo(self.root)

    @functools.cached_property
    def worktree(self) -> Path:
        return Path(self.repo.working_tree_dir).resolve()  # type: ignore[arg-type]

    @functools.cached_property
    def state_dir(self) -> Path:
        """memvault's own files in the git directory: lock, intent record, private index."""
        d = Path(self.repo.git_dir) / "memvault"
        d.mkdir(exist_ok=True)
        return d

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

    def _git(self, *args: str, env: dict[str, str] | None = None, **kwargs: Any) -> str:
        import git

        try:
            return self.repo.git.execute(["git", *args], env=env, **kwargs)
        except git.GitCommandError as exc:
            detail = (exc.stderr or "").strip().removeprefix("stderr:").strip().strip("'").strip()
            raise JournalError(f"git {args[0]} failed: {detail or exc}") from exc

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
        path = self.state_dir / "lock"
        fh = open(path, "a+")
        deadline = time.monotonic() + wait
        delay = 0.005
        while True:
            try:
                fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EACCES):
                    fh.close()
                    raise
                if time.monotonic() >= deadline:
                    fh.seek(0)
                    holder = fh.read().strip() or "another process"
                    fh.close()
                    raise LockTimeoutError(
                        f"the vault is being written by {holder}; gave up after {wait:g} s "
                        f"(lock file {path})"
                    ) from None
                time.sleep(delay)
                delay = min(delay * 2, 0.1)
        fh.seek(0)
        fh.truncate()
        fh.write(f"memvault pid {os.getpid()}")
        fh.flush()
        self._lock_fh, self._lock_depth = fh, 1
        try:
            yield
        finally:
            self._lock_depth = 0
            self._lock_fh = None
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
            fh.close()

    @property
    def locked(self) -> bool:
        return self._lock_depth > 0

    # -- HEAD -------------------------------------------------------------------------------
    def head(self) -> str | None:
        """The commit HEAD points at, or None on an unborn branch. Reads the ref files directly
        when it can (no process), else asks ``git rev-parse``."""
        git_dir = Path(self.repo.git_dir)
        try:
            text = (git_dir / "HEAD").read_text().strip()
            if not text.startswith("ref: "):
                return text
            ref = text[5:]
            common = Path(self.repo.common_dir)
            for base in (git_dir, common):
                candidate = base / ref
                if candidate.is_file():
                    value = candidate.read_text().strip()
                    if len(value) >= 40:
                        return value
            packed = common / "packed-refs"  # after `git gc` or `git pack-refs`
            if packed.is_file():
                for line in packed.read_text().splitlines():
                    sha, _, name = line.partition(" ")
                    if name == ref and len(sha) >= 40:
                        return sha
        except OSError:
            pass
        try:
            return self._git("rev-parse", "--verify", "-q", "HEAD")
        except JournalError:
            return None

    def changed_between(self, old: str | None, new: str | None) -> list[str]:
        """Vault paths (relative to the vault root) that differ between two commits."""
        if old == new:
            return []
        if new is None:
            return []
        spec = [] if self._rel_root == "." else ["--", self._rel_root]
        if old is None:
            out = self._git("ls-tree", "-r", "-z", "--name-only", new, *spec)
        else:
            out = self._git("diff", "--name-only", "--no-renames", "-z", old, new, *spec)
        return [self._vault_rel(p) for p in out.split("\0") if p]

    def _vault_rel(self, repo_rel: str) -> str:
        rel_root = self._rel_root
        if rel_root == ".":
            return repo_rel
        return repo_rel[len(rel_root) + 1:] if repo_rel.startswith(rel_root + "/") else repo_rel

    # -- status of the vault's own paths ----------------------------------------------------
    def start_status(self, paths: list[Path]) -> Any:
        """Start ``git status`` for the vault paths in the background; pass the handle to
        :meth:`finish_status`. Lets git stat the files while Python reads them."""
        rels = [self.relpath(p) for p in paths]
        return self.repo.git.execute(
            ["git", "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames",
             "--ignored=no", "--", *rels],
            as_process=True,
        )

    def finish_status(self, proc: Any) -> list[str]:
        """Vault paths (relative to the vault root) whose work-tree content differs from HEAD."""
        out = proc.proc.stdout.read().decode("utf-8", "surrogateescape")
        proc.proc.wait()
        candidates = {entry[3:] for entry in out.split("\0") if len(entry) > 3}
        if not candidates:
            return []
        # The index can lag behind HEAD (a crash between commit and index update); compare the
        # work tree with HEAD itself before calling anything a change.
        head = self.head()
        if head is None:
            return sorted(self._vault_rel(c) for c in candidates)
        tracked = set()
        out = self._git("diff", "--name-only", "--no-renames", "-z", head, "--",
                        *sorted(candidates))
        tracked = {p for p in out.split("\0") if p}
        untracked = self._git("ls-files", "--others", "-z", "--", *sorted(candidates))
        changed = tracked | {p for p in untracked.split("\0") if p}
        return sorted(self._vault_rel(p) for p in changed)

    # -- committing -------------------------------------------------------------------------
    def commit(
        self,
        message: str,
        writes: dict[Path, bytes | None] | None = None,
        adopt: Iterable[Path] = (),
    ) -> str | None:
        """Write (bytes) or remove (None) each path in ``writes``, take ``adopt`` paths as they are
        in the work tree, and record all of it as ONE commit. Returns the new HEAD, or the old one
        when nothing changed. On failure before the commit point every written path is put back
        and JournalError is raised. The caller holds :meth:`lock`."""
        if not self.locked:
            raise RuntimeError("Journal.commit called without holding the lock")
        message = message.replace("\0", "")  # a NUL (from a memory's text) cannot be an argument
        writes = dict(writes or {})
        adopted = [p for p in adopt if p not in writes]
        previous = {path: _read_or_none(path) for path in writes}
        if not adopted and all(previous[p] == data for p, data in writes.items()):
            return self.head()  # nothing would change: no empty commit
        rels = [self.relpath(p) for p in [*writes, *adopted]]
        pre = self.head()
        self._write_intent({"pre_head": pre, "paths": rels, "message": message,
                            "pid": os.getpid(), "time": time.time()})
        written: dict[Path, bytes | None] = {}
        try:
            for path, data in writes.items():
                self._fault("write")
                written[path] = previous[path]
                if data is None:
                    remove_file(path)
                else:
                    write_atomic(path, data)
            self._fault("stage")
            self._stage(rels, private=True, base=pre)
            self._fault("write-tree")
            tree = self._git("write-tree", env=self._private_env())
            if not writes and pre is not None and tree == self._git("rev-parse", f"{pre}^{{tree}}"):
                self._clear_intent()  # adopted files that already match HEAD: no empty commit
                return pre
            self._fault("commit-tree")
            parents = ["-p", pre] if pre else []
            new = self._git("commit-tree", "--no-gpg-sign", tree, *parents, "-m", message,
                            env=self._identity())
            self._fault("update-ref")
            self._git("update-ref", "-m", f"memvault: {message.splitlines()[0]}", "HEAD", new,
                      pre or ZERO_OID)
        except BaseException:
            self._rollback_writes(written)
            self._forget_private_index()
            self._clear_intent()
            raise
        # The commit landed. What follows only makes git's own index agree with it.
        (self.state_dir / "index.head").write_text(new)
        stale = sorted(self._index_stale.union(rels))
        try:
            self._fault("index")
            self._stage(stale, private=False)
        except Exception:
            # Nothing is lost, but git's index lags behind HEAD for these paths (a person's
            # `git commit` would bring deleted files back): keep the intent record so the next
            # open's recover() restages them, and restage them with this object's next commit.
            self._index_stale = set(stale)
            return new
        self._index_stale = set()
        self._clear_intent()
        return new

    def _fault(self, step: str) -> None:
        if self.fault_hook is not None:
            self.fault_hook(step)

    def _stage(self, rels: list[str], *, private: bool, base: str | None = None) -> None:
        env = None
        if private:
            env = self._private_env()
            state = self.state_dir / "index.head"
            known = state.read_text().strip() if state.exists() else ""
            if known != (base or "unborn") or not (self.state_dir / "index").exists():
                if base:
                    self._git("read-tree", base, env=env)
                else:
                    self._git("read-tree", "--empty", env=env)
                state.write_text(base or "unborn")
        self._with_paths(["update-index", "--add", "--remove", "--replace"], rels, env=env)

    def _with_paths(self, args: list[str], rels: list[str], env: dict[str, str] | None = None) -> str:
        if len(rels) <= _ARGV_PATH_LIMIT:
            return self._git(*args, "--", *rels, env=env)
        listing = self.state_dir / "paths.tmp"
        listing.write_bytes("\0".join(rels).encode() + b"\0")
        with open(listing, "rb") as fh:
            return self._git(*args, "-z", "--stdin", env=env, istream=fh)

    def _private_env(self) -> dict[str, str]:
        return {"GIT_INDEX_FILE": str(self.state_dir / "index")}

    def _forget_private_index(self) -> None:
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

    def _rollback_writes(self, previous: dict[Path, bytes | None]) -> None:
        for path, data in previous.items():
            with contextlib.suppress(OSError):
                if data is None:
                    remove_file(path)
                else:
                    write_atomic(path, data)

    # -- intent record and crash recovery ---------------------------------------------------
    def _intent_path(self) -> Path:
        return self.state_dir / "intent.json"

    def _write_intent(self, record: dict[str, Any]) -> None:
        write_atomic(self._intent_path(), json.dumps(record).encode())

    def _clear_intent(self) -> None:
        remove_file(self._intent_path())

    def has_intent(self) -> bool:
        return (Path(self.repo.git_dir) / "memvault" / "intent.json").exists()

    def recover(self) -> str | None:
        """Finish what a crashed writer left: roll its files back to HEAD if its commit never
        landed, or bring git's index up to date if it did. Returns a description, or None."""
        path = self._intent_path()
        try:
            intent = json.loads(path.read_text())
        except FileNotFoundError:
            return None
        except ValueError:
            self._clear_intent()
            return "discarded an unreadable intent record"
        rels: list[str] = intent.get("paths", [])
        pre, head = intent.get("pre_head"), self.head()
        self._forget_private_index()
        if head == pre:
            in_head: set[str] = set()
            if head:
                out = self._git("ls-tree", "-r", "-z", "--name-only", head, "--", *rels) if rels else ""
                in_head = {p for p in out.split("\0") if p}
            if in_head:
                self._git("checkout", head, "--", *sorted(in_head))
            gone = [rel for rel in rels if rel not in in_head]
            for rel in gone:
                remove_file(self.worktree / rel)
            if gone:  # a sync's checkout may have added them to git's index already
                self._with_paths(["update-index", "--force-remove"], gone)
            result = f"rolled back an unfinished operation ({intent.get('message', '?')!r})"
        else:
            subject = self._git("log", "-1", "--format=%P%x1f%B", head or "HEAD")
            parents, _, body = subject.partition("\x1f")
            if parents.split()[:1] == [pre] and body.strip() == str(intent.get("message", "")).strip():
                if rels:
                    self._stage(rels, private=False)
                result = f"completed an operation whose commit had landed ({intent.get('message')!r})"
            else:
                result = "found an intent record from before other commits; left files as they are"
        self._clear_intent()
        return result

    # -- reading history --------------------------------------------------------------------
    def log(self, path: Path) -> list[HistoryEntry]:
        """Every commit that created, changed or deleted ``path``, newest first."""
        rel = self.relpath(path)
        if self.head() is None:
            return []
        out = self._git("log", "--format=%x1e%H%x1f%at%x1f%an%x1f%B%x1f", "--name-status",
                        "--no-renames", "--", rel)
        entries = []
        for chunk in out.split("\x1e"):
            if not chunk.strip():
                continue
            sha, ts, author, body, status = chunk.split("\x1f", 4)
            code = status.strip()[:1]
            action = {"A": "created", "D": "deleted"}.get(code, "changed")
            entries.append(HistoryEntry(sha, int(ts), author, body.strip(), action))
        return entries

    def show(self, rev: str, path: Path) -> bytes | None:
        """The content of ``path`` at ``rev``, or None if it did not exist there."""
        import git

        try:
            return self.repo.git.execute(
                ["git", "cat-file", "blob", f"{rev}:{self.relpath(path)}"],
                stdout_as_string=False, strip_newline_in_stdout=False,
            )
        except git.GitCommandError:
            return None

    def resolve_rev(self, rev: str) -> str:
        try:
            return self._git("rev-parse", "--verify", "-q", f"{rev}^{{commit}}")
        except JournalError:
            raise JournalError(f"unknown revision {rev!r}") from None

    def files_in_commit(self, rev: str, folder: Path) -> list[tuple[str, str]]:
        """(status letter, vault-relative path) of files under ``folder`` changed by ``rev``."""
        out = self._git("diff-tree", "--no-commit-id", "-r", "--name-status", "--no-renames",
                        "-z", "--root", rev, "--", self.relpath(folder))
        parts = [p for p in out.split("\0") if p]
        return [(parts[i], self._vault_rel(parts[i + 1])) for i in range(0, len(parts) - 1, 2)]

    def names_ever(self, folder: Path) -> set[str]:
        """File names that ever existed under ``folder`` in history (for ids of deleted records)."""
        if self.head() is None:
            return set()
        out = self._git("log", "--format=", "--name-only", "--no-renames", "-z", "--",
                        self.relpath(folder))
        return {p.rsplit("/", 1)[-1] for p in out.replace("\n", "\0").split("\0") if p}

    def commits_with_changes(self, since: str | None = None) -> list[CommitChanges]:
        """Every commit that changed a vault path, oldest first (parents before children), with
        the files it changed and their blob ids: one ``git log`` pass. ``since``: only commits
        after that revision (``since..HEAD``). A merge lists only the files it resolved itself
        (those differing from every parent); the other side's changes come with its own commits."""
        if self.head() is None:
            return []
        revs = [f"{self.resolve_rev(since)}..HEAD"] if since else ["HEAD"]
        spec = [] if self._rel_root == "." else ["--", self._rel_root]
        out = self._git("log", "--reverse", "--date-order", "--full-history", "--cc", "--raw",
                        "--no-abbrev", "--no-renames", "-z",
                        "--format=%x1e%H%x1f%P%x1f%at%x1f%an%x1f%B%x1f", *revs, *spec,
                        strip_newline_in_stdout=False)
        commits = []
        for chunk in out.split("\x1e"):
            if not chunk.strip():
                continue
            sha, parents, ts, author, body, raw = chunk.split("\x1f", 5)
            changes = []
            fields = [f for f in raw.split("\0")]
            i = 0
            while i < len(fields):
                head = fields[i].strip()
                if not head.startswith(":") or i + 1 >= len(fields):
                    i += 1
                    continue
                colons = len(head) - len(head.lstrip(":"))
                words = head.lstrip(":").split()
                shas = words[colons + 1: 2 * colons + 2]
                old = shas[0] if shas and shas[0] != ZERO_OID else None
                new = shas[-1] if shas and shas[-1] != ZERO_OID else None
                status = "A" if old is None else "D" if new is None else "M"
                changes.append(FileChange(status, self._vault_rel(fields[i + 1]), old, new))
                i += 2
            commits.append(CommitChanges(sha, tuple(parents.split()), int(ts), author,
                                         body.strip(), tuple(changes)))
        return [c for c in commits if c.changes or len(c.parents) < 2]

    def blob(self, sha: str) -> bytes:
        """The content of a blob, through git's long-running ``cat-file --batch`` process."""
        try:
            return self.repo.git.get_object_data(sha)[3]
        except Exception as exc:  # GitPython raises ValueError or a command error
            raise JournalError(f"git cat-file could not read blob {sha}: {exc}") from exc

    # -- sync: config, remotes, merges (used by core.sync; the lock is the caller's) --------
    def _git_rc(self, *args: str, env: dict[str, str] | None = None,
                istream: Any = None) -> tuple[int, str, str]:
        """Run git and return (status, stdout, stderr) instead of raising on a non-zero status."""
        status, out, err = self.repo.git.execute(
            ["git", *args], env=env, istream=istream, with_exceptions=False,
            with_extended_output=True)
        return status, out, err

    def config_get(self, key: str) -> str | None:
        status, out, _ = self._git_rc("config", "--local", "--get", key)
        return out if status == 0 else None

    def config_set(self, key: str, value: str) -> None:
        """Set ``key`` in the clone's own git config (``.git/config``), never a global one."""
        self._git("config", "--local", key, value)

    def operation_in_progress(self) -> bool:
        """A person's git merge, rebase, cherry-pick or revert that is not finished."""
        git_dir = Path(self.repo.git_dir)
        return any((git_dir / name).exists() for name in (
            "MERGE_HEAD", "rebase-merge", "rebase-apply", "CHERRY_PICK_HEAD", "REVERT_HEAD"))

    def current_branch(self) -> str | None:
        status, out, _ = self._git_rc("symbolic-ref", "-q", "--short", "HEAD")
        return out if status == 0 and out else None

    def upstream(self, branch: str) -> tuple[str, str] | None:
        """(remote, remote branch) the branch tracks, from the clone's config."""
        remote = self.config_get(f"branch.{branch}.remote")
        merge = self.config_get(f"branch.{branch}.merge")
        if not remote or remote == "." or not merge:
            return None
        return remote, merge.removeprefix("refs/heads/")

    def remotes(self) -> list[str]:
        return [r for r in self._git("remote").splitlines() if r]

    def rev_parse(self, rev: str) -> str | None:
        status, out, _ = self._git_rc("rev-parse", "--verify", "-q", f"{rev}^{{commit}}")
        return out if status == 0 and out else None

    def fetch(self, remote: str, branch: str) -> str | None:
        """Fetch ``branch`` from ``remote`` into ``refs/remotes/<remote>/<branch>``; the commit it
        points at, or None when the remote has no such branch (yet)."""
        tracking = f"refs/remotes/{remote}/{branch}"
        status, _, err = self._git_rc("fetch", "--quiet", "--no-tags", "--no-write-fetch-head",
                                      remote, f"+refs/heads/{branch}:{tracking}")
        if status != 0:
            if "couldn't find remote ref" in err:
                return None
            raise JournalError(f"git fetch {remote} failed: {_one_line(err)}")
        return self.rev_parse(tracking)

    def push(self, remote: str, commit: str, branch: str) -> str:
        """Push ``commit`` to ``remote``'s ``branch``: "pushed", or "rejected" when the remote
        moved on since the last fetch (fetch and merge again). Other failures raise."""
        status, out, err = self._git_rc("push", "--porcelain", remote,
                                        f"{commit}:refs/heads/{branch}")
        if status == 0:
            self._git("update-ref", f"refs/remotes/{remote}/{branch}", commit)
            return "pushed"
        text = f"{out}\n{err}"
        if "[rejected]" in text or "fetch first" in text or "non-fast-forward" in text:
            return "rejected"
        raise JournalError(f"git push {remote} failed: {_one_line(err or out)}")

    def is_ancestor(self, ancestor: str, descendant: str) -> bool:
        status, _, _ = self._git_rc("merge-base", "--is-ancestor", ancestor, descendant)
        return status == 0

    def merge_base(self, a: str, b: str) -> str | None:
        status, out, _ = self._git_rc("merge-base", a, b)
        return out.split()[0] if status == 0 and out else None

    def count_commits(self, tip: str, exclude: str | None) -> int:
        args = [tip] if exclude is None else [tip, f"^{exclude}"]
        return int(self._git("rev-list", "--count", *args) or 0)

    @functools.cached_property
    def empty_tree(self) -> str:
        return self._git("hash-object", "-t", "tree", os.devnull)

    def tree_changes(self, old: str | None, new: str, under: str | None = None
                     ) -> dict[str, TreeChange]:
        """Repository paths that differ between two commits (or trees), without rename
        detection, under the folder ``under`` (a repository path) or everywhere."""
        spec = ["--", under] if under and under != "." else []
        out = self._git("diff-tree", "-r", "-z", "--no-renames", "--raw", "--full-index",
                        old or self.empty_tree, new, *spec)
        parts = out.split("\0")
        found: dict[str, TreeChange] = {}
        i = 0
        while i + 1 < len(parts):
            head, path = parts[i], parts[i + 1]
            i += 2
            if not head.startswith(":"):
                continue
            old_mode, new_mode, old_sha, new_sha, status = head[1:].split()[:5]
            found[path] = TreeChange(
                None if old_mode == "000000" else (old_mode, old_sha),
                None if new_mode == "000000" else (new_mode, new_sha), status[:1])
        return found

    def ls_tree(self, rev: str, under: str | None = None) -> dict[str, tuple[str, str]]:
        """Repository path -> (mode, object id) of every file at ``rev`` (under a folder)."""
        spec = ["--", under] if under and under != "." else []
        out = self._git("ls-tree", "-r", "-z", "--full-tree", rev, *spec)
        found = {}
        for entry in out.split("\0"):
            if entry:
                info, path = entry.split("\t", 1)
                mode, _kind, sha = info.split()
                found[path] = (mode, sha)
        return found

    def merge_tree(self, ours: str, theirs: str, *, env: dict[str, str] | None = None,
                   allow_unrelated: bool = False) -> MergeTreeResult:
        """``git merge-tree --write-tree``: merge two commits without touching the work tree or
        any index (merge drivers run as configured). Returns the merged tree (conflicted files
        hold what git or the driver left in them) and the conflicted paths' stages."""
        args = ["merge-tree", "--write-tree", "-z", "--messages"]
        if allow_unrelated:
            args.append("--allow-unrelated-histories")
        status, out, err = self._git_rc(*args, ours, theirs, env=env)
        if status not in (0, 1) or not out:
            raise JournalError(f"git merge-tree failed: {_one_line(err or out)}")
        parts = out.split("\0")
        result = MergeTreeResult(parts[0].strip())
        i = 1
        while i < len(parts) and parts[i]:
            info, _, path = parts[i].partition("\t")
            mode, sha, stage = info.split()
            result.conflicts.setdefault(path, {})[int(stage)] = (mode, sha)
            i += 1
        messages = [p for p in parts[i + 1:] if p]
        result.messages = [m.strip() for m in messages if not m.isdigit()]
        return result

    def read_blob(self, sha: str) -> bytes:
        return self.repo.git.execute(["git", "cat-file", "blob", sha], stdout_as_string=False,
                                     strip_newline_in_stdout=False)

    def read_blobs(self, shas: Iterable[str]) -> dict[str, bytes]:
        """Several blobs with one ``git cat-file --batch``."""
        wanted = list(dict.fromkeys(shas))
        if not wanted:
            return {}
        listing = self.state_dir / "blobs.tmp"
        listing.write_text("\n".join(wanted) + "\n")
        with open(listing, "rb") as fh:
            out = self.repo.git.execute(["git", "cat-file", "--batch"], istream=fh,
                                        stdout_as_string=False, strip_newline_in_stdout=False)
        found, pos = {}, 0
        for sha in wanted:
            end = out.index(b"\n", pos)
            header = out[pos:end].split()
            pos = end + 1
            if len(header) < 3 or header[1] == b"missing":
                continue
            size = int(header[2])
            found[sha] = out[pos:pos + size]
            pos += size + 1
        return found

    def write_blob(self, data: bytes) -> str:
        """Store ``data`` as a blob (as is, no filters); its object id."""
        scratch = self.state_dir / "blob.tmp"
        scratch.write_bytes(data)
        return self._git("hash-object", "-w", "--no-filters", "--", str(scratch))

    def build_tree(self, base_tree: str, entries: dict[str, tuple[str, str] | None]) -> str:
        """``base_tree`` with each repository path set to (mode, blob) or removed (None), built
        on a scratch index in the git directory; the new tree's id."""
        if not entries:
            return base_tree
        env = {"GIT_INDEX_FILE": str(self.state_dir / "merge-index")}
        try:
            self._git("read-tree", base_tree, env=env)
            listing = self.state_dir / "entries.tmp"
            lines = []
            for path, value in sorted(entries.items()):
                mode, sha = value if value is not None else ("0", ZERO_OID)  # mode 0: remove
                lines.append(f"{mode} {sha}\t{path}")
            listing.write_bytes("\0".join(lines).encode("utf-8", "surrogateescape") + b"\0")
            with open(listing, "rb") as fh:
                self._git("update-index", "-z", "--index-info", env=env, istream=fh)
            return self._git("write-tree", env=env)
        finally:
            remove_file(self.state_dir / "merge-index")

    def commit_tree(self, tree: str, parents: list[str], message: str) -> str:
        args = [a for p in parents for a in ("-p", p)]
        return self._git("commit-tree", "--no-gpg-sign", tree, *args, "-m", message,
                         env=self._identity())

    def deleting_subjects(self, path: str, tip: str, exclude: str | None) -> list[str]:
        """Subjects of the commits in ``exclude..tip`` that deleted the repository ``path``."""
        args = [tip] if exclude is None else [tip, f"^{exclude}"]
        out = self._git("log", "--format=%s", "--no-renames", "--diff-filter=D", *args, "--",
                        path)
        return [line for line in out.splitlines() if line]

    def advance(self, pre: str, new: str, message: str) -> list[str]:
        """Move HEAD from ``pre`` to ``new`` (a merge commit, or a fast-forward), bringing the
        work tree and git's index along for the paths that differ; files the person changed
        and did not commit are never overwritten (JournalError, nothing changed). Order as in
        :meth:`commit`: intent record, files, then the ref (compare-and-swap), so a crash in
        between is rolled back by :meth:`recover`. Returns the repository paths it changed.
        The caller holds :meth:`lock`."""
        if not self.locked:
            raise RuntimeError("Journal.advance called without holding the lock")
        changed = sorted(self.tree_changes(pre, new))
        self._git_rc("update-index", "-q", "--refresh")
        status, _, err = self._git_rc("read-tree", "-m", "-u", "-n", pre, new)
        if status != 0:
            raise JournalError("the merge would overwrite changes that are not committed: "
                               f"{_one_line(err)} (commit or stash them, then sync again)")
        self._write_intent({"pre_head": pre, "paths": changed, "message": message,
                            "pid": os.getpid(), "time": time.time(), "kind": "sync"})
        try:
            self._fault("advance-read-tree")
            self._git("read-tree", "-m", "-u", pre, new)
            self._fault("advance-update-ref")
            self._git("update-ref", "-m", f"memvault: {message.splitlines()[0]}", "HEAD", new,
                      pre)
        except BaseException:
            with contextlib.suppress(Exception):
                if self.head() == pre:
                    self._git("read-tree", "-m", "-u", new, pre)
                    self._clear_intent()
            raise
        self._forget_private_index()
        self._clear_intent()
        return changed


@dataclass
class TreeChange:
    """One path's change between two trees: (mode, object id) before and after (None: absent)."""

    old: tuple[str, str] | None
    new: tuple[str, str] | None
    status: str  # A, M, D, T


@dataclass
class MergeTreeResult:
    tree: str
    conflicts: dict[str, dict[int, tuple[str, str]]] = field(default_factory=dict)
    messages: list[str] = field(default_factory=list)


def _one_line(text: str) -> str:
    return " ".join((text or "").split())[:500]


def _read_or_none(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
