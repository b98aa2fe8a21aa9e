"""Tiered markdown memories into the vault (``memvault import-markdown DIR``).

Short-term memories in daily files ``memory/YYYY-MM-DD.md`` (one entry a ``## HH:MM - Title``
section with a metadata comment and a ``Tags:`` line) and long-term knowledge in ``MEMORY.md``
(whose sections become promoted memories); how each entry and field becomes a memory or a
relation: ``docs/migration.md``. What cannot be read is reported with file and line and left
out (an entry, or only a field); nothing is fatal.

The work is in four modules: :mod:`core.io.markdown_entries` parses the files into entries,
:mod:`core.io.markdown_meta` reads a metadata comment as YAML (and says which of YAML's surprises
are taken out), :mod:`core.io.markdown_schema` checks it with one pydantic model,
:mod:`core.io.markdown_record` builds the records; this one reads a folder and plans the commit.

Everything is ONE commit (``import: N memories, M relations from markdown (...)``). Running it
again on the same files changes nothing; after the files changed, only the entries that differ
are written. Fields the markdown does not state (use count, last use, a gist made in memvault,
a status changed in memvault) are left as the vault has them. As with ``migrate``, no gists are
made (``memvault backfill-gists`` does, one commit).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import tzinfo
from pathlib import Path
from typing import Any

from ..errors import VaultError
from .foreign_read import SourceFileError, open_source
from .markdown_entries import LONG_TERM_FILE, ImportProblem, check_source, parse_file
from .markdown_record import ID_NAMESPACE, Built, build, relation_id, vault_id
from .migrate import change_details, commit_message, plural, run_plan
from ..model.records import Memory, MemoryStatus, Relation
from ..vault import Plan, Vault

Progress = Callable[[str, int, int], None]


@dataclass
class MarkdownImportReport:
    source: str
    dry_run: bool
    files: list[str] = field(default_factory=list)
    entries: int = 0  # entries read (imported or not)
    memories: int = 0  # memories the files hold
    relations: int = 0
    new_memories: list[str] = field(default_factory=list)
    updated_memories: list[str] = field(default_factory=list)
    unchanged_memories: int = 0
    new_relations: list[str] = field(default_factory=list)
    updated_relations: list[str] = field(default_factory=list)
    unchanged_relations: int = 0
    dangling: list[str] = field(default_factory=list)
    problems: list[ImportProblem] = field(default_factory=list)
    remapped: dict[str, str] = field(default_factory=dict)
    without_gist: int = 0
    commit: str | None = None

    @property
    def skipped(self) -> list[ImportProblem]:
        return [p for p in self.problems if p.skipped]

    @property
    def changed(self) -> bool:
        return bool(self.new_memories or self.updated_memories or self.new_relations
                    or self.updated_relations)

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source, "dry_run": self.dry_run, "files": self.files,
            "entries": self.entries, "memories": self.memories, "relations": self.relations,
            "new_memories": self.new_memories, "updated_memories": self.updated_memories,
            "unchanged_memories": self.unchanged_memories,
            "new_relations": self.new_relations, "updated_relations": self.updated_relations,
            "unchanged_relations": self.unchanged_relations,
            "dangling_relations": self.dangling,
            "problems": [{"file": p.file, "line": p.line, "message": p.message,
                          "skipped": p.skipped} for p in self.problems],
            "remapped_ids": self.remapped, "without_gist": self.without_gist,
            "commit": self.commit,
        }



# -- the import ------------------------------------------------------------------------------
def read_markdown(
    folder: Path | str,
    *,
    tz: tzinfo | None = None,
    progress: Progress | None = None,
) -> tuple[list[Built], list[Relation], MarkdownImportReport]:
    """Parse every file of ``folder`` into records (nothing is written)."""
    root = Path(folder).expanduser()
    files = check_source(root)
    report = MarkdownImportReport(str(root.resolve()), dry_run=False)
    built: dict[str, Built] = {}
    for done, path in enumerate(files, 1):
        relfile = path.relative_to(root).as_posix()
        report.files.append(relfile)
        try:
            with open_source(path) as f:  # a regular file, never through a link or a fifo
                mtime = int(os.fstat(f.fileno()).st_mtime)
                text = f.read().decode("utf-8-sig")
        except SourceFileError as exc:
            report.problems.append(ImportProblem(relfile, 1, f"{exc.why}; file skipped", True))
            continue
        except UnicodeDecodeError as exc:
            report.problems.append(ImportProblem(relfile, 1, f"not UTF-8 text (byte "
                                                             f"{exc.start + 1}); file skipped",
                                                 True))
            continue
        except OSError as exc:
            report.problems.append(ImportProblem(relfile, 1, f"cannot be read: "
                                                             f"{exc.strerror or exc}", True))
            continue
        long_term = path.name == LONG_TERM_FILE
        entries = parse_file(text, relfile, long_term, report.problems)
        report.entries += len(entries)
        for entry in entries:
            item = build(entry, report.problems, report.remapped, tz, mtime)
            previous = built.get(item.memory.id)
            if previous is not None:
                report.problems.append(ImportProblem(
                    relfile, entry.line, f"id {item.memory.id} was also used at "
                                         f"{previous.entry.file}:{previous.entry.line}; this "
                                         "later entry wins"))
            built[item.memory.id] = item
        if progress is not None:
            progress("files", done, len(files))
    relations: dict[str, Relation] = {}
    for item in built.values():
        m = item.memory
        pairs = [(m.id, to, kind, weight) for to, kind, weight, _ in item.links]
        if item.superseded_by is not None:
            pairs.append((item.superseded_by, m.id, "supersedes", 1.0))
        for a, b, kind, weight in pairs:
            rid = relation_id(a, kind, b)
            relations[rid] = Relation(id=rid, from_memory_id=a, to_memory_id=b,
                                      relation_type=kind, strength=weight,
                                      created_at=m.created_at,
                                      metadata={"source": f"markdown:{item.entry.file}"})
    report.memories, report.relations = len(built), len(relations)
    return list(built.values()), sorted(relations.values(), key=lambda r: r.id), report


def _merge(old: Memory, item: Built) -> Memory:
    """The vault's memory updated with what the markdown states."""
    new = item.memory
    update: dict[str, Any] = {
        "content": new.content, "entities": new.entities,
        "meta": old.meta.model_copy(update={
            "tags": new.meta.tags, "source": new.meta.source,
            "extra": {**old.meta.extra, **new.meta.extra}}),
    }
    if "created_at" in item.explicit or not item.entry.long_term:
        update["created_at"] = new.created_at
    if "gist" in item.explicit:
        update["gist"] = new.gist
    elif new.content != old.content:
        update["gist"] = None  # the old gist described the old content
    for name in ("strength", "use_count", "last_used"):
        if name in item.explicit:
            update[name] = getattr(new, name)
    if "status" in item.explicit:
        update["status"] = new.status
    elif item.entry.long_term and old.status == MemoryStatus.ACTIVE:
        update["status"] = MemoryStatus.PROMOTED
    if update.get("status", old.status) == MemoryStatus.PROMOTED and old.promoted_at is None:
        update["promoted_at"] = update.get("created_at", old.created_at)
        update["promoted_to"] = LONG_TERM_FILE
    return old.model_copy(update=update)


def import_markdown(
    vault: Vault | None,
    folder: Path | str,
    *,
    dry_run: bool = False,
    tz: tzinfo | None = None,
    progress: Progress | None = None,
) -> MarkdownImportReport:
    """Import the tiered markdown memories of ``folder`` as ONE commit (see the module doc).
    ``tz``: the zone of the files' dates and times (default: the local one). With ``dry_run``
    nothing is written (``vault`` may be None)."""
    if vault is None and not dry_run:
        raise VaultError("import-markdown: a vault is needed unless it is a dry run")
    items, relations, report = read_markdown(folder, tz=tz, progress=progress)
    report.dry_run = dry_run

    def plan(v: Vault | None) -> Plan:
        memories = v.memories if v is not None else {}
        existing_relations = v.relations if v is not None else {}
        report.new_memories, report.updated_memories, report.unchanged_memories = [], [], 0
        report.new_relations, report.updated_relations, report.unchanged_relations = [], [], 0
        puts: list[Memory] = []
        for item in sorted(items, key=lambda b: b.memory.id):
            old = memories.get(item.memory.id)
            new = item.memory if old is None else _merge(old, item)
            if old is None:
                report.new_memories.append(new.id)
            elif old.model_dump_json() == new.model_dump_json():
                report.unchanged_memories += 1
                continue
            else:
                report.updated_memories.append(new.id)
            puts.append(new)
        put_relations: list[Relation] = []
        for r in relations:
            old_r = existing_relations.get(r.id)
            if old_r is None:
                report.new_relations.append(r.id)
            elif old_r.model_dump_json() == r.model_dump_json():
                report.unchanged_relations += 1
                continue
            else:
                report.updated_relations.append(r.id)
            put_relations.append(r)
        living = {i.memory.id for i in items} | set(memories)
        report.dangling = sorted(r.id for r in relations
                                 if r.from_memory_id not in living or r.to_memory_id not in living)
        report.without_gist = sum(1 for m in puts if m.gist is None)
        if not report.changed:
            return Plan("import: nothing to change")
        return Plan(_message(report), put_memories=puts, put_relations=put_relations)

    return run_plan(vault, plan, report, dry_run, progress)


def _message(report: MarkdownImportReport) -> str:
    skipped = ([f"{plural(len(report.skipped), 'entry', 'entries')} skipped"]
               if report.skipped else [])
    details = [plural(len(report.files), "file"), *change_details(
        len(report.updated_memories) + len(report.updated_relations), len(report.dangling),
        skipped)]
    return commit_message("import", len(report.new_memories) + len(report.updated_memories),
                          len(report.new_relations) + len(report.updated_relations),
                          "markdown", details)

__all__ = ["ID_NAMESPACE", "ImportProblem", "MarkdownImportReport", "check_source",
           "import_markdown", "parse_file", "read_markdown", "vault_id"]
