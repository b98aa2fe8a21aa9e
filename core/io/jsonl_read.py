"""Reading a CortexGraph 1.2.1 JSONL store as CortexGraph's own loader does (see
:mod:`core.io.migrate` for the rules and where memvault differs): :func:`read_jsonl` replays
``memories.jsonl`` and ``relations.jsonl`` line by line into a :class:`JsonlSnapshot`, with the
problems found on the way."""


from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from ..errors import InvalidIdError, VaultError
from ..model.records import Memory, MemoryStatus, Relation
from ..store.layout import check_id
from .foreign_read import TooDeepError, load_json, open_source

FORMAT = "jsonl-v1"
MEMORIES_FILE = "memories.jsonl"
RELATIONS_FILE = "relations.jsonl"
BACKUP_DIR = ".backup"
#: Namespace of the uuid5 ids given to records whose id is not a safe file name.
ID_NAMESPACE = uuid.UUID("5b0a3d43-1f0e-4c55-9a55-6d656d766c74")
ORIGINAL_IDS_KEY = "cortexgraph_ids"
STATUS_KEY = "memvault_status"
_COUNTERS = ("use_count", "review_count", "cross_domain_count")
#: Every key of a CortexGraph 1.2.1 record, in its order (the export writes them so).
MEMORY_KEYS = ("id", "content", "meta", "created_at", "last_used", "use_count", "strength",
               "status", "promoted_at", "promoted_to", "embed", "entities", "review_priority",
               "last_review_at", "review_count", "cross_domain_count")
META_KEYS = ("tags", "source", "context", "extra")
RELATION_KEYS = ("id", "from_memory_id", "to_memory_id", "relation_type", "strength",
                 "created_at", "metadata")
_LINE_BREAK = re.compile(rb"\r\n|\r|\n")  # Python's universal newlines, as CortexGraph reads

Progress = Callable[[str, int, int], None]  # (phase, done, total)


@dataclass(frozen=True)
class LineProblem:
    """A line of a source file that was skipped (or, as a note, read with a change)."""

    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


@dataclass
class JsonlSnapshot:
    """What a CortexGraph JSONL store holds once replayed (ids as they will be in the vault)."""

    source: Path
    memories: dict[str, Memory] = field(default_factory=dict)
    relations: dict[str, Relation] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)  # non-blank lines per file
    tombstones: int = 0  # deletion markers read
    replaced: int = 0  # records overridden by a later line for the same id
    deleted: list[str] = field(default_factory=list)  # memory ids a tombstone left deleted
    resurrected: list[str] = field(default_factory=list)  # memory ids back after a tombstone
    problems: list[LineProblem] = field(default_factory=list)  # lines skipped
    notes: list[LineProblem] = field(default_factory=list)  # lines read with a change
    remapped: dict[str, str] = field(default_factory=dict)  # original id -> vault id
    unknown_keys: list[str] = field(default_factory=list)  # kept keys CortexGraph ignores
    files: dict[str, bytes] = field(default_factory=dict)  # the source files, for the backup
    digest: str = ""

    def dangling(self, also_living: set[str] | None = None) -> list[str]:
        """Relations with an end that is no living memory (of the store, or ``also_living``)."""
        living = set(self.memories) | (also_living or set())
        return sorted(r.id for r in self.relations.values()
                      if r.from_memory_id not in living or r.to_memory_id not in living)




# -- reading ---------------------------------------------------------------------------------
def vault_id(original: str, kind: str = "memory") -> str:
    """The vault id of a CortexGraph id: itself when it is a safe file name, else a uuid5 of it
    (the same on every run and every machine)."""
    try:
        return check_id(original, kind)
    except InvalidIdError:
        return str(uuid.uuid5(ID_NAMESPACE, original))


def check_source(source: Path | str) -> Path:
    """The source folder, or VaultError when it is missing or holds neither file."""
    folder = Path(source).expanduser()
    if not folder.is_dir():
        raise VaultError(f"no folder {folder}")
    if not any((folder / name).is_file() for name in (MEMORIES_FILE, RELATIONS_FILE)):
        raise VaultError(f"nothing to migrate: {folder} holds neither {MEMORIES_FILE} nor "
                         f"{RELATIONS_FILE}")
    return folder


def read_jsonl(source: Path | str, progress: Progress | None = None) -> JsonlSnapshot:
    """Replay ``memories.jsonl`` and ``relations.jsonl`` of ``source`` (see the module doc).
    Raises VaultError when the folder holds neither file."""
    folder = check_source(source)
    snap = JsonlSnapshot(folder.resolve())
    found = False
    digest = hashlib.sha256()
    for name in (MEMORIES_FILE, RELATIONS_FILE):
        path = folder / name
        try:
            with open_source(path) as f:  # a regular file, never through a link
                data = f.read()
            found = True
            snap.files[name] = data
        except FileNotFoundError:
            data = b""
        except OSError as exc:
            raise VaultError(f"cannot read {path}: {exc.strerror or exc}") from None
        digest.update(name.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    if not found:
        raise VaultError(f"nothing to migrate: {folder} holds neither {MEMORIES_FILE} nor "
                         f"{RELATIONS_FILE}")
    snap.digest = digest.hexdigest()
    unknown: set[str] = set()
    _replay(snap, MEMORIES_FILE, "memory", unknown, progress)
    _replay(snap, RELATIONS_FILE, "relation", unknown, progress)
    snap.unknown_keys = sorted(unknown)
    return snap


def _lines(data: bytes) -> list[bytes]:
    if data.startswith(b"\xef\xbb\xbf"):  # a byte-order mark an editor may have added
        data = data[3:]
    lines = _LINE_BREAK.split(data)
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


def _replay(snap: JsonlSnapshot, name: str, kind: str, unknown: set[str],
            progress: Progress | None) -> None:
    living: dict[str, Any] = snap.memories if kind == "memory" else snap.relations
    model: type[BaseModel] = Memory if kind == "memory" else Relation
    known = set(MEMORY_KEYS) | {"gist"} if kind == "memory" else set(RELATION_KEYS)
    tombstoned: set[str] = set()
    back: set[str] = set()
    lines = _lines(snap.files.get(name, b""))
    total = len(lines)
    count = 0

    def skip(lineno: int, message: str) -> None:
        snap.problems.append(LineProblem(name, lineno, message))

    for lineno, raw in enumerate(lines, 1):
        if progress is not None and (lineno % 200 == 0 or lineno == total):
            progress(kind, lineno, total)
        try:
            text = raw.decode("utf-8").strip()
        except UnicodeDecodeError as exc:
            skip(lineno, f"not UTF-8 text (byte {exc.start + 1})")
            continue
        if not text:
            continue
        count += 1
        try:
            data = load_json(text)
        except TooDeepError as exc:
            skip(lineno, f"nested too deep to be read ({exc})")
            continue
        except ValueError as exc:
            skip(lineno, f"not valid JSON ({getattr(exc, 'msg', exc)}, column "
                         f"{getattr(exc, 'colno', '?')})")
            continue
        if not isinstance(data, dict):
            skip(lineno, f"not a JSON object (a {type(data).__name__})")
            continue
        if data.get("_deleted"):
            original = data.get("id")
            if not isinstance(original, str):
                skip(lineno, "a deletion marker without a string id")
                continue
            rid = vault_id(original, kind)
            snap.tombstones += 1
            living.pop(rid, None)
            tombstoned.add(rid)
            back.discard(rid)
            continue
        data = dict(data)
        data.pop("_deleted", None)
        if kind == "memory":
            _restore_status(data)
            for key in _COUNTERS:
                value = data.get(key)
                if isinstance(value, int) and not isinstance(value, bool) and value < 0:
                    data[key] = 0
                    snap.notes.append(LineProblem(name, lineno, f"{key} {value} is below 0; "
                                                                "read as 0"))
        try:
            record: Any = model.model_validate(data)
        except ValidationError as exc:
            skip(lineno, f"not a valid {kind}: {_first_error(exc)}")
            continue
        unknown.update(k for k in data if k not in known)
        if kind == "memory" and isinstance(data.get("meta"), dict):
            unknown.update(f"meta.{k}" for k in data["meta"] if k not in META_KEYS)
        record = _remap(record, kind, snap, name, lineno)
        if record.id in living:
            snap.replaced += 1
        living[record.id] = record
        if record.id in tombstoned:
            back.add(record.id)
    snap.lines[name] = count
    if kind == "memory":
        snap.deleted = sorted(tombstoned - set(living))
        snap.resurrected = sorted(back & set(living))


def _restore_status(data: dict[str, Any]) -> None:
    """Undo what the export does for a status CortexGraph lacks (``superseded``)."""
    meta = data.get("meta")
    if not isinstance(meta, dict):
        return
    extra = meta.get("extra")
    if not isinstance(extra, dict) or STATUS_KEY not in extra:
        return
    status = extra[STATUS_KEY]
    if status in {s.value for s in MemoryStatus}:
        extra = {k: v for k, v in extra.items() if k != STATUS_KEY}
        data["meta"] = {**meta, "extra": extra}
        data["status"] = status


def _remap(record: Any, kind: str, snap: JsonlSnapshot, name: str, lineno: int) -> Any:
    """Give a record with an unsafe id (or, for a relation, unsafe ends) its vault ids."""
    originals: dict[str, str] = {}
    fields = ("id",) if kind == "memory" else ("id", "from_memory_id", "to_memory_id")
    update: dict[str, str] = {}
    for key in fields:
        value = getattr(record, key)
        new = vault_id(value, "relation" if kind == "relation" and key == "id" else "memory")
        if new != value:
            originals[key] = value
            update[key] = new
            snap.remapped[value] = new
    if not update:
        return record
    shown = ", ".join(f"{k} {v!r} -> {update[k]}" for k, v in originals.items())
    snap.notes.append(LineProblem(name, lineno, f"not a safe file name, so a new id: {shown}"))
    if kind == "memory":
        meta = record.meta.model_copy(update={"extra": {**record.meta.extra,
                                                         ORIGINAL_IDS_KEY: originals}})
        return record.model_copy(update={**update, "meta": meta})
    return record.model_copy(update={**update, "metadata": {**record.metadata,
                                                            ORIGINAL_IDS_KEY: originals}})


def _first_error(exc: ValidationError) -> str:
    err = exc.errors(include_url=False)[0]
    where = ".".join(str(p) for p in err.get("loc", ()))
    return f"{where}: {err.get('msg')}" if where else str(err.get("msg"))


