"""The values a record may hold, whatever wrote it (CLI, app, MCP, import, migrate, sync). The
models (:mod:`core.model.records`) apply it to what they are given, and
:meth:`core.store.layout.Layout.encode`, the one place a record becomes file bytes, to every
record written.

Numbers are finite and within 64 bits (JSON has no infinity, and pydantic would write ``null``
instead: a record every later reader skips); text is valid UTF-8 (a lone surrogate from
undecodable bytes cannot be written); a record file is nested at most :data:`MAX_NESTING`
levels deep (memvault's own reader refuses a deeper file, so such a record would be saved and
never read again)."""

from __future__ import annotations

import math
from typing import Any

#: Levels of nesting a record's file may have, the record itself being the first (the JSON
#: reader memvault loads files with refuses more than 201).
MAX_NESTING = 200
INT_LIMIT = 2 ** 63  # the search index (SQLite) and most JSON readers hold 64-bit integers


class RecordValueError(ValueError):
    """A value no record may hold; the message says where and why, for a person."""


def check_value(value: Any, where: str, depth: int = 0) -> None:
    """Raise :class:`RecordValueError` when ``value`` (the whole record as plain data, or a
    field at ``depth`` levels below the record's own: ``meta.extra`` is at 2) holds a
    non-finite or out-of-range number, text that is not valid UTF-8, or makes the record's file
    nest more than :data:`MAX_NESTING` levels. Iterative: any depth is safe to check."""
    stack: list[tuple[Any, str, int]] = [(value, where, depth)]
    while stack:  # (where a value is, as a person reads it, is worked out only for a refusal)
        item, path, depth = stack.pop()
        if isinstance(item, str):
            _check_text(item, path)
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise RecordValueError(f"{_shown(path)} is {item}: a number must be finite")
        elif isinstance(item, int):
            if not -INT_LIMIT <= item < INT_LIMIT:
                raise RecordValueError(f"{_shown(path)} is {_short(item)}: out of range (a whole "
                                       "number must fit in 64 bits)")
        elif isinstance(item, dict | list | tuple):
            if depth >= MAX_NESTING:
                raise RecordValueError(f"{_shown(path)} is nested too deep: a record's file may "
                                       f"nest {MAX_NESTING} levels (memvault could not read it "
                                       "back)")
            if isinstance(item, dict):
                for key, inner in item.items():
                    if isinstance(key, str):
                        _check_text(key, path, key=True)
                    stack.append((inner, f"{path}.{key}", depth + 1))
            else:
                stack.extend((inner, f"{path}[{i}]", depth + 1) for i, inner in enumerate(item))


def _shown(path: str) -> str:
    """Where a value is, short enough to read (``meta.extra.a.a.….a``)."""
    path = path.lstrip(".") or "the record"
    path = "".join(c if c.isprintable() else "?" for c in path)
    return path if len(path) <= 60 else f"{path[:30]}…{path[-20:]}"


def _check_text(text: str, path: str, *, key: bool = False) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        at = _shown(path) + (" (a key)" if key else "")
        raise RecordValueError(f"{at} holds text that is not valid UTF-8 (character "
                               f"{exc.start + 1}: undecodable bytes?)") from None


def _short(number: int) -> str:
    return str(number) if abs(number) < 10 ** 40 else f"a {number.bit_length()}-bit number"
