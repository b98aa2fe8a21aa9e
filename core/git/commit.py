"""Committing: one operation, one commit, through a private index or trees built from the parent
commit's; a failure before the commit point puts every path back (see :mod:`core.git.journal`
for the steps)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..errors import ChangedMeanwhileError, HeadMovedError, JournalError
from ..store.checked_replace import ChangedOnDiskError, replace_checked, stat_key
from ..store.files import remove_file, remove_many, write_atomic, write_atomic_many
from ..textutil import neutralise_line
from .blobs import ObjectStore
from .entries import commit_message
from .faults import FaultPoints
from .git_index import GitIndex
from .intent import ABSENT, Intent, PathIntent, read_state, rollback_rule, state_id
from .lock import WriteLock
from .plumbing import ZERO_OID, GitCommands, reason
from .repository import Repository
from .status import WorkTree
from .trees import SUBMODULE, TREE, NeedsIndex, Raw, TreeWriter
from .tree_order import OrderedTree

#: More files than this in one commit are written with one flush for all (write_atomic_many).
BATCH_WRITES = 64


@dataclass(frozen=True)
class LandedCommit:
    """A commit :meth:`Committer.commit` made, as it knows it without asking git: told to the
    listeners of :attr:`Committer.landed` (the MCP server's change watcher: it announces the
    memories a commit changed without diffing the commit's trees again)."""

    pre: str | None  # its parent (None: the first commit)
    new: str
    #: (``A``, ``M`` or ``D``; the path relative to the vault root; the bytes it holds now, or
    #: for ``D`` the bytes it held) of each path written
    changes: tuple[tuple[str, str, bytes], ...]
    #: paths taken as they were in the work tree: what they hold is git's to say
    adopted: tuple[str, ...] = ()


class Committer:
    """``commit`` and putting the vault back when it fails; git's own index is told of each
    landed commit through ``git_index`` (:class:`~.git_index.GitIndex`: at once, or just after)."""

    def __init__(self, repository: Repository, commands: GitCommands, objects: ObjectStore,
                 work_tree: WorkTree, lock: WriteLock, faults: FaultPoints, git_index: GitIndex):
        self.repository = repository
        self.commands = commands
        self.objects = objects
        self.work_tree = work_tree
        self.lock = lock
        self.faults = faults
        self.git_index = git_index
        #: Build every commit's tree on the private index (the whole vault's paths), as memvault
        #: did before trees were built from the parent commit's (:mod:`.trees`); tests compare
        #: the two.
        self.trees_from_index = False
        #: The trees on the paths the last landed commit changed, parsed, by id: the next
        #: commit, whose parent that commit usually is, starts from them instead of reading and
        #: parsing them again (``memories/`` of a flat vault of 10,000 memories is 0.7 MB).
        self._trees_of_last: dict[str, dict[bytes, Raw]] = {}
        self._ordered_of_last: dict[str, OrderedTree] = {}
        #: Called with a :class:`LandedCommit` once each commit has landed (a listener's
        #: failure never fails the commit: it has landed).
        self.landed: list[Callable[[LandedCommit], None]] = []
        #: The :func:`~core.store.checked_replace.stat_key` of each file the last commit wrote
        #: (what it wrote, even if a person's save replaced it since): the writer notes these as
        #: seen, never what is on disk after, which may be that save.
        self.written: dict[Path, tuple[int, int, int]] = {}

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
        """Write (bytes) or remove (None) each path in ``writes``, take ``adopt`` paths as they are
        in the work tree, and record all of it as ONE commit. A path is written only if it still
        holds what was read here at the start (:mod:`core.store.checked_replace`), and, for the
        paths in ``seen``, only if it is still the file the caller last saw (its stat key): a
        person's save made since is never written over; ChangedMeanwhileError (a JournalError)
        then says so, everything already written put back, theirs kept. ``via`` (who writes: ``mcp/<client>``)
        and ``tool`` (which of its tools: ``save_memory``) become the commit's trailers
        ``Memvault-Via`` and ``Memvault-Tool``. Returns the new HEAD, or the old one
        when nothing changed. On failure before the commit point every written path is put back
        (never a path that was only adopted) and JournalError is raised; if putting back fails
        too (a full disk), the intent record stays and the next writer finishes the rollback.
        The caller holds :meth:`lock`."""
        if not self.lock.held:
            raise RuntimeError("Journal.commit called without holding the lock")
        self.work_tree.check_writable()
        message = commit_message(message, via, tool)
        writes = dict(writes or {})
        adopted = [p for p in adopt if p not in writes]
        self.written = {}
        try:
            previous = {path: read_state(path) for path in writes}
        except OSError as exc:
            raise JournalError(f"could not read {exc.filename or 'a vault file'} before writing "
                               f"it: {exc.strerror or exc}; nothing was changed") from None
        # read, then compared: a save after the look is a new inode (or time, or size)
        moved = [p for p, key in (seen or {}).items() if p in writes and stat_key(p) != key]
        if moved:
            raise self._changed(moved[0])
        if not adopted and all(previous[p] == (("file", d) if d is not None else (ABSENT, None))
                               for p, d in writes.items()):
            return self.commands.head()  # nothing would change: no empty commit
        # git's index.lock from here until git's index holds these paths (:mod:`.index_lock`):
        # a person's `git commit` meanwhile would commit an index behind HEAD (or move HEAD
        # under this commit); one that holds it now is waited for, before HEAD is read
        self.git_index.hold_git_lock()
        try:
            pre = self.commands.head()
            trees = self.tree_writer()
            intent = self._begin(pre, message, writes, previous, adopted, trees)
        except BaseException:
            self.git_index.release_git_lock()
            raise
        rels = [w.path for w in intent.writes] + intent.adopt
        try:
            if len(writes) > BATCH_WRITES:  # one flush for all the files, then the removals
                write_atomic_many([(p, d) for p, d in writes.items() if d is not None],
                                  before_each=lambda: self.faults.reached("write"))
                remove_many([p for p, d in writes.items() if d is None],
                            before_each=lambda: self.faults.reached("write"))
            else:
                for path, data in writes.items():
                    self.faults.reached("write")
                    key = replace_checked(path, data, previous[path])
                    if key is not None:
                        self.written[path] = key
            tree, base_tree = self._new_tree(pre, rels, trees)
            if not writes and pre is not None and tree == base_tree:
                self.repository.intents.finish(intent)  # adopted files that already match HEAD: no commit
                self.git_index.release_git_lock()
                return pre
            self.faults.reached("commit-tree")
            parents = ["-p", pre] if pre else []
            new = self.commands.output("commit-tree", "--no-gpg-sign", tree, *parents, "-m", message,
                            env=self.commands.identity())
            self.faults.reached("update-ref")
            try:
                self.commands.output("update-ref", "-m", f"memvault: {message.splitlines()[0]}",
                                     "HEAD", new, pre or ZERO_OID)
            except Exception:
                if self.commands.head() != pre:  # lost the compare-and-swap: someone committed
                    raise HeadMovedError(self._moved_message()) from None
                raise
        except BaseException as exc:
            self._trees_of_last, self._ordered_of_last = {}, {}
            self.written = {}  # (put back: what is on disk is the rollback's)
            with contextlib.suppress(OSError):
                self.git_index.release_git_lock()
            self.undo(intent, exc)
            if isinstance(exc, ChangedOnDiskError):
                raise self._changed(exc.path) from None
            if isinstance(exc, HeadMovedError):
                raise
            raise as_journal_error(exc) from exc
        # The commit landed. What follows only makes git's own index agree with it (at once, or
        # just after: the intent record stays until it does).
        self._trees_of_last = trees.made if trees is not None else {}
        self._ordered_of_last = trees.ordered_made if trees is not None else {}
        self._tell_landed(pre, new, writes, previous, adopted)
        self.git_index.landed(intent, private_head=new if trees is None else None)
        return new

    def _changed(self, path: Path) -> ChangedMeanwhileError:
        rel = self.repository.vault_rel(self.repository.relpath(path))
        return ChangedMeanwhileError(
            f"{neutralise_line(rel)} changed on disk while memvault was about to write it "
            "(someone saved it): it is kept as they left it, and nothing of this operation was "
            "written", path)

    def _moved_message(self) -> str:
        return (f"someone committed in {self.repository.worktree} (a `git commit`?) while memvault "
                "was committing: everything memvault wrote was put back and nothing of this "
                "operation was committed; run it again")

    def _tell_landed(self, pre: str | None, new: str, writes: dict[Path, bytes | None],
                     previous: dict[Path, tuple[str, bytes | None]], adopted: list[Path]) -> None:
        if not self.landed:
            return
        vault_rel = self.repository.vault_rel
        changes = []
        for path, data in writes.items():
            kind, old = previous[path]
            if data is None:
                if kind != ABSENT:
                    changes.append(("D", vault_rel(self.repository.relpath(path)), old or b""))
            elif (kind, old) != ("file", data):
                changes.append(("A" if kind == ABSENT else "M",
                                vault_rel(self.repository.relpath(path)), data))
        landed = LandedCommit(pre, new, tuple(changes),
                              tuple(vault_rel(self.repository.relpath(p)) for p in adopted))
        for listener in list(self.landed):
            with contextlib.suppress(Exception):  # the commit has landed whatever it does
                listener(landed)

    def tree_writer(self) -> TreeWriter | None:
        """A :class:`~.trees.TreeWriter` for one commit (its trees are read through GitPython's
        persistent ``cat-file``), or None when commits go through the private index: a sha256
        repository (GitPython's reader knows sha1 only), ``core.symlinks`` off, or
        :attr:`trees_from_index` set."""
        commands = self.commands
        if self.trees_from_index or commands.object_format != "sha1" or not commands.has_symlinks:
            return None  # (without symbolic links git keeps a link's mode on a file: the index)
        def read_tree(oid: str) -> bytes:
            kind, data = self.commands.read_object(oid)
            if kind != b"tree":
                raise JournalError(f"git object {oid} is a {kind.decode()}, not a tree")
            return data

        def write_trees(trees: list[bytes]) -> list[str]:
            return self.commands.object_writer.write_objects("tree", trees)

        def hash_files(rels: list[str]) -> list[str]:
            return self.commands.object_writer.write("blob", rels)

        def read_trees(oids: list[str]) -> dict[str, bytes]:
            return self.objects.read_blobs(oids, limit=None)  # one ``cat-file --batch`` for them all

        return TreeWriter(read_tree, write_trees, hash_files, "sha1", commands.trust_executable_bit,
                          read_trees, known=self._trees_of_last,
                          ordered=self._ordered_of_last)

    def _new_tree(self, pre: str | None, rels: list[str], trees: TreeWriter | None
                  ) -> tuple[str, str | None]:
        """The tree of the new commit (``pre``'s with ``rels`` as the work tree has them) and
        ``pre``'s tree. Built from ``pre``'s trees when it can be (cost: the changed files and
        the trees on their paths), else on the private index (cost: the whole vault)."""
        base_tree = self._commit_tree_of(pre, trees)
        self.faults.reached("stage")
        tree = None
        if trees is not None:
            with contextlib.suppress(NeedsIndex):
                tree = trees.build(base_tree, self.repository.worktree, rels)
        if tree is None:
            self._stage(rels, base=pre)
        self.faults.reached("write-tree")
        if tree is None:
            tree = self.commands.output("write-tree", env=self.commands.private_env())
        return tree, base_tree

    def _commit_tree_of(self, commit: str | None, trees: TreeWriter | None) -> str | None:
        if commit is None:
            return None
        if trees is None:
            return self.commands.output("rev-parse", f"{commit}^{{tree}}")
        kind, data = self.commands.read_object(commit)
        if kind != b"commit" or not data.startswith(b"tree "):
            raise JournalError(f"git object {commit} is not a commit")
        return data[5:data.index(b"\n")].decode()

    def _begin(self, pre: str | None, message: str, writes: dict[Path, bytes | None],
               previous: dict[Path, tuple[str, bytes | None]], adopted: list[Path],
               trees: TreeWriter | None = None) -> Intent:
        """Record the intent (before any vault file is touched). Every earlier state must be
        restorable from git: a state that is not the one at ``pre`` is stored as a blob first."""
        fmt = self.commands.object_format
        entries = []
        for path, data in writes.items():
            kind, old = previous[path]
            after = ABSENT if data is None else state_id("file", data, fmt)
            entries.append(PathIntent(self.repository.relpath(path), state_id(kind, old, fmt), after))
        try:
            known = [e.path for e in entries if e.before != ABSENT]
            if trees is not None and pre is not None:
                at_pre = {rel: oid for rel, (mode, oid) in trees.lookup(
                    self._commit_tree_of(pre, trees), known).items() if mode not in (TREE, SUBMODULE)}
            else:
                at_pre = self.objects.blob_ids(pre, known)
            for entry, (path, _) in zip(entries, writes.items()):
                kind, old = previous[path]
                if kind in ("file", "link") and entry.before.split(":", 1)[1] != at_pre.get(entry.path):
                    self.objects.write_blob(old or b"")  # e.g. a file that was never committed
            return self.repository.intents.begin("commit", pre, message, entries,
                                      [self.repository.relpath(p) for p in adopted])
        except (OSError, JournalError) as exc:
            raise JournalError(f"could not record the operation before starting it "
                               f"({reason(exc)}); nothing was changed") from None

    def undo(self, intent: Intent, cause: BaseException | None = None) -> list[str]:
        """Put back what the operation of ``intent`` wrote (see :func:`core.git.intent.rollback_rule`)
        and remove the record. On failure the record stays (the next writer finishes it) and
        JournalError says so. Returns the paths kept because someone else changed them since."""
        try:
            kept = self._put_back(intent)
            if intent.kind == "sync":  # git's index followed the work tree: bring it back too
                self.reset_index(intent.pre_head, [w.path for w in intent.writes])
            self.repository.intents.finish(intent)
        except BaseException as exc:
            before = f"{reason(cause)}; " if cause is not None else ""
            raise JournalError(
                f"{before}putting the vault back failed too ({reason(exc)}): the operation's "
                f"record is kept in {intent.file.parent} and the next memvault command finishes "
                "putting it back; free the disk space (or fix the error) first") from exc
        return kept

    def _put_back(self, intent: Intent) -> list[str]:
        fmt = self.commands.object_format
        restore: dict[str, str] = {}
        kept = []
        for entry in intent.writes:
            self.faults.reached("rollback")
            path = self.repository.worktree / entry.path
            kind, data = read_state(path)
            action = rollback_rule(entry, state_id(kind, data, fmt))
            if action == "restore":
                restore[entry.path] = entry.before
            elif action == "foreign":
                kept.append(entry.path)
        blobs = self.objects.read_blobs((b.split(":", 1)[1] for b in restore.values() if b != ABSENT),
                                limit=None)
        gone = [self.repository.worktree / rel for rel, b in restore.items() if b == ABSENT]
        # the files the operation added, removed together (an import interrupted after its
        # 5,000 files were in place spent 12 s removing them one by one on a busy disk)
        remove_many(gone, before_each=lambda: self.faults.reached("rollback-write"))
        for rel, before in restore.items():
            if before == ABSENT:
                continue
            self.faults.reached("rollback-write")
            path = self.repository.worktree / rel
            kind, sha = before.split(":", 1)
            if sha not in blobs:
                raise JournalError(f"the earlier version of {rel} (blob {sha[:12]}) is missing")
            if kind == "link":
                _replace_with_link(path, os.fsdecode(blobs[sha]))
            else:
                write_atomic(path, blobs[sha])
        return kept

    def reset_index(self, rev: str | None, rels: list[str]) -> None:
        """git's index entries of ``rels`` as ``rev`` has them (None: none)."""
        self.git_index.reset(rev, rels)

    def _stage(self, rels: list[str], *, base: str | None = None) -> None:
        """Stage ``rels`` on the private index, read from ``base`` first unless it holds it."""
        env = self.commands.private_env()
        state = self.repository.state_dir / "index.head"
        try:
            known = state.read_text().strip()
        except FileNotFoundError:
            known = ""
        # ``index.head`` says which commit the private index holds; it is removed before the
        # index is changed and written again only once a commit has landed, so a crash
        # half-way can never leave it vouching for an index that holds other paths.
        self.commands.forget_private_index()
        if known != (base or "unborn") or not (self.repository.state_dir / "index").exists():
            if base:
                self.commands.output("read-tree", base, env=env)
            else:
                self.commands.output("read-tree", "--empty", env=env)
        self.git_index.stage(rels, env=env)


def as_journal_error(exc: BaseException) -> BaseException:
    if isinstance(exc, JournalError) or not isinstance(exc, Exception):
        return exc
    if isinstance(exc, OSError):
        where = f" ({exc.filename})" if exc.filename else ""
        return JournalError(f"writing the vault failed: {exc.strerror or exc}{where}; "
                            "nothing was changed")
    return exc



def _replace_with_link(path: Path, target: str) -> None:
    scratch = path.with_name(f".tmp-link-{os.getpid()}-{path.name}")
    remove_file(scratch)
    os.symlink(target, scratch)
    os.replace(scratch, path)
