"""Stable times for a file the vault adopts without them (its ``external:`` commit): the commit
writes them into the file (:func:`core.model.times.with_fields`) and its message says so.

The time is what the committed version gave, else the file's first commit (a file committed
without them), else its modification time (a new file); docs/vault.md says why."""

from __future__ import annotations

from pathlib import Path

from ..errors import JournalError
from ..model.records import Memory, Relation
from ..model.times import missing_times, stable_times, with_fields
from ..store.files import RefusedFileError, read_vault_file
from ..store.layout import MAX_FILE_BYTES
from ..textutil import neutralise_line
from .state import VaultState

_SHOWN = 10  # files named in the commit message; the others counted


def times_for_adoption(state: VaultState, paths: list[Path]
                       ) -> tuple[dict[Path, bytes | None], str]:
    """The adopted files among ``paths`` that lack their times, with the times written in
    (path -> the file's new bytes), and the commit message's paragraph saying what was added
    ("" when none lacks them)."""
    found: list[tuple[Path, bytes, bytes, str]] = []  # path, read, with times, said
    for path in paths:
        what = state.layout.classify(path.relative_to(state.root).as_posix())
        if what is None or what[0] not in ("memory", "relation"):
            continue
        model: type[Memory] | type[Relation] = Memory if what[0] == "memory" else Relation
        try:
            data, stat = read_vault_file(path)
            record = model.model_validate_json(data)
        except (OSError, RefusedFileError, ValueError):
            continue  # gone or unreadable since it was sorted: adopted (or refused) as it is
        missing = missing_times(record)
        if not missing:
            continue
        before = _committed(state, path, model)
        when, source = _first_commit_time(state, path), "its first commit"
        if when is None:
            when, source = int(stat.st_mtime), "its modification time"
        values = stable_times(record, missing, when, before)
        if before is not None and all(name in before.model_fields_set for name in missing):
            source = "the version committed before"
        try:
            timed = with_fields(data, values)
        except ValueError:
            continue
        if len(timed) > MAX_FILE_BYTES:
            continue  # it could not be read back: adopted as it is
        shown = ", ".join(f"{name}={value}" for name, value in values.items())
        found.append((path, data, timed, f"{_shown_path(state, path)}: {shown} ({source})"))
    writes: dict[Path, bytes | None] = {}
    said: list[str] = []
    for path, data, timed, line in found:
        # a person's save since the read above wins: that file is adopted as it is
        try:
            still = read_vault_file(path)[0] == data
        except (OSError, RefusedFileError):
            still = False
        if still:
            writes[path] = timed
            said.append(line)
    if not said:
        return writes, ""
    more = f"\n... and {len(said) - _SHOWN} more" if len(said) > _SHOWN else ""
    return writes, ("memvault added the times these files did not give (a memory's created_at "
                    "and last_used, a relation's created_at), so that their age does not "
                    "restart at every read; every other byte is as written:\n"
                    + "\n".join(said[:_SHOWN]) + more)


def _shown_path(state: VaultState, path: Path) -> str:
    """The file's vault-relative path as a commit message shows it."""
    return neutralise_line(path.relative_to(state.root).as_posix())


def _committed(state: VaultState, path: Path, model: type[Memory] | type[Relation]
               ) -> Memory | Relation | None:
    """The record as HEAD has this file, or None (not committed, or not a valid record)."""
    try:
        data = state.journal.history.show("HEAD", path) if state.journal.head() else None
        return model.model_validate_json(data) if data is not None else None
    except (JournalError, ValueError):
        return None


def _first_commit_time(state: VaultState, path: Path) -> int | None:
    """When the file at HEAD was first committed (in its present life: after its last deletion),
    or None when HEAD has no such file."""
    if not state.journal.head():
        return None
    try:
        entries = state.journal.history.log(path)
    except JournalError:
        return None
    life = []
    for entry in entries:  # newest first
        if entry.action == "deleted":
            break
        life.append(entry)
    return life[-1].timestamp if life else None


__all__ = ["times_for_adoption"]
