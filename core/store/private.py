"""Vault files and folders kept out of other local users' reach: files 0600 (0700 when a person
made one executable), folders 0700, whoever wrote them first (memvault, git checking out what
``sync`` brought in, a person's own ``git clone`` or editor). Never through a symbolic link: a
link is left as it is, and nothing it points at is touched. The git directory itself is
:meth:`core.git.status.WorkTree.ensure_private`'s."""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable, Iterable
from pathlib import Path

FILE_MODE = 0o600
FOLDER_MODE = 0o700
_GIT = ".git"


def make_folders(path: str | os.PathLike[str]) -> None:
    """Create the folder ``path`` and each missing folder above it, every one of them 0700 (the
    one way memvault makes folders: ``Path.mkdir(mode=..., parents=True)`` makes the parents
    with the default mode, 0755 under the usual umask, so others could list what is in them).
    A folder that exists already is left as it is (a person's own, or made private by its own
    rule)."""
    missing: list[str] = []
    here = os.path.abspath(os.fspath(path))
    while not os.path.lexists(here):
        missing.append(here)
        parent = os.path.dirname(here)
        if parent == here:
            break
        here = parent
    for folder in reversed(missing):
        try:
            os.mkdir(folder, FOLDER_MODE)
        except FileExistsError:  # made meanwhile (another process): as it is
            if not os.path.isdir(folder):
                raise


def private_mode(mode: int) -> int:
    """The mode a vault file or folder gets: nothing for group or others, and a file keeps
    being executable for its owner when it was."""
    if stat.S_ISDIR(mode) or mode & 0o111:
        return FOLDER_MODE
    return FILE_MODE


def _loose(path: Path) -> bool:
    """``path`` is a file or folder (not a link) others may reach."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return not stat.S_ISLNK(st.st_mode) and bool(st.st_mode & 0o077)


def make_private(path: Path) -> bool:
    """Make one file or folder private (not a link, not what a link points at); True when a
    mode changed. Absent, or a link: nothing to do."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    if stat.S_ISLNK(st.st_mode) or not (st.st_mode & 0o077):
        return False
    if not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
        return False
    try:  # the file opened without following a link, so a swap to a link changes nothing
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        now = os.fstat(fd)
        if now.st_mode & 0o077 and (stat.S_ISREG(now.st_mode) or stat.S_ISDIR(now.st_mode)):
            os.fchmod(fd, private_mode(now.st_mode))
            return True
        return False
    except OSError:
        return False
    finally:
        os.close(fd)


def make_paths_private(root: Path, rels: Iterable[str],
                       shared: Callable[[], bool] = lambda: False) -> None:
    """Make these paths under ``root`` (``/``-separated, relative) private, with every folder
    between ``root`` and them, unless the person ``shared`` the repository on purpose (asked
    only when one of them is not private: one ``lstat`` each otherwise)."""
    paths: set[Path] = set()
    for rel in rels:
        parts = [p for p in rel.split("/") if p]
        if not parts or ".." in parts:
            continue
        paths.update(root.joinpath(*parts[:i]) for i in range(1, len(parts) + 1))
    loose = [p for p in paths if _loose(p)]
    if loose and not shared():
        for path in loose:
            make_private(path)


def make_tree_private(root: Path, shared: Callable[[], bool] = lambda: False) -> bool:
    """Make ``root`` and everything under it private (the git directory aside: its own rule),
    without following a link, unless the person ``shared`` the repository on purpose; True when
    a mode changed. Costs one ``lstat`` of ``root`` when it
    is private already (then what is under it cannot be reached by others anyway: the files
    a later ``sync`` checks out are made private as they come, :func:`make_paths_private`)."""
    try:
        st = os.lstat(root)
    except OSError:
        return False
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode) or not st.st_mode & 0o077:
        return False
    if shared():  # (asked only now: a git call)
        return False
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs[:] = [d for d in dirs if d != _GIT]
        base = Path(folder)
        for name in files + dirs:
            make_private(base / name)
    with contextlib.suppress(OSError):
        make_private(root)  # last: until here another user could still list it
    return True
