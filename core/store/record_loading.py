"""Loading the vault's record files (``RecordLoader``): a folder's records in both layouts,
one file per id, and the reason for every file that could not be loaded; each file read through
:func:`core.store.files.read_vault_file` (never through a link), its state noted for
:meth:`core.store.layout.Layout.changed_since_seen`."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import InvalidIdError
from ..model.exact_records import exact_first, memory_exact, relation_exact
from .files import (SYMLINK_REFUSED, TEMP_PREFIX, RefusedFileError, UnsafeFolderError,
                    check_folder, read_vault_file)
from .ids import check_id
from .shards import is_shard_name, newer_copy, shard_of

if TYPE_CHECKING:
    from pydantic import BaseModel, ValidationError

# (pydantic and the models are imported only for a file the exact reading does not take: a
# command that only reads makes plain records, core.model.plain_records)

SUFFIX = ".json"  # a record file's name: its id and this
#: A folder's records are handed to a :class:`RecordFeed` this many at a time as they are read
#: (not all at its end): the search rows' child fills FTS5 while the rest are read.
FEED_EVERY = 500


class RecordFeed(Protocol):
    """Told the records a load reads, as it reads them (:meth:`RecordLoader.load_folder`):
    ``expect(count)`` before a folder of ``count`` entries is read, ``add(records)`` with
    each next few records read (at most :data:`FEED_EVERY`), in the load's order."""

    def expect(self, count: int) -> None: ...

    def add(self, records: list[Any]) -> None: ...


class KnownFiles(Protocol):
    """The bytes of files a load need not read from disk (:class:`core.git.clean_files.
    CleanFiles`: git vouches that they hold a blob it has), each taken once by its
    vault-relative path; None: read it from disk. Taken in the order of the paths sorted (the
    order a load with it reads a folder), they come without waiting for the rest."""

    def take(self, rel: str) -> bytes | None: ...


@dataclass(frozen=True)
class LoadProblem:
    """A vault file that could not be loaded; it stays untouched on disk."""

    path: Path
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


class RecordLoader:
    """Reads the record files under ``root``. ``seen``: (mtime_ns, size, inode) of each file as
    last read, filled as files are read (the vault's layout owns it); ``is_home``: whether a memory
    file is at the path the vault's layout names for it."""

    def __init__(self, root: Path, seen: dict[str, tuple[int, int, int]],
                 is_home: Callable[[Path], bool]):
        self.root, self.seen, self.is_home = root, seen, is_home
        self._cut = len(os.path.join(str(root), ""))  # a file's path less this: vault-relative

    def load_folder(self, folder: Path, kind: str, keep: dict[str, bytes] | None = None,
                    fed: RecordFeed | None = None, known: KnownFiles | None = None
                    ) -> tuple[list[Any], list[LoadProblem]]:
        """Every record of a kind ("memory" or "relation") on disk, and the files that could not
        be loaded (with the reason). Memories are read in both layouts (flat files and shard
        folders); of two files for one id, one is loaded and the other is a problem (see
        :mod:`core.store.shards`). Temp files of atomic writes are skipped. Hot path at open:
        plain strings, one open/fstat/read per file. ``keep``: filled with path -> bytes of every
        file that loaded as a valid record of its id (the derived index is written from them,
        so a first open reads each file once), the path relative to the vault and
        ``/``-separated, as git names it under the vault's folder. ``fed``: told the size of each
        folder and handed its records as they are loaded, a few at a time (:class:`RecordFeed`;
        before two files for one id are settled). ``known``: the bytes of the files git vouches
        for, taken instead of reading them (:class:`KnownFiles`; a file taken so is not noted
        in ``seen``, as a file an open takes from the derived index); the folders are then read
        in the order of their names."""
        records: list[Any] = []
        paths: list[str] = []
        problems: list[LoadProblem] = []
        shards = self._scan(folder, kind, records, paths, problems, None, keep, fed=fed,
                            known=known)
        flat = len(records)
        for entry in shards:
            self._scan(Path(entry.path), kind, records, paths, problems, entry.name, keep,
                       fed=fed, known=known)
        # Two files for one id are a flat one and a sharded one (a file in a shard folder is
        # its id's, or not loaded): with no flat file or no shard folder, there are none.
        if shards and flat:
            records = self._one_per_id(records, paths, problems)
        return records, problems

    def read_folder(self, folder: Path, kind: str, keep: dict[str, bytes] | None = None,
                    known: KnownFiles | None = None
                    ) -> tuple[dict[str, bytes], dict[str, str], list[LoadProblem]] | None:
        """Every record file of a kind on disk read, not parsed: (id -> bytes, id -> path, the
        files that could not be read), each file checked as :meth:`load_folder` checks it
        except for its content, which :func:`check_record` checks when the record is first
        read (:meth:`core.store.cache.Store.fill_unchecked`). ``keep``: filled as there, with
        the bytes of every file read (the caller drops those :func:`check_record` refuses).
        None (nothing kept) when a memory may have two files (flat ones and shard folders):
        :meth:`load_folder` then settles which is loaded. ``known``: as there."""
        read: list[Any] = []
        paths: list[str] = []
        problems: list[LoadProblem] = []
        kept: dict[str, bytes] | None = None if keep is None else {}
        shards = self._scan(folder, kind, read, paths, problems, None, kept, parse=False,
                            known=known)
        if shards and read:
            return None
        for entry in shards:
            self._scan(Path(entry.path), kind, read, paths, problems, entry.name, kept,
                       parse=False, known=known)
        if keep is not None and kept is not None:
            for rel, data in kept.items():  # (one by one: a KeptWhileSmall counts them)
                keep[rel] = data
        return dict(read), {stem: path for (stem, _), path in zip(read, paths)}, problems

    def _scan(self, folder: Path, kind: str, records: list[Any], paths: list[str],
              problems: list[LoadProblem], shard: str | None,
              keep: dict[str, bytes] | None = None, parse: bool = True,
              fed: RecordFeed | None = None, known: KnownFiles | None = None
              ) -> list[os.DirEntry[str]]:
        """Load the record files of one folder into ``records`` (their paths into ``paths``,
        their bytes into ``keep`` when given, by vault-relative path); returns the shard folders
        found in it (memories/ only). Not ``parse``: (id, bytes) of each file into ``records``,
        its content unchecked. ``fed``: told how many entries the folder has, then handed the
        records it loads, :data:`FEED_EVERY` at a time. ``known``: see :meth:`load_folder`."""
        try:
            check_folder(folder)
        except UnsafeFolderError as exc:  # its files are elsewhere: none of them is read
            problems.append(LoadProblem(folder, str(exc).removeprefix(f"refused: {folder} ")))
            return []
        try:
            entries = list(os.scandir(folder))
        except FileNotFoundError:
            return []
        if known is not None:  # (git's order: the blobs come as they are taken)
            entries.sort(key=_name)
        shards = []
        handed = len(records)  # (the records before this folder's were handed over already)
        if fed is not None:
            fed.expect(len(entries))
        for entry in entries:
            name = entry.name
            if name.startswith(TEMP_PREFIX):
                continue
            if not name.endswith(SUFFIX):
                if shard is None and kind == "memory" and is_shard_name(name) \
                        and entry.is_dir(follow_symlinks=False):
                    shards.append(entry)
                    continue
                problem: str | None = (SYMLINK_REFUSED if shard is None and is_shard_name(name)
                                       and entry.is_symlink() else "not a .json file (ignored)")
            elif entry.is_symlink():
                problem = SYMLINK_REFUSED
            elif not entry.is_file(follow_symlinks=False):
                problem = "is not a regular file"
            elif shard is not None and shard != shard_of(name[: -len(SUFFIX)]):
                problem = (f"is in the shard folder {shard}/, but this id's shard is "
                           f"{shard_of(name[: -len(SUFFIX)])}/ (not loaded; move it there)")
            else:
                record, problem = self._load_one(entry.path, name, parse, kind, keep, known)
                if record is not None:
                    records.append(record)
                    paths.append(entry.path)
                    if fed is not None and len(records) - handed >= FEED_EVERY:
                        fed.add(records[handed:])
                        handed = len(records)
                    continue
            problems.append(LoadProblem(Path(entry.path), problem or "unreadable"))
        if fed is not None:
            fed.add(records[handed:])
        return shards

    def _one_per_id(self, records: list[Any], paths: list[str], problems: list[LoadProblem]
                    ) -> list[Any]:
        """One memory per id: of two files for one id (flat and sharded), the one
        :func:`~core.store.shards.newer_copy` picks; the other is a load problem."""
        seen: dict[str, int] = {}
        kept: list[Any] = []
        kept_paths: list[str] = []  # (made Paths only for the rare second file: 100k at open)
        for record, found in zip(records, paths):
            at = seen.get(record.id)
            if at is None:
                seen[record.id] = len(kept)
                kept.append(record)
                kept_paths.append(found)
                continue
            first, second = Path(kept_paths[at]), Path(found)
            if newer_copy(kept[at], record, self.is_home(first)):
                winner, loser = first, second
            else:
                winner, loser = second, first
                kept[at], kept_paths[at] = record, found
            problems.append(LoadProblem(loser, (
                f"a second file for memory {record.id} (also at "
                f"{winner.relative_to(self.root).as_posix()}, the copy loaded: used later, or "
                "in the vault's layout); left untouched, and set aside in the quarantine when "
                "the memory is next written (or by `memvault migrate-layout`)")))
        return kept

    def load_file(self, path: Path, kind: str) -> tuple[Any, str | None]:
        """One record file: (record, None) or (None, reason); an absent file is a reason too."""
        return self._load_one(str(path), path.name, True, kind)

    def _load_one(self, path: str, name: str, parse: bool, kind: str,
                  keep: dict[str, bytes] | None = None, known: KnownFiles | None = None
                  ) -> tuple[Any, str | None]:
        """One file loaded: (record, None) or (None, reason); not ``parse``: (id, bytes), the
        content unchecked. ``known``: where its bytes are taken from when git vouches for it."""
        stem = name[: -len(SUFFIX)]
        try:
            check_id(stem, kind)
        except InvalidIdError as exc:
            return None, f"file name is not a valid {kind} id ({exc})"
        data = None if known is None else known.take(self._rel(path))
        if data is None:
            try:
                data, st = read_vault_file(path)
            except FileNotFoundError:
                return None, "is gone"
            except RefusedFileError as exc:
                if exc.stat is not None:
                    self.seen[path] = (exc.stat.st_mtime_ns, exc.stat.st_size, exc.stat.st_ino)
                return None, exc.reason
            self.seen[path] = (st.st_mtime_ns, st.st_size, st.st_ino)
        if not parse:
            record: Any = (stem, data)
        else:
            try:
                record = check_record(kind, stem, data)
            except RecordRefused as exc:
                return None, str(exc)
        if keep is not None:
            keep[self._rel(path)] = data
        return record, None

    def _rel(self, path: str) -> str:
        """A file's path relative to the vault, ``/``-separated (as git names it under the
        vault's folder)."""
        rel = path[self._cut:]
        return rel if os.sep == "/" else rel.replace(os.sep, "/")


def _name(entry: os.DirEntry[str]) -> str:
    return entry.name


class RecordRefused(ValueError):
    """A file that is no valid record of its id; the message says why, for a person."""


def check_record(kind: str | type[BaseModel], record_id: str, data: bytes) -> Any:
    """The record ``data`` holds, a valid record of ``kind`` ("memory" or "relation", or its
    model, Memory or Relation) whose id is ``record_id`` (its file's name); RecordRefused
    saying what is wrong otherwise."""
    if not isinstance(kind, str):
        kind = kind.__name__.lower()
    exact = memory_exact if kind == "memory" else relation_exact
    record: Any = exact(data) if exact_first(kind) else None
    if record is None:  # (else exactly what validation keeps, made without the validator)
        from pydantic import ValidationError

        from ..model.records import Memory, Relation

        model = Memory if kind == "memory" else Relation
        try:
            record = model.model_validate_json(data)
        except ValidationError as exc:
            raise RecordRefused(describe_validation_error(exc)) from None
    if record.id != record_id:
        raise RecordRefused(f"id inside the file ({record.id!r}) differs from the file name")
    return record


def describe_validation_error(exc: ValidationError) -> str:
    """What is wrong with a record file, in one line."""
    errors = exc.errors(include_url=False)
    first = errors[0]
    if first.get("type") in ("json_invalid", "json_type"):
        return f"not valid JSON ({first.get('msg')})"
    where = ".".join(str(p) for p in first.get("loc", ())) or "record"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"invalid field {where}: {first.get('msg')}{more}"
