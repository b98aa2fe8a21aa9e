"""Sync plumbing for :mod:`core.sync`: config, remotes, fetch and push, trees and merges, and
moving HEAD to a merged commit with the same intent records as any commit. The lock is the
caller's."""

from __future__ import annotations

import contextlib

from ..errors import JournalError
from ..store.files import remove_file
from ..store.private import make_paths_private
from ..textutil import neutralise_controls
from .blobs import ObjectStore
from .commit import Committer, as_journal_error
from .entries import MergeTreeResult
from .faults import FaultPoints
from .intent import ABSENT, PathIntent
from .lock import WriteLock
from .plumbing import ZERO_OID, GitCommands, one_line, reason
from .reading import HistoryReader
from .repository import Repository
from .status import WorkTree
from .trees import NeedsIndex


class Remote:
    """What sync needs from git: the remotes, fetch and push, merging trees and moving HEAD to
    the merged commit (putting paths back through ``committer`` when that fails)."""

    def __init__(self, repository: Repository, commands: GitCommands, history: HistoryReader,
                 work_tree: WorkTree, committer: Committer, lock: WriteLock,
                 faults: FaultPoints):
        self.repository = repository
        self.commands = commands
        self.history = history
        self.objects: ObjectStore = history.objects
        self.work_tree = work_tree
        self.committer = committer
        self.lock = lock
        self.faults = faults

    def config_set(self, key: str, value: str) -> None:
        """Set ``key`` in the clone's own git config (``.git/config``), never a global one."""
        self.commands.output("config", "--local", key, value)

    def current_branch(self) -> str | None:
        status, out, _ = self.commands.try_run("symbolic-ref", "-q", "--short", "HEAD")
        return out if status == 0 and out else None

    def upstream(self, branch: str) -> tuple[str, str] | None:
        """(remote, remote branch) the branch tracks, from the clone's config."""
        remote = self.commands.config_get(f"branch.{branch}.remote")
        merge = self.commands.config_get(f"branch.{branch}.merge")
        if not remote or remote == "." or not merge:
            return None
        return remote, merge.removeprefix("refs/heads/")

    def remotes(self) -> list[str]:
        return [r for r in self.commands.output("remote").splitlines() if r]

    def fetch(self, remote: str, branch: str) -> str | None:
        """Fetch ``branch`` from ``remote`` into ``refs/remotes/<remote>/<branch>``; the commit it
        points at, or None when the remote has no such branch (yet)."""
        tracking = f"refs/remotes/{remote}/{branch}"
        status, _, err = self.commands.try_run("fetch", "--quiet", "--no-tags", "--no-write-fetch-head",
                                      remote, f"+refs/heads/{branch}:{tracking}")
        if status != 0:
            if "couldn't find remote ref" in err:
                return None
            raise JournalError(f"git fetch {remote} failed: {one_line(err)}")
        return self.history.rev_parse(tracking)

    def push(self, remote: str, commit: str, branch: str) -> str:
        """Push ``commit`` to ``remote``'s ``branch``: "pushed", or "rejected" when the remote
        moved on since the last fetch (fetch and merge again). Other failures raise."""
        status, out, err = self.commands.try_run("push", "--porcelain", remote,
                                        f"{commit}:refs/heads/{branch}")
        if status == 0:
            self.commands.output("update-ref", f"refs/remotes/{remote}/{branch}", commit)
            return "pushed"
        text = f"{out}\n{err}"
        if "[rejected]" in text or "fetch first" in text or "non-fast-forward" in text:
            return "rejected"
        raise JournalError(f"git push {remote} failed: {one_line(err or out)}")

    def merge_tree(self, ours: str, theirs: str, *, env: dict[str, str] | None = None,
                   allow_unrelated: bool = False) -> MergeTreeResult:
        """``git merge-tree --write-tree``: merge two commits without touching the work tree or
        any index (merge drivers run as configured). Returns the merged tree (conflicted files
        hold what git or the driver left in them) and the conflicted paths' stages."""
        args = ["merge-tree", "--write-tree", "-z", "--messages"]
        if allow_unrelated:
            args.append("--allow-unrelated-histories")
        status, out, err = self.commands.try_run(*args, ours, theirs, env=env)
        if status not in (0, 1) or not out:
            raise JournalError(f"git merge-tree failed: {one_line(err or out)}")
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

    def build_tree(self, base_tree: str, entries: dict[str, tuple[str, str] | None]) -> str:
        """``base_tree`` with each repository path set to (mode, blob) or removed (None); the
        new tree's id. Built from ``base_tree``'s own trees (:mod:`.trees`: the cost follows the
        paths set), or on a scratch index in the git directory when only the index can do it."""
        if not entries:
            return base_tree
        trees = self.committer.tree_writer()
        if trees is not None:
            try:
                return trees.build_entries(base_tree, entries)
            except NeedsIndex:
                pass
        env = {"GIT_INDEX_FILE": str(self.repository.state_dir / "merge-index")}
        try:
            self.commands.output("read-tree", base_tree, env=env)
            lines = []
            for path, value in sorted(entries.items()):
                mode, sha = value if value is not None else ("0", ZERO_OID)  # mode 0: remove
                lines.append(f"{mode} {sha}\t{path}")
            with self.commands.stdin("\0".join(lines).encode("utf-8", "surrogateescape") + b"\0") as fh:
                self.commands.output("update-index", "-z", "--index-info", env=env, istream=fh)
            return self.commands.output("write-tree", env=env)
        finally:
            remove_file(self.repository.state_dir / "merge-index")

    def commit_tree(self, tree: str, parents: list[str], message: str) -> str:
        message = neutralise_controls(message, single_line=False)
        args = [a for p in parents for a in ("-p", p)]
        return self.commands.output("commit-tree", "--no-gpg-sign", tree, *args, "-m", message,
                         env=self.commands.identity())

    def advance(self, pre: str, new: str, message: str) -> list[str]:
        """Move HEAD from ``pre`` to ``new`` (a merge commit, or a fast-forward), bringing the
        work tree and git's index along for the paths that differ; files the person changed
        and did not commit are never overwritten (JournalError, nothing changed). Order as in
        :meth:`commit`: intent record, files, then the ref (compare-and-swap), so a crash in
        between is rolled back by :meth:`recover`. Returns the repository paths it changed.
        The caller holds :meth:`lock`."""
        if not self.lock.held:
            raise RuntimeError("Remote.advance called without holding the lock")
        changed = sorted(self.objects.tree_changes(pre, new))
        self.work_tree.check_writable()
        self.committer.git_index.settle()  # read-tree -m reads git's index
        self.commands.try_run("update-index", "-q", "--refresh")
        status, _, err = self.commands.try_run("read-tree", "-m", "-u", "-n", pre, new)
        if status != 0:
            raise JournalError("the merge would overwrite changes that are not committed: "
                               f"{one_line(err)} (commit or stash them, then sync again)")
        entries = [PathIntent(path, _entry_state(change.old), _entry_state(change.new))
                   for path, change in sorted(self.objects.tree_changes(pre, new).items())]
        try:
            intent = self.repository.intents.begin("sync", pre, message, entries, [], target=new)
        except OSError as exc:
            raise JournalError(f"could not record the sync before starting it ({reason(exc)}); "
                               "nothing was changed") from None
        try:
            self.faults.reached("advance-read-tree")
            self.commands.output("read-tree", "-m", "-u", pre, new)
            # git checks out 0644 under umask 022
            make_paths_private(self.repository.worktree, changed, self.work_tree.shared_on_purpose)
            self.faults.reached("advance-update-ref")
            self.commands.output("update-ref", "-m", f"memvault: {message.splitlines()[0]}", "HEAD", new,
                      pre)
        except BaseException as exc:
            if self.commands.head() == pre:
                self.committer.undo(intent, exc)
            raise as_journal_error(exc) from exc
        with contextlib.suppress(OSError):
            self.repository.intents.finish(intent)
        return changed


def _entry_state(entry: tuple[str, str] | None) -> str:
    """A tree entry (mode, blob id) as an intent state (see :mod:`core.git.intent`)."""
    if entry is None:
        return ABSENT
    mode, sha = entry
    return f"link:{sha}" if mode == "120000" else f"file:{sha}" if mode.startswith("100") else "other"
