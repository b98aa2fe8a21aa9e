"""The ``memory-latest`` rule: two versions of one vault file merged into one without a person.

:func:`merge` is the decision, pure (it reads and writes nothing); the ``memvault-merge-driver``
program git runs around it is :mod:`core.sync.merge_driver`. The rule:

* **Winner.** A memory: the side with the later ``last_used``; on a tie the higher ``use_count``;
  on a tie the side whose canonical JSON (sorted keys, compact) is the larger byte string. A
  relation: the later ``created_at``, then the canonical JSON. ``.meta.json``: the later of its
  ``*_at`` times, then the canonical JSON. The order is total and looks only at the two
  versions, so every machine, whichever side it is on, decides the same.
* **Fields.** With a readable ancestor the merge is field by field, so a write on one side is not
  lost because the other side was used later: a field (or group of fields) changed on one side
  only takes that side's value; changed on both, the winner's. The reinforcement fields merge
  instead: ``use_count``, ``review_count`` and ``cross_domain_count`` become the ancestor's value
  plus the increase on each side (two touches on two machines count twice; never below either
  side); ``last_used`` and ``last_review_at`` the later one; ``created_at`` the earlier one.
  ``content`` and ``gist`` move together (a gist belongs to its content), so do ``status``,
  ``promoted_at`` and ``promoted_to``; ``meta`` merges key by key. Without an ancestor (both
  sides added the file): the winner's record, with the counters at the larger value and the
  times as above.
* **Renames.** git may pair a deleted file with a similar new one as a rename and hand both to
  the driver under the new name. The side whose ``id`` is not the file's name is another record:
  the side that is the file's record is taken as it is.
* **Unreadable.** A side that is not a valid record (not JSON, invalid fields, an id that is not
  the file name on either side) is never merged: the result is both versions between conflict
  markers, for a person, and the driver exits non-zero.

The result is always written in the vault's own format (``Layout.encode``).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from pydantic import ValidationError

from ..model.records import Memory, Relation
from ..store.layout import MEMORIES_DIR, META_FILE, RELATIONS_DIR, SUFFIX, Layout
from ..store.shards import shard_of
from .conflict_markers import conflict_text

COUNTERS = ("use_count", "review_count", "cross_domain_count")
LATEST = ("last_used", "last_review_at")
EARLIEST = ("created_at",)
GROUPS = (("content", "gist"), ("status", "promoted_at", "promoted_to"))
NESTED = ("meta",)

_MISSING: Any = object()
PURGED_KEY = "purged"  # .meta.json: the ids `memvault purge` removed (core.secrets.purge)


def _purged_union(ours: Any, theirs: Any) -> Any:
    """Both sides' purged lists together: nothing purged on one machine comes back."""
    merged: dict[str, list[str]] = {}
    for side in (ours, theirs):
        if not isinstance(side, dict):
            continue
        for key, items in side.items():
            if isinstance(items, list):
                merged[key] = sorted(set(merged.get(key, [])) | {i for i in items
                                                                  if isinstance(i, str)})
    return merged if merged else (ours if ours is not _MISSING else theirs)


@dataclass
class MergeOutcome:
    """What the driver decided for one file."""

    data: bytes  # the file's merged content, or both versions between conflict markers
    clean: bool
    decision: str  # "same", "ours", "theirs", "merged" or "conflict"
    reason: str
    kind: str  # "memory", "relation", "meta" or "unknown"
    notes: list[str] = field(default_factory=list)  # field-level details of a merge

    def as_dict(self, path: str) -> dict[str, Any]:
        return {"path": path, "kind": self.kind, "decision": self.decision,
                "reason": self.reason, "notes": self.notes, "clean": self.clean}


class _Unreadable(Exception):
    pass


# -- kinds -----------------------------------------------------------------------------------------
def kind_of(path: str) -> str:
    """``memory``, ``relation`` or ``meta`` from a repository path (its last two parts; a
    memory's last three in the sharded layout)."""
    parts = PurePosixPath(path.replace(os.sep, "/")).parts
    if parts and parts[-1] == META_FILE:
        return "meta"
    if len(parts) >= 2 and parts[-1].endswith(SUFFIX):
        if len(parts) >= 3 and parts[-3] == MEMORIES_DIR and parts[-2] == shard_of(
                parts[-1][: -len(SUFFIX)]):
            return "memory"  # the sharded layout: memories/{shard}/{id}.json
        return {MEMORIES_DIR: "memory", RELATIONS_DIR: "relation"}.get(parts[-2], "unknown")
    return "unknown"


def _stem(path: str) -> str | None:
    name = PurePosixPath(path.replace(os.sep, "/")).name
    return name[: -len(SUFFIX)] if name.endswith(SUFFIX) else None


def _guess_kind(*docs: bytes | None) -> str:
    for doc in docs:
        try:
            data = json.loads(doc or b"")
        except ValueError:
            continue
        if isinstance(data, dict):
            if "from_memory_id" in data:
                return "relation"
            if "content" in data:
                return "memory"
    return "unknown"


# -- parsing and encoding --------------------------------------------------------------------------
def _parse(data: bytes, kind: str) -> dict[str, Any]:
    """A side as a plain JSON dict, validated as the record it must be."""
    try:
        if kind == "memory":
            return Memory.model_validate_json(data).model_dump(mode="json")
        if kind == "relation":
            return Relation.model_validate_json(data).model_dump(mode="json")
        value = json.loads(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in err.get("loc", ()))
        raise _Unreadable(f"{where + ': ' if where else ''}{err.get('msg')}") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise _Unreadable(f"not valid JSON ({exc})") from None
    if not isinstance(value, dict):
        raise _Unreadable("not a JSON object")
    return value


def _encode(record: dict[str, Any], kind: str) -> bytes:
    if kind == "memory":
        return Layout.encode(Memory.model_validate(record))
    if kind == "relation":
        return Layout.encode(Relation.model_validate(record))
    return Layout.encode(record)


def canonical(record: dict[str, Any]) -> bytes:
    """The fixed-order form used to break ties: sorted keys, no spaces, UTF-8."""
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _sort_key(record: dict[str, Any], kind: str) -> tuple[Any, ...]:
    if kind == "memory":
        return (_number(record.get("last_used")) or 0.0, _number(record.get("use_count")) or 0.0,
                canonical(record))
    if kind == "relation":
        return (_number(record.get("created_at")) or 0.0, canonical(record))
    times = [_number(v) for k, v in record.items() if k.endswith("_at")]
    return (max((t for t in times if t is not None), default=0.0), canonical(record))


def _why(winner: dict[str, Any], loser: dict[str, Any], kind: str, side: str) -> str:
    if kind == "memory":
        if winner.get("last_used") != loser.get("last_used"):
            return f"later last_used on {side}"
        if winner.get("use_count") != loser.get("use_count"):
            return f"same last_used, higher use_count on {side}"
    elif kind == "relation":
        if winner.get("created_at") != loser.get("created_at"):
            return f"later created_at on {side}"
    elif _sort_key(winner, kind)[0] != _sort_key(loser, kind)[0]:
        return f"later maintenance time on {side}"
    return f"a tie, broken by the fixed order ({side})"


# -- the field-wise merge --------------------------------------------------------------------------
def _counter(key: str, b: Any, o: Any, t: Any, notes: list[str]) -> Any:
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (o, t)):
        return _MISSING
    if isinstance(b, int) and not isinstance(b, bool):
        value = max(b + max(0, o - b) + max(0, t - b), o, t)
        if value != o or value != t:
            notes.append(f"{key} {b} +{max(0, o - b)} (ours) +{max(0, t - b)} (theirs) = {value}")
    else:
        value = max(o, t)
        if o != t:
            notes.append(f"{key} max({o}, {t}) = {value}")
    return value


def _extreme(values: list[Any], pick: Any) -> Any:
    present = [v for v in values if v is not _MISSING and v is not None]
    numbers = [v for v in present if _number(v) is not None]
    if numbers and len(numbers) == len(present):
        return pick(numbers)
    return _MISSING


def _merge_dicts(base: dict[str, Any] | None, ours: dict[str, Any], theirs: dict[str, Any],
                 ours_wins: bool, kind: str, notes: list[str], top: bool = True) -> dict[str, Any]:
    """Field by field (see the module docstring). ``base`` None: both sides added the record."""
    winner, loser = (ours, theirs) if ours_wins else (theirs, ours)
    groups = GROUPS if kind == "memory" and top else ()
    units: list[tuple[str, ...]] = list(groups)
    grouped = {k for g in groups for k in g}
    units += [(k,) for k in dict.fromkeys([*winner, *loser]) if k not in grouped]
    result: dict[str, Any] = {}
    for unit in units:
        name = "/".join(unit)
        b = tuple(base.get(k, _MISSING) for k in unit) if base is not None else None
        o = tuple(ours.get(k, _MISSING) for k in unit)
        t = tuple(theirs.get(k, _MISSING) for k in unit)
        key = unit[0]
        special = top and len(unit) == 1 and kind in ("memory", "meta")
        if special and kind == "memory" and key in COUNTERS and (o != t or b is not None) and \
                (value := _counter(key, b[0] if b else _MISSING, o[0], t[0], notes)) is not _MISSING:
            chosen = (value,)  # before the equality test: one touch on each side is two
        elif special and kind == "meta" and key == PURGED_KEY and o != t:
            chosen = (_purged_union(o[0], t[0]),)  # a purge on either side stays purged
        elif o == t:
            chosen = o
        elif special and key in EARLIEST and (value := _extreme([o[0], t[0]], min)) is not _MISSING:
            chosen = (value,)
        elif special and (key in LATEST or (kind == "meta" and key.endswith("_at"))) and \
                (value := _extreme([o[0], t[0]], max)) is not _MISSING:
            chosen = (value,)
        elif b is not None and o == b:
            chosen = t
            if ours_wins:
                notes.append(f"{name} from theirs (changed there only)")
        elif b is not None and t == b:
            chosen = o
            if not ours_wins:
                notes.append(f"{name} from ours (changed there only)")
        elif top and key in NESTED and isinstance(o[0], dict) and isinstance(t[0], dict):
            sub: list[str] = []
            nested_base = b[0] if b is not None and isinstance(b[0], dict) else None
            chosen = (_merge_dicts(nested_base, o[0], t[0], ours_wins, kind, sub, top=False),)
            notes.extend(f"{key}.{n}" for n in sub)
        else:
            chosen = o if ours_wins else t
            if b is not None:
                notes.append(f"{name} changed on both sides: the winner's")
        for k, v in zip(unit, chosen):
            if v is not _MISSING:
                result[k] = v
    return result


# -- the decision ----------------------------------------------------------------------------------
def merge(ancestor: bytes | None, ours: bytes, theirs: bytes, path: str) -> MergeOutcome:
    """Merge two versions of the vault file at ``path`` (a repository path: its folder says
    whether it is a memory, a relation or ``.meta.json``). ``ancestor`` is empty or None when
    both sides added the file. Pure: reads and writes nothing."""
    kind = kind_of(path)
    if kind == "unknown":
        kind = _guess_kind(ours, theirs)
    if ours == theirs:
        return MergeOutcome(ours, True, "same", "both sides are the same", kind)
    if kind == "unknown":
        return conflict_outcome(ancestor, ours, theirs, path,
                                "not a memory, relation or .meta.json", kind)
    try:
        o = _parse(ours, kind)
    except _Unreadable as exc:
        return conflict_outcome(ancestor, ours, theirs, path,
                                f"ours is not a valid {kind}: {exc}", kind)
    try:
        t = _parse(theirs, kind)
    except _Unreadable as exc:
        return conflict_outcome(ancestor, ours, theirs, path,
                                f"theirs is not a valid {kind}: {exc}", kind)
    base: dict[str, Any] | None = None
    if ancestor:
        try:
            base = _parse(ancestor, kind)
        except _Unreadable:
            base = None  # an unreadable ancestor: merge as if both sides added the file

    stem = _stem(path) if kind in ("memory", "relation") else None
    if stem is not None:
        o_ok, t_ok = o.get("id") == stem, t.get("id") == stem
        if not (o_ok or t_ok):
            return conflict_outcome(
                ancestor, ours, theirs, path,
                f"neither side holds the record {stem!r} its file name says", kind)
        if o_ok != t_ok:
            side, rec = ("ours", o) if o_ok else ("theirs", t)
            other = t if o_ok else o
            return MergeOutcome(_encode(rec, kind), True, side,
                                f"the other side holds another record ({other.get('id')!r}, "
                                f"paired by git's rename detection): {side} as it is", kind)
        if base is not None and base.get("id") != stem:
            base = None

    ours_wins = _sort_key(o, kind) > _sort_key(t, kind)
    reason = _why(o, t, kind, "ours") if ours_wins else _why(t, o, kind, "theirs")
    notes: list[str] = []
    merged = _merge_dicts(base, o, t, ours_wins, kind, notes)
    try:
        data = _encode(merged, kind)
    except ValidationError:  # cannot happen with valid sides; never write a half-valid file
        data = _encode(o if ours_wins else t, kind)
        notes = ["the field-wise merge was not a valid record: the winner as it is"]
    decision = "merged"
    if data == _encode(o, kind):
        decision = "ours"
    elif data == _encode(t, kind):
        decision = "theirs"
    return MergeOutcome(data, True, decision, reason, kind, notes)


def conflict_outcome(ancestor: bytes | None, ours: bytes, theirs: bytes, path: str, reason: str,
                     kind: str) -> MergeOutcome:
    """Both versions between conflict markers, for a person: not merged."""
    return MergeOutcome(conflict_text(ancestor, ours, theirs, path, reason), False, "conflict",
                        reason, kind)
