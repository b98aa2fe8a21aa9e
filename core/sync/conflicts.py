"""``{vault}/sync-conflicts/``: where ``memvault sync`` puts files waiting for a person, handled
without ever following a symbolic link.

A remote can commit anything, symbolic links included, and a checkout puts it in the work tree.
So nothing here goes through a path string below the vault folder: each folder is opened with
``O_NOFOLLOW | O_DIRECTORY`` relative to its parent's descriptor, files are read, written,
renamed and deleted relative to their folder's descriptor with ``O_NOFOLLOW``, and listings
never descend into a link. A symbolic link, or anything that is neither a regular file nor a
folder, anywhere in the folder (the folder itself included) is refused with VaultError before
anything is read, written or deleted: nothing outside the folder is ever touched.

What memvault writes there: ``.gitignore`` (``*``: never committed) and one file per record
waiting, at the record's vault path (``memories/{id}.json`` or ``memories/{shard}/{id}.json``,
``relations/{id}.json``,
``.meta.json``). :meth:`ConflictFolder.clear` deletes only files of that shape; anything else
found there (a person's notes, an editor's backup) is left alone.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Collection
from pathlib import Path

from ..errors import VaultError
from ..store.layout import MAX_FILE_BYTES, META_FILE, SUFFIX, TEMP_PREFIX
from ..store.shards import shard_of
from ..textutil import neutralise_line

FOLDER = "sync-conflicts"
IGNORE_FILE = ".gitignore"
IGNORE_TEXT = (b"# conflicts of `memvault sync` waiting for a person; never committed\n*\n")
RECORD_FOLDERS = ("memories", "relations")
MAX_DEPTH = 8  # deeper than anything memvault writes (2): refused, never walked further

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK  # a FIFO never blocks


def _parts(rel: str) -> list[str]:
    parts = rel.split("/")
    if any(p in ("", ".", "..") or "\0" in p or os.sep in p for p in parts):
        raise VaultError(f"refused: {neutralise_line(rel)!r} is not a path inside {FOLDER}/")
    return parts


def _is_ours(rel: str) -> bool:
    """A path of the shape memvault writes a waiting record to."""
    if rel == META_FILE:
        return True
    folder, _, name = rel.partition("/")
    if folder == "memories" and "/" in name:  # the sharded layout: memories/{shard}/{id}.json
        shard, _, name = name.partition("/")
        if shard != shard_of(name.removesuffix(SUFFIX)):
            return False
    return (folder in RECORD_FOLDERS and "/" not in name and name.endswith(SUFFIX)
            and not name.startswith("."))


class ConflictFolder:
    """The conflict folder of the vault at ``root`` (the vault folder itself is the person's
    path and may be reached through a link; below it, nothing is followed)."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.path = self.root / FOLDER

    def file(self, rel: str) -> Path:
        """Where the file of the vault path ``rel`` waits (for messages; never opened by path)."""
        return self.path.joinpath(*_parts(rel))

    # -- refusing ---------------------------------------------------------------------------
    def _refuse(self, where: list[str], what: str) -> VaultError:
        shown = neutralise_line(str(self.path.joinpath(*where)))
        return VaultError(
            f"refused: {shown} {what}. memvault keeps files waiting for a person in "
            f"{neutralise_line(str(self.path))}/ and never follows a link or opens anything else "
            "there (it may have come from a remote): nothing was read, written or deleted "
            "through it. Remove it, then sync again")

    def _kind(self, dir_fd: int, name: str, where: list[str]) -> str:
        """"file", "folder" or "absent" for ``name`` in ``dir_fd``; anything else refused."""
        try:
            st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        except FileNotFoundError:
            return "absent"
        if stat.S_ISREG(st.st_mode):
            return "file"
        if stat.S_ISDIR(st.st_mode):
            return "folder"
        if stat.S_ISLNK(st.st_mode):
            raise self._refuse(where, "is a symbolic link")
        raise self._refuse(where, "is neither a regular file nor a folder")

    # -- folders ----------------------------------------------------------------------------
    def _open_dir(self, parts: list[str], *, create: bool) -> int | None:
        """A descriptor of ``sync-conflicts/<parts>`` (the caller closes it), or None when a
        folder on the way is absent and ``create`` is false."""
        fd = os.open(self.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            for depth, name in enumerate((FOLDER, *parts)):
                where = parts[:depth]  # [] is the folder itself
                kind = self._kind(fd, name, where)
                if kind == "absent":
                    if not create:
                        os.close(fd)
                        return None
                    with contextlib.suppress(FileExistsError):
                        os.mkdir(name, 0o700, dir_fd=fd)
                elif kind != "folder":
                    raise self._refuse(where, "is not a folder")
                try:
                    child = os.open(name, _DIR_FLAGS, dir_fd=fd)
                except OSError as exc:  # swapped for a link or a file since the look
                    if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                        raise self._refuse(where, "is not a folder (or is a link)") from None
                    raise
                os.close(fd)
                fd = child
            return fd
        except BaseException:
            os.close(fd)
            raise

    # -- reading and writing ------------------------------------------------------------------
    def read(self, rel: str, limit: int = MAX_FILE_BYTES) -> bytes | None:
        """The file waiting for the vault path ``rel`` (a person may have edited it), or None."""
        *dirs, name = parts = _parts(rel)
        dir_fd = self._open_dir(dirs, create=False)
        if dir_fd is None:
            return None
        try:
            if self._kind(dir_fd, name, parts) == "absent":
                return None
            try:
                fd = os.open(name, _FILE_FLAGS, dir_fd=dir_fd)
            except FileNotFoundError:
                return None
            except OSError as exc:
                if exc.errno == errno.ELOOP:
                    raise self._refuse(parts, "is a symbolic link") from None
                raise
            try:
                st = os.fstat(fd)
                if not stat.S_ISREG(st.st_mode):
                    raise self._refuse(parts, "is not a regular file")
                if st.st_size > limit:
                    raise self._refuse(parts, f"is larger than {limit // (1024 * 1024)} MiB")
                chunks, size = [], 0
                while chunk := os.read(fd, 1 << 20):
                    chunks.append(chunk)
                    size += len(chunk)
                    if size > limit:
                        raise self._refuse(parts, f"is larger than {limit // (1024 * 1024)} MiB")
                return b"".join(chunks)
            finally:
                os.close(fd)
        finally:
            os.close(dir_fd)

    def write(self, rel: str, data: bytes) -> Path:
        """Put ``data`` (the file with conflict markers) where the vault path ``rel`` waits:
        atomically, mode 0600, the folder's ``.gitignore`` first. Returns the file's path."""
        *dirs, name = parts = _parts(rel)
        top = self._open_dir([], create=True)
        assert top is not None
        try:
            if self._kind(top, IGNORE_FILE, [IGNORE_FILE]) == "absent":
                _write_at(top, IGNORE_FILE, IGNORE_TEXT)
        finally:
            os.close(top)
        dir_fd = self._open_dir(dirs, create=True)
        assert dir_fd is not None
        try:
            if self._kind(dir_fd, name, parts) == "folder":
                raise self._refuse(parts, "is a folder")
            _write_at(dir_fd, name, data)
        finally:
            os.close(dir_fd)
        return self.file(rel)

    # -- clearing ---------------------------------------------------------------------------
    def _scan(self, dir_fd: int, where: list[str], found: list[tuple[list[str], str]]) -> None:
        """Every entry below ``dir_fd`` as (parts, "file"|"folder"), children before their
        folder; a link or a special file anywhere refuses the whole clear."""
        if len(where) >= MAX_DEPTH:
            raise self._refuse(where, "is nested deeper than anything memvault writes")
        with os.scandir(dir_fd) as entries:
            names = sorted(e.name for e in entries)
        for name in names:
            parts = [*where, name]
            kind = self._kind(dir_fd, name, parts)
            if kind == "folder":
                child = os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
                try:
                    self._scan(child, parts, found)
                finally:
                    os.close(child)
            if kind != "absent":
                found.append((parts, kind))

    def clear(self, keep: Collection[str]) -> None:
        """Delete the waiting files that are not in ``keep`` (vault paths still waiting), the
        folders left empty, and the folder itself once nothing but its ``.gitignore`` is left.
        Looks at everything first: a link or a special file anywhere is refused (VaultError)
        before anything is deleted."""
        top = self._open_dir([], create=False)
        if top is None:
            return
        try:
            found: list[tuple[list[str], str]] = []
            self._scan(top, [], found)
            keep = set(keep)
            for parts, kind in found:  # children before their folder
                rel = "/".join(parts)
                *dirs, name = parts
                dir_fd = self._open_dir(dirs, create=False) if dirs else os.dup(top)
                if dir_fd is None:
                    continue
                try:
                    if kind == "file" and _is_ours(rel) and rel not in keep:
                        with contextlib.suppress(FileNotFoundError):
                            os.unlink(name, dir_fd=dir_fd)
                    elif kind == "folder":
                        with contextlib.suppress(OSError):  # not empty: something stays
                            os.rmdir(name, dir_fd=dir_fd)
                finally:
                    os.close(dir_fd)
            with os.scandir(top) as entries:
                left = [e.name for e in entries]
            if left == [IGNORE_FILE] and _read_small(top, IGNORE_FILE) == IGNORE_TEXT:
                os.unlink(IGNORE_FILE, dir_fd=top)
                left = []
        finally:
            os.close(top)
        if not left:
            parent = os.open(self.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            try:
                with contextlib.suppress(OSError):
                    os.rmdir(FOLDER, dir_fd=parent)
            finally:
                os.close(parent)


def _read_small(dir_fd: int, name: str, limit: int = 4096) -> bytes | None:
    try:
        fd = os.open(name, _FILE_FLAGS, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        return os.read(fd, limit) if stat.S_ISREG(os.fstat(fd).st_mode) else None
    finally:
        os.close(fd)


def _write_at(dir_fd: int, name: str, data: bytes) -> None:
    """Atomic write of ``name`` in the folder ``dir_fd``: a new temp file (O_EXCL, O_NOFOLLOW,
    0600), fsync, rename over ``name`` (a rename replaces a link, never follows it)."""
    tmp = f"{TEMP_PREFIX}{secrets.token_hex(8)}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600,
                 dir_fd=dir_fd)
    try:
        try:
            os.fchmod(fd, 0o600)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=dir_fd)
        raise


__all__ = ["FOLDER", "ConflictFolder"]
