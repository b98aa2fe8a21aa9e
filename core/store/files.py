"""Vault files on disk, read and written safely: never through a symbolic link, never a file
that is not a regular file with one name, never more than :data:`MAX_FILE_BYTES`; writes are
atomic (temp file + ``os.replace``), mode 0600. :mod:`core.store.layout` maps ids to these files
and re-exports these names."""

from __future__ import annotations

import errno
import os
import secrets
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

from ..errors import VaultError
from .private import make_folders

MAX_FILE_BYTES = 16 * 1024 * 1024  # the one size limit: larger files are never read or written
TEMP_PREFIX = ".tmp-"  # atomic-write temp files; never loaded, never committed

#: how a vault file is opened to be read: never through a link, never blocking on a fifo
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC

SYMLINK_REFUSED = "is a symbolic link (refused: vault files must be regular files)"


class RefusedFileError(Exception):
    """A vault file :func:`read_vault_file` will not read; ``reason`` says why, for a person.
    ``stat`` is the file's status when it was opened (None when it could not be)."""

    def __init__(self, reason: str, st: os.stat_result | None = None):
        super().__init__(reason)
        self.reason = reason
        self.stat = st


class UnsafeFolderError(VaultError, OSError):
    """A vault folder that is a symbolic link (or not a folder): memvault never writes through it.
    Also an OSError, so code that copes with a failed write (a rollback) copes with this too."""


class RecordTooLargeError(VaultError):
    """A record whose file would exceed :data:`MAX_FILE_BYTES`, the size the reader accepts."""


def read_vault_file(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES
                    ) -> tuple[bytes, os.stat_result]:
    """The bytes of one vault file and its status, read safely: ``O_NOFOLLOW`` (a symbolic link
    is refused, never followed), ``O_NONBLOCK`` (a fifo cannot hang the reader), then ``fstat``
    on what was opened: it must be a regular file, with one link (a file hard-linked from
    outside the vault is refused: writing or reading it through the vault would reach the
    other name too), and at most ``limit`` bytes. FileNotFoundError when it is absent;
    RefusedFileError (with the reason) for anything else it will not read. A file replaced
    between the open and the ``fstat`` (no name left: someone's atomic save) is read again at
    its path."""
    try:  # the common case first, in one go: a regular file with one name, read whole
        fd = os.open(path, _READ_FLAGS)
    except OSError:
        fd = -1  # (the careful reading below says why)
    if fd >= 0:
        try:
            st = os.fstat(fd)
            if st.st_nlink == 1 and stat.S_ISREG(st.st_mode) and st.st_size <= limit:
                data = os.read(fd, st.st_size + 1)
                if len(data) <= st.st_size:  # (a short read of a regular file: its end)
                    return data, st
        except OSError:
            pass
        finally:
            os.close(fd)
    for _attempt in range(8):  # anything else: read again, with every check and its reason
        read = _read_vault_file_once(path, limit)
        if read is not None:
            return read
    raise RefusedFileError("kept being replaced while it was read")


def open_regular(path: str | os.PathLike[str], link: str = SYMLINK_REFUSED,
                 other: str = "is not a regular file") -> tuple[int, os.stat_result]:
    """``path`` opened read-only, and its status, when it is a regular file: never through a
    symbolic link (RefusedFileError ``link``), never blocking on a fifo, never a socket, device
    or folder (``other``); FileNotFoundError when it is absent. The caller closes the fd."""
    try:
        fd = os.open(path, _READ_FLAGS)
    except FileNotFoundError:
        raise
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK):  # EMLINK: O_NOFOLLOW on FreeBSD
            raise RefusedFileError(link) from None
        if exc.errno == errno.ENXIO:  # a socket
            raise RefusedFileError(other) from None
        raise RefusedFileError(f"cannot be read: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
    except OSError as exc:
        os.close(fd)
        raise RefusedFileError(f"cannot be read: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise RefusedFileError(other, st)
    return fd, st


def _read_vault_file_once(path: str | os.PathLike[str], limit: int
                          ) -> tuple[bytes, os.stat_result] | None:
    fd, st = open_regular(path)
    try:
        if st.st_nlink == 0:  # replaced since the open: the path holds another file now
            return None
        if st.st_nlink != 1:
            raise RefusedFileError(
                f"has {st.st_nlink} hard links (refused: a vault file must not share its content "
                "with a file elsewhere)", st)
        if st.st_size > limit:
            raise RefusedFileError(f"larger than {_size(limit)}", st)
        want = min(st.st_size + 1, limit + 1)
        first = os.read(fd, want)
        if len(first) < want:  # a short read of a regular file: its end (one read, not two)
            return first, st
        chunks, total = [first], len(first)
        while total <= limit:  # the file grew after fstat: never read past the limit
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise RefusedFileError(f"larger than {_size(limit)}", st)
        return b"".join(chunks), st
    except OSError as exc:
        raise RefusedFileError(f"cannot be read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def check_folder(path: Path) -> None:
    """Raise UnsafeFolderError unless ``path`` is absent or a real folder (not a link to one)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(st.st_mode):
        raise UnsafeFolderError(
            f"refused: {path} is a symbolic link; memvault never reads or writes vault files "
            "through a link (replace it with a real folder)")
    if not stat.S_ISDIR(st.st_mode):
        raise UnsafeFolderError(f"refused: {path} is not a folder")


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MiB" if n % (1024 * 1024) == 0 else f"{n:,} bytes"


def write_atomic(path: Path, data: bytes, *, durable: bool = True) -> None:
    """Write ``data`` to ``path`` through a temp file in the same folder and ``os.replace``;
    the file ends up with mode 0600 and readers never see a half-written file. ``os.replace``
    replaces a symbolic link at ``path`` itself (its target is never written); a folder that is
    a symbolic link is refused (UnsafeFolderError). ``durable`` (the default): the data is on
    disk (fsync) before it replaces the old file; without it the bytes are in the kernel once
    this returns (a killed process loses nothing) and reach the disk with the next flush: for
    writes that are committed later anyway (use records), where a flush per file cost more
    than the search that made them."""
    check_folder(path.parent)
    temps: list[tuple[str, Path]] = []
    try:
        fd = _new_temp(path, temps)
        _fill_and_replace(fd, temps[-1][0], data, path, durable=durable)
    except BaseException:
        _remove_temps(temps)  # (also one an interrupt left between the two)
        raise


def replace_file(path: Path, data: bytes, prefix: str) -> None:
    """:func:`write_atomic` for a file outside a vault (the app's settings): the same temp file,
    fsync, mode 0600 and ``os.replace``, in a folder that must exist, which may be a link (a
    person's dotfiles often are)."""
    fd, tmp = tempfile.mkstemp(prefix=prefix, dir=path.parent)
    _fill_and_replace(fd, tmp, data, path)


def _fill_and_replace(fd: int, tmp: str, data: bytes, path: Path, *,
                      durable: bool = True) -> None:
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def write_atomic_many(items: list[tuple[Path, bytes]],
                      before_each: Callable[[], None] | None = None) -> None:
    """:func:`write_atomic` for many files at once: every temp file is written first, then ONE
    ``os.sync()`` puts all of them on disk, then each is renamed into place. The same promises
    (a reader never sees a half-written file, each file's data is on disk before it replaces
    the old one, mode 0600, no folder that is a link) with one flush instead of one per file:
    a layout migration of 10,000 memories spent 48 of its 72 s in per-file fsync. On failure,
    the temp files not renamed yet are removed; files already renamed stay (the journal's
    intent record puts them back)."""
    temps: list[tuple[str, Path]] = []
    try:
        for path, data in items:
            if before_each is not None:
                before_each()
            check_folder(path.parent)
            fd = _new_temp(path, temps)
            tmp = temps[-1][0]
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.chmod(tmp, 0o600)
        os.sync()
        for index, (tmp, path) in enumerate(temps):
            os.replace(tmp, path)
            temps[index] = ("", path)
    finally:
        _remove_temps(temps)


def _new_temp(path: Path, temps: list[tuple[str, Path]]) -> int:
    """A new temp file beside ``path`` (0600, never through a link), open for writing; its
    name is put in ``temps`` BEFORE it is made, so a Ctrl+C that lands in between (the
    interrupt is raised when the ``open`` returns) leaves no temp file the caller cannot
    remove (``tempfile.mkstemp`` returned the name only after: an interrupted import left an
    empty ``memories/.tmp-*``). A folder that is missing is made (0700), never through a
    link."""
    made = False
    while True:
        tmp = os.path.join(path.parent, TEMP_PREFIX + secrets.token_hex(6))
        temps.append((tmp, path))
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                           | os.O_CLOEXEC, 0o600)
        except FileExistsError:  # another's temp file of that name: never ours to remove
            temps.pop()
        except FileNotFoundError:  # a new shard folder, or one gone (a `git rm -r`, a person)
            temps.pop()
            if made:
                raise
            check_folder(path.parent.parent)  # never create it through a link
            make_folders(path.parent)
            made = True


def _remove_temps(temps: list[tuple[str, Path]]) -> None:
    """Remove the temp files of ``temps`` not renamed into place yet (name ``""``), together
    (an import interrupted with 2,700 temp files written spent 3.6 s removing them one by one
    on a busy disk)."""
    _unlink_together([Path(tmp) for tmp, _ in temps if tmp])


#: Threads that remove the files of one :func:`remove_many` (unlinks in different folders go on
#: at once in the kernel).
REMOVERS = 4


def remove_many(paths: list[Path], before_each: Callable[[], None] | None = None) -> None:
    """:func:`remove_file` for many files: each folder checked once, then the files unlinked by
    :data:`REMOVERS` threads (a gc of 1,000 memories at 100k removes 1,560 files in some 300
    folders: 0.09-0.12 s against 0.15-0.18 s one by one). ``before_each`` is called once a
    path, in order, before it is removed; when it raises, the paths before that one are removed
    and none after, then the error is raised (as one by one). A folder that is a link refuses
    them all (UnsafeFolderError) before any is removed."""
    due: list[Path] = []
    failure: BaseException | None = None
    for path in paths:
        if before_each is not None:
            try:
                before_each()
            except BaseException as exc:  # noqa: BLE001 - raised once the paths before are gone
                failure = exc
                break
        due.append(path)
    for folder in dict.fromkeys(path.parent for path in due):
        check_folder(folder)
    _unlink_together(due)
    if failure is not None:
        raise failure


def _unlink_together(paths: list[Path]) -> None:
    """Unlink ``paths`` (absent is fine), by :data:`REMOVERS` threads when there are many."""
    if len(paths) < 2 * REMOVERS:
        _unlink_all(paths)
        return
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(REMOVERS, thread_name_prefix="memvault remove") as pool:
        for _ in pool.map(_unlink_all, [paths[i::REMOVERS] for i in range(REMOVERS)]):
            pass


def _unlink_all(paths: list[Path]) -> None:
    for path in paths:
        _unlink(path)


def _unlink(path: Path) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def remove_file(path: Path) -> None:
    """Remove ``path`` (a symbolic link itself, never its target); absent is fine. A folder that
    is a symbolic link is refused (UnsafeFolderError)."""
    check_folder(path.parent)
    _unlink(path)
