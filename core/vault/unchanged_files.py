"""Whether a record file the open never read from disk still holds what the vault shows: one
the open took from the derived index (:mod:`core.vault.indexed_open`) or from git's objects
(:mod:`core.git.clean_files`) was never ``stat``'ed, so a write cannot tell a person's save from
it. It is read and hashed: one that still holds the open's blob is noted as seen (the file as
read); any other is a person's edit, committed before it is written over.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from ..store.files import RefusedFileError, read_vault_file

#: the blob the index holds for each of these vault paths (None: none, or unreadable)
IndexBlobs = Callable[[list[str]], dict[str, str | None]]


def unchanged_files(root: Path, seen: dict[str, tuple[int, int, int]],
                    vouched: dict[str, bytes], from_index: IndexBlobs | None,
                    paths: list[Path]) -> dict[Path, tuple[int, int, int]]:
    """Of ``paths``, the files never ``stat``'ed (not in ``seen``) that still hold the blob the
    open took: git's (``vouched``, vault path -> blob) or else the index's (``from_index``,
    asked once for all: an open from the index). Each with its (mtime_ns, size, inode) as
    read, for the caller to note as seen."""
    wanted = {p: p.relative_to(root).as_posix() for p in paths if str(p) not in seen}
    if not wanted:
        return {}
    blobs: dict[Path, str | None] = {}
    for path, rel in wanted.items():
        git_blob = vouched.get(rel)
        if git_blob is not None:
            blobs[path] = git_blob.decode("ascii")
    rest = [p for p in wanted if p not in blobs]
    if rest and from_index is not None:
        try:
            found = from_index([wanted[p] for p in rest])
        except sqlite3.Error:
            found = {}
        blobs.update((p, found.get(wanted[p])) for p in rest)
    from ..search.row_sources import blob_id

    same: dict[Path, tuple[int, int, int]] = {}
    for path, blob in blobs.items():
        if blob is None:
            continue
        try:
            data, st = read_vault_file(path)
        except (OSError, RefusedFileError):
            continue
        if blob_id(data, len(blob)) == blob:  # noted as the file read (a save since is not)
            same[path] = (st.st_mtime_ns, st.st_size, st.st_ino)
    return same
