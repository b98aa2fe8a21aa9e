"""A CortexGraph 1.2.1 JSONL store into the vault (``memvault migrate --from jsonl DIR``).

CortexGraph keeps its short-term memory as two append-only files, ``memories.jsonl`` and
``relations.jsonl``; :func:`read_jsonl` (:mod:`core.io.jsonl_read`) replays them the way
CortexGraph's own loader does, and says so where memvault differs rather than stop (a line
CortexGraph would choke on is reported with its file and line and skipped; an id that is not a
safe file name becomes a stable uuid5, the original kept). Relations of memories the source
deleted follow the one rule of :mod:`core.model.relation_rule`.

:func:`migrate_jsonl` writes one file per living memory and relation, records
``migrated_from: "jsonl-v1"`` (and the source's digest) in ``.meta.json``, and copies the two
source files into ``.backup/jsonl-v1-<UTC time>/`` in the vault, all in ONE commit; the source
files are only read. Running it again on the same source changes nothing; a changed source, or
``force``, writes the records that differ. Gists are made afterwards (``memvault
backfill-gists``), so the migration commit holds exactly what CortexGraph had.

The rules, record by record: ``docs/migration.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

from ..errors import VaultError
from ..model.records import Relation, now_epoch
from ..model.relation_rule import relations_of_gone
from ..vault import Plan, Vault
from .jsonl_read import (  # noqa: F401  (part of core.io.migrate's API)
    BACKUP_DIR,
    FORMAT,
    ID_NAMESPACE,
    MEMORIES_FILE,
    MEMORY_KEYS,
    META_KEYS,
    ORIGINAL_IDS_KEY,
    RELATION_KEYS,
    RELATIONS_FILE,
    STATUS_KEY,
    JsonlSnapshot,
    LineProblem,
    Progress,
    check_source,
    read_jsonl,
    vault_id,
)


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
    dangling: list[str] = field(default_factory=list)  # migrated, an end not a living memory
    #: relations of memories the source deleted, not lineage: left out (the one rule)
    dropped_relations: list[str] = field(default_factory=list)
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
            "dangling_relations": self.dangling, "dropped_relations": self.dropped_relations,
            "tombstones": self.tombstones,
            "deleted": self.deleted, "resurrected": self.resurrected, "replaced": self.replaced,
            "skipped_lines": [{"file": p.file, "line": p.line, "message": p.message}
                              for p in self.problems],
            "notes": [{"file": p.file, "line": p.line, "message": p.message} for p in self.notes],
            "remapped_ids": self.remapped, "unknown_keys_kept": self.unknown_keys,
            "without_gist": self.without_gist, "backup": self.backup, "commit": self.commit,
        }


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
    living = set(vault.memories) if vault is not None else set()
    relations = _by_the_rule(snap, living, report)
    report.dangling = sorted(set(snap.dangling(living)) & set(relations))
    history = _migrations(vault.meta if vault is not None else {})
    if not force and any(m.get("sha256") == snap.digest for m in history):
        report.already_migrated = True
        report.unchanged_memories, report.unchanged_relations = report.memories, report.relations
        return report

    def plan(v: Vault | None) -> Plan:
        _classify(v, snap, relations, report)
        change = Plan(_message(report))
        if not report.changed:
            return change  # nothing to write: no commit, no backup
        change.put_memories = [snap.memories[i] for i in
                               report.new_memories + report.updated_memories]
        change.put_relations = [relations[i] for i in
                                report.new_relations + report.updated_relations]
        at = now_epoch() if now is None else now
        backup = backup_folder(v, at)
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


class _Filled(Protocol):
    """What an import's report has that :func:`run_plan` fills."""

    commit: str | None

    @property
    def changed(self) -> bool: ...


Report = TypeVar("Report", bound=_Filled)


def run_plan(vault: Any, plan: Callable[[Any], Any], report: Report, dry_run: bool,
             progress: Callable[[str, int, int], Any] | None) -> Report:
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


def _by_the_rule(snap: JsonlSnapshot, living: set[str], report: MigrationReport
                 ) -> dict[str, Relation]:
    """The snapshot's relations to migrate: those of memories the source deleted (and the vault
    does not hold) go with them, unless they are lineage (core.model.relation_rule); the ids
    left out go into ``report.dropped_relations``."""
    gone = set(snap.deleted) - set(snap.memories) - living
    fate = relations_of_gone(snap.relations.values(), gone)
    report.dropped_relations = sorted(fate.removed_ids())
    left_out = set(report.dropped_relations)
    return {i: r for i, r in snap.relations.items() if i not in left_out}


def _classify(vault: Vault | None, snap: JsonlSnapshot, relations: dict[str, Relation],
              report: MigrationReport) -> None:
    """Sort the snapshot's records (its relations: ``relations``, after the rule) into new,
    updated and unchanged against the vault."""
    memories = vault.memories if vault is not None else {}
    in_vault = vault.relations if vault is not None else {}
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
    for rid in sorted(relations):
        old_r = in_vault.get(rid)
        if old_r is None:
            report.new_relations.append(rid)
        elif _same(old_r, relations[rid]):
            report.unchanged_relations += 1
        else:
            report.updated_relations.append(rid)


def _same(a: BaseModel, b: BaseModel) -> bool:
    return a.model_dump_json() == b.model_dump_json()


def backup_folder(vault: Vault | None, at: int, source_format: str = FORMAT) -> str:
    """The vault-relative folder a source's backup goes in: ``.backup/FORMAT-<UTC time>``
    (``-2``, ``-3``... when that exists)."""
    stamp = datetime.fromtimestamp(at, timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    name = f"{BACKUP_DIR}/{source_format}-{stamp}"
    if vault is None:
        return name
    candidate, n = name, 1
    while (vault.root / candidate).exists():
        n += 1
        candidate = f"{name}-{n}"
    return candidate


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and the word, plural unless one (``many``: an irregular plural)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def change_details(updated: int, dangling: int, others: Sequence[str] = (),
                   backed_up: bool = False) -> list[str]:
    """What a migration's or an import's commit message says in brackets after its counts."""
    details = [f"{updated} updated"] if updated else []
    if dangling:
        details.append(f"{plural(dangling, 'dangling relation')} kept")
    details.extend(others)
    if backed_up:  # not its name: a time stamp can look like a secret to the check
        details.append("source backed up under .backup/")
    return details


def commit_message(kind: str, memories: int, relations: int, source: str,
                   details: list[str]) -> str:
    """``kind: N memories, M relations from SOURCE (details)``: the commit of a migration
    or an import."""
    tail = f" ({'; '.join(details)})" if details else ""
    return (f"{kind}: {plural(memories, 'memory', 'memories')}, "
            f"{plural(relations, 'relation')} from {source}{tail}")


def _message(report: MigrationReport) -> str:
    others = []
    if report.dropped_relations:
        others.append(f"{plural(len(report.dropped_relations), 'relation')} of deleted "
                      "memories left out")
    if report.problems:
        others.append(f"{plural(len(report.problems), 'line')} skipped")
    if report.remapped:
        others.append(f"{plural(len(report.remapped), 'id')} remapped")
    details = change_details(len(report.updated_memories) + len(report.updated_relations),
                             len(report.dangling), others, bool(report.backup))
    return commit_message("migrate", report.memories, report.relations, FORMAT, details)

__all__ = ["FORMAT", "JsonlSnapshot", "LineProblem", "MigrationReport", "change_details",
           "check_source", "commit_message", "migrate_jsonl", "plural", "read_jsonl", "vault_id"]
