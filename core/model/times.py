"""A record's times when its file has none: which it lacks, what they become, and the file's
bytes with them added, every other byte as the person wrote it.

Without them a memory written by hand would take the time of each read (the model's default,
as CortexGraph's), so its decay would restart at every open; :mod:`core.vault.adopted_times`
writes them when the vault adopts the file."""

from __future__ import annotations

import json
import re

from .records import Memory, Relation

#: The times a record's file should hold, by kind.
TIME_FIELDS: dict[str, tuple[str, ...]] = {"memory": ("created_at", "last_used"),
                                           "relation": ("created_at",)}

_FIRST_LINE = re.compile(rb"(\r?\n)([ \t]*)")


def missing_times(record: Memory | Relation) -> tuple[str, ...]:
    """The time fields ``record``'s file did not give (read from the fields pydantic was given:
    a record loaded from a file without them)."""
    kind = "memory" if isinstance(record, Memory) else "relation"
    given = record.model_fields_set
    return tuple(name for name in TIME_FIELDS[kind] if name not in given)


def stable_times(record: Memory | Relation, missing: tuple[str, ...], when: int,
                 before: Memory | Relation | None = None) -> dict[str, int]:
    """The values of the ``missing`` time fields of ``record``: what the version ``before`` it
    (the committed one) gave, else ``created_at`` is ``when`` (the file's stable time: its first
    commit, or its modification time), never later than a ``last_used`` the file gives, and
    ``last_used`` is the ``created_at`` (used last when it was made)."""
    kept = before.model_fields_set if before is not None else set()
    values: dict[str, int] = {}
    for name in missing:
        if before is not None and name in kept:
            values[name] = int(getattr(before, name))
    if "created_at" in missing and "created_at" not in values:
        created = when
        if isinstance(record, Memory) and "last_used" not in missing:
            created = min(when, record.last_used)
        values["created_at"] = created
    if "last_used" in missing and "last_used" not in values:
        values["last_used"] = values.get("created_at", record.created_at)
    return values


def with_fields(data: bytes, values: dict[str, int]) -> bytes:
    """The bytes of a record file (a JSON object) with ``values`` added as its first keys, in
    the file's own layout (each on a line of its own, indented as the first key is, when the
    file is written so; else on the opening line), every other byte as it was. ValueError when
    ``data`` is not a JSON object without those keys."""
    parsed = json.loads(data)
    if not isinstance(parsed, dict) or any(name in parsed for name in values):
        raise ValueError("not a JSON object without these fields")
    start = data.index(b"{") + 1
    rest = data[start:]
    line = _FIRST_LINE.match(rest)
    if line is not None and not rest[line.end():].startswith(b"}"):
        newline, indent = line.group(1), line.group(2)
        piece = b"".join(newline + indent + _member(name, value) + b","
                         for name, value in values.items())
    else:
        piece = b"".join(_member(name, value) + b", " for name, value in values.items())
    result = data[:start] + piece + rest
    if json.loads(result) != {**values, **parsed}:  # the file says all it said, and these
        raise ValueError("the fields could not be added to the file as written")
    return result


def _member(name: str, value: int) -> bytes:
    return json.dumps(name).encode() + b": " + str(int(value)).encode()


__all__ = ["TIME_FIELDS", "missing_times", "stable_times", "with_fields"]
