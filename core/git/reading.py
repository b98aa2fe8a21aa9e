"""Reading history: a file's log, any version, names ever used, every commit with its changes,
what changed between two commits, and how commits relate (ancestors, merge bases, counts)."""

from __future__ import annotations

from pathlib import Path

from ..errors import JournalError
from .blobs import ObjectStore
from .entries import CommitChanges, FileChange, HistoryEntry
from .plumbing import ZERO_OID, GitCommands
from .repository import Repository


class HistoryReader:
    """The history of the vault's paths, read through ``commands``; file contents through
    ``objects``."""

    def __init__(self, repository: Repository, commands: GitCommands, objects: ObjectStore):
        self.repository = repository
        self.commands = commands
        self.objects = objects

    def log(self, path: Path | list[Path], limit: int | None = None) -> list[HistoryEntry]:
        """Every commit that created, changed or deleted ``path``, newest first (the newest
        ``limit`` only: git stops walking there). Several paths: one record's files (a memory
        in both layouts), a commit removing one and adding another is a move (``moved``)."""
        rels = [self.repository.relpath(p) for p in (path if isinstance(path, list) else [path])]
        if self.commands.head() is None:
            return []
        count = [f"--max-count={int(limit)}"] if limit is not None else []
        out = self.commands.output("log", *count, "--format=%x1e%H%x1f%at%x1f%an%x1f%B%x1f",
                        "--name-status", "--no-renames", "--", *rels)
        entries = []
        for chunk in out.split("\x1e"):
            if not chunk.strip():
                continue
            sha, ts, author, body, status = chunk.split("\x1f", 4)
            codes = {line.strip()[:1] for line in status.splitlines() if line.strip()}
            action = ("moved" if {"A", "D"} <= codes else "created" if codes == {"A"}
                      else "deleted" if codes == {"D"} else "changed")
            entries.append(HistoryEntry(sha, int(ts), author, body.strip(), action))
        return entries

    def show(self, rev: str, path: Path) -> bytes | None:
        """The content of ``path`` at ``rev``, or None if it did not exist there."""
        rel = self.repository.relpath(path)
        found = self.objects.blob_ids(rev, [rel])  # a failing git raises: never taken for "absent"
        return self.objects.read_blob(found[rel], limit=None) if rel in found else None

    def resolve_rev(self, rev: str) -> str:
        try:
            return self.commands.output("rev-parse", "--verify", "-q", f"{rev}^{{commit}}")
        except JournalError:
            raise JournalError(f"unknown revision {rev!r}") from None

    def files_in_commit(self, rev: str, folder: Path) -> list[tuple[str, str]]:
        """(status letter, vault-relative path) of files under ``folder`` changed by ``rev``."""
        out = self.commands.output("diff-tree", "--no-commit-id", "-r", "--name-status", "--no-renames",
                        "-z", "--root", rev, "--", self.repository.relpath(folder))
        parts = [p for p in out.split("\0") if p]
        return [(parts[i], self.repository.vault_rel(parts[i + 1])) for i in range(0, len(parts) - 1, 2)]

    def names_ever(self, folder: Path) -> set[str]:
        """File names that ever existed under ``folder`` in history (for ids of deleted records)."""
        if self.commands.head() is None:
            return set()
        out = self.commands.output("log", "--format=", "--name-only", "--no-renames", "-z", "--",
                        self.repository.relpath(folder))
        return {p.rsplit("/", 1)[-1] for p in out.replace("\n", "\0").split("\0") if p}

    def commits_with_changes(self, since: str | None = None, *, all_refs: bool = False
                             ) -> list[CommitChanges]:
        """Every commit that changed a vault path, oldest first (parents before children), with
        the files it changed and their blob ids: one ``git log`` pass. ``since``: only commits
        after that revision (``since..HEAD``); ``all_refs``: the commits of every ref, not only
        HEAD's. A merge lists only the files it resolved itself
        (those differing from every parent); the other side's changes come with its own commits."""
        if self.commands.head() is None:
            return []
        revs = ([f"{self.resolve_rev(since)}..HEAD"] if since else
                ["--all"] if all_refs else ["HEAD"])  # --all: every ref (remotes, memvault's)
        spec = self.repository.vault_spec()
        out = self.commands.output("log", "--reverse", "--date-order", "--full-history", "--cc", "--raw",
                        "--no-abbrev", "--no-renames", "-z",
                        "--format=%x1e%H%x1f%P%x1f%at%x1f%an%x1f%B%x1f", *revs, *spec, strip=False)
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
                changes.append(FileChange(status, self.repository.vault_rel(fields[i + 1]), old, new))
                i += 2
            commits.append(CommitChanges(sha, tuple(parents.split()), int(ts), author,
                                         body.strip(), tuple(changes)))
        return [c for c in commits if c.changes or len(c.parents) < 2]

    def changed_between(self, old: str | None, new: str | None) -> list[str]:
        """Vault paths (relative to the vault root) that differ between two commits; the paths
        ``new`` no longer has come first, so a reader reloading them in order sees a record
        that moved (a memory's file in the other layout) go, then come back at its new path."""
        if old == new:
            return []
        if new is None:
            return []
        spec = self.repository.vault_spec()
        if old is None:
            out = self.commands.output("ls-tree", "-r", "-z", "--name-only", new, *spec)
            return [self.repository.vault_rel(p) for p in out.split("\0") if p]
        return [p for _status, p in self.changes_between(old, new)]

    def changes_between(self, old: str, new: str) -> list[tuple[str, str]]:
        """(git's status letter: A, M, D or T; vault path) of each path that differs between two
        commits, the deleted ones first (see :meth:`changed_between`)."""
        if old == new:
            return []
        spec = self.repository.vault_spec()
        # plumbing: no person's diff settings; identical subtrees are skipped unread
        out = self.commands.output("diff-tree", "-r", "--name-status", "--no-renames", "-z", old, new,
                        *spec)
        parts = out.split("\0")
        pairs = [(parts[i], parts[i + 1]) for i in range(0, len(parts) - 1, 2)]
        return [(status, self.repository.vault_rel(p))
                for status, p in sorted(pairs, key=lambda x: x[0] != "D")]

    def rev_parse(self, rev: str) -> str | None:
        status, out, _ = self.commands.try_run("rev-parse", "--verify", "-q", f"{rev}^{{commit}}")
        return out if status == 0 and out else None

    def is_ancestor(self, ancestor: str, descendant: str) -> bool:
        status, _, _ = self.commands.try_run("merge-base", "--is-ancestor", ancestor, descendant)
        return status == 0

    def merge_base(self, a: str, b: str) -> str | None:
        status, out, _ = self.commands.try_run("merge-base", a, b)
        return out.split()[0] if status == 0 and out else None

    def count_commits(self, tip: str, exclude: str | None) -> int:
        args = [tip] if exclude is None else [tip, f"^{exclude}"]
        return int(self.commands.output("rev-list", "--count", *args) or 0)

    def deleting_subjects(self, path: str, tip: str, exclude: str | None) -> list[str]:
        """Subjects of the commits in ``exclude..tip`` that deleted the repository ``path``."""
        args = [tip] if exclude is None else [tip, f"^{exclude}"]
        out = self.commands.output("log", "--format=%s", "--no-renames", "--diff-filter=D", *args, "--",
                        path)
        return [line for line in out.splitlines() if line]
