"""Where an export writes (``export --format jsonl DIR``, ``--to mcp-memory FILE``, ``--to
basic-memory DIR``): all of it or nothing.

:func:`export_targets` checks every file an export will write before any is written: never
through a symbolic link (the folder written into, a folder on the way, the file itself: a link
the person named is refused, as a link inside the folder is, and nothing is written where it
points), never over a folder or into something that is not one, never two files where one
would be the other's folder, and an existing file only with ``force`` (or, where the format
allows it, an empty one). :func:`write_all` then writes them together: the folders they need
(0700, :func:`core.store.private.make_folders`), every temp file, and only then each renamed
into place (:func:`core.store.files.write_atomic_many`); when anything fails, or Ctrl+C comes,
the temp files and the folders it made are removed, so a failed export leaves nothing behind.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path, PurePosixPath

from ..errors import VaultError
from ..store.files import write_atomic_many
from ..store.private import make_folders


def _kind(path: Path) -> str | None:
    """"link", "folder", "file" or "other" for what is at ``path`` (never followed); None
    when nothing is."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(mode):
        return "link"
    if stat.S_ISDIR(mode):
        return "folder"
    return "file" if stat.S_ISREG(mode) else "other"


def export_targets(root: Path, rels: list[str], *, force: bool, empty_ok: bool = False
                   ) -> dict[str, Path]:
    """``root / rel`` for each ``rel`` (``/``-separated, relative), or VaultError before
    anything is written (see the module doc). ``empty_ok``: an existing empty file may be
    replaced without ``force``."""
    kind = _kind(root)
    if kind == "link":
        raise VaultError(f"refused: {root} is a symbolic link; nothing was written (give the "
                         "folder it points at)")
    if kind not in (None, "folder"):
        raise VaultError(f"refused: {root} is not a folder; nothing was written")
    folders = {PurePosixPath(*PurePosixPath(rel).parts[:i]).as_posix()
               for rel in rels for i in range(1, len(PurePosixPath(rel).parts))}
    targets: dict[str, Path] = {}
    for rel in rels:
        parts = PurePosixPath(rel).parts
        if rel in folders:
            raise VaultError(f"refused: {root / rel} would be both a file and a folder of this "
                             "export; nothing was written")
        here = root
        for n, part in enumerate(parts):
            here = here / part
            kind = _kind(here)
            last = n == len(parts) - 1
            if kind == "link":
                raise VaultError(f"refused: {here} is a symbolic link; nothing was written")
            if kind is None:
                break
            if not last and kind != "folder":
                raise VaultError(f"refused: {here} is not a folder; nothing was written")
            if last and kind != "file":
                raise VaultError(f"refused: {here} exists and is not a file; nothing was "
                                 "written")
            if last and not force and not (empty_ok and os.lstat(here).st_size == 0):
                raise VaultError(f"refused: {here} exists (pass --force to replace it); "
                                 "nothing was written")
        targets[rel] = root.joinpath(*parts)
    return targets


def write_all(files: dict[Path, bytes], what: Path) -> None:
    """Write ``files`` (atomic, 0600) with the folders they need (0700), all or none (see the
    module doc); VaultError naming ``what`` when the system refuses."""
    made: list[Path] = []
    for folder in dict.fromkeys(path.parent for path in files):
        missing = []
        while _kind(folder) is None and folder.parent != folder:
            missing.append(folder)
            folder = folder.parent
        made.extend(reversed([m for m in missing if m not in made]))
    try:
        for folder in made:
            make_folders(folder)
        write_atomic_many(list(files.items()))
    except BaseException as exc:
        for folder in reversed(made):  # the deepest first; only what this export made
            with contextlib.suppress(OSError):
                os.rmdir(folder)
        if isinstance(exc, OSError):
            raise VaultError(f"cannot write to {what}: {exc.strerror or exc}; nothing was "
                             "written") from None
        raise


__all__ = ["export_targets", "write_all"]
