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
import functools
import os
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import JournalError, LockTimeoutError
from .intent import ABSENT, Intent, IntentLog, PathIntent, read_state, rollback_rule, state_id
from ..store.layout import MAX_FILE_BYTES, remove_file, write_atomic
from .gitdir import read_head
from .lock import process_lock
from ..textutil import neutralise_controls, neutralise_line

if TYPE_CHECKING:  # GitPython is imported lazily: reading a vault needs no git
    import git

FALLBACK_NAME = "memvault"
FALLBACK_EMAIL = "memvault@localhost"
DEFAULT_LOCK_TIMEOUT = 30.0
_ARGV_PATH_LIMIT = 200  # above this many paths, pass them on stdin rather than argv
PRIVATE_MODE = "0600"  # core.sharedRepository of a private vault: git makes files 0600, dirs 0700
ZERO_OID = "0" * 40
VIA_TRAILER = "Memvault-Via"  # who made a commit through which door: ``mcp/<client name>``


def with_trailer(message: str, key: str, value: str) -> str:
    """``message`` with the git trailer ``key: value`` added to its trailer block (a last
    paragraph made only of ``Key: value`` lines), or in a new one."""
    body = message.rstrip("\n")
    paragraphs = body.split("\n\n")
    last = paragraphs[-1].splitlines() if len(paragraphs) > 1 else []
    is_block = bool(last) and all(
        ":" in line and line.split(":", 1)[0].replace("-", "").isalnum() for line in last)
    return f"{body}\n{key}: {value}" if is_block else f"{body}\n\n{key}: {value}"


def operation_of(message: str) -> str:
    """A commit message's leading verb (``archive: ...`` -> ``archive``), or "" if it has none."""
    head, sep, _ = message.partition(":")
    return head if sep and " " not in head else ""


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
        return operation_of(self.message)


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
        return operation_of(self.message)


class Journal:
    """Git history of one vault folder, which may sit anywhere inside a repository."""

    def __init__(self, root: Path, *, lock_timeout: float = DEFAULT_LOCK_TIMEOUT):
        self.root = Path(root).resolve()
        self.lock_timeout = lock_timeout
        self._repo: git.Repo | None = None
        self._identity_env: dict[str, str] | None = None
        self._lock_depth = 0
        self._thread_lock = threading.RLock()
        self._index_stale: set[str] = set()  # paths git's index could not be updated for
        #: Who writes through this journal (``mcp/claude-code``): every commit it makes carries
        #: the trailer ``Memvault-Via: <via>``, so history tells an assistant's writes apart.
        self.via: str | None = None
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
            git.Repo.init(scratch, shared=PRIVATE_MODE)
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

    def ensure_private(self) -> bool:
        """Keep everything under the git directory out of other local users' reach: the git
        directory is made 0700 (one ``stat`` when it already is), so its objects, refs and
        memvault's own files cannot be read whatever their own modes. Not when the person shares
        the repository on purpose (``core.sharedRepository`` group, all or an octal mode other
        than 0600). A repository memvault creates is also made with ``--shared=0600`` (git
        then creates its files 0600 and folders 0700). Returns True when it changed a mode."""
        git_dir = Path(self.repo.common_dir)
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
        git_dir = Path(self.repo.git_dir)
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
            found = read_head(Path(self.repo.git_dir), Path(self.repo.common_dir))
            if found is not None:
                return found
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
        spec = rels if len(rels) <= _ARGV_PATH_LIMIT else [self._rel_root]
        proc = self.repo.git.execute(
            ["git", "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames",
             "--ignored=no", "--", *spec],
            as_process=True,
        )
        return proc, (None if spec is rels else set(rels))

    def finish_status(self, handle: Any) -> list[str]:
        """Vault paths (relative to the vault root) whose work-tree content differs from HEAD."""
        proc, wanted = handle
        out = proc.proc.stdout.read().decode("utf-8", "surrogateescape")
        proc.proc.wait()
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
        spec = sorted(candidates) if len(candidates) <= _ARGV_PATH_LIMIT else [self._rel_root]
        out = self._git("diff", "--name-only", "--no-renames", "-z", head, "--", *spec)
        tracked = {p for p in out.split("\0") if p}
        untracked = self._git("ls-files", "--others", "-z", "--", *spec)
        changed = (tracked | {p for p in untracked.split("\0") if p}) & candidates
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
        (never a path that was only adopted) and JournalError is raised; if putting back fails
        too (a full disk), the intent record stays and the next writer finishes the rollback.
        The caller holds :meth:`lock`."""
        if not self.locked:
            raise RuntimeError("Journal.commit called without holding the lock")
        self.check_writable()
        message = neutralise_controls(message, single_line=False)
        if self.via:
            message = with_trailer(message, VIA_TRAILER, neutralise_line(self.via))
        writes = dict(writes or {})
        adopted = [p for p in adopt if p not in writes]
        try:
            previous = {path: read_state(path) for path in writes}
        except OSError as exc:
            raise JournalError(f"could not read {exc.filename or 'a vault file'} before writing "
                               f"it: {exc.strerror or exc}; nothing was changed") from None
        if not adopted and all(previous[p] == (("file", d) if d is not None else (ABSENT, None))
                               for p, d in writes.items()):
            return self.head()  # nothing would change: no empty commit
        pre = self.head()
        intent = self._begin(pre, message, writes, previous, adopted)
        rels = [w.path for w in intent.writes] + intent.adopt
        try:
            for path, data in writes.items():
                self._fault("write")
                if data is None:
                    remove_file(path)
                else:
                    write_atomic(path, data)
            self._fault("stage")
            self._stage(rels, private=True, base=pre)
            self._fault("write-tree")
            tree = self._git("write-tree", env=self._private_env())
            if not writes and pre is not None and tree == self._git("rev-parse", f"{pre}^{{tree}}"):
                self.intents.finish(intent)  # adopted files that already match HEAD: no commit
                return pre
            self._fault("commit-tree")
            parents = ["-p", pre] if pre else []
            new = self._git("commit-tree", "--no-gpg-sign", tree, *parents, "-m", message,
                            env=self._identity())
            self._fault("update-ref")
            self._git("update-ref", "-m", f"memvault: {message.splitlines()[0]}", "HEAD", new,
                      pre or ZERO_OID)
        except BaseException as exc:
            self._undo(intent, exc)
            raise self._as_journal_error(exc) from exc
        # The commit landed. What follows only makes git's own index agree with it.
        stale = sorted(self._index_stale.union(rels))
        try:
            self._fault("index")
            write_atomic(self.state_dir / "index.head", new.encode())
            self._stage(stale, private=False)
        except Exception:
            # Nothing is lost, but git's index lags behind HEAD for these paths (a person's
            # `git commit` would bring deleted files back): keep the intent record so the next
            # writer's recover() restages them, and restage them with this object's next commit.
            self._index_stale = set(stale)
            return new
        self._index_stale = set()
        with contextlib.suppress(OSError):
            self.intents.finish(intent)
        return new

    def _begin(self, pre: str | None, message: str, writes: dict[Path, bytes | None],
               previous: dict[Path, tuple[str, bytes | None]], adopted: list[Path]) -> Intent:
        """Record the intent (before any vault file is touched). Every earlier state must be
        restorable from git: a state that is not the one at ``pre`` is stored as a blob first."""
        fmt = self.object_format
        entries = []
        for path, data in writes.items():
            kind, old = previous[path]
            after = ABSENT if data is None else state_id("file", data, fmt)
            entries.append(PathIntent(self.relpath(path), state_id(kind, old, fmt), after))
        try:
            at_pre = self._blob_ids(pre, [e.path for e in entries if e.before != ABSENT])
            for entry, (path, _) in zip(entries, writes.items()):
                kind, old = previous[path]
                if kind in ("file", "link") and entry.before.split(":", 1)[1] != at_pre.get(entry.path):
                    self.write_blob(old or b"")  # e.g. a file that was never committed
            return self.intents.begin("commit", pre, message, entries,
                                      [self.relpath(p) for p in adopted])
        except (OSError, JournalError) as exc:
            raise JournalError(f"could not record the operation before starting it "
                               f"({_reason(exc)}); nothing was changed") from None

    def _blob_ids(self, rev: str | None, rels: list[str]) -> dict[str, str]:
        """Repository path -> blob id at ``rev`` (absent paths left out); one git process. A few
        paths are looked up one by one (``cat-file --batch-check``, each lookup reads the tree);
        many are picked out of one listing of their folders (``ls-tree``)."""
        if rev is None or not rels:
            return {}
        if len(rels) > 20:
            folders = sorted({rel.rpartition("/")[0] or rel for rel in rels})
            spec = folders if len(folders) <= _ARGV_PATH_LIMIT else []
            wanted = set(rels)
            return {path: sha for path, (mode, sha) in self.ls_tree(rev, None, spec).items()
                    if path in wanted and mode != "160000"}
        with self._stdin("".join(f"{rev}:{rel}\n" for rel in rels).encode(
                "utf-8", "surrogateescape")) as fh:
            out = self._git("cat-file", "--batch-check=%(objectname) %(objecttype)", istream=fh)
        found = {}
        for rel, line in zip(rels, out.splitlines()):
            sha, _, kind = line.partition(" ")
            if kind == "blob":
                found[rel] = sha
        return found

    def files_at(self, rev: str, rels: list[str]) -> dict[str, bytes]:
        """Repository path -> content at ``rev`` for those of ``rels`` that exist there."""
        ids = self._blob_ids(rev, list(dict.fromkeys(rels)))
        blobs = self.read_blobs(ids.values())
        return {rel: blobs[sha] for rel, sha in ids.items() if sha in blobs}

    def _undo(self, intent: Intent, cause: BaseException | None = None) -> list[str]:
        """Put back what the operation of ``intent`` wrote (see :func:`core.git.intent.rollback_rule`)
        and remove the record. On failure the record stays (the next writer finishes it) and
        JournalError says so. Returns the paths kept because someone else changed them since."""
        try:
            kept = self._put_back(intent)
            if intent.kind == "sync":  # git's index followed the work tree: bring it back too
                self._reset_index(intent.pre_head, [w.path for w in intent.writes])
            self.intents.finish(intent)
        except BaseException as exc:
            before = f"{_reason(cause)}; " if cause is not None else ""
            raise JournalError(
                f"{before}putting the vault back failed too ({_reason(exc)}): the operation's "
                f"record is kept in {intent.file.parent} and the next memvault command finishes "
                "putting it back; free the disk space (or fix the error) first") from exc
        return kept

    def _put_back(self, intent: Intent) -> list[str]:
        fmt = self.object_format
        restore: dict[str, str] = {}
        kept = []
        for entry in intent.writes:
            self._fault("rollback")
            path = self.worktree / entry.path
            kind, data = read_state(path)
            action = rollback_rule(entry, state_id(kind, data, fmt))
            if action == "restore":
                restore[entry.path] = entry.before
            elif action == "foreign":
                kept.append(entry.path)
        blobs = self.read_blobs((b.split(":", 1)[1] for b in restore.values() if b != ABSENT),
                                limit=None)
        for rel, before in restore.items():
            self._fault("rollback-write")
            path = self.worktree / rel
            if before == ABSENT:
                remove_file(path)
                continue
            kind, sha = before.split(":", 1)
            if sha not in blobs:
                raise JournalError(f"the earlier version of {rel} (blob {sha[:12]}) is missing")
            if kind == "link":
                _replace_with_link(path, os.fsdecode(blobs[sha]))
            else:
                write_atomic(path, blobs[sha])
        return kept

    def _reset_index(self, rev: str | None, rels: list[str]) -> None:
        if not rels:
            return
        if rev is None:
            self._with_paths(["update-index", "--force-remove"], rels)
            return
        with self._stdin("\0".join(rels).encode("utf-8", "surrogateescape") + b"\0") as fh:
            self._git("reset", "-q", rev, "--pathspec-from-file=-", "--pathspec-file-nul",
                      istream=fh)

    @staticmethod
    def _as_journal_error(exc: BaseException) -> BaseException:
        if isinstance(exc, JournalError) or not isinstance(exc, Exception):
            return exc
        if isinstance(exc, OSError):
            where = f" ({exc.filename})" if exc.filename else ""
            return JournalError(f"writing the vault failed: {exc.strerror or exc}{where}; "
                                "nothing was changed")
        return exc

    @contextlib.contextmanager
    def _stdin(self, data: bytes) -> Iterator[Any]:
        """An unnamed file (mode 0600, in the git directory) holding ``data``, for git's stdin."""
        with tempfile.TemporaryFile(dir=self.state_dir) as fh:
            fh.write(data)
            fh.flush()
            fh.seek(0)
            yield fh

    def _fault(self, step: str) -> None:
        if self.fault_hook is not None:
            self.fault_hook(step)

    def _stage(self, rels: list[str], *, private: bool, base: str | None = None) -> None:
        env = None
        if private:
            env = self._private_env()
            state = self.state_dir / "index.head"
            try:
                known = state.read_text().strip()
            except FileNotFoundError:
                known = ""
            # ``index.head`` says which commit the private index holds; it is removed before the
            # index is changed and written again only once a commit has landed, so a crash
            # half-way can never leave it vouching for an index that holds other paths.
            self._forget_private_index()
            if known != (base or "unborn") or not (self.state_dir / "index").exists():
                if base:
                    self._git("read-tree", base, env=env)
                else:
                    self._git("read-tree", "--empty", env=env)
        self._with_paths(["update-index", "--add", "--remove", "--replace"], rels, env=env)

    def _with_paths(self, args: list[str], rels: list[str], env: dict[str, str] | None = None) -> str:
        if len(rels) <= _ARGV_PATH_LIMIT:
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

    # -- intent records and crash recovery --------------------------------------------------
    def has_intent(self) -> bool:
        """An operation did not finish (crashed, or could not put the vault back)."""
        return bool(IntentLog(Path(self.repo.git_dir) / "memvault").pending())

    def pending_paths(self) -> list[str]:
        """Repository paths of unfinished operations (for a read-only view of a vault that is
        being written: those files may be half-way)."""
        found: list[str] = []
        for record in IntentLog(Path(self.repo.git_dir) / "memvault").pending():
            with contextlib.suppress(OSError, ValueError):
                found.extend(IntentLog.read(record).paths)
        return found

    def recover(self) -> str | None:
        """Finish what crashed (or failed) writers left, oldest first: put their files back if
        their commit never landed, or bring git's index up to date if it did. A file someone
        changed after the crash is kept as it is (and said so). Returns a description, or None.
        The caller holds :meth:`lock`. If finishing fails, the record stays: JournalError."""
        notes = []
        try:
            self._forget_private_index()  # it may hold a crashed operation's half-staged paths
            for record in self.intents.pending():
                self._fault("recover")
                notes.append(self._recover_one(record))
        except OSError as exc:
            raise JournalError(f"finishing an unfinished operation failed ({_reason(exc)}); its "
                               "record is kept and the next memvault command tries again") from exc
        return "; ".join(notes) or None

    def _recover_one(self, record: Path) -> str:
        try:
            intent = IntentLog.read(record)
        except (OSError, ValueError) as exc:
            from ..store.quarantine import quarantine

            copy = quarantine(self.state_dir, Path(self.repo.git_dir), record,
                              f"unreadable intent record: {_reason(exc)}")
            remove_file(record)
            return f"set aside an unreadable intent record ({copy}); files left as they are"
        message = intent.message.strip()
        if self._landed(intent):
            rels = intent.paths
            self._reset_index("HEAD", rels)
            self.intents.finish(intent)
            return f"completed an operation whose commit had landed ({message!r})"
        if intent.legacy:
            self._fill_legacy(intent)
        kept = self._undo(intent)
        note = f"rolled back an unfinished operation ({message!r})"
        if kept:
            note += (f"; kept {len(kept)} file{'s' if len(kept) != 1 else ''} changed after it "
                     f"as they are ({', '.join(kept[:5])})")
        return note

    def _landed(self, intent: Intent) -> bool:
        """The intent's own commit is HEAD or in HEAD's history."""
        head, pre = self.head(), intent.pre_head
        if head is None or head == pre:
            return False
        if intent.target:
            return head == intent.target or self.is_ancestor(intent.target, head)
        rng = [f"{pre}..{head}"] if pre else [head]
        status, out, _ = self._git_rc("log", "-n", "200", "--format=%P%x1f%B%x1e", *rng)
        if status != 0:
            return False
        for chunk in out.split("\x1e"):
            parents, _, body = chunk.strip().partition("\x1f")
            if (parents.split()[:1] or [None]) == [pre] and body.strip() == intent.message.strip():
                return True
        return False

    def _fill_legacy(self, intent: Intent) -> None:
        """A record of an older memvault names paths only. Each path goes back to ``pre``; what
        is on disk first goes to the quarantine when it differs (nothing is lost)."""
        from ..store.quarantine import quarantine

        fmt = self.object_format
        at_pre = self._blob_ids(intent.pre_head, [w.path for w in intent.writes])
        for entry in intent.writes:
            path = self.worktree / entry.path
            kind, data = read_state(path)
            now = state_id(kind, data, fmt)
            entry.before = f"file:{at_pre[entry.path]}" if entry.path in at_pre else ABSENT
            entry.after = now
            if now not in (entry.before, ABSENT):
                quarantine(self.state_dir, self.worktree, path,
                           f"on disk when an older memvault's unfinished operation "
                           f"({intent.message.strip()!r}) was rolled back")

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
        rel = self.relpath(path)
        found = self._blob_ids(rev, [rel])  # a failing git raises: never taken for "absent"
        return self.read_blob(found[rel], limit=None) if rel in found else None

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

    # -- sync: config, remotes, merges (used by core.sync.engine; the lock is the caller's) --------
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

    def ls_tree(self, rev: str, under: str | None = None, paths: Iterable[str] = ()
                ) -> dict[str, tuple[str, str]]:
        """Repository path -> (mode, object id) of every file at ``rev`` (under a folder, or
        under any of ``paths``)."""
        spec = ["--", under] if under and under != "." else []
        if paths:
            spec = ["--", *paths]
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

    def read_blob(self, sha: str, limit: int | None = MAX_FILE_BYTES) -> bytes:
        """One blob; JournalError when it is missing or larger than ``limit`` bytes (a blob from
        a remote is untrusted: it is never read whole into memory past the vault's size limit)."""
        found = self.read_blobs([sha], limit=limit)
        if sha not in found:
            size = self._blob_sizes([sha]).get(sha)
            if size is None:
                raise JournalError(f"git has no blob {sha}")
            raise JournalError(f"blob {sha[:12]} is {size:,} bytes, over the limit of "
                               f"{limit:,} bytes for a vault file; not read")
        return found[sha]

    def _blob_sizes(self, shas: list[str]) -> dict[str, int]:
        with self._stdin(("\n".join(shas) + "\n").encode()) as fh:
            out = self._git("cat-file", "--batch-check=%(objectname) %(objecttype) %(objectsize)",
                            istream=fh)
        sizes = {}
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] == "blob":
                sizes[parts[0]] = int(parts[2])
        return sizes

    def read_blobs(self, shas: Iterable[str], limit: int | None = MAX_FILE_BYTES
                   ) -> dict[str, bytes]:
        """Several blobs with one ``git cat-file --batch``; blobs that are missing or larger than
        ``limit`` bytes are left out (``limit=None``: any size)."""
        wanted = list(dict.fromkeys(shas))
        if limit is not None and wanted:
            sizes = self._blob_sizes(wanted)
            wanted = [sha for sha in wanted if sizes.get(sha, limit + 1) <= limit]
        if not wanted:
            return {}
        with self._stdin(("\n".join(wanted) + "\n").encode()) as fh:
            out = self._git("cat-file", "--batch", istream=fh, stdout_as_string=False,
                            strip_newline_in_stdout=False)
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
        with self._stdin(data) as fh:
            return self._git("hash-object", "-w", "--no-filters", "--stdin", istream=fh)

    def build_tree(self, base_tree: str, entries: dict[str, tuple[str, str] | None]) -> str:
        """``base_tree`` with each repository path set to (mode, blob) or removed (None), built
        on a scratch index in the git directory; the new tree's id."""
        if not entries:
            return base_tree
        env = {"GIT_INDEX_FILE": str(self.state_dir / "merge-index")}
        try:
            self._git("read-tree", base_tree, env=env)
            lines = []
            for path, value in sorted(entries.items()):
                mode, sha = value if value is not None else ("0", ZERO_OID)  # mode 0: remove
                lines.append(f"{mode} {sha}\t{path}")
            with self._stdin("\0".join(lines).encode("utf-8", "surrogateescape") + b"\0") as fh:
                self._git("update-index", "-z", "--index-info", env=env, istream=fh)
            return self._git("write-tree", env=env)
        finally:
            remove_file(self.state_dir / "merge-index")

    def commit_tree(self, tree: str, parents: list[str], message: str) -> str:
        message = neutralise_controls(message, single_line=False)
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
        self.check_writable()
        self._git_rc("update-index", "-q", "--refresh")
        status, _, err = self._git_rc("read-tree", "-m", "-u", "-n", pre, new)
        if status != 0:
            raise JournalError("the merge would overwrite changes that are not committed: "
                               f"{_one_line(err)} (commit or stash them, then sync again)")
        entries = [PathIntent(path, _entry_state(change.old), _entry_state(change.new))
                   for path, change in sorted(self.tree_changes(pre, new).items())]
        try:
            intent = self.intents.begin("sync", pre, message, entries, [], target=new)
        except OSError as exc:
            raise JournalError(f"could not record the sync before starting it ({_reason(exc)}); "
                               "nothing was changed") from None
        try:
            self._fault("advance-read-tree")
            self._git("read-tree", "-m", "-u", pre, new)
            self._fault("advance-update-ref")
            self._git("update-ref", "-m", f"memvault: {message.splitlines()[0]}", "HEAD", new,
                      pre)
        except BaseException as exc:
            if self.head() == pre:
                self._undo(intent, exc)
            raise self._as_journal_error(exc) from exc
        with contextlib.suppress(OSError):
            self.intents.finish(intent)
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


def _reason(exc: BaseException | None) -> str:
    if isinstance(exc, OSError):
        return f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else "")
    return str(exc) or type(exc).__name__


def _entry_state(entry: tuple[str, str] | None) -> str:
    """A tree entry (mode, blob id) as an intent state (see :mod:`core.git.intent`)."""
    if entry is None:
        return ABSENT
    mode, sha = entry
    return f"link:{sha}" if mode == "120000" else f"file:{sha}" if mode.startswith("100") else "other"


def _replace_with_link(path: Path, target: str) -> None:
    scratch = path.with_name(f".tmp-link-{os.getpid()}-{path.name}")
    remove_file(scratch)
    os.symlink(target, scratch)
    os.replace(scratch, path)
