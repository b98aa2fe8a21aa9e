"""The vault on disk: the only code that maps ids to paths and reads or writes vault files.

```
{root}/memories/{id}.json    one Memory, pretty-printed, mode 0600
{root}/relations/{id}.json   one Relation
{root}/.meta.json            storage metadata
```

Every vault file is read through :func:`read_vault_file`, which never follows a symbolic link and
refuses anything but a regular file with one name (a file hard-linked from outside the vault,
a fifo, a device) or one larger than :data:`MAX_FILE_BYTES`. The record folders must be real
folders (:meth:`Layout.ensure_dirs`, :meth:`Layout.load_folder`), and :func:`write_atomic` and
:func:`remove_file` refuse a folder that is a symbolic link: nothing is ever read or written
through a link to elsewhere.
"""

from __future__ import annotations

import errno
import json
import os
import re
import socket
import stat
import tempfile
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from ..errors import InvalidIdError, VaultError
from ..model.records import Memory, Relation, now_epoch

MEMORIES_DIR = "memories"
RELATIONS_DIR = "relations"
META_FILE = ".meta.json"
SUFFIX = ".json"
STORAGE_VERSION = 2
MAX_ID_LENGTH = 128
MAX_FILE_BYTES = 16 * 1024 * 1024  # the one size limit: larger files are never read or written
TEMP_PREFIX = ".tmp-"  # atomic-write temp files; never loaded, never committed

_SYMLINK = "is a symbolic link (refused: vault files must be regular files)"


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
    RefusedFileError (with the reason) for anything else it will not read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK):  # EMLINK: O_NOFOLLOW on FreeBSD
            raise RefusedFileError(_SYMLINK) from None
        if exc.errno == errno.ENXIO:  # a socket
            raise RefusedFileError("is not a regular file") from None
        raise RefusedFileError(f"cannot be read: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise RefusedFileError("is not a regular file", st)
        if st.st_nlink != 1:
            raise RefusedFileError(
                f"has {st.st_nlink} hard links (refused: a vault file must not share its content "
                "with a file elsewhere)", st)
        if st.st_size > limit:
            raise RefusedFileError(f"larger than {_size(limit)}", st)
        chunks, total = [], 0
        while total <= limit:  # the file may grow after fstat: never read past the limit
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


_WINDOWS_RESERVED = re.compile(r"^(con|prn|aux|nul|com[1-9]|lpt[1-9])$", re.IGNORECASE)
_BAD_CHARS = set('/\\:*?"<>|')
_PLAIN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,127}")  # the common case: uuids, m1, test-123


def check_id(value: object, kind: str = "memory") -> str:
    """Return ``value`` if it is a safe file name for an id, else raise InvalidIdError."""
    if not isinstance(value, str):
        raise InvalidIdError(f"{kind} id must be a string, got {type(value).__name__}")
    if _PLAIN_ID.fullmatch(value) and not _WINDOWS_RESERVED.match(value):
        return value
    problem = None
    if not value:
        problem = "it is empty"
    elif len(value) > MAX_ID_LENGTH:
        problem = f"it is longer than {MAX_ID_LENGTH} characters"
    elif value in (".", "..") or ".." in value:
        problem = "it contains '..'"
    elif value.startswith("."):
        problem = "it starts with a dot"
    elif value != value.strip():
        problem = "it starts or ends with whitespace"
    elif any(c in _BAD_CHARS for c in value):
        problem = "it contains a path separator or a character file systems refuse"
    elif any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") for c in value):
        problem = "it contains control or invisible characters"
    elif _WINDOWS_RESERVED.match(value):
        problem = "it is a reserved device name"
    if problem:
        shown = value if len(value) <= 40 else value[:40] + "..."
        raise InvalidIdError(f"refused {kind} id {shown!r}: {problem}")
    return value


@dataclass(frozen=True)
class LoadProblem:
    """A vault file that could not be loaded; it stays untouched on disk."""

    path: Path
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


class Layout:
    """Paths and file formats of one vault rooted at ``root``."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.memories_dir = self.root / MEMORIES_DIR
        self.relations_dir = self.root / RELATIONS_DIR
        self.meta_path = self.root / META_FILE
        #: (mtime_ns, size) of each record file as memvault last read or wrote it, so a write can
        #: tell whether a person changed the file since (see :meth:`changed_since_seen`).
        self.seen: dict[str, tuple[int, int]] = {}

    # -- ids <-> paths (the one place; a sharded layout would change only this block) ----------
    def memory_path(self, memory_id: str) -> Path:
        return self.memories_dir / (check_id(memory_id) + SUFFIX)

    def relation_path(self, relation_id: str) -> Path:
        return self.relations_dir / (check_id(relation_id, "relation") + SUFFIX)

    def classify(self, relpath: str) -> tuple[str, str] | None:
        """For a path relative to the root: ("memory"|"relation", id), ("meta", "") or None."""
        if relpath == META_FILE:
            return ("meta", "")
        folder, _, name = relpath.partition("/")
        kind = {MEMORIES_DIR: "memory", RELATIONS_DIR: "relation"}.get(folder)
        if kind is None or "/" in name or not name.endswith(SUFFIX) or name.startswith("."):
            return None
        return (kind, name[: -len(SUFFIX)])

    def vault_paths(self) -> list[Path]:
        """The paths memvault owns (for git pathspecs)."""
        return [self.memories_dir, self.relations_dir, self.meta_path]

    def ensure_dirs(self) -> None:
        """Create the vault's folders; UnsafeFolderError when one of them is a symbolic link (to
        elsewhere: writing into it would write outside the vault) or a file."""
        for d in (self.root, self.memories_dir, self.relations_dir):
            check_folder(d)
            d.mkdir(parents=True, exist_ok=True)

    # -- encoding ---------------------------------------------------------------------------
    @staticmethod
    def encode(record: BaseModel | dict[str, Any]) -> bytes:
        """Pretty-printed JSON (indent=2) with a trailing newline; unknown keys included."""
        if isinstance(record, BaseModel):
            return record.model_dump_json(indent=2).encode("utf-8") + b"\n"
        return json.dumps(record, indent=2, ensure_ascii=False).encode("utf-8") + b"\n"

    # -- reading ----------------------------------------------------------------------------
    def load_folder(self, kind: str) -> tuple[list[Any], list[LoadProblem]]:
        """Every record of a kind ("memory" or "relation") on disk, and the files that could not
        be loaded (with the reason). Temp files of atomic writes are skipped. Hot path at open:
        plain strings, one open/fstat/read per file."""
        folder = self.memories_dir if kind == "memory" else self.relations_dir
        model = Memory if kind == "memory" else Relation
        records: list[Any] = []
        problems: list[LoadProblem] = []
        try:
            check_folder(folder)
        except UnsafeFolderError as exc:  # its files are elsewhere: none of them is read
            return records, [LoadProblem(folder, str(exc).removeprefix(f"refused: {folder} "))]
        try:
            entries = list(os.scandir(folder))
        except FileNotFoundError:
            return records, problems
        for entry in entries:
            name = entry.name
            if name.startswith(TEMP_PREFIX):
                continue
            if not name.endswith(SUFFIX):
                problem: str | None = "not a .json file (ignored)"
            elif entry.is_symlink():
                problem = _SYMLINK
            elif not entry.is_file(follow_symlinks=False):
                problem = "is not a regular file"
            else:
                record, problem = self._load_one(entry.path, name, model, kind)
                if record is not None:
                    records.append(record)
                    continue
            problems.append(LoadProblem(Path(entry.path), problem or "unreadable"))
        return records, problems

    def load_file(self, path: Path, kind: str) -> tuple[Any, str | None]:
        """One record file: (record, None) or (None, reason); an absent file is a reason too."""
        model = Memory if kind == "memory" else Relation
        return self._load_one(str(path), path.name, model, kind)

    def _load_one(self, path: str, name: str, model: type[BaseModel], kind: str
                  ) -> tuple[Any, str | None]:
        stem = name[: -len(SUFFIX)]
        try:
            check_id(stem, kind)
        except InvalidIdError as exc:
            return None, f"file name is not a valid {kind} id ({exc})"
        try:
            data, st = read_vault_file(path)
        except FileNotFoundError:
            return None, "is gone"
        except RefusedFileError as exc:
            if exc.stat is not None:
                self.seen[path] = (exc.stat.st_mtime_ns, exc.stat.st_size)
            return None, exc.reason
        self.seen[path] = (st.st_mtime_ns, st.st_size)
        try:
            record = model.model_validate_json(data)
        except ValidationError as exc:
            return None, _describe_validation_error(exc)
        if record.id != stem:  # type: ignore[attr-defined]
            return None, f"id inside the file ({record.id!r}) differs from the file name"  # type: ignore[attr-defined]
        return record, None

    # -- noticing a person's edits while the vault is open ----------------------------------
    @staticmethod
    def _stat_key(path: str) -> tuple[int, int] | None:
        try:
            st = os.lstat(path)  # a link put in a file's place is a change; its target is not read
        except FileNotFoundError:
            return None
        return (st.st_mtime_ns, st.st_size)

    def note(self, paths: Iterable[Path]) -> None:
        """Remember the current state of files memvault just wrote (or removed)."""
        for path in paths:
            key = self._stat_key(str(path))
            if key is None:
                self.seen.pop(str(path), None)
            else:
                self.seen[str(path)] = key

    def changed_since_seen(self, paths: Iterable[Path]) -> list[Path]:
        """Record files among ``paths`` that changed on disk since memvault last read or wrote
        them (a person's edit while the vault is open). One ``stat`` per path."""
        return [p for p in paths if p != self.meta_path
                and self._stat_key(str(p)) != self.seen.get(str(p))]

    def read_meta(self) -> dict[str, Any] | None:
        """The storage metadata, or None when ``.meta.json`` is absent or cannot be used."""
        return self.load_meta()[0]

    def load_meta(self) -> tuple[dict[str, Any] | None, str | None]:
        """(metadata, None); (None, None) when ``.meta.json`` is absent; (None, reason) when it is
        garbage: a symbolic link (never followed), not valid JSON, not a JSON object, too big."""
        try:
            data, _ = read_vault_file(self.meta_path)
        except FileNotFoundError:
            return None, None
        except RefusedFileError as exc:
            return None, exc.reason
        try:
            meta = json.loads(data)
        except ValueError as exc:
            return None, f"not valid JSON ({exc})"
        if not isinstance(meta, dict):
            return None, f"not a JSON object (a {type(meta).__name__})"
        return meta, None

    @staticmethod
    def new_meta(migrated_from: str | None = None) -> dict[str, Any]:
        return {
            "storage_version": STORAGE_VERSION,
            "created_at": now_epoch(),
            "machine_id": socket.gethostname(),
            "last_gc_at": None,
            "last_consolidation_at": None,
            "migrated_from": migrated_from,
        }


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temp file in the same folder and ``os.replace``;
    the file ends up with mode 0600 and readers never see a half-written file. ``os.replace``
    replaces a symbolic link at ``path`` itself (its target is never written); a folder that is
    a symbolic link is refused (UnsafeFolderError)."""
    check_folder(path.parent)
    try:
        fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, dir=path.parent)
    except FileNotFoundError:  # the folder went away underneath (a `git rm -r`, a person)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def remove_file(path: Path) -> None:
    """Remove ``path`` (a symbolic link itself, never its target); absent is fine. A folder that
    is a symbolic link is refused (UnsafeFolderError)."""
    check_folder(path.parent)
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _describe_validation_error(exc: ValidationError) -> str:
    errors = exc.errors(include_url=False)
    first = errors[0]
    if first.get("type") in ("json_invalid", "json_type"):
        return f"not valid JSON ({first.get('msg')})"
    where = ".".join(str(p) for p in first.get("loc", ())) or "record"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"invalid field {where}: {first.get('msg')}{more}"
