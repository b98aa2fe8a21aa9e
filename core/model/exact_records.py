"""Records made from a file without running pydantic's validator, when the file holds exactly
what validating it would keep (what memvault writes): a read of memvault's own files never
builds the models' validators (they are built on first use, ``defer_build``).

Exactly: every field present with the very type validation keeps (``str``, ``int``, ``float``,
``null`` where allowed), within its bounds, ``status`` a known one, every value one a record
may hold (:func:`~core.model.checks.check_value`); the record is then made with
``model_construct``, equal to what validation makes, given fields and extra keys included (in a
process that only reads, a plain record instead: :mod:`core.model.plain_records`).
Anything else (a missing field, an ``int`` where a ``float`` is kept, text that is no valid
UTF-8, JSON pydantic's reader refuses such as ``NaN``) answers None: the file is validated as
always, which accepts, converts or refuses it as it does today."""

from __future__ import annotations

import itertools
import json
import sys
from typing import TYPE_CHECKING, Any, cast

from .checks import RecordValueError, check_value
from .plain_records import PlainMemory, PlainMeta, PlainRelation, reading_plainly
from .values import MemoryStatus

if TYPE_CHECKING:
    from .records import Memory, Relation

_STR = (str,)
_STR_OR_NONE = (str, type(None))
_INT = (int,)
_INT_OR_NONE = (int, type(None))

#: Memory's fields (:class:`~core.model.records.Memory`, in its order): the types a value
#: may have to be kept as it is, and its bounds (low, high; None: unbounded)
_MEMORY: dict[str, tuple[tuple[type, ...], float | None, float | None]] = {
    "id": (_STR, None, None),
    "content": (_STR, None, None),
    "gist": (_STR_OR_NONE, None, None),
    "created_at": (_INT, None, None),
    "last_used": (_INT, None, None),
    "use_count": (_INT, 0, None),
    "strength": ((float,), 0, None),
    "promoted_at": (_INT_OR_NONE, None, None),
    "promoted_to": (_STR_OR_NONE, None, None),
    "review_priority": ((float,), 0, 1),
    "last_review_at": (_INT_OR_NONE, None, None),
    "review_count": (_INT, 0, None),
    "cross_domain_count": (_INT, 0, None),
}
_META: dict[str, tuple[type, ...]] = {"source": _STR_OR_NONE, "context": _STR_OR_NONE}
_RELATION: dict[str, tuple[tuple[type, ...], float | None, float | None]] = {
    "id": (_STR, None, None),
    "from_memory_id": (_STR, None, None),
    "to_memory_id": (_STR, None, None),
    "relation_type": (_STR, None, None),
    "strength": ((float,), 0, 1),
    "created_at": (_INT, None, None),
}
_STATUSES = {"active", "promoted", "archived", "superseded"}
#: How many records a process reads exactly before it leaves them to pydantic: the exact reading
#: saves building the validators (~70 ms once) but costs ~60 us a record where pydantic's reader,
#: once built, takes ~10 us (10k memories read whole, every one exactly: 0.6 s against 0.15 s).
#: A command on a vault of a few hundred memories never builds them; a big read builds them
#: after at most this many (~12 ms of exact reading spent) and reads the rest fast.
EXACT_READS = 200
_reads = itertools.count()


def exact_first(kind: str) -> bool:
    """Whether the next record of ``kind`` ("memory" or "relation") is made by the exact
    reading: not once its model's validator is built (pydantic's reader is then the faster),
    and only for the first :data:`EXACT_READS` records of the process."""
    records = sys.modules.get(f"{__package__}.records")  # (not imported: nothing is built)
    model = getattr(records, "Memory" if kind == "memory" else "Relation", None)
    complete = model is not None and model.__pydantic_complete__
    return not complete and next(_reads) < EXACT_READS


class _NotExact(Exception):
    """The file holds something validation would convert, fill in or refuse."""


def _refuse_constant(name: str) -> Any:
    raise _NotExact(name)  # NaN, Infinity: pydantic's JSON reader refuses them


def _one_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):  # a key twice: left to pydantic's reader and its rule
        raise _NotExact("a key twice")
    return found


def _loaded(data: bytes) -> dict[str, Any] | None:
    """The file's JSON object, read as pydantic's reader reads it, or None."""
    try:
        value = json.loads(data, parse_constant=_refuse_constant, object_pairs_hook=_one_each)
    except (ValueError, RecursionError, _NotExact):  # (UnicodeDecodeError is a ValueError)
        return None
    return value if type(value) is dict else None


def _fields_exact(data: dict[str, Any],
                  fields: dict[str, tuple[tuple[type, ...], float | None, float | None]]) -> bool:
    for name, (types, low, high) in fields.items():
        if name not in data:
            return False
        value = data[name]
        if type(value) not in types:  # (exact: a bool is no int here, an int no float)
            return False
        if value is not None and ((low is not None and value < low)
                                  or (high is not None and value > high)):
            return False
    return True


def _plain_keys(data: dict[str, Any]) -> bool:
    """No key with a leading underscore (pydantic's own names; ``model_construct`` would take
    ``_fields_set`` as its argument): such a file is validated."""
    return not any(key.startswith("_") for key in data)


def _strings(value: Any) -> bool:
    return type(value) is list and all(type(item) is str for item in value)


def memory_exact(data: bytes) -> Memory | None:
    """The memory the file's ``data`` holds, made without the validator, or None (see the
    module's docstring): never a record validation would make differently or refuse."""
    record = _loaded(data)
    if record is None or not _plain_keys(record) or not _fields_exact(record, _MEMORY):
        return None
    meta, embed = record.get("meta"), record.get("embed", ())
    if record.get("status") not in _STATUSES or not _strings(record.get("entities")) \
            or type(meta) is not dict:
        return None
    if embed is not None and not (type(embed) is list  # (absent: a tuple, not exact)
                                  and all(type(x) is float for x in embed)):
        return None
    if not _plain_keys(meta) or not _strings(meta.get("tags")) \
            or type(meta.get("extra")) is not dict \
            or any(k not in meta or type(meta[k]) not in t for k, t in _META.items()):
        return None
    try:
        check_value(record, "memory")
    except RecordValueError:
        return None
    made = dict(record)
    made["status"] = MemoryStatus(record["status"])
    if reading_plainly():  # a command that only reads: no model (core.model.plain_records)
        made["meta"] = PlainMeta(meta)
        return cast("Memory", PlainMemory(made))
    from .records import Memory, MemoryMetadata

    made["meta"] = MemoryMetadata.model_construct(set(meta), **meta)
    return Memory.model_construct(set(record), **made)


def relation_exact(data: bytes) -> Relation | None:
    """The relation the file's ``data`` holds, made without the validator, or None."""
    record = _loaded(data)
    if record is None or not _plain_keys(record) or not _fields_exact(record, _RELATION) \
            or type(record.get("metadata")) is not dict:
        return None
    try:
        check_value(record, "relation")
    except RecordValueError:
        return None
    if reading_plainly():
        return cast("Relation", PlainRelation(record))
    from .records import Relation

    return Relation.model_construct(set(record), **record)


def read_memory(data: bytes) -> Memory:
    """The memory a file's bytes hold: :func:`memory_exact`, else validated (pydantic's
    ValidationError for a file that is no record)."""
    made = memory_exact(data) if exact_first("memory") else None
    if made is not None:
        return made
    from .records import Memory

    return Memory.model_validate_json(data)


def read_relation(data: bytes) -> Relation:
    """The relation a file's bytes hold: :func:`relation_exact`, else validated."""
    made = relation_exact(data) if exact_first("relation") else None
    if made is not None:
        return made
    from .records import Relation

    return Relation.model_validate_json(data)
