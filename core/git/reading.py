"""Reading history: a file's log, any version, names ever used, every commit with its changes, and
the one blob reader (with the size limit)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import JournalError
from ..store.layout import MAX_FILE_BYTES

if TYPE_CHECKING:  # GitPython is imported lazily: reading a vault needs no git
    pass
from .entries import CommitChanges, FileChange, HistoryEntry
from .plumbing import ZERO_OID


class Reading:
    """Reading history and blobs."""

    def log(self, path: Path | list[Path], limit: int | None = None) -> list[HistoryEntry]:
        """Every commit that created, changed or deleted ``path``, newest first (the newest
        ``limit`` only: git stops walking there). Several paths: one record's files (a memory
        in both layouts), a commit removing one and adding another is a move (``moved``)."""
        rels = [self.relpath(p) for p in (path if isinstance(path, list) else [path])]
        if self.head() is None:
            return []
        count = [f"--max-count={int(limit)}"] if limit is not None else []
        out = self._git("log", *count, "--format=%x1e%H%x1f%at%x1f%an%x1f%B%x1f",
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

    def commits_with_changes(self, since: str | None = None, *, all_refs: bool = False
                             ) -> list[CommitChanges]:
        """Every commit that changed a vault path, oldest first (parents before children), with
        the files it changed and their blob ids: one ``git log`` pass. ``since``: only commits
        after that revision (``since..HEAD``); ``all_refs``: the commits of every ref, not only
        HEAD's. A merge lists only the files it resolved itself
        (those differing from every parent); the other side's changes come with its own commits."""
        if self.head() is None:
            return []
        revs = ([f"{self.resolve_rev(since)}..HEAD"] if since else
                ["--all"] if all_refs else ["HEAD"])  # --all: every ref (remotes, memvault's)
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

