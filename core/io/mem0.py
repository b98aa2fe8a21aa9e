"""A mem0 / OpenMemory export read into the vault: ``memvault import --from mem0 FILE``.

mem0 answers ``get_all`` with memory items ``{"id", "memory", "hash", "metadata",
"created_at", "updated_at", "user_id", "agent_id", "run_id", "actor_id", "role"}`` (its platform
adds ``categories``, OpenMemory's backup names the text ``content``). The file may be:

- a JSON array of items, or an object holding them under ``results`` (``get_all``'s answer) or
  ``memories`` (OpenMemory's backup); it is parsed as a stream (ijson), fed one line at a time,
  so a huge file never sits in memory whole and a syntax error is reported with its line;
- JSON lines, one item a line (``.jsonl``).

**One memory per mem0 memory** (mem0's unit is already one fact):

- content: ``memory`` (or ``content``); an item without a text is a bad record;
- id: mem0's id when it is a safe file name (:func:`core.store.layout.check_id`), else a uuid5 of
  it (or of the hash, or the text, when there is no id); a later item with the same id wins, with
  a note;
- tags: ``categories``; entities: ``user_id`` and ``agent_id`` (who the memory is about);
- ``meta.source``: ``mem0``; ``meta.extra["mem0"]``: every key of the item but the text, as the
  file has it (id, hash, metadata, categories, the ids, both times...): nothing is lost;
- time: ``created_at`` (an ISO time; one without a zone is read as UTC), else (or when it is
  no ISO time, said in a note) the import time; the last use is the import time (mem0 records
  no use; ``updated_at`` stays in ``meta.extra``), so nothing imported starts out forgotten.

The ``relations`` of mem0's graph memory (beside ``results``) link entities, not memories: they
are left out, counted in a note (the backup keeps them). A syntax error in a JSON document ends
what can be read: the items before it are the rest that
``--skip-bad`` imports. A number that is not finite (NaN, Infinity, 1e999) is a bad record.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from datetime import datetime, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any

import ijson
from pydantic import ValidationError

from ..errors import InvalidIdError
from ..model.records import Memory, MemoryMetadata, now_epoch
from ..store.files import MAX_FILE_BYTES
from ..store.layout import check_id
from .foreign_import import (
    ForeignSnapshot,
    LineProblem,
    Progress,
    digest_files,
    not_finite,
    reject_constant,
)
from .foreign_read import MAX_DEPTH, TooDeepError, load_json, open_file_to_import, open_source

FORMAT = "mem0"
KEY = "mem0"
ID_NAMESPACE = uuid.UUID("6d656d30-0000-4d6f-9279-6d656d766c74")
PREFIXES = ("item", "results.item", "memories.item")
GRAPH = "relations.item"  # graph memory's relations beside the results: entities', not memories'

LINE_CHUNK = 1 << 16  # a line longer than this is fed in pieces


def memory_id(item: dict[str, Any]) -> str:
    original = item.get("id")
    if isinstance(original, str) and original:
        try:
            return check_id(original, "memory")
        except InvalidIdError:
            return str(uuid.uuid5(ID_NAMESPACE, f"id\0{original}"))
    basis = item.get("hash") if isinstance(item.get("hash"), str) else _text(item)
    return str(uuid.uuid5(ID_NAMESPACE, f"text\0{basis}"))


def _text(item: dict[str, Any]) -> str | None:
    for key in ("memory", "content"):
        value = item.get(key)
        if isinstance(value, str):
            return value
    return None


def epoch(value: Any) -> int | None:
    """An ISO time (``2024-07-20T10:00:00.123-07:00``; no zone: UTC) as epoch seconds; None
    when it is none, or before 1970."""
    if not isinstance(value, str):
        return None
    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    seconds = int(when.timestamp())
    return seconds if seconds >= 0 else None  # before 1970: no time the vault keeps


def floats(value: Any) -> Any:
    """ijson's numbers (Decimal, so that 1e999 is read and not a parse error) as JSON's:
    floats (1e999 becomes inf, which the item's check then names)."""
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, dict):
        return {k: floats(v) for k, v in value.items()}
    if isinstance(value, list):
        return [floats(v) for v in value]
    return value


def _lines(file: Path, total: int, progress: Progress | None) -> Iterator[tuple[int, bytes]]:
    """(line number, piece of it) for the whole file, a long line in pieces."""
    done, lineno = 0, 1
    with open_source(file) as f:
        while piece := f.readline(LINE_CHUNK):
            done += len(piece)
            yield lineno, piece
            if piece.endswith(b"\n"):
                lineno += 1
                if progress is not None and lineno % 1000 == 0:
                    progress("read", done, total)


class _DepthGuard:
    """The target of an ijson event parser fed before the item parsers: TooDeepError when the
    document nests deeper than :data:`MAX_DEPTH`, before any item that deep is built."""

    def __init__(self) -> None:
        self.depth = 0

    def send(self, event: tuple[str, Any]) -> None:
        kind = event[0]
        if kind in ("start_map", "start_array"):
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise TooDeepError()
        elif kind in ("end_map", "end_array"):
            self.depth -= 1


def _json_items(file: Path, total: int, progress: Progress | None, snap: ForeignSnapshot
                ) -> Iterator[tuple[int, Any]]:
    """(line the item ends on, item) of a JSON document, streamed."""
    found: dict[str, list[Any]] = {p: ijson.sendable_list() for p in (*PREFIXES, GRAPH)}
    parsers = {"": ijson.basic_parse_coro(_DepthGuard())}  # first: nothing too deep is built
    parsers.update({p: ijson.items_coro(found[p], p) for p in (*PREFIXES, GRAPH)})
    graph = 0
    lineno = 1
    try:
        for lineno, piece in _lines(file, total, progress):
            for p in parsers:
                parsers[p].send(piece)
            graph += len(found[GRAPH])
            del found[GRAPH][:]
            for p in PREFIXES:
                for item in found[p]:
                    yield lineno, floats(item)
                del found[p][:]
        for p in parsers:
            parsers[p].close()
        graph += len(found[GRAPH])
        for p in PREFIXES:
            for item in found[p]:
                yield lineno, floats(item)
    except ijson.JSONError as exc:
        message = str(exc).strip().split("\n")[0]
        if isinstance(exc, ijson.IncompleteJSONError) and "incomplete" in message.lower():
            message = "cut short: the JSON document ends before it is complete"
        snap.problems.append(LineProblem(file.name, lineno, f"not JSON: {message}; nothing "
                                         "after it can be read"))
    except TooDeepError as exc:
        snap.problems.append(LineProblem(file.name, lineno, f"a JSON value {exc}; nothing "
                                         "after it can be read"))
    if graph:
        snap.notes.append(LineProblem(file.name, 1, f"{graph} graph relation"
                                      f"{'s' if graph != 1 else ''} (between entities, not "
                                      "memories) left out; the backup keeps them"))


def _whole_lines(file: Path, total: int, progress: Progress | None, snap: ForeignSnapshot
                 ) -> Iterator[tuple[int, bytes]]:
    """(line number, line) of the file, a long line's pieces put together again; a line
    longer than a vault file may be is reported and left out (never held whole)."""
    held: list[bytes] = []
    size, held_line = 0, 0
    for lineno, piece in _lines(file, total, progress):
        if lineno != held_line:
            held, size, held_line = [], 0, lineno
        size += len(piece)
        if size <= MAX_FILE_BYTES:
            held.append(piece)
        elif held:
            held = []
            snap.problems.append(LineProblem(file.name, lineno, "a line longer than "
                                             f"{MAX_FILE_BYTES:,} bytes (no memory is as long)"))
        if piece.endswith(b"\n") and held:
            yield lineno, b"".join(held)
            held = []
    if held:
        yield held_line, b"".join(held)


def _jsonl_items(file: Path, total: int, progress: Progress | None, snap: ForeignSnapshot
                 ) -> Iterator[tuple[int, Any]]:
    for lineno, line in _whole_lines(file, total, progress, snap):
        if not line.strip():
            continue
        try:
            yield lineno, load_json(line.decode("utf-8"), parse_constant=reject_constant)
        except UnicodeDecodeError as exc:
            snap.problems.append(LineProblem(file.name, lineno,
                                             f"not UTF-8 text (byte {exc.start + 1})"))
        except TooDeepError as exc:
            snap.problems.append(LineProblem(file.name, lineno, f"a JSON value {exc}"))
        except ValueError as exc:
            cut = not line.rstrip().endswith(b"}")
            snap.problems.append(LineProblem(file.name, lineno,
                                             f"{'cut short, ' if cut else ''}not JSON: {exc}"))


def _is_jsonl(file: Path, start: bytes) -> bool:
    """The file (whose first bytes are ``start``) holds JSON lines, not one JSON document."""
    if file.suffix.lower() in (".jsonl", ".ndjson"):
        return True
    start = start.lstrip()
    return not start.startswith((b"[", b"{"))  # neither: read line by line (each is reported)


def read_mem0(path: Path | str, progress: Progress | None = None,
              now: int | None = None) -> ForeignSnapshot:
    """Read a mem0 export into a snapshot (see the module doc)."""
    file = Path(path).expanduser()
    with open_file_to_import(file) as f:  # a regular file, never through a link
        total, start = os.fstat(f.fileno()).st_size, f.read(64)
    snap = ForeignSnapshot(FORMAT, file.resolve(), files={file.name: file})
    reader = _jsonl_items if _is_jsonl(file, start) else _json_items
    at = now_epoch() if now is None else now
    lines: dict[str, int] = {}
    for lineno, item in reader(file, total, progress, snap):
        memory, stated, bad = item_memory(item, at, file.name, lineno, snap)
        if bad is not None:
            snap.problems.append(LineProblem(file.name, lineno, bad))
            continue
        assert memory is not None
        if memory.id in lines:
            snap.notes.append(LineProblem(file.name, lineno, f"the id {memory.id} repeats the "
                                          f"item ending on line {lines[memory.id]}; this later "
                                          "one wins"))
        lines[memory.id] = lineno
        snap.where[memory.id] = (file.name, lineno)
        snap.memories[memory.id] = memory
        snap.stated[memory.id] = stated
        if "created_at" not in stated:
            snap.import_time.append(memory.id)
        else:
            snap.import_time = [i for i in snap.import_time if i != memory.id]
    if progress is not None:
        progress("read", total, total)
    snap.digest = digest_files(snap.files.items())
    return snap


def item_memory(item: Any, at: int, file: str, lineno: int, snap: ForeignSnapshot
                ) -> tuple[Memory | None, frozenset[str], str | None]:
    """One mem0 item as a memory, the fields it states, or why it is a bad record."""
    if not isinstance(item, dict):
        return None, frozenset(), f"an item that is not a JSON object but {type(item).__name__}"
    where = not_finite(item)
    if where:
        return None, frozenset(), f"a number that is not finite at {where}"
    text = _text(item)
    if text is None:
        return None, frozenset(), "an item without a text 'memory'"
    stated = {"content", "entities", "meta"}
    times = {}
    for key in ("created_at", "updated_at"):
        if item.get(key) is None:
            continue
        value = epoch(item[key])
        if value is None:
            snap.notes.append(LineProblem(file, lineno, f"{key} {item[key]!r} is no ISO time "
                                          "from 1970 on"
                                          + ("; the import time is used"
                                             if key == "created_at" else "")))
        else:
            times[key] = value
    if "created_at" in times:
        stated.add("created_at")
    created = times.get("created_at", at)
    categories = item.get("categories")
    tags = [c for c in categories if isinstance(c, str)] if isinstance(categories, list) else []
    who = [item[k] for k in ("user_id", "agent_id") if isinstance(item.get(k), str) and item[k]]
    extra = {k: v for k, v in item.items() if k not in ("memory", "content")}
    try:
        memory = Memory(id=memory_id(item), content=text,
                        meta=MemoryMetadata(tags=list(dict.fromkeys(tags)), source=FORMAT,
                                            extra={KEY: extra}),
                        created_at=created, last_used=max(at, created),
                        entities=list(dict.fromkeys(who)))
    except ValidationError as exc:  # what the record model refuses, said as the model says it
        return None, frozenset(), f"not a memory the vault can hold: {_first_error(exc)}"
    return memory, frozenset(stated), None


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    return f"{'.'.join(str(p) for p in error['loc']) or 'the record'}: {error['msg']}"


__all__ = ["FORMAT", "KEY", "epoch", "item_memory", "memory_id", "read_mem0"]
