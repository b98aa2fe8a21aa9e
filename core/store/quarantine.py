"""The quarantine: a private copy of a file memvault is about to replace or remove without being
able to read it as a valid record (a garbage ``.meta.json``, a broken memory file it must write
over, what a crashed operation left), so that nothing a person made is lost.

```
{state_dir}/quarantine/{UTC time}-{pid}[-n]/{vault-relative path}   the file's bytes (0600)
{state_dir}/quarantine/{UTC time}-{pid}[-n]/reason.txt              what, why, when (0600)
```

``state_dir`` is the git directory's ``memvault/`` folder (``Journal.state_dir``), so copies are
never committed and never loaded. Each call gets a folder of its own (folders 0700). The file is
read without following a symbolic link: for a link, the copy holds the link's target *text*,
never the bytes of what it points to; a fifo, device or folder is recorded in ``reason.txt``
without being read.
"""

from __future__ import annotations

import errno
import os
import stat
import time
from pathlib import Path

QUARANTINE_DIR = "quarantine"
REASON_FILE = "reason.txt"
_CHUNK = 1 << 20


def quarantine(state_dir: Path, vault_root: Path, path: Path, reason: str) -> Path:
    """Copy ``path`` (as it is now) into a new folder of ``state_dir/quarantine`` under its path
    relative to ``vault_root`` (its name alone when it lies elsewhere), with a ``reason.txt``
    holding ``reason``; returns the copy's path. The original is left as it is: removing or
    replacing it is the caller's next step. FileNotFoundError when ``path`` does not exist
    (nothing to keep); other OSErrors (a full disk) propagate, so a caller never goes on to
    replace a file whose copy was not made."""
    path = Path(path)
    st = os.lstat(path)  # FileNotFoundError: nothing to set aside
    folder = _new_folder(Path(state_dir) / QUARANTINE_DIR)
    copy = folder.joinpath(*_relative_parts(Path(vault_root), path))
    _make_private_dirs(folder, copy.parent)
    if stat.S_ISLNK(st.st_mode):
        kind = f"a symbolic link to {os.readlink(path)!r} (the copy holds the link's text)"
        _write_private(copy, os.fsencode(os.readlink(path)))
    elif stat.S_ISREG(st.st_mode):
        size = _copy_regular(path, copy)
        links = f", {st.st_nlink} hard links" if st.st_nlink != 1 else ""
        kind = f"a regular file of {size} bytes{links}"
    else:
        kind = f"{_describe_mode(st.st_mode)} (not copied)"
        copy = folder / REASON_FILE
    _write_private(folder / REASON_FILE, (
        f"path: {path}\n"
        f"was: {kind}\n"
        f"reason: {reason}\n"
        f"set aside: {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())} by pid {os.getpid()}\n"
    ).encode("utf-8", "backslashreplace"))
    _sync_dir(folder)
    return copy


def _new_folder(base: Path) -> Path:
    """A folder of its own: ``<UTC time>-<pid>``, with ``-2``, ``-3``... when taken."""
    _make_private_dirs(base.parent, base)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()) + f"-{os.getpid()}"
    n = 1
    while True:
        folder = base / (stamp if n == 1 else f"{stamp}-{n}")
        try:
            os.mkdir(folder, 0o700)
            return folder
        except FileExistsError:
            n += 1


def _relative_parts(root: Path, path: Path) -> list[str]:
    try:
        rel = Path(os.path.abspath(path)).relative_to(os.path.abspath(root))
    except ValueError:
        rel = Path(path.name)
    parts = [p for p in rel.parts if p not in ("", ".", "..")]
    return parts or [path.name or "file"]


def _make_private_dirs(existing: Path, target: Path) -> None:
    """Create ``target`` and its missing parents below ``existing``, each 0700."""
    missing = []
    d = target
    while d != existing and not d.is_dir():
        missing.append(d)
        d = d.parent
    for d in reversed(missing):
        try:
            os.mkdir(d, 0o700)
        except FileExistsError:
            pass
        os.chmod(d, 0o700)


def _copy_regular(path: Path, copy: Path) -> int:
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        out = os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                      0o600)
        size = 0
        try:
            while chunk := os.read(fd, _CHUNK):
                _write_all(out, chunk)
                size += len(chunk)
            os.fsync(out)
        finally:
            os.close(out)
        return size
    finally:
        os.close(fd)


def _write_private(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        _write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _sync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError as exc:  # some file systems cannot sync a folder
        if exc.errno not in (errno.EINVAL, errno.EBADF):
            raise
    finally:
        os.close(fd)


def _describe_mode(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a fifo"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"
