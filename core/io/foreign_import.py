"""Importing another memory server's store (``memvault import --from SOURCE PATH``): what the
three readers share. Each reader (:mod:`core.io.mcp_memory`, :mod:`core.io.basic_memory`,
:mod:`core.io.mem0`) turns its source into a :class:`ForeignSnapshot` (the memories and
relations it maps to, with the problems found on the way); :func:`import_snapshot` commits it
the way ``migrate`` commits a CortexGraph store (:func:`core.io.migrate.run_plan`):

- bad records (a line that is not JSON or is cut short, a record without its required fields, a
  number that is not finite, a note whose front matter does not parse) are reported with their
  file and line; then nothing is imported (:class:`ImportRefusedError`) unless ``skip_bad``,
  which imports the rest;
- ONE commit (``import: N memories, M relations from FORMAT (...)``) holds the records, a copy
  of the source files under ``.backup/FORMAT-<UTC time>/`` and, in ``.meta.json``'s
  ``imports``, the source's digest; the source is only read;
- running it again on the same source changes nothing (the digest is known: no commit); on a
  changed source (or with ``force``) only the records that differ are written, and a memory
  already in the vault keeps what the source does not state (its use count, last use, strength,
  status, gist while its content is the same, and the time it got on its first import when the
  source has no time of its own);
- a secret in the source meets the vault's policy on the one write path
  (:mod:`core.secrets.write_check`): refused by default, named, nothing written;
- with ``dry_run`` the same plan is built and nothing is written.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import VaultError
from ..model.records import Memory, Relation, now_epoch
from ..vault import Plan, Vault
from .foreign_read import open_source
from .jsonl_read import LineProblem
from .migrate import backup_folder, change_details, commit_message, plural, run_plan

Progress = Callable[[str, int, int], None]  # (phase, done, total)
META_KEY = "imports"  # .meta.json: the list of sources imported (format, digest, ...)
MAX_LISTED = 10  # problems named in an error message (the report lists them all)
#: Fields of a memory the source may state; the others stay as the vault has them.
SOURCE_FIELDS = ("content", "entities", "meta", "created_at", "last_used")


@dataclass
class ForeignSnapshot:
    """What a source maps to, before it meets the vault."""

    format: str
    source: Path
    memories: dict[str, Memory] = field(default_factory=dict)
    relations: dict[str, Relation] = field(default_factory=dict)
    #: memory id -> the fields the source states (a subset of SOURCE_FIELDS)
    stated: dict[str, frozenset[str]] = field(default_factory=dict)
    problems: list[LineProblem] = field(default_factory=list)  # bad records
    notes: list[LineProblem] = field(default_factory=list)  # read with a change, or said
    #: relation id -> why it dangles ("'Bob' is no entity of the file")
    dangling: dict[str, str] = field(default_factory=dict)
    files: dict[str, Path] = field(default_factory=dict)  # backup name -> source file
    digest: str = ""
    import_time: list[str] = field(default_factory=list)  # memories given the import time
    #: record id -> (file, line) it was read from, to name it in a problem
    where: dict[str, tuple[str, int]] = field(default_factory=dict)


@dataclass
class ImportReport:
    source: str
    format: str
    dry_run: bool
    memories: int
    relations: int
    new_memories: list[str] = field(default_factory=list)
    updated_memories: list[str] = field(default_factory=list)
    unchanged_memories: int = 0
    new_relations: list[str] = field(default_factory=list)
    updated_relations: list[str] = field(default_factory=list)
    unchanged_relations: int = 0
    dangling: dict[str, str] = field(default_factory=dict)
    problems: list[LineProblem] = field(default_factory=list)
    notes: list[LineProblem] = field(default_factory=list)
    skipped_bad: bool = False  # the bad records were left out (--skip-bad)
    import_time: int = 0  # memories given the import time (the source has no time for them)
    already_imported: bool = False
    backup: str | None = None
    commit: str | None = None
    #: on a dry run, the records that hold what looks like a secret ("memory 1a2b3c4d
    #: (github-token)"): the import would be refused (or redacted) by the policy in force
    secrets: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.new_memories or self.updated_memories or self.new_relations
                    or self.updated_relations)

    @property
    def refused(self) -> bool:
        """Bad records and no ``skip_bad``: nothing is (or would be) imported."""
        return bool(self.problems) and not self.skipped_bad

    def to_json(self) -> dict[str, Any]:
        def lines(found: list[LineProblem]) -> list[dict[str, Any]]:
            return [{"file": p.file, "line": p.line, "message": p.message} for p in found]

        return {
            "source": self.source, "format": self.format, "dry_run": self.dry_run,
            "refused": self.refused, "already_imported": self.already_imported,
            "memories": self.memories, "relations": self.relations,
            "new_memories": self.new_memories, "updated_memories": self.updated_memories,
            "unchanged_memories": self.unchanged_memories,
            "new_relations": self.new_relations, "updated_relations": self.updated_relations,
            "unchanged_relations": self.unchanged_relations,
            "dangling_relations": [{"id": i, "why": why} for i, why in self.dangling.items()],
            "bad_records": lines(self.problems), "skipped_bad": self.skipped_bad,
            "notes": lines(self.notes), "given_import_time": self.import_time,
            "backup": self.backup, "commit": self.commit, "secrets": self.secrets,
        }


class ImportRefusedError(VaultError):
    """The source holds bad records and ``skip_bad`` was not given: nothing was written.
    ``report`` says what was found."""

    def __init__(self, report: ImportReport):
        self.report = report
        shown = "; ".join(str(p) for p in report.problems[:MAX_LISTED])
        more = len(report.problems) - MAX_LISTED
        super().__init__(
            f"refused: {report.source} holds {len(report.problems)} bad "
            f"record{'s' if len(report.problems) != 1 else ''} ({shown}"
            f"{f'; and {more} more' if more > 0 else ''}); nothing was imported. Fix them, or "
            "import the rest with --skip-bad")


# -- helpers the readers share -----------------------------------------------------------------
def not_finite(value: Any, where: str = "") -> str | None:
    """Where in ``value`` (a parsed JSON or YAML value) a number is not finite (NaN,
    Infinity, or a number too big for a float), as ``"metadata.score"``; None when every
    number is finite."""
    if isinstance(value, float) and not math.isfinite(value):
        return where or "the value"
    if isinstance(value, dict):
        for key, item in value.items():
            found = not_finite(item, f"{where}.{key}" if where else str(key))
            if found:
                return found
    elif isinstance(value, list):
        for n, item in enumerate(value):
            found = not_finite(item, f"{where}[{n}]")
            if found:
                return found
    return None


def reject_constant(name: str) -> Any:
    """``json.loads(..., parse_constant=reject_constant)``: NaN and Infinity are no JSON."""
    raise ValueError(f"{name} is not a number JSON allows")


def digest_files(paths: Iterable[tuple[str, Path]], chunk: int = 1 << 20) -> str:
    """sha256 over the files' names and bytes, read in chunks (regular files only:
    :func:`core.io.foreign_read.open_source`)."""
    digest = hashlib.sha256()
    for name, path in paths:
        digest.update(name.encode("utf-8") + b"\0")
        with open_source(path) as f:
            while block := f.read(chunk):
                digest.update(block)
        digest.update(b"\0")
    return digest.hexdigest()


# -- the import --------------------------------------------------------------------------------
def import_snapshot(
    vault: Vault | None,
    snap: ForeignSnapshot,
    *,
    dry_run: bool = False,
    skip_bad: bool = False,
    force: bool = False,
    progress: Progress | None = None,
    now: int | None = None,
) -> ImportReport:
    """Commit ``snap`` into ``vault`` as ONE commit (see the module doc). Raises
    :class:`ImportRefusedError` when the source has bad records and not ``skip_bad`` (on a dry
    run the report says so instead: ``report.refused``)."""
    if vault is None and not dry_run:
        raise VaultError(f"import --from {snap.format}: a vault is needed unless it is a dry run")
    refuse_unwritable(snap)
    report = ImportReport(str(snap.source), snap.format, dry_run, len(snap.memories),
                          len(snap.relations), problems=snap.problems, notes=snap.notes,
                          skipped_bad=skip_bad and bool(snap.problems),
                          import_time=len(snap.import_time))
    if report.refused and not dry_run:
        raise ImportRefusedError(report)
    known = _imports(vault.meta if vault is not None else {})
    if not force and any(entry.get("sha256") == snap.digest for entry in known):
        report.already_imported = True
        report.unchanged_memories, report.unchanged_relations = report.memories, report.relations
        return report

    def plan(v: Vault | None) -> Plan:
        memories, relations = _classify(v, snap, report)
        if dry_run:
            report.secrets = _secrets_in(v, memories, relations)
        if not report.changed:
            return Plan(f"import: nothing to change from {snap.format}")
        at = now_epoch() if now is None else now
        backup = backup_folder(v, at, snap.format)
        report.backup = backup
        files = {f"{backup}/{name}": _read(path) for name, path in snap.files.items()}
        if digest_files(snap.files.items()) != snap.digest:
            raise VaultError(f"refused: {snap.source} changed while it was being imported; "
                             "nothing was written (run the import again)")
        entry = {"format": snap.format, "sha256": snap.digest, "source": str(snap.source),
                 "memories": report.memories, "relations": report.relations, "at": at,
                 "backup": backup}
        meta = {META_KEY: _imports(v.meta if v is not None else {}) + [entry]}
        return Plan(_message(report), put_memories=memories, put_relations=relations,
                    put_files=files, meta=meta)

    return run_plan(vault, plan, report, dry_run, progress)


def refuse_unwritable(snap: ForeignSnapshot) -> None:
    """The records the vault's write would refuse (a value no record may hold, a file larger
    than a vault file may be) made bad records of the snapshot, before the plan: so a dry run
    says what the import does, and ``skip_bad`` imports the rest."""
    from ..errors import InvalidRecordError
    from ..store.files import MAX_FILE_BYTES
    from ..store.layout import Layout

    records: list[tuple[str, dict[str, Any]]] = [("memory", snap.memories),
                                                 ("relation", snap.relations)]
    for kind, found in records:
        for rid in list(found):
            try:
                size = len(Layout.encode(found[rid]))
                why = None if size <= MAX_FILE_BYTES else (
                    f"the {kind} would be a file of {size:,} bytes, more than the "
                    f"{MAX_FILE_BYTES:,} a vault file may hold")
            except InvalidRecordError as exc:
                why = f"not a {kind} the vault can hold: {exc}"
            if why is None:
                continue
            file, line = snap.where.get(rid, (snap.source.name, 1))
            snap.problems.append(LineProblem(file, line, why))
            del found[rid]
            snap.stated.pop(rid, None)
            snap.dangling.pop(rid, None)
            if rid in snap.import_time:
                snap.import_time.remove(rid)


def _secrets_in(vault: Vault | None, memories: list[Memory], relations: list[Relation]
                ) -> list[str]:
    """What the secret check of the write would find in the records (a dry run's warning)."""
    from ..secrets.policy import ALLOW, policy_in_force
    from ..secrets.scanner import scan_record

    asked = getattr(vault, "secret_policy", None) if vault is not None else None
    if policy_in_force(asked, vault.meta if vault is not None else {}) == ALLOW:
        return []
    found = []
    for kind, record in ([("memory", m) for m in memories]
                         + [("relation", r) for r in relations]):
        kinds = sorted({f.kind for f in scan_record(record.model_dump(mode="json"))})
        if kinds:
            found.append(f"{kind} {record.id[:8]} ({', '.join(kinds)})")
    return found


def _read(path: Path) -> bytes:
    try:
        with open_source(path) as f:
            return f.read()
    except OSError as exc:
        raise VaultError(f"cannot read {path}: {exc.strerror or exc}") from None


def _imports(meta: dict[str, Any]) -> list[dict[str, Any]]:
    found = meta.get(META_KEY)
    return [m for m in found if isinstance(m, dict)] if isinstance(found, list) else []


def _classify(vault: Vault | None, snap: ForeignSnapshot, report: ImportReport
              ) -> tuple[list[Memory], list[Relation]]:
    """The records to write, sorted into new, updated and unchanged (in ``report``)."""
    in_vault = vault.memories if vault is not None else {}
    relations_in_vault = vault.relations if vault is not None else {}
    report.new_memories, report.updated_memories, report.unchanged_memories = [], [], 0
    report.new_relations, report.updated_relations, report.unchanged_relations = [], [], 0
    puts: list[Memory] = []
    for mid in sorted(snap.memories):
        old = in_vault.get(mid)
        new = snap.memories[mid]
        if old is not None:
            new = merged(old, new, snap.stated.get(mid, frozenset(SOURCE_FIELDS)))
        if old is None:
            report.new_memories.append(mid)
        elif old.model_dump_json() == new.model_dump_json():
            report.unchanged_memories += 1
            continue
        else:
            report.updated_memories.append(mid)
        puts.append(new)
    put_relations: list[Relation] = []
    for rid in sorted(snap.relations):
        old_r = relations_in_vault.get(rid)
        new_r = snap.relations[rid]
        if old_r is not None:
            new_r = new_r.model_copy(update={"created_at": old_r.created_at,
                                             "strength": old_r.strength})
        if old_r is None:
            report.new_relations.append(rid)
        elif old_r.model_dump_json() == new_r.model_dump_json():
            report.unchanged_relations += 1
            continue
        else:
            report.updated_relations.append(rid)
        put_relations.append(new_r)
    living = set(snap.memories) | set(in_vault)
    report.dangling = {rid: why for rid, why in snap.dangling.items()
                       if rid in snap.relations
                       and not {snap.relations[rid].from_memory_id,
                                snap.relations[rid].to_memory_id} <= living}
    return puts, put_relations


def merged(old: Memory, new: Memory, stated: frozenset[str]) -> Memory:
    """The vault's memory with what the source states (``stated``) taken from ``new``; the
    gist goes when the content changed (it described the old one)."""
    update = {name: getattr(new, name) for name in stated}
    if "meta" in stated:  # keys memvault keeps in extra (pinned...) stay
        update["meta"] = new.meta.model_copy(
            update={"extra": {**old.meta.extra, **new.meta.extra}})
    if new.content != old.content:
        update["gist"] = None
    return old.model_copy(update=update)


def _message(report: ImportReport) -> str:
    others = ([f"{plural(len(report.problems), 'bad record')} skipped"]
              if report.skipped_bad else [])
    details = change_details(len(report.updated_memories) + len(report.updated_relations),
                             len(report.dangling), others, bool(report.backup))
    return commit_message("import", len(report.new_memories) + len(report.updated_memories),
                          len(report.new_relations) + len(report.updated_relations),
                          report.format, details)

__all__ = ["ForeignSnapshot", "ImportRefusedError", "ImportReport", "LineProblem",
           "digest_files", "import_snapshot", "merged", "not_finite", "refuse_unwritable",
           "reject_constant"]
