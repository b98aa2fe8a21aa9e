"""The review inbox's diffs: what changed in a memory between two of its states, on parsed
records (dicts; None for a memory that does not exist), and the short one-line form of it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..textutil import neutralise_line
from .revert import COUNTERS, LATEST

USE_FIELDS = (*COUNTERS, *LATEST)
#: The fields an entry shows, in this order; other changed keys are listed by name after them.
SHOWN_FIELDS = ("content", "gist", "tags", "entities", "status", "strength", "source")
TEXT_FIELDS = ("content", "gist")  # quoted and cut in the short form
NEW_FIELDS = ("content", "gist", "tags", "entities", "source")  # what an added memory shows


@dataclass(frozen=True)
class FieldChange:
    field: str
    before: Any  # None when the memory did not exist (or had no value)
    after: Any


def parse(data: bytes | None) -> dict[str, Any] | None:
    try:
        value = json.loads(data) if data is not None else None
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def without_use(record: dict[str, Any] | None) -> dict[str, Any] | None:
    """The record without its use fields (what a use record changes)."""
    if record is None:
        return None
    return {k: v for k, v in record.items() if k not in USE_FIELDS}


def _value(record: dict[str, Any] | None, name: str) -> Any:
    if record is None:
        return None
    if name in ("tags", "source"):
        meta = record.get("meta")
        return meta.get(name) if isinstance(meta, dict) else None
    return record.get(name)


def changed_fields(a: dict[str, Any] | None, b: dict[str, Any] | None) -> list[str]:
    """Names of the fields that differ (use fields left out): the shown ones first, then any
    other top-level key (``meta`` only for what is not tags or source)."""
    out = [f for f in SHOWN_FIELDS if _value(a, f) != _value(b, f)]
    a_rest, b_rest = _rest(a), _rest(b)
    out += sorted(k for k in {*a_rest, *b_rest} if a_rest.get(k) != b_rest.get(k))
    return out


def _rest(record: dict[str, Any] | None) -> dict[str, Any]:
    if record is None:
        return {}
    rest = {k: v for k, v in record.items() if k not in (*SHOWN_FIELDS, *USE_FIELDS, "meta")}
    meta = record.get("meta")
    if isinstance(meta, dict):
        rest.update({f"meta.{k}": v for k, v in meta.items() if k not in ("tags", "source")})
    return rest


def field_changes(before: dict[str, Any] | None, after: dict[str, Any] | None) -> list[FieldChange]:
    """Each changed field with its value before and after (an added memory: its non-empty
    fields; a removed one: what it held)."""
    changes = []
    for name in changed_fields(before, after):
        if name in SHOWN_FIELDS:
            b, a = _value(before, name), _value(after, name)
        else:
            b, a = _rest(before).get(name), _rest(after).get(name)
        if (before is None or after is None) and name not in NEW_FIELDS:
            continue  # a new or removed memory: its bookkeeping (id, created_at...) says nothing
        if b in (None, [], "") and a in (None, [], ""):
            continue
        changes.append(FieldChange(name, b, a))
    return changes


def operation(before: dict[str, Any] | None, after: dict[str, Any] | None) -> str:
    """added, removed, archived, unarchived, promoted, superseded or changed."""
    if before is None:
        return "added"
    if after is None:
        return "removed"
    b, a = before.get("status"), after.get("status")
    if b != a:
        if a == "archived":
            return "archived"
        if b == "archived" and a == "active":
            return "unarchived"
        if a in ("promoted", "superseded"):
            return str(a)
    return "changed"


def first_words(text: Any, limit: int = 48) -> str:
    words = " ".join(str(text or "").split())
    return words if len(words) <= limit else words[: limit - 1].rstrip() + "…"


def short(change: FieldChange, width: int = 40) -> str:
    """``content: 'old…' -> 'new…'``, ``tags: +a -b``, ``status: active -> archived``; control
    characters escaped."""
    b, a = change.before, change.after
    if isinstance(b, list | type(None)) and isinstance(a, list | type(None)) \
            and (b is not None or a is not None):
        old, new = list(b or []), list(a or [])
        plus = [f"+{x}" for x in new if x not in old]
        minus = [f"-{x}" for x in old if x not in new]
        text = " ".join(plus + minus) or "reordered"
    elif change.field in TEXT_FIELDS and (isinstance(b, str) or isinstance(a, str)):
        if b is None:
            text = _quoted(a, width)
        elif a is None:
            text = _quoted(b, width) + " (removed)"
        else:
            text = f"{_quoted(b, width)} -> {_quoted(a, width)}"
    else:
        text = f"{_plain(b)} -> {_plain(a)}"
    return neutralise_line(f"{change.field}: {text}")


def _quoted(value: Any, width: int) -> str:
    return "'" + first_words(value, width) + "'"


def _plain(value: Any) -> str:
    return "none" if value is None else json.dumps(value, ensure_ascii=False) \
        if not isinstance(value, str | int | float) else str(value)


def relation_label(record: dict[str, Any] | None) -> str:
    if not record:
        return "?"
    frm, to = str(record.get("from_memory_id", "?")), str(record.get("to_memory_id", "?"))
    return neutralise_line(f"{frm[:8]} -{record.get('relation_type', '?')}-> {to[:8]}")
