"""Rewriting history, for ``memvault purge`` (:mod:`core.secrets.purge`) and the sync rule that
keeps purged records out (:mod:`core.sync.purged`): the journal's only history-rewriting code.

``git-filter-repo`` (as a library, on this repository) drops paths from every commit of every
ref and hands each message to a callback. ``--partial`` keeps it from removing or renaming
remotes and from expiring reflogs; its own clean-up, a ``git reset --hard`` that would throw
away a person's uncommitted work elsewhere in the repository, is not run: :meth:`drop_from_index`
and the caller settle the index and the work tree instead."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
from collections.abc import Callable
from typing import Any

from ..errors import JournalError
from ..store.files import remove_file, write_atomic
from .git_index import GitIndex
from .plumbing import ARGV_PATH_LIMIT, GitCommands
from .repository import Repository

STASH = "refs/stash"


class Rewriting:
    """History rewriting and the ref and object bookkeeping around it (``git_index``: git's
    index, brought level with this process's commits before history or the index changes)."""

    def __init__(self, repository: Repository, commands: GitCommands, git_index: GitIndex):
        self.repository = repository
        self.commands = commands
        self.git_index = git_index

    def refs(self) -> dict[str, str]:
        """Every ref (full name) -> the object it points at."""
        out = self.commands.output("for-each-ref", "--format=%(objectname) %(refname)")
        return {ref: sha for sha, _, ref in (line.partition(" ") for line in out.splitlines())
                if ref}

    def set_ref(self, ref: str, sha: str | None) -> None:
        """Point ``ref`` at ``sha`` (None: delete it)."""
        if sha is None:
            self.commands.output("update-ref", "-d", ref)
        else:
            self.commands.output("update-ref", ref, sha)

    def touches(self, revs: list[str], paths: list[str]) -> bool:
        """A commit of ``revs`` (``git rev-list`` arguments) changed one of these repository
        paths."""
        for at in range(0, len(paths), ARGV_PATH_LIMIT):
            out = self.commands.output("rev-list", "--max-count=1", *revs, "--", *paths[at:at + ARGV_PATH_LIMIT])
            if out.strip():
                return True
        return False

    def rewrite_without(self, paths: list[str], message: Callable[[str], str]) -> None:
        """Drop these repository paths from every commit of every ref and pass every commit
        message through ``message``; commits left empty are dropped. The refs move in one
        ``update-ref --stdin`` at the end: before it nothing has changed. JournalError when
        git-filter-repo fails (the refs were not moved)."""
        import git_filter_repo as fr

        self.git_index.settle()  # a commit waiting for it must not be rewritten meanwhile

        class Rewrite(fr.RepoFilter):  # type: ignore[misc]  # git-filter-repo has no types
            def cleanup(self, *args: Any, **kwargs: Any) -> None:  # no `git reset --hard`
                return None

        git_dir = self.repository.git_dir
        shutil.rmtree(git_dir / "filter-repo", ignore_errors=True)
        listing = self.repository.state_dir / "rewrite-paths.txt"
        write_atomic(listing, "".join(f"literal:{p}\n" for p in paths).encode(
            "utf-8", "surrogateescape"))

        def callback(raw: bytes) -> bytes:
            text = raw.decode("utf-8", "surrogateescape")
            return message(text).encode("utf-8", "surrogateescape")

        args = fr.FilteringOptions.parse_args(
            ["--force", "--partial", "--quiet", "--invert-paths", "--paths-from-file",
             str(listing), "--replace-refs", "delete-no-add"], error_on_empty=False)
        old = os.getcwd()
        try:
            os.chdir(self.repository.worktree)
            with contextlib.redirect_stdout(io.StringIO()):
                Rewrite(args, message_callback=callback).run()
        except SystemExit as exc:
            raise JournalError(f"git-filter-repo failed ({exc}); no ref was moved") from None
        finally:
            os.chdir(old)
            remove_file(listing)
            shutil.rmtree(git_dir / "filter-repo", ignore_errors=True)

    def drop_from_index(self, paths: list[str]) -> None:
        """These repository paths out of git's index; memvault's private index is made anew
        from HEAD by the next commit."""
        self.git_index.settle()
        self.commands.with_paths(["update-index", "--force-remove"], paths)
        self.commands.forget_private_index()
        remove_file(self.repository.state_dir / "index")

    def forget_transient_heads(self) -> None:
        """``ORIG_HEAD`` and ``FETCH_HEAD`` may name commits of a history rewritten since."""
        git_dir = self.repository.git_dir
        for name in ("ORIG_HEAD", "FETCH_HEAD"):
            remove_file(git_dir / name)

    def expire_and_prune(self) -> None:
        """Expire every reflog now (not ``refs/stash``'s: a person's stashes; a ref without a
        reflog has nothing to expire) and prune every object no ref reaches any more (``git gc
        --prune=now``)."""
        logged = [r for r in ["HEAD", *self.refs()] if r != STASH and self._has_reflog(r)]
        if logged:  # `git reflog expire` fails on a ref without a reflog (a tag, by default)
            self.commands.output("reflog", "expire", "--expire=now", "--expire-unreachable=now", *logged)
        self.commands.output("gc", "--prune=now", "--quiet")

    def forget_fetch(self, ref: str, before: str | None) -> None:
        """Put a remote-tracking ``ref`` back at ``before`` (None: delete it) and prune the
        objects only the fetch since had brought: the entries of that ref's reflog no longer
        reachable from it are expired (no other reflog is touched), then ``git gc
        --prune=now``."""
        self.set_ref(ref, before)
        if before is not None and self._has_reflog(ref):
            self.commands.output("reflog", "expire", "--expire=never", "--expire-unreachable=now", ref)
        self.commands.output("gc", "--prune=now", "--quiet")

    def _has_reflog(self, ref: str) -> bool:
        """``ref`` has a reflog (a file under ``logs/``: HEAD's in this worktree's git
        directory, every other ref's in the common one)."""
        base = self.repository.git_dir if ref == "HEAD" else self.repository.common_dir
        return (base / "logs" / ref).is_file()
