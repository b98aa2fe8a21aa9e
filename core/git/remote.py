"""Sync plumbing for :mod:`core.sync`: config, remotes, fetch and push, trees and merges, and
moving HEAD to a merged commit with the same intent records as any commit. The lock is the
caller's."""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..errors import JournalError
from ..store.layout import remove_file
from ..store.private import make_paths_private
from ..textutil import neutralise_controls
from .intent import ABSENT, PathIntent

if TYPE_CHECKING:  # GitPython is imported lazily: reading a vault needs no git
    pass
from .entries import MergeTreeResult, TreeChange
from .trees import NeedsIndex
from .plumbing import ZERO_OID, one_line, reason


class Remote:
    """What sync needs from git."""

    def _git_rc(self, *args: str, env: dict[str, str] | None = None,
                istream: Any = None) -> tuple[int, str, str]:
        """Run git and return (status, stdout, stderr) instead of raising on a non-zero status."""
        return self._run(*args, env=env, istream=istream, check=False)

    def config_get(self, key: str) -> str | None:
        status, out, _ = self._git_rc("config", "--local", "--get", key)
        return out if status == 0 else None

    def shared_on_purpose(self) -> bool:
        """The person shares this repository with others on purpose (``core.sharedRepository``
        group, all or a mode other than 0600): memvault then leaves modes as they are."""
        shared = (self.config_get("core.sharedRepository") or "").strip().lower()
        return shared not in ("", "0600", "false", "umask", "0", "no", "off")

    def config_set(self, key: str, value: str) -> None:
        """Set ``key`` in the clone's own git config (``.git/config``), never a global one."""
        self._git("config", "--local", key, value)

    def operation_in_progress(self) -> bool:
        """A person's git merge, rebase, cherry-pick or revert that is not finished."""
        git_dir = self.git_dir
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
            raise JournalError(f"git fetch {remote} failed: {one_line(err)}")
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
        raise JournalError(f"git push {remote} failed: {one_line(err or out)}")

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

    def entries_at(self, rev: str, paths: Iterable[str]) -> dict[str, str]:
        """Repository path -> mode of each of ``paths`` itself at ``rev`` (a folder is 040000,
        a link 120000; an absent path is left out). Not recursive."""
        out = self._git("ls-tree", "-z", "--full-tree", rev, "--", *paths)
        found = {}
        for entry in out.split("\0"):
            info, _, path = entry.partition("\t")
            if entry:
                found[path] = info.split()[0]
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

    def write_blob(self, data: bytes) -> str:
        """Store ``data`` as a blob (as is, no filters); its object id."""
        with self._stdin(data) as fh:
            return self._git("hash-object", "-w", "--no-filters", "--stdin", istream=fh)

    def build_tree(self, base_tree: str, entries: dict[str, tuple[str, str] | None]) -> str:
        """``base_tree`` with each repository path set to (mode, blob) or removed (None); the
        new tree's id. Built from ``base_tree``'s own trees (:mod:`.trees`: the cost follows the
        paths set), or on a scratch index in the git directory when only the index can do it."""
        if not entries:
            return base_tree
        trees = self._tree_writer()
        if trees is not None:
            try:
                return trees.build_entries(base_tree, entries)
            except NeedsIndex:
                pass
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
                               f"{one_line(err)} (commit or stash them, then sync again)")
        entries = [PathIntent(path, _entry_state(change.old), _entry_state(change.new))
                   for path, change in sorted(self.tree_changes(pre, new).items())]
        try:
            intent = self.intents.begin("sync", pre, message, entries, [], target=new)
        except OSError as exc:
            raise JournalError(f"could not record the sync before starting it ({reason(exc)}); "
                               "nothing was changed") from None
        try:
            self._fault("advance-read-tree")
            self._git("read-tree", "-m", "-u", pre, new)
            # git checks out 0644 under umask 022
            make_paths_private(self.worktree, changed, self.shared_on_purpose)
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



def _entry_state(entry: tuple[str, str] | None) -> str:
    """A tree entry (mode, blob id) as an intent state (see :mod:`core.git.intent`)."""
    if entry is None:
        return ABSENT
    mode, sha = entry
    return f"link:{sha}" if mode == "120000" else f"file:{sha}" if mode.startswith("100") else "other"
