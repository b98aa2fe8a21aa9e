"""The vault as a CortexGraph 1.2.1 JSONL store (``memvault export --format jsonl DIR``).

:func:`export_jsonl` writes ``DIR/memories.jsonl`` and ``DIR/relations.jsonl``: one JSON object a
line, every key of each record (nulls included), CortexGraph's keys first and in its order, then
memvault's own (``gist``, and any unknown keys the record kept), which CortexGraph ignores. So
CortexGraph 1.2.1 loads the files as they are, and :func:`core.io.migrate.migrate_jsonl` reads them
back to the same records (migrate -> export -> migrate round-trips):

- the status ``superseded``, which CortexGraph lacks, is written as ``archived`` with
  ``meta.extra["memvault_status"] = "superseded"`` (the migration gives it back);
- ids the migration had to replace (``cortexgraph_ids`` in ``meta.extra`` or a relation's
  ``metadata``) are written as they were, so CortexGraph finds its own ids again.

Memories are written oldest first (``created_at``, then id), relations likewise; each file is
written atomically (mode 0600), both or neither (:mod:`core.io.export_files`). Existing
non-empty files are refused unless ``force``; a symbolic link always.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .export_files import export_targets, write_all
from .jsonl_read import (
    MEMORIES_FILE,
    MEMORY_KEYS,
    META_KEYS,
    ORIGINAL_IDS_KEY,
    RELATION_KEYS,
    RELATIONS_FILE,
    STATUS_KEY,
)
from ..model.records import Memory, MemoryStatus, Relation
from ..vault import Vault

#: The statuses CortexGraph 1.2.1 knows; any other is exported as archived (and kept aside).
CORTEXGRAPH_STATUSES = frozenset({"active", "promoted", "archived"})


@dataclass
class ExportReport:
    folder: str
    memories: int
    relations: int
    paths: list[str] = field(default_factory=list)
    restored_ids: dict[str, str] = field(default_factory=dict)  # vault id -> CortexGraph id
    status_kept_aside: list[str] = field(default_factory=list)  # ids exported as archived

    def to_json(self) -> dict[str, Any]:
        return {"folder": self.folder, "format": "jsonl-v1", "memories": self.memories,
                "relations": self.relations, "paths": self.paths,
                "restored_ids": self.restored_ids, "status_kept_aside": self.status_kept_aside}


def export_jsonl(vault: Vault, folder: Path | str, *, force: bool = False) -> ExportReport:
    """Write the vault's memories and relations as CortexGraph v1 files in ``folder`` (created
    if missing). Refuses (VaultError) to replace non-empty files unless ``force``."""
    out = Path(folder).expanduser()
    found = export_targets(out, [MEMORIES_FILE, RELATIONS_FILE], force=force, empty_ok=True)
    targets = [found[MEMORIES_FILE], found[RELATIONS_FILE]]
    memories = sorted(vault.memories.values(), key=lambda m: (m.created_at, m.id))
    relations = sorted(vault.relations.values(), key=lambda r: (r.created_at, r.id))
    report = ExportReport(os.path.abspath(out), len(memories), len(relations))
    ids = _original_ids(memories, report)
    lines = [json.dumps(memory_record(m, ids, report)) + "\n" for m in memories]
    rel_lines = [json.dumps(relation_record(r, ids)) + "\n" for r in relations]
    write_all({targets[0]: "".join(lines).encode("utf-8"),
               targets[1]: "".join(rel_lines).encode("utf-8")}, out)  # both or neither
    report.paths = [os.path.abspath(t) for t in targets]
    return report


def _original_ids(memories: list[Memory], report: ExportReport) -> dict[str, str]:
    """vault id -> CortexGraph id, for memories whose id the migration replaced; only when the
    original id is unique and no living memory has it."""
    living = {m.id for m in memories}
    wanted: dict[str, str] = {}
    seen: dict[str, int] = {}
    for m in memories:
        original = _recorded(m.meta.extra, "id")
        if original is not None:
            wanted[m.id] = original
            seen[original] = seen.get(original, 0) + 1
    ids = {vid: o for vid, o in wanted.items() if seen[o] == 1 and o not in living}
    report.restored_ids = dict(sorted(ids.items()))
    return ids


def _recorded(holder: dict[str, Any], key: str) -> str | None:
    recorded = holder.get(ORIGINAL_IDS_KEY)
    value = recorded.get(key) if isinstance(recorded, dict) else None
    return value if isinstance(value, str) else None


def _ordered(data: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    out = {k: data.pop(k) for k in keys if k in data}
    out.update(data)
    return out


def memory_record(memory: Memory, ids: dict[str, str] | None = None,
                  report: ExportReport | None = None) -> dict[str, Any]:
    """One memory as a CortexGraph v1 line (a dict, for ``json.dumps``)."""
    data = memory.model_dump(mode="json")
    meta = _ordered(data.pop("meta"), META_KEYS)
    extra = dict(meta.get("extra") or {})
    if ids and memory.id in ids:
        data["id"] = ids[memory.id]
        recorded = {k: v for k, v in extra[ORIGINAL_IDS_KEY].items() if k != "id"}
        if recorded:
            extra[ORIGINAL_IDS_KEY] = recorded
        else:
            del extra[ORIGINAL_IDS_KEY]
    if memory.status.value not in CORTEXGRAPH_STATUSES:
        extra[STATUS_KEY] = memory.status.value
        data["status"] = MemoryStatus.ARCHIVED.value
        if report is not None:
            report.status_kept_aside.append(memory.id)
    meta["extra"] = extra
    data["meta"] = meta
    return _ordered(data, MEMORY_KEYS)


def relation_record(relation: Relation, ids: dict[str, str] | None = None) -> dict[str, Any]:
    """One relation as a CortexGraph v1 line, with the original ids put back."""
    data = relation.model_dump(mode="json")
    metadata = dict(data.get("metadata") or {})
    recorded = metadata.pop(ORIGINAL_IDS_KEY, None)
    if isinstance(recorded, dict) and all(isinstance(v, str) for v in recorded.values()):
        for key in ("id", "from_memory_id", "to_memory_id"):
            if key in recorded:
                data[key] = recorded[key]
    elif recorded is not None:
        metadata[ORIGINAL_IDS_KEY] = recorded
    for key in ("from_memory_id", "to_memory_id"):
        if ids and data[key] in ids:
            data[key] = ids[data[key]]
    data["metadata"] = metadata
    return _ordered(data, RELATION_KEYS)


__all__ = ["ExportReport", "export_jsonl", "memory_record", "relation_record"]
