"""The vault on disk: the only code that maps ids to paths and paths to ids.

```
{root}/memories/{id}.json          one Memory, pretty-printed, mode 0600 (the flat layout)
{root}/memories/{shard}/{id}.json  the same in the sharded layout (big vaults; core.store.shards)
{root}/relations/{id}.json         one Relation
{root}/.meta.json                  storage metadata, with the layout memories are written in
```

Readers accept both layouts at once (:meth:`Layout.classify`, :meth:`Layout.load_folder`, whose
reading is :mod:`core.store.record_loading`'s);
writers write a memory where the vault's layout says and remove its file at the other layout's
path in the same commit (:meth:`Layout.complete_writes`), so one id never keeps two files.

Every vault file is read through :func:`read_vault_file`, which never follows a symbolic link and
refuses anything but a regular file with one name (a file hard-linked from outside the vault,
a fifo, a device) or one larger than :data:`MAX_FILE_BYTES`. The record folders (and shard
folders) must be real folders (:meth:`Layout.ensure_dirs`, :meth:`Layout.load_folder`), and
:func:`write_atomic` and :func:`remove_file` refuse a folder that is a symbolic link: nothing is
ever read or written through a link to elsewhere. (Those file helpers live in
:mod:`core.store.files`; they are re-exported here.)
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InvalidRecordError, VaultError
from ..model.checks import RecordValueError, check_value
from ..model.values import now_epoch
from .files import (
    MAX_FILE_BYTES as MAX_FILE_BYTES,  # (``X as X``: re-exported, the vault's file helpers)
    TEMP_PREFIX as TEMP_PREFIX,
    RecordTooLargeError as RecordTooLargeError,
    RefusedFileError as RefusedFileError,
    UnsafeFolderError as UnsafeFolderError,
    check_folder as check_folder,
    read_vault_file as read_vault_file,
    remove_file as remove_file,
    write_atomic as write_atomic,
    write_atomic_many as write_atomic_many,
)
from .checked_replace import stat_key
from .ids import MAX_ID_LENGTH as MAX_ID_LENGTH, check_id as check_id
from .record_loading import SUFFIX as SUFFIX, LoadProblem as LoadProblem, RecordFeed, RecordLoader
from .record_loading import KnownFiles
from .shards import FLAT, LAYOUT_KEY, LAYOUTS, SHARDED, is_shard_name, layout_in, shard_of
from .private import make_folders
from .names import MEMORIES_DIR as MEMORIES_DIR, META_FILE as META_FILE
from .names import RELATIONS_DIR as RELATIONS_DIR

if TYPE_CHECKING:  # (a read makes no model to write: pydantic is not imported for it)
    from pydantic import BaseModel

STORAGE_VERSION = 2


class UnknownLayoutError(VaultError):
    """``.meta.json`` names a layout this memvault does not know (a newer version wrote it):
    nothing is written, since a memory would land where that version does not look."""


class Layout:
    """Paths and file formats of one vault rooted at ``root``. ``layout``: the layout a vault
    created by this object gets (flat when None); an existing vault's ``.meta.json`` decides."""

    def __init__(self, root: Path, layout: str | None = None):
        self.root = Path(root)
        self.memories_dir = self.root / MEMORIES_DIR
        self.relations_dir = self.root / RELATIONS_DIR
        self.meta_path = self.root / META_FILE
        if layout is not None and layout not in LAYOUTS:
            raise VaultError(f"unknown layout {layout!r}: choose {' or '.join(LAYOUTS)}")
        self.initial = layout or FLAT
        self._name: str | None = None  # known once .meta.json was read (read_meta/load_meta)
        #: (mtime_ns, size, inode) of each record file as memvault last read or wrote it, so a
        #: write can tell whether a person changed the file since (see :meth:`changed_since_seen`;
        #: the inode tells an atomic save within one tick of the clock, at the same size).
        self.seen: dict[str, tuple[int, int, int]] = {}
        #: vault path -> blob of each record file an open took from git's objects, never
        #: stat'ed (:mod:`core.git.clean_files`): not in :attr:`seen`, so a write first checks
        #: that the file still holds that blob (:mod:`core.vault.unchanged_files`)
        self.vouched: dict[str, bytes] = {}
        self.loader = RecordLoader(self.root, self.seen, self.is_home)

    # -- ids <-> paths (the one place) -------------------------------------------------------
    @property
    def name(self) -> str:
        """The layout this vault writes memories in: ``.meta.json``'s, as last read."""
        if self._name is None:
            self.load_meta()
            if self._name is None:  # a garbage .meta.json: not read again on every path
                self._name = self.initial
        return self._name

    def memory_path(self, memory_id: str, layout: str | None = None) -> Path:
        """Where the memory is written: in the vault's layout, or in ``layout``."""
        check_id(memory_id)
        name = layout or self.name
        if name == FLAT:
            return self.memories_dir / (memory_id + SUFFIX)
        if name == SHARDED:
            return self.memories_dir / shard_of(memory_id) / (memory_id + SUFFIX)
        raise UnknownLayoutError(
            f"refused: .meta.json says the vault's layout is {name!r}, which this memvault "
            f"does not know (it knows {' and '.join(LAYOUTS)}; a newer version?); nothing "
            "was written")

    def memory_paths(self, memory_id: str) -> list[Path]:
        """Every path the memory may be read from: the vault's layout's first, then the other."""
        home = self.name if self.name in LAYOUTS else FLAT
        return [self.memory_path(memory_id, home)] + [
            self.memory_path(memory_id, other) for other in LAYOUTS if other != home]

    def relation_path(self, relation_id: str) -> Path:
        return self.relations_dir / (check_id(relation_id, "relation") + SUFFIX)

    def classify(self, relpath: str) -> tuple[str, str] | None:
        """For a path relative to the root: ("memory"|"relation", id), ("meta", "") or None.
        A memory is ``memories/{id}.json`` or ``memories/{shard}/{id}.json`` with the id's own
        shard; a file in another shard folder is no record's (None)."""
        if relpath == META_FILE:
            return ("meta", "")
        folder, _, name = relpath.partition("/")
        kind = {MEMORIES_DIR: "memory", RELATIONS_DIR: "relation"}.get(folder)
        if kind is None:
            return None
        shard = None
        if "/" in name and kind == "memory":
            shard, _, name = name.partition("/")
        if "/" in name or not name.endswith(SUFFIX) or name.startswith("."):
            return None
        record_id = name[: -len(SUFFIX)]
        if shard is not None and shard != shard_of(record_id):
            return None
        return (kind, record_id)

    def is_home(self, path: Path) -> bool:
        """A memory file at the path the vault's layout names for it (not at the other's)."""
        in_shard = path.parent != self.memories_dir
        return in_shard == (self.name == SHARDED)

    def complete_writes(self, writes: dict[Path, bytes | None]) -> dict[Path, bytes | None]:
        """``writes`` plus, for each memory among them, the removal of its file at the other
        layout's path when one is there: a memory written (or removed) in one layout leaves no
        copy in the other, in the same commit. The one rule every write path goes through."""
        extra: dict[Path, bytes | None] = {}
        memories = self.memories_dir
        for path in writes:
            name = path.name
            if not name.endswith(SUFFIX) or name.startswith("."):
                continue
            if path.parent == memories:  # flat: the twin is in the id's shard folder
                twin = memories / shard_of(name[: -len(SUFFIX)]) / name
            elif path.parent.parent == memories and path.parent.name == shard_of(
                    name[: -len(SUFFIX)]):
                twin = memories / name
            else:
                continue
            if twin not in writes and os.path.lexists(twin):
                extra[twin] = None
        return {**writes, **extra} if extra else writes

    def vault_paths(self) -> list[Path]:
        """The paths memvault owns (for git pathspecs; shard folders are inside memories/)."""
        return [self.memories_dir, self.relations_dir, self.meta_path]

    def folder_stamps(self) -> tuple[int | None, ...]:
        """The modification times of the record folders, and in the sharded layout of each
        shard folder too: they change when a file in them is added, removed or replaced (an
        editor's save by rename). Cheap: in the flat layout memories/ is never listed."""
        folders = [self.memories_dir, self.relations_dir, self.meta_path]
        if self.name == SHARDED:
            with contextlib.suppress(OSError):
                folders += sorted(Path(e.path) for e in os.scandir(self.memories_dir)
                                  if is_shard_name(e.name))
        stamps: list[int | None] = []
        for folder in folders:
            try:
                stamps.append(os.stat(folder).st_mtime_ns)
            except OSError:
                stamps.append(None)
        return tuple(stamps)

    def ensure_dirs(self) -> None:
        """Create the vault's folders; UnsafeFolderError when one of them is a symbolic link (to
        elsewhere: writing into it would write outside the vault) or a file. Shard folders are
        made when a memory is first written into one (:func:`write_atomic`)."""
        for d in (self.root, self.memories_dir, self.relations_dir):
            check_folder(d)
            make_folders(d)

    # -- encoding ---------------------------------------------------------------------------
    @staticmethod
    def encode(record: BaseModel | dict[str, Any]) -> bytes:
        """Pretty-printed JSON (indent=2) with a trailing newline; unknown keys included.
        InvalidRecordError for a value no record may hold (:mod:`core.model.checks`: this is
        the one place every record written becomes bytes, however it was built)."""
        check_record(record)
        if not isinstance(record, dict):  # a model
            return record.model_dump_json(indent=2).encode("utf-8") + b"\n"
        return json.dumps(record, indent=2, ensure_ascii=False).encode("utf-8") + b"\n"

    # -- reading (the loader's job) ----------------------------------------------------------
    def load_folder(self, kind: str, keep: dict[str, bytes] | None = None,
                    fed: RecordFeed | None = None, known: KnownFiles | None = None
                    ) -> tuple[list[Any], list[LoadProblem]]:
        """Every record of a kind ("memory" or "relation") on disk, and the files that could not
        be loaded: :meth:`RecordLoader.load_folder` of its folder."""
        folder = self.memories_dir if kind == "memory" else self.relations_dir
        return self.loader.load_folder(folder, kind, keep, fed, known)

    def read_folder(self, kind: str, keep: dict[str, bytes] | None = None,
                    known: KnownFiles | None = None
                    ) -> tuple[dict[str, bytes], dict[str, str], list[LoadProblem]] | None:
        """Every record file of a kind read, its content not yet checked (None: a memory may
        have two files): :meth:`RecordLoader.read_folder` of its folder."""
        folder = self.memories_dir if kind == "memory" else self.relations_dir
        return self.loader.read_folder(folder, kind, keep, known)

    def load_file(self, path: Path, kind: str) -> tuple[Any, str | None]:
        """One record file: (record, None) or (None, reason); an absent file is a reason too."""
        return self.loader.load_file(path, kind)

    # -- noticing a person's edits while the vault is open ----------------------------------
    @staticmethod
    def _stat_key(path: str) -> tuple[int, int, int] | None:
        return stat_key(path)  # (a link put in a file's place is a change; its target unread)

    def note(self, paths: Iterable[Path],
             known: Mapping[Path, tuple[int, int, int]] | None = None) -> None:
        """Remember the current state of files memvault just wrote (or removed); ``known``: the
        state of those whose file memvault wrote or read is known (a person's save since is then
        not taken for memvault's own)."""
        for path in paths:
            if self.vouched:  # (what memvault wrote is seen from now on, never git's blob)
                self.vouched.pop(path.relative_to(self.root).as_posix(), None)
            key = known[path] if known is not None and path in known \
                else self._stat_key(str(path))
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
        garbage: a symbolic link (never followed), not valid JSON, not a JSON object, too big.
        Reading it also takes the layout it names as the one memories are written in (absent:
        this object's ``initial`` one; garbage: the one known before)."""
        try:
            data, _ = read_vault_file(self.meta_path)
        except FileNotFoundError:
            self._name = self.initial
            return None, None
        except RefusedFileError as exc:
            return None, exc.reason
        try:
            meta = json.loads(data)
        except ValueError as exc:
            return None, f"not valid JSON ({exc})"
        if not isinstance(meta, dict):
            return None, f"not a JSON object (a {type(meta).__name__})"
        self._name = layout_in(meta)
        return meta, None

    def new_meta(self, migrated_from: str | None = None) -> dict[str, Any]:
        """Metadata for a new vault (or one whose ``.meta.json`` was lost), in this layout."""
        return {
            "storage_version": STORAGE_VERSION,
            "created_at": now_epoch(),
            "machine_id": _host_name(),
            "last_gc_at": None,
            "last_consolidation_at": None,
            "migrated_from": migrated_from,
            LAYOUT_KEY: self.name,
        }


def check_record(record: BaseModel | dict[str, Any]) -> None:
    """InvalidRecordError when ``record`` holds a value no record may hold
    (:func:`core.model.checks.check_value`), however it was built (``model_copy`` and
    ``model_construct`` skip the models' own checks)."""
    try:
        check_value(record if isinstance(record, dict) else record.model_dump(), "")
    except RecordValueError as exc:
        model = not isinstance(record, dict)
        name = getattr(record, "id", None) if model else META_FILE
        kind = type(record).__name__.lower() if model else "file"
        raise InvalidRecordError(
            f"refused: {kind} {str(name)[:40]!r}: {exc}; nothing was written") from None


def _host_name() -> str:
    """This machine's name (socket imported here: only a new vault's metadata needs it)."""
    import socket

    return socket.gethostname()
