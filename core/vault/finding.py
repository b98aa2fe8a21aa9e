"""Which folder holds a vault, read from the folders alone (no git run, nothing of the record
models or the store imported): what the command line asks before it opens anything, and the
app's launch before its first frame."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..store.names import MEMORIES_DIR, META_FILE


def holds_vault(root: Path) -> bool:
    """The folder holds a vault: ``memories/`` or ``.meta.json`` is there."""
    return (root / MEMORIES_DIR).is_dir() or (root / META_FILE).exists()


def enclosing_vault(start: Path) -> Path | None:
    """The vault a command run in ``start`` means: ``start``, or the nearest folder above it,
    that has the ``.meta.json`` every vault memvault makes commits (a ``memories/`` folder alone
    is not enough here: a project may have one), inside the git repository ``start`` is in (a
    vault is always in one; the search stops at the repository's top). None when there is
    none, or ``start`` is gone. Only folders are looked at (no git is run), never through a
    symbolic link named ``.meta.json``."""
    try:
        here = start.absolute()
    except OSError:  # the current folder was removed
        return None
    found: Path | None = None
    for folder in (here, *here.parents):
        if found is None and _is_file(folder / META_FILE):
            found = folder
        if os.path.lexists(folder / ".git"):
            return found
    return None  # in no repository: no vault


def _is_file(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False
