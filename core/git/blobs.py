"""The objects of a repository: blobs (read with the vault's size limit: a blob from a remote is
untrusted), the files of a commit, tree listings and the differences between two trees."""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable

from ..errors import JournalError
from ..store.files import MAX_FILE_BYTES
from .entries import TreeChange
from .plumbing import ARGV_PATH_LIMIT, GitCommands

#: Up to this many paths are looked up one by one (``<rev>:<path>``), more in one listing.
FEW_PATHS = 20


class ObjectStore:
    """Blobs (read and written), trees and the files they hold, through ``commands``."""

    def __init__(self, commands: GitCommands):
        self.commands = commands

    def blob(self, sha: str) -> bytes:
        """The content of a blob, through git's long-running ``cat-file --batch`` process."""
        return self.commands.read_object(sha)[1]

    def read_blob(self, sha: str, limit: int | None = MAX_FILE_BYTES) -> bytes:
        """One blob; JournalError when it is missing or larger than ``limit`` bytes (a blob from
        a remote is untrusted: it is never read whole into memory past the vault's size limit)."""
        found = self.read_blobs([sha], limit=limit)
        if sha not in found:
            size = self.blob_sizes([sha]).get(sha)
            if size is None:
                raise JournalError(f"git has no blob {sha}")
            raise JournalError(f"blob {sha[:12]} is {size:,} bytes, over the limit of "
                               f"{limit:,} bytes for a vault file; not read")
        return found[sha]

    def blob_sizes(self, shas: list[str]) -> dict[str, int]:
        with self.commands.stdin(("\n".join(shas) + "\n").encode()) as fh:
            out = self.commands.output("cat-file", "--batch-check=%(objectname) %(objecttype) %(objectsize)",
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
            sizes = self.blob_sizes(wanted)
            wanted = [sha for sha in wanted if sizes.get(sha, limit + 1) <= limit]
        return self._batch(wanted)

    def blobs_named(self, names: Iterable[str], limit: int | None = MAX_FILE_BYTES
                    ) -> dict[str, bytes]:
        """The blobs git finds by ``names`` (object ids, or ``<rev>:<path>``: a file at a
        commit), by name, with two git processes whatever their number: one ``cat-file
        --batch-check`` (ids, types, sizes), one ``cat-file --batch``. A name that is missing,
        not a blob (a folder, a submodule) or larger than ``limit`` bytes is left out; a name
        holding a line break (git reads one name a line) is refused (JournalError)."""
        wanted = list(dict.fromkeys(names))
        if any("\n" in name for name in wanted):
            raise JournalError("a git object name holds a line break; not read")
        if not wanted:
            return {}
        with self.commands.stdin(("\n".join(wanted) + "\n").encode("utf-8",
                                                                    "surrogateescape")) as fh:
            out = self.commands.output(
                "cat-file", "--batch-check=%(objectname) %(objecttype) %(objectsize)",
                istream=fh)
        ids = {}
        for name, line in zip(wanted, out.splitlines()):  # (one line a name, "... missing")
            parts = line.split()
            if len(parts) == 3 and parts[1] == "blob" and (limit is None
                                                             or int(parts[2]) <= limit):
                ids[name] = parts[0]
        blobs = self._batch(list(dict.fromkeys(ids.values())))
        return {name: blobs[sha] for name, sha in ids.items() if sha in blobs}

    def _batch(self, wanted: list[str]) -> dict[str, bytes]:
        """The blobs ``wanted`` (object ids) with one ``git cat-file --batch``; missing ones
        left out."""
        if not wanted:
            return {}
        with self.commands.stdin(("\n".join(wanted) + "\n").encode()) as fh:
            out = self.commands.output_bytes("cat-file", "--batch", istream=fh)
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

    def blob_ids(self, rev: str | None, rels: list[str]) -> dict[str, str]:
        """Repository path -> blob id at ``rev`` (absent paths left out); one git process. A few
        paths are looked up one by one (``cat-file --batch-check``, each lookup reads the tree);
        many are picked out of one listing of their folders (``ls-tree``)."""
        if rev is None or not rels:
            return {}
        if len(rels) > FEW_PATHS:
            folders = sorted({rel.rpartition("/")[0] or rel for rel in rels})
            spec = folders if len(folders) <= ARGV_PATH_LIMIT else []
            wanted = set(rels)
            return {path: sha for path, (mode, sha) in self.ls_tree(rev, None, spec).items()
                    if path in wanted and mode != "160000"}
        with self.commands.stdin("".join(f"{rev}:{rel}\n" for rel in rels).encode(
                "utf-8", "surrogateescape")) as fh:
            out = self.commands.output("cat-file", "--batch-check=%(objectname) %(objecttype)", istream=fh)
        found = {}
        for rel, line in zip(rels, out.splitlines()):
            sha, _, kind = line.partition(" ")
            if kind == "blob":
                found[rel] = sha
        return found

    def names_at(self, rev: str | None, rels: list[str]) -> dict[str, str]:
        """Repository path -> a name :meth:`blobs_named` reads its file at ``rev`` by: a few
        paths as ``<rev>:<path>`` (looked up by that read: no git process of their own), many
        as their blob ids from one listing (:meth:`blob_ids`: a lookup each reads the trees on
        its path again)."""
        if rev is None or not rels:
            return {}
        if len(rels) > FEW_PATHS:
            return self.blob_ids(rev, rels)
        return {rel: f"{rev}:{rel}" for rel in dict.fromkeys(rels)}

    def files_at(self, rev: str, rels: list[str]) -> dict[str, bytes]:
        """Repository path -> content at ``rev`` for those of ``rels`` that exist there."""
        ids = self.blob_ids(rev, list(dict.fromkeys(rels)))
        blobs = self.read_blobs(ids.values())
        return {rel: blobs[sha] for rel, sha in ids.items() if sha in blobs}

    def ls_tree(self, rev: str, under: str | None = None, paths: Iterable[str] = ()
                ) -> dict[str, tuple[str, str]]:
        """Repository path -> (mode, object id) of every file at ``rev`` (under a folder, or
        under any of ``paths``)."""
        spec = ["--", under] if under and under != "." else []
        if paths:
            spec = ["--", *paths]
        out = self.commands.output("ls-tree", "-r", "-z", "--full-tree", rev, *spec)
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
        out = self.commands.output("ls-tree", "-z", "--full-tree", rev, "--", *paths)
        found = {}
        for entry in out.split("\0"):
            info, _, path = entry.partition("\t")
            if entry:
                found[path] = info.split()[0]
        return found


    @functools.cached_property
    def empty_tree(self) -> str:
        return self.commands.output("hash-object", "-t", "tree", os.devnull)

    def tree_changes(self, old: str | None, new: str, under: str | None = None
                     ) -> dict[str, TreeChange]:
        """Repository paths that differ between two commits (or trees), without rename
        detection, under the folder ``under`` (a repository path) or everywhere."""
        spec = ["--", under] if under and under != "." else []
        out = self.commands.output("diff-tree", "-r", "-z", "--no-renames", "--raw", "--full-index",
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

    def write_blob(self, data: bytes) -> str:
        """Store ``data`` as a blob (as is, no filters); its object id."""
        with self.commands.stdin(data) as fh:
            return self.commands.output("hash-object", "-w", "--no-filters", "--stdin", istream=fh)
