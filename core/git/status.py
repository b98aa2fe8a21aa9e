"""The state of the work tree memvault writes into: whether git's state allows a write now (no
detached HEAD, no merge or rebase under way), the privacy of the git directory, and which vault
files differ from HEAD (``git status`` of the vault's own paths)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import JournalError, VaultError
from .git_index import GitIndex
from .plumbing import ARGV_PATH_LIMIT, GitCommands, abandon, finish
from .repository import PRIVATE_MODE, Repository


class WorkTree:
    """The work tree and git directory of ``repository``, as a writer must check them
    (``git_index``: git's index, brought level with this process's commits before git's
    status reads it)."""

    def __init__(self, repository: Repository, commands: GitCommands, git_index: GitIndex):
        self.repository = repository
        self.commands = commands
        self.git_index = git_index

    def ensure_private(self) -> bool:
        """Keep everything under the git directory out of other local users' reach: the git
        directory is made 0700 (one ``stat`` when it already is), so its objects, refs and
        memvault's own files cannot be read whatever their own modes. Not when the person shares
        the repository on purpose (``core.sharedRepository`` group, all or an octal mode other
        than 0600). A repository memvault creates is also made with ``--shared=0600`` (git
        then creates its files 0600 and folders 0700). Returns True when it changed a mode."""
        git_dir = self.repository.common_dir
        mode = os.stat(git_dir).st_mode
        if not mode & 0o077:
            return False
        shared = (self.commands.config_get("core.sharedRepository") or "").strip().lower()
        if shared not in ("", PRIVATE_MODE, "false", "umask", "0", "no", "off"):
            return False  # shared on purpose: the person's choice
        os.chmod(git_dir, mode & 0o700)
        return True

    def shared_on_purpose(self) -> bool:
        """The person shares this repository with others on purpose (``core.sharedRepository``
        group, all or a mode other than 0600): memvault then leaves modes as they are."""
        shared = (self.commands.config_get("core.sharedRepository") or "").strip().lower()
        return shared not in ("", "0600", "false", "umask", "0", "no", "off")

    def write_refusal(self) -> str | None:
        """Why git's state forbids a write now (HEAD detached, a merge, rebase, cherry-pick,
        revert or bisect in progress), naming the git command that ends it; None when writing
        is safe. A commit made then would be lost when the person's operation ends."""
        git_dir = self.repository.git_dir
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
                return (f"{what} is in progress in {self.repository.worktree}: memvault does not write "
                        f"until it ends; run {ends}, then try again")
        try:
            text = (git_dir / "HEAD").read_text().strip()
        except OSError:
            return None
        if not text.startswith("ref: "):
            return (f"HEAD is detached (at {text[:8]}) in {self.repository.worktree}: memvault writes only "
                    "on a branch; run `git switch <branch>` (or `git switch -c <new-branch>` to "
                    "keep this commit), then try again")
        return None

    def check_writable(self) -> None:
        refusal = self.write_refusal()
        if refusal:
            raise JournalError(refusal)

    def operation_in_progress(self) -> bool:
        """A person's git merge, rebase, cherry-pick or revert that is not finished."""
        git_dir = self.repository.git_dir
        return any((git_dir / name).exists() for name in (
            "MERGE_HEAD", "rebase-merge", "rebase-apply", "CHERRY_PICK_HEAD", "REVERT_HEAD"))

    def start_status(self, paths: list[Path]) -> Any:
        """Start ``git status`` for the vault paths in the background; pass the handle to
        :meth:`finish_status`. Lets git stat the files while Python reads them. Many paths are
        never put on the command line: git looks at the whole vault and the answer is filtered."""
        # (nothing to do unless this process left an update for later; if git fails, the
        # answer is still right: it is compared with HEAD itself below)
        with contextlib.suppress(VaultError):
            self.git_index.settle()
        rels = [self.repository.relpath(p) for p in paths]
        spec = rels if len(rels) <= ARGV_PATH_LIMIT else [self.repository.rel_root]
        started = self.commands.start("status", "--porcelain=v1", "-z", "--untracked-files=all",
                              "--no-renames", "--ignored=no", "--", *spec)
        return started, (None if spec is rels else set(rels))

    @contextlib.contextmanager
    def status_running(self, paths: list[Path]) -> Iterator[Any]:
        """:meth:`start_status` for the block, whose handle it gives; a block that fails before
        :meth:`finish_status` read the answer ends that ``git status`` (no process or pipe left)."""
        handle = self.start_status(paths)
        try:
            yield handle
        except BaseException:
            abandon(handle[0])
            raise

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
        head = self.commands.head()
        if head is None:
            return sorted(self.repository.vault_rel(c) for c in candidates)
        spec = sorted(candidates) if len(candidates) <= ARGV_PATH_LIMIT else [self.repository.rel_root]
        out = self.commands.output("diff", "--name-only", "--no-renames", "-z", head, "--", *spec)
        tracked = {p for p in out.split("\0") if p}
        untracked = self.commands.output("ls-files", "--others", "-z", "--", *spec)
        changed = (tracked | {p for p in untracked.split("\0") if p}) & candidates
        return sorted(self.repository.vault_rel(p) for p in changed)
