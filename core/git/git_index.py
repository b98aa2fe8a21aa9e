"""git's own index, told about the paths each commit changed, so that ``git status`` and a
person's own ``git commit`` see the vault as committed.

Updating it is the largest step of a save in a big flat vault: git reads, checks, rewrites and
hashes its whole index (1.2 MB at 10,000 memories) to change one entry. By default it is done
at once, before the commit returns. A writer that answers someone (the MCP server) sets
:attr:`GitIndex.later`: the commit returns as soon as it has landed (``update-ref``), and the
index is brought level right after, by a thread of this process, under the vault's write lock,
the paths of every commit landed meanwhile in one ``update-index`` (:meth:`GitIndex.settle`).

The durable marker of "git's index is behind HEAD for these paths" is the operation's intent
record itself (:mod:`.intent`): it is removed only once the index holds the paths. A process
killed in between leaves it, and the next writer (or open) finishes it as for any crash: the
commit landed, so git's index takes those paths from HEAD (:class:`~.recovery.Recovery`). This
process's own records waiting here are not a crash: :meth:`GitIndex.holds` tells recovery so.
Another process that finds one (it took the lock first) finishes it the same way, and this one
then leaves it (the record is gone).

Which entry a path gets: the work tree's file when it still holds what the commit wrote (its
stat data then lets ``git status`` skip it), else HEAD's (``git reset``): a person who changed
the file since sees their change as not staged, never as staged by memvault. Entries of other
paths (a person's own staged work) are never touched. Everything that reads git's index in
this process (``git status`` of the vault, a sync's ``read-tree``, a purge) settles first.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import threading
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path

from ..store.files import write_atomic
from .faults import FaultPoints
from .index_lock import IndexLock
from .intent import Intent, read_state, state_id
from .lock import WriteLock
from .plumbing import GitCommands
from .repository import Repository

#: git's own index is kept split from this size on (about 120 bytes an entry: 70,000 files).
SPLIT_INDEX_FROM = 8 * 1024 * 1024
#: The follower thread ends after this long without a commit (the next one starts it again).
FOLLOWER_IDLE_SECONDS = 30.0


class GitIndex:
    """git's index of ``repository``: staging the paths of landed commits, at once or
    (:attr:`later`) just after, and putting paths back to a commit's entries."""

    def __init__(self, repository: Repository, commands: GitCommands, lock: WriteLock,
                 faults: FaultPoints):
        self.repository = repository
        self.commands = commands
        self.lock = lock
        self.faults = faults
        #: Leave the index update of each landed commit to a thread of this process, which
        #: does it right after (the caller's answer does not wait for it).
        self.later = False
        self._waiting: dict[Path, Intent] = {}  # intent record -> landed operation, oldest first
        self._split_index_setting: str | None = None  # core.splitIndex as git reads it ("": unset)
        self._guard = threading.Lock()
        #: Work to do after each follow-up, in the follower thread, once no caller works (the
        #: MCP server: the search index's checkpoint); a failure of one is no failure here.
        self.after_follow: list[Callable[[], object]] = []
        self._paused = 0  # callers working now, whom the follower leaves the machine to
        self._resume = threading.Condition(self._guard)
        self._due = threading.Event()
        self._follower: threading.Thread | None = None
        #: git's own ``index.lock``, held from a commit's ``update-ref`` until git's index holds
        #: its paths: a person's ``git commit`` meanwhile waits for it or fails with git's clear
        #: "index.lock: File exists", never commits from an index behind HEAD.
        self.index_lock = IndexLock(repository)
        _INDEXES.add(self)

    # -- after a commit ---------------------------------------------------------------------
    def landed(self, intent: Intent, private_head: str | None = None) -> None:
        """The commit of ``intent`` landed: bring git's index level with it now, or (``later``)
        have the follower thread do it. ``private_head``: the commit the private index now
        holds (a commit made on it), noted at once. The caller holds the lock. Never raises:
        a failure leaves the paths waiting (and the intent record on disk) for the next try."""
        with self._guard:
            self._waiting[intent.file] = intent
        if self.later and private_head is None:
            self._wake()
            return
        try:
            self.faults.reached("index")
            if private_head is not None:  # the private index holds the new commit's tree
                write_atomic(self.repository.state_dir / "index.head", private_head.encode())
            self._settle()
        except Exception:  # noqa: BLE001 - the commit has landed; the paths stay waiting
            # Nothing is lost, but git's index lags behind HEAD for these paths (a person's
            # `git commit` would bring deleted files back): the intent records stay, so another
            # writer's recover() restages them, and this object restages them next time.
            return

    def holds(self, record: Path) -> bool:
        """The intent record is of a commit of this process waiting here for git's index (not
        an operation that crashed)."""
        return record in self._waiting

    @property
    def waiting(self) -> bool:
        """Landed commits wait for git's index."""
        return bool(self._waiting)

    @property
    def following(self) -> bool:
        """The follower thread runs (it ends when idle a while)."""
        return self._follower is not None

    def settle(self) -> None:
        """Bring git's index level with every landed commit waiting here (the lock is taken,
        re-entrant). JournalError when git fails; the paths then stay waiting. When the index
        update was left for later, a path changed on disk since its commit gets HEAD's entry."""
        if not self._waiting:
            return
        with self.lock.hold():
            if self.later:
                self.faults.reached("index")
            self._settle()

    def _settle(self) -> None:
        with self._guard:
            intents = list(self._waiting.values())
        # a record another process finished (it took the lock first and found it): done
        live = [i for i in intents if os.path.lexists(i.file)]
        if self.later:
            stage, from_head = self._sort_paths(live)
        else:  # at once, under the lock that wrote them: the files hold what was committed
            stage, from_head = sorted({p for i in live for p in i.paths}), []
        if from_head:
            self.reset("HEAD", from_head)
        if stage:
            self.stage(stage)
        for intent in intents:
            with contextlib.suppress(OSError):
                self.repository.intents.finish(intent)
        with self._guard:
            for intent in intents:
                self._waiting.pop(intent.file, None)
        self.release_git_lock()

    def _sort_paths(self, intents: list[Intent]) -> tuple[list[str], list[str]]:
        """(paths to stage from the work tree, paths to take from HEAD): a written path still
        holding what its operation wrote (the newest operation's, when several wrote it) is
        staged, one changed since is taken from HEAD; an adopted path is staged as it is."""
        fmt = self.commands.object_format
        wrote: dict[str, str] = {}
        adopted: set[str] = set()
        for intent in intents:
            for entry in intent.writes:
                wrote[entry.path] = entry.after
                adopted.discard(entry.path)
            for rel in intent.adopt:
                wrote.pop(rel, None)
                adopted.add(rel)
        stage, from_head = sorted(adopted), list[str]()
        worktree = self.repository.worktree
        for rel, after in wrote.items():
            try:
                now = state_id(*read_state(worktree / rel), fmt)
            except OSError:
                now = ""
            (stage if now == after else from_head).append(rel)
        return sorted(stage), sorted(from_head)

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """Hold the follower back while the caller works (the MCP server: one tool call, whose
        answer then does not share the CPU and the disk with git rewriting its index); it
        runs once every caller has left."""
        with self._guard:
            self._paused += 1
        try:
            yield
        finally:
            with self._guard:
                self._paused -= 1
                if not self._paused:
                    self._resume.notify_all()

    # -- the follower thread ----------------------------------------------------------------
    def _wake(self) -> None:
        with self._guard:
            self._due.set()
            if self._follower is None:
                self._follower = threading.Thread(target=self._follow, daemon=True,
                                                  name="memvault git index")
                self._follower.start()

    def _follow(self) -> None:
        """The follower thread: settles each time it is woken; ends when idle a while."""
        while True:
            if not self._due.wait(FOLLOWER_IDLE_SECONDS):
                with self._guard:
                    if not self._due.is_set():
                        self._follower = None
                        return
                continue
            self._due.clear()
            with self._guard:
                while self._paused:
                    self._resume.wait()
            try:
                self.settle()
            except Exception:  # noqa: BLE001 - left waiting: the next commit, close or exit
                pass           # (or another writer's recovery) brings it level
            for work in list(self.after_follow):
                with contextlib.suppress(Exception):
                    work()

    # -- git's index ------------------------------------------------------------------------
    def stage(self, rels: list[str], env: dict[str, str] | None = None) -> None:
        """``update-index`` of these repository paths from the work tree (``env``: the private
        index's; else git's own, kept split when it is big, under ``index.lock``)."""
        if env is not None:
            self.commands.with_paths(["update-index", "--add", "--remove", "--replace"], rels,
                                     env=env)
            return
        split = ["-c", "core.splitIndex=true"] if self._split_git_index() else []
        self._edit_git_index(lambda own: self.commands.with_paths(
            [*split, "update-index", "--add", "--remove", "--replace"], rels, env=own))

    def reset(self, rev: str | None, rels: list[str]) -> None:
        """These repository paths' entries as ``rev`` has them (None: none at all)."""
        if not rels:
            return
        if rev is None:
            self._edit_git_index(lambda own: self.commands.with_paths(
                ["update-index", "--force-remove"], rels, env=own))
            return

        def reset(own: dict[str, str]) -> None:
            data = "\0".join(rels).encode("utf-8", "surrogateescape") + b"\0"
            with self.commands.stdin(data) as fh:
                self.commands.output("reset", "-q", rev, "--pathspec-from-file=-",
                                     "--pathspec-file-nul", istream=fh, env=own)
        self._edit_git_index(reset)

    # -- git's index.lock -------------------------------------------------------------------
    def hold_git_lock(self) -> None:
        """Take git's own ``index.lock`` (:class:`~.index_lock.IndexLock`) until git's index
        holds every landed commit's paths (taken before ``update-ref``)."""
        self.index_lock.take()

    def release_git_lock(self) -> None:
        """Let ``index.lock`` go unless landed commits still wait for git's index."""
        if not self._waiting:
            self.index_lock.release()

    def _edit_git_index(self, run: Callable[[dict[str, str]], object]) -> None:
        """Change git's own index under ``index.lock``, as git does: on a copy, put in place
        by a rename (never half-written, never under a person's ``git add``)."""
        lock = self.index_lock
        took = not lock.held
        lock.take()
        try:
            lock.edit(run)
        finally:
            if took:
                self.release_git_lock()

    def _split_git_index(self) -> bool:
        """Whether git's own index is to be kept split (``core.splitIndex``): when it is big
        (:data:`SPLIT_INDEX_FROM` bytes, some 70,000 files) and the person's git config does not
        say otherwise. A split index is written as the few entries that changed beside a shared
        index of the rest, so staging one file no longer rewrites (and hashes) every entry."""
        if self._split_index_setting is None:
            setting = self.commands.write_settings.get("core.splitindex", "")
            self._split_index_setting = setting.strip().lower()
        if self._split_index_setting:
            return False  # the person's choice, either way: git follows it without us
        try:
            return os.stat(self.repository.git_dir / "index").st_size >= SPLIT_INDEX_FROM
        except OSError:
            return False


#: Every git index of this process, settled at exit (a follower thread is a daemon).
_INDEXES: weakref.WeakSet[GitIndex] = weakref.WeakSet()


@atexit.register
def _settle_all() -> None:
    for index in list(_INDEXES):
        with contextlib.suppress(Exception):  # left to the next writer's recovery
            index.settle()

