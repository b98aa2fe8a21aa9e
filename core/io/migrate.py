"""A CortexGraph 1.2.1 JSONL store into the vault (``memvault migrate --from jsonl DIR``).

CortexGraph keeps its short-term memory as two append-only files, ``memories.jsonl`` and
``relations.jsonl``. :func:`read_jsonl` replays them the way CortexGraph's own loader does: line
by line, in order; blank lines skipped; a line whose ``_deleted`` is truthy removes its ``id``
(and needs nothing else); any other line is a whole record and the last one for an id wins, so a
record after its tombstone brings the id back. Relations are kept whatever their ends point at
(CortexGraph keeps relations to memories that no longer exist; they are counted as dangling).

Where memvault differs from CortexGraph, it says so rather than stop:

- a line CortexGraph would choke on (not UTF-8, not JSON, not an object, not a valid record, a
  tombstone without an id) is reported with its file and line number and skipped; the loader
  carries on with the next line (CortexGraph would refuse the whole store);
- a negative ``use_count``, ``review_count`` or ``cross_domain_count`` (CortexGraph accepts them,
  memvault does not) is read as 0, with a note;
- an id that is not a safe file name (:func:`core.store.layout.check_id`) becomes a uuid5 derived from
  it (the same on every run), recorded as ``meta.extra["cortexgraph_ids"]`` (memories) or
  ``metadata["cortexgraph_ids"]`` (relations, also for remapped ends), with a note;
  :func:`core.io.export.export_jsonl` puts the original ids back;
- keys CortexGraph does not know are kept (memvault keeps unknown keys; CortexGraph ignores them),
  a ``gist`` key is read as the memory's gist, and ``meta.extra["memvault_status"]`` (written by
  the export for the status ``superseded``, which CortexGraph lacks) gives the status back.

:func:`migrate_jsonl` writes one file per living memory and relation, records
``migrated_from: "jsonl-v1"`` (and the source's digest, under ``migrations``) in ``.meta.json``,
and copies the two source files into ``.backup/jsonl-v1-<UTC time>/`` in the vault, all in ONE
commit (``migrate: N memories, M relations from jsonl-v1 (...)``); the source files are only read.
The backup is committed so it travels with the vault and stays in history even if the folder is
deleted. Running it again on the same source changes nothing (the digest is known: no commit,
not even after the migrated memories were used or changed in memvault); a changed source, or
``force``, writes the records that differ (records the vault has and the source lacks are left
alone). Memories keep the gist they have (none, from CortexGraph 1.2.1): gists are made
afterwards by ``memvault backfill-gists``, one commit, so the migration commit holds exactly what
CortexGraph had.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from ..errors import InvalidIdError, VaultError
from ..store.layout import check_id
from ..model.records import Memory, MemoryStatus, Relation, now_epoch
from ..vault import Plan, Vault

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


@dataclass
class MigrationReport:
    source: str
    dry_run: bool
    memories: int  # living memories in the source
    relations: int  # living relations in the source
    new_memories: list[str] = field(default_factory=list)
    updated_memories: list[str] = field(default_factory=list)
    unchanged_memories: int = 0
    new_relations: list[str] = field(default_factory=list)
    updated_relations: list[str] = field(default_factory=list)
    unchanged_relations: int = 0
    dangling: list[str] = field(default_factory=list)
    tombstones: int = 0
    deleted: list[str] = field(default_factory=list)
    resurrected: list[str] = field(default_factory=list)
    replaced: int = 0
    problems: list[LineProblem] = field(default_factory=list)
    notes: list[LineProblem] = field(default_factory=list)
    remapped: dict[str, str] = field(default_factory=dict)
    unknown_keys: list[str] = field(default_factory=list)
    without_gist: int = 0  # migrated memories with no gist (``memvault backfill-gists``)
    already_migrated: bool = False  # this very source was migrated before: nothing done
    backup: str | None = None  # vault-relative folder of the committed backup
    commit: str | None = None
    format: str = FORMAT

    @property
    def changed(self) -> bool:
        return bool(self.new_memories or self.updated_memories or self.new_relations
                    or self.updated_relations)

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source, "format": self.format, "dry_run": self.dry_run,
            "already_migrated": self.already_migrated,
            "memories": self.memories, "relations": self.relations,
            "new_memories": self.new_memories, "updated_memories": self.updated_memories,
            "unchanged_memories": self.unchanged_memories,
            "new_relations": self.new_relations, "updated_relations": self.updated_relations,
            "unchanged_relations": self.unchanged_relations,
            "dangling_relations": self.dangling, "tombstones": self.tombstones,
            "deleted": self.deleted, "resurrected": self.resurrected, "replaced": self.replaced,
            "skipped_lines": [{"file": p.file, "line": p.line, "message": p.message}
                              for p in self.problems],
            "notes": [{"file": p.file, "line": p.line, "message": p.message} for p in self.notes],
            "remapped_ids": self.remapped, "unknown_keys_kept": self.unknown_keys,
            "without_gist": self.without_gist, "backup": self.backup, "commit": self.commit,
        }


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
            data = path.read_bytes()
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
            data = json.loads(text)
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
    extra = meta.get("extra") if isinstance(meta, dict) else None
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


# -- writing ---------------------------------------------------------------------------------
def migrate_jsonl(
    vault: Vault | None,
    source: Path | str,
    *,
    dry_run: bool = False,
    force: bool = False,
    progress: Progress | None = None,
    now: int | None = None,
) -> MigrationReport:
    """Migrate the CortexGraph store in ``source`` into ``vault`` as ONE commit (see the module
    doc). With ``dry_run`` nothing is written (``vault`` may then be None: no vault yet, or one
    opened read-only). ``progress(phase, done, total)`` is called while reading (phases
    ``memory`` and ``relation``, in lines) and once when committing (``commit``)."""
    if vault is None and not dry_run:
        raise VaultError("migrate: a vault is needed unless it is a dry run")
    snap = read_jsonl(source, progress)
    report = MigrationReport(str(snap.source), dry_run, len(snap.memories), len(snap.relations),
                             tombstones=snap.tombstones, deleted=snap.deleted,
                             resurrected=snap.resurrected, replaced=snap.replaced,
                             problems=snap.problems, notes=snap.notes, remapped=snap.remapped,
                             unknown_keys=snap.unknown_keys,
                             without_gist=sum(1 for m in snap.memories.values() if m.gist is None))
    report.dangling = snap.dangling(set(vault.memories) if vault is not None else None)
    history = _migrations(vault.meta if vault is not None else {})
    if not force and any(m.get("sha256") == snap.digest for m in history):
        report.already_migrated = True
        report.unchanged_memories, report.unchanged_relations = report.memories, report.relations
        return report

    def plan(v: Vault | None) -> Plan:
        _classify(v, snap, report)
        change = Plan(_message(report))
        if not report.changed:
            return change  # nothing to write: no commit, no backup
        change.put_memories = [snap.memories[i] for i in
                               report.new_memories + report.updated_memories]
        change.put_relations = [snap.relations[i] for i in
                                report.new_relations + report.updated_relations]
        at = now_epoch() if now is None else now
        backup = _backup_folder(v, at)
        report.backup = backup
        change.put_files = {f"{backup}/{name}": data for name, data in snap.files.items()}
        entry = {"format": FORMAT, "sha256": snap.digest, "source": str(snap.source),
                 "memories": report.memories, "relations": report.relations, "at": at,
                 "backup": backup}
        change.meta = {"migrated_from": FORMAT,
                       "migrations": _migrations(v.meta if v is not None else {}) + [entry]}
        change.message = _message(report)
        return change

    return run_plan(vault, plan, report, dry_run, progress)


def run_plan(vault: Any, plan: Any, report: Any, dry_run: bool, progress: Any) -> Any:
    """Run an import ``plan`` (a Vault.apply builder that fills ``report``): only to fill the
    report on a dry run, else as ONE commit, with the "commit" phase reported to ``progress``."""
    if dry_run:
        plan(vault)
        return report
    assert vault is not None
    if progress is not None:
        progress("commit", 0, 1)
    change = vault.apply(plan)
    report.commit = change.commit if report.changed else None
    if progress is not None:
        progress("commit", 1, 1)
    return report


def _migrations(meta: dict[str, Any]) -> list[dict[str, Any]]:
    found = meta.get("migrations")
    return [m for m in found if isinstance(m, dict)] if isinstance(found, list) else []


def _classify(vault: Vault | None, snap: JsonlSnapshot, report: MigrationReport) -> None:
    """Sort the snapshot's records into new, updated and unchanged against the vault."""
    memories = vault.memories if vault is not None else {}
    relations = vault.relations if vault is not None else {}
    report.new_memories, report.updated_memories, report.unchanged_memories = [], [], 0
    report.new_relations, report.updated_relations, report.unchanged_relations = [], [], 0
    for mid in sorted(snap.memories):
        old = memories.get(mid)
        if old is None:
            report.new_memories.append(mid)
        elif _same(old, snap.memories[mid]):
            report.unchanged_memories += 1
        else:
            report.updated_memories.append(mid)
    for rid in sorted(snap.relations):
        old_r = relations.get(rid)
        if old_r is None:
            report.new_relations.append(rid)
        elif _same(old_r, snap.relations[rid]):
            report.unchanged_relations += 1
        else:
            report.updated_relations.append(rid)


def _same(a: BaseModel, b: BaseModel) -> bool:
    return a.model_dump_json() == b.model_dump_json()


def _backup_folder(vault: Vault | None, at: int) -> str:
    stamp = datetime.fromtimestamp(at, timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    name = f"{BACKUP_DIR}/{FORMAT}-{stamp}"
    if vault is None:
        return name
    candidate, n = name, 1
    while (vault.root / candidate).exists():
        n += 1
        candidate = f"{name}-{n}"
    return candidate


def _message(report: MigrationReport) -> str:
    def plural(n: int, word: str, many: str | None = None) -> str:
        return f"{n} {word if n == 1 else (many or word + 's')}"

    details = []
    changed = len(report.updated_memories) + len(report.updated_relations)
    if changed:
        details.append(f"{changed} updated")
    if report.dangling:
        details.append(f"{plural(len(report.dangling), 'dangling relation')} kept")
    if report.problems:
        details.append(f"{plural(len(report.problems), 'line')} skipped")
    if report.remapped:
        details.append(f"{plural(len(report.remapped), 'id')} remapped")
    if report.backup:
        details.append(f"backup {report.backup}")
    tail = f" ({'; '.join(details)})" if details else ""
    return (f"migrate: {plural(report.memories, 'memory', 'memories')}, "
            f"{plural(report.relations, 'relation')} from {FORMAT}{tail}")


__all__ = ["FORMAT", "JsonlSnapshot", "LineProblem", "MigrationReport", "check_source",
           "migrate_jsonl", "read_jsonl", "vault_id"]
