"""Replacing or removing a vault file only when it still holds what the writer read: a
read-modify-write never puts an older version back over a person's save made since.

``os.replace`` has no compare-and-swap: a check of the file right before it leaves a window in
which a person's save (their editor's temp file renamed into place) is replaced, and their bytes
are gone. So the file is never replaced blind. On Linux the new file and the old one are
*exchanged* (``renameat2(RENAME_EXCHANGE)``, atomic): the new file is in place, and whatever was
at the path at that instant is now under the temp file's name, where it is compared with the
bytes the writer read. When it is something else (a person saved in between), the two are
exchanged back, so the person's file is in place again and never left the disk, and
:class:`ChangedOnDiskError` says so; the writer then takes their edit (commits it as theirs) and
does its change again on top. A new file goes in with ``RENAME_NOREPLACE`` (never over a file a
person made meanwhile); a removal renames the file aside first, then compares. Readers never see
the path missing or half-written.

Where the system or the file system has no ``renameat2`` flags (macOS, some network file
systems), the file is renamed aside (atomic), compared, and the new one linked into place
(``link`` never replaces): the same guarantee, but the path is missing for the microseconds
between, and the new file has two names for a moment (a reader then refuses it as hard-linked
and reads it again at its next look).

A killed process can leave a displaced file under a ``.tmp-swap-`` name: it may be a person's
save, so the next writer copies it into the quarantine (:mod:`core.store.quarantine`) instead
of removing it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .files import TEMP_PREFIX, check_folder
from .private import make_folders

#: The temp files of a checked replace: after an exchange they hold what was displaced.
SWAP_PREFIX = TEMP_PREFIX + "swap-"
ABSENT = "absent"

_NOREPLACE, _EXCHANGE = 1, 2  # renameat2's flags (linux/fs.h)
_AT_FDCWD = -100
_UNSUPPORTED = (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP)
_renameat2: list[Callable[..., int] | None] = []  # looked up once: [the function or None]

State = tuple[str, bytes | None]


class ChangedOnDiskError(OSError):
    """The file no longer held what the writer read (someone saved or removed it since): it is
    left as they left it, and nothing was written over it."""

    def __init__(self, path: Path):
        super().__init__(errno.EAGAIN, "changed on disk since it was read", str(path))
        self.path = path


def stat_key(path: str | os.PathLike[str]) -> tuple[int, int, int] | None:
    """(mtime_ns, size, inode) of what is at ``path`` (a link itself, never its target), or None
    when nothing is: an atomic save always makes a new inode, so it changes the key even within
    one tick of the file system's clock and at the same size."""
    try:
        st = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def file_state(path: str | os.PathLike[str]) -> State:
    """What is at ``path`` without following a link: ("absent", None), ("file", bytes),
    ("link", target bytes) or ("other", None)."""
    try:
        st = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return ABSENT, None
    if stat.S_ISLNK(st.st_mode):
        return "link", os.fsencode(os.readlink(path))
    if not stat.S_ISREG(st.st_mode):
        return "other", None
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return "file", b"".join(chunks)
    finally:
        os.close(fd)


def replace_checked(path: Path, data: bytes | None, before: State, *,
                    durable: bool = True) -> tuple[int, int, int] | None:
    """Write ``data`` to ``path`` (None: remove it), atomically and mode 0600, only if ``path``
    still holds ``before`` (a :func:`file_state`, as the writer read it); ChangedOnDiskError
    otherwise, with the file on disk left as someone else left it. ``durable``: the new bytes
    are flushed to disk before they replace the old ones. Returns the :func:`stat_key` of the
    file written (None for a removal): what memvault wrote, even if a save replaced it since."""
    if before[0] not in (ABSENT, "file", "link"):
        raise ChangedOnDiskError(path)  # a folder or a fifo where a record was: never replaced
    check_folder(path.parent)
    if data is None:
        _remove_checked(path, before)
        return None
    tmp = _temp_in(path.parent)
    try:
        with open(tmp, "r+b") as fh:
            fh.write(data)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
            os.fchmod(fh.fileno(), 0o600)
            st = os.fstat(fh.fileno())
        key = (st.st_mtime_ns, st.st_size, st.st_ino)
        if before[0] == ABSENT:
            _place_new(tmp, path)
        elif file_state(path) != before:  # (compared right before, so a save is seldom
            raise ChangedOnDiskError(path)  # displaced even for the microseconds below)
        elif _rename2(tmp, path, _EXCHANGE):
            if file_state(tmp) != before:  # displaced a file that is not the one read
                _give_back(tmp, path, data)
                raise ChangedOnDiskError(path)
        else:
            _replace_aside(tmp, path, before)
        return key
    finally:
        _discard(tmp)


def _temp_in(folder: Path) -> str:
    try:
        fd, tmp = tempfile.mkstemp(prefix=SWAP_PREFIX, dir=folder)
    except FileNotFoundError:  # a new shard folder, or one gone (a `git rm -r`, a person)
        check_folder(folder.parent)  # never create it through a link
        make_folders(folder)
        fd, tmp = tempfile.mkstemp(prefix=SWAP_PREFIX, dir=folder)
    os.close(fd)
    return tmp


def _place_new(tmp: str, path: Path) -> None:
    """``tmp`` at ``path``, where nothing is expected: never over a file made meanwhile."""
    try:
        if _rename2(tmp, path, _NOREPLACE):
            return
        os.link(tmp, path, follow_symlinks=False)  # (no renameat2: link never replaces either)
    except FileExistsError:
        raise ChangedOnDiskError(path) from None


def _give_back(displaced: str, path: Path, ours: bytes) -> None:
    """Put the file an exchange displaced back at ``path``. If a save landed on ``path`` after
    the exchange (it replaced our new file), that newer save is the one left in place: the
    displaced one is older than it, superseded by its author's own save."""
    _rename2(displaced, path, _EXCHANGE)
    if file_state(displaced) != ("file", ours):
        _rename2(displaced, path, _EXCHANGE)


def _replace_aside(tmp: str, path: Path, before: State) -> None:
    """Without ``renameat2``: rename the old file aside, compare it, link the new one in."""
    aside = _temp_in(path.parent)
    try:
        try:
            os.rename(path, aside)
        except FileNotFoundError:
            raise ChangedOnDiskError(path) from None
        if file_state(aside) != before:
            with contextlib.suppress(FileExistsError):  # (a newer save of theirs stands)
                os.link(aside, path, follow_symlinks=False)
            raise ChangedOnDiskError(path)
        _place_new(tmp, path)  # a save landed after the rename: it stays, ours is not written
    finally:
        _discard(aside)


def _remove_checked(path: Path, before: State) -> None:
    aside = _temp_in(path.parent)
    try:
        os.rename(path, aside)
    except FileNotFoundError:
        _discard(aside)
        if before[0] == ABSENT:
            return
        raise ChangedOnDiskError(path) from None
    except BaseException:
        _discard(aside)
        raise
    if file_state(aside) != before:
        with contextlib.suppress(ChangedOnDiskError):  # (a newer save of theirs stands)
            _place_new(aside, path)
        _discard(aside)
        raise ChangedOnDiskError(path)
    try:
        os.unlink(aside)  # the removal itself
    except FileNotFoundError:
        pass
    except BaseException:
        with contextlib.suppress(OSError):  # not removed: back at its path, as it was
            _place_new(aside, path)
        _discard(aside)
        raise


def _discard(name: str) -> None:
    """Remove a temp file of ours (tried twice: a passing failure leaves nothing behind)."""
    for attempt in (1, 2):
        try:
            os.unlink(name)
            return
        except FileNotFoundError:
            return
        except OSError:
            if attempt == 2:
                raise


def _rename2(src: str | Path, dst: str | Path, flags: int) -> bool:
    """``renameat2(src, dst, flags)``; False when the system or the file system has no such
    rename (the caller does without), OSError for any other failure."""
    if not _renameat2:
        _renameat2.append(_find_renameat2())
    function = _renameat2[0]
    if function is None:
        return False
    import ctypes

    if function(_AT_FDCWD, os.fsencode(src), _AT_FDCWD, os.fsencode(dst), flags) == 0:
        return True
    err = ctypes.get_errno()
    if err in _UNSUPPORTED:
        return False
    raise OSError(err, os.strerror(err), str(dst))


def _find_renameat2() -> Callable[..., int] | None:
    try:
        import ctypes

        libc: Any = ctypes.CDLL(None, use_errno=True)
        function = libc.renameat2
    except (OSError, AttributeError, ImportError):
        return None
    function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                         ctypes.c_uint]
    function.restype = ctypes.c_int
    return function  # type: ignore[no-any-return]
