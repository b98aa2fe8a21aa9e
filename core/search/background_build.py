"""The search index's first build in a process of its own (after a clone, or an index deleted):
``memvault search`` starts it once it has answered, from the memories it holds
(:mod:`.memory_index`, the same ranking), instead of making the person wait a minute at 100k
memories for the build (:mod:`.first_build`).

The builder is detached (a session of its own, no terminal, its output discarded), so it goes
on after the command that started it ends. It takes ``<git dir>/memvault/search-build.lock``
(``flock``) before it is started: the starting process opens the lock file, takes the lock
without waiting and hands the open file to the child, so there is never a moment when the build
is started but the lock is free; a second search that finds it taken starts nothing (and
:func:`wait` waits on it). The child opens the vault read-only (never writing a vault file or a
commit), writes the open index's rows from the files it reads, opens again from them (its
memories then still their files' bytes, so the rows get their sources,
:mod:`.row_sources`) and builds the search index in chunks, marking it as under way
(:func:`.first_build.building`): a search, the app or the MCP server meanwhile waits for it
within the search's wait, then answers from every memory it holds (:mod:`.memory_index`). A builder that dies leaves the rows
it wrote; the next search goes on from them.

The child runs this module of the installed memvault from memvault's own folder (never from the
vault's work tree, whose files are untrusted): ``python -m core.search.background_build ROOT``.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING
from ..store.private import make_folders

if TYPE_CHECKING:
    from ..model.records import Memory
    from .index import SearchIndex

LOCK_FILE = "search-build.lock"


def lock_path(root: Path) -> Path | None:
    from .index import index_path

    path = index_path(root)
    return None if path is None else path.parent / LOCK_FILE


def _open_lock(path: Path) -> int:
    make_folders(path.parent)
    return os.open(path, os.O_CREAT | os.O_RDWR | getattr(os, "O_NOFOLLOW", 0), 0o600)


def start(root: Path) -> bool:
    """Start the build of the search index of the vault at ``root`` in a detached process;
    False when one runs already (its lock taken) or it cannot be started."""
    fd = claim(root)
    return fd is not None and launch(root, fd)


def claim(root: Path) -> int | None:
    """Take the builder's lock of the vault at ``root`` for a builder :func:`launch` starts
    (the open lock file, its lock held); None when a builder holds it or it cannot be taken."""
    path = lock_path(root)
    if path is None:
        return None
    try:
        fd = _open_lock(path)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None  # a builder holds it
    return fd


def launch(root: Path, fd: int) -> bool:
    """Start the builder, handing it the lock ``fd`` (:func:`claim`), which is closed here (the
    child holds the lock through its own copy). False when it could not be started."""
    try:
        package_root = Path(__file__).resolve().parents[2]
        subprocess.Popen(  # noqa: S603 (memvault's own module, by its interpreter)
            [sys.executable, "-m", "core.search.background_build", str(Path(root).resolve())],
            cwd=package_root, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True,
            pass_fds=(fd,), env={**os.environ, "MEMVAULT_BUILD_LOCK_FD": str(fd)})
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def running(root: Path) -> bool:
    """Whether a builder holds the lock of the vault at ``root`` now."""
    return not _shared_lock(root, fcntl.LOCK_SH | fcntl.LOCK_NB)


def wait(root: Path) -> None:
    """Wait until no builder holds the lock of the vault at ``root`` (at once when none)."""
    _shared_lock(root, fcntl.LOCK_SH)


def _shared_lock(root: Path, flags: int) -> bool:
    """Take the builder's lock shared (``flags``: waiting or not) and let it go again: False
    when a builder holds it and ``flags`` do not wait, True otherwise (no lock file, or one that
    cannot be opened: no builder)."""
    path = lock_path(root)
    if path is None or not path.exists():
        return True
    try:
        fd = _open_lock(path)
    except OSError:
        return True
    try:
        fcntl.flock(fd, flags)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


#: What a search answering from the memories it holds says.
HANDED_OVER = ("the search index is being built in the background (once, after a clone); this "
               "search read the memories themselves, with the same ranking")


def hand_over(index: SearchIndex, memories: Mapping[str, Memory], root: Path
              ) -> tuple[str, int | None] | None:
    """When the index file lacks the rows of many memories (a first build: :data:`.first_build.
    FIRST_BUILD_FROM`), see that a builder is at it: one under way, or the lock claimed for one
    (:func:`claim`: the caller :func:`launch` es it once it has answered, so the builder does not
    compete with the answer). Returns what the search says as it answers from the memories
    (:mod:`.memory_index`) and the claimed lock, if any; None when the caller brings the index
    level itself, as usual."""
    from . import first_build

    if index.path is None:
        return None
    if len(memories) - index.row_count() < first_build.FIRST_BUILD_FROM:
        return None
    if first_build.building(index.conn) is not None:
        return HANDED_OVER, None
    fd = claim(root)
    if fd is None and not running(root):
        return None
    return HANDED_OVER, fd


def build(root: Path) -> int:
    """The child's work (the lock is held): the open index, then the search index. Returns how
    many search rows it wrote."""
    from ..vault.api import Vault
    from .completion import complete
    from .index import SearchIndex

    first = Vault.open(root, readonly=True, keep_read=True)
    if first.kept_read:
        first.index_files()
    first.close()
    vault = Vault.open(root, readonly=True)  # from the rows just written: memories as bytes
    try:
        with SearchIndex.for_root(vault.root) as index:  # (the search rows first, then the keys)
            return complete(index, vault.memories).added
    finally:
        vault.close()


def main(argv: list[str]) -> int:
    held = os.environ.pop("MEMVAULT_BUILD_LOCK_FD", None)
    fd = int(held) if held is not None and held.isdigit() else None
    if len(argv) != 1:
        return 2
    root = Path(argv[0])
    if fd is None:  # started by hand: take the lock, or leave it to the builder holding it
        path = lock_path(root)
        if path is None:
            return 1
        fd = _open_lock(path)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return 0
    try:
        build(root)
        return 0
    except Exception:  # noqa: BLE001 (a cache: the next search builds what is missing)
        return 1
    finally:
        with contextlib.suppress(OSError):
            os.close(fd)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
