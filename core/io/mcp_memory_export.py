"""The vault as the MCP reference memory server's file: ``memvault export --to mcp-memory FILE``
(point the server's ``MEMORY_FILE_PATH`` at it).

Every memory becomes an entity, every relation a relation, written as the server writes its
file (entity lines, then relation lines, one compact JSON object a line, ``\\n`` between lines):

- a memory imported from the server (``meta.extra["mcp_memory"]``) gets its name and
  ``entityType`` back, and its observations are read from its content
  (:func:`core.io.mcp_memory.observations_of`), so import -> export gives the same graph, and an
  observation edited, added or removed in memvault is exported as it now is;
- any other memory becomes an entity named by its basic-memory title, else the first line of
  its content (80 characters at most; `` [id8]`` added when two would share a name: the
  server's names are unique), of type ``memory``, with its content as its one observation;
- a relation is written between the names of its two memories, with its type; an end that is no
  memory of the vault is written with the name the import kept (``metadata["mcp_memory"]``), as
  the server keeps dangling relations; one with an end no name is known for is not written (an
  entity named by a uuid would be no entity at all); a relation repeating another's
  (from, type, to) is written once;
- what the file cannot hold (gists, tags, status, strength, times, counts, a content the
  entity's form does not give back, the relations' ids, strengths and times, the relations
  not written) goes into ``FILE.memvault.json`` beside it (:mod:`core.io.kept_fields`), which
  the import reads back: export -> import gives the same memories; the report names the fields.

Both files are written atomically (mode 0600), both or neither; an existing non-empty file is refused unless
``force``, and a symbolic link always (:mod:`core.io.export_files`: nothing is written where it
points); the report names the path as it was given.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..model.records import Memory, Relation
from ..vault import Vault
from .export_files import export_targets, write_all
from .kept_fields import KeptFields
from .mcp_memory import KEY, entity_memory, kept_name, observations_of

NAME_LIMIT = 80
NATIVE_TYPE = "memory"


@dataclass
class GraphExportReport:
    """What an export to another server's format wrote."""

    path: str
    format: str
    entities: int
    relations: int
    renamed: dict[str, str] = field(default_factory=dict)  # memory id -> name given
    dangling: list[str] = field(default_factory=list)  # relation ids with an end not exported
    merged_relations: int = 0  # relations written once for several
    left_out: list[str] = field(default_factory=list)  # relations with neither end exported
    #: relations the format cannot hold (an end with no name), kept in the kept file only
    kept_beside: list[str] = field(default_factory=list)
    kept_fields: list[str] = field(default_factory=list)  # what the format cannot hold
    kept_file: str = ""  # where it is kept (core.io.kept_fields)

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "format": self.format, "entities": self.entities,
                "relations": self.relations, "named_from_content": self.renamed,
                "dangling_relations": self.dangling,
                "relations_written_once": self.merged_relations,
                "relations_left_out": self.left_out, "relations_kept_beside": self.kept_beside,
                "kept_fields": self.kept_fields, "kept_file": self.kept_file}


def _origin(memory: Memory) -> dict[str, Any] | None:
    found = memory.meta.extra.get(KEY)
    if isinstance(found, dict) and isinstance(found.get("name"), str) and found["name"]:
        return found
    return None


def display_name(memory: Memory) -> str:
    """What to call a memory in another server's format: its imported name or title, else the
    first line of its content (without a heading's ``#``), 80 characters at most."""
    for key, wanted in ((KEY, "name"), ("basic_memory", "title")):
        origin = memory.meta.extra.get(key)
        if key == "basic_memory" and isinstance(origin, dict):
            origin = origin.get("frontmatter")
        if isinstance(origin, dict) and isinstance(origin.get(wanted), str) \
                and origin[wanted].strip():
            return " ".join(origin[wanted].split())[:NAME_LIMIT]
    first = (memory.content.strip().split("\n") or [""])[0]
    return " ".join(first.lstrip("#").split())[:NAME_LIMIT]


def entity_names(memories: list[Memory], report: GraphExportReport | None = None
                 ) -> dict[str, str]:
    """memory id -> entity name, unique: imported names first, then names from content."""
    names: dict[str, str] = {}
    taken: set[str] = set()
    for m in memories:
        origin = _origin(m)
        if origin is not None and origin["name"] not in taken:
            names[m.id] = origin["name"]
            taken.add(origin["name"])
    for m in memories:
        if m.id in names:
            continue
        name = display_name(m) or m.id
        if name in taken:
            name = f"{name} [{m.id[:8]}]"
        if name in taken:
            name = m.id
        names[m.id] = name
        taken.add(name)
        if report is not None:
            report.renamed[m.id] = name
    return names


def entity_record(memory: Memory, name: str) -> dict[str, Any]:
    """One memory as the server's entity line (a dict, for ``json.dumps``)."""
    origin = _origin(memory)
    if origin is not None:
        kind = origin.get("entityType")
        return {"type": "entity", "name": name,
                "entityType": kind if isinstance(kind, str) else NATIVE_TYPE,
                "observations": observations_of(memory.content)}
    return {"type": "entity", "name": name, "entityType": NATIVE_TYPE,
            "observations": [memory.content]}


def _end(relation: Relation, side: str, names: dict[str, str]) -> tuple[str | None, bool]:
    """The name an end is written with (None when none is known), and whether it is a memory
    of the vault."""
    mid = relation.from_memory_id if side == "from" else relation.to_memory_id
    if mid in names:
        return names[mid], True
    kept = relation.metadata.get(KEY)
    if isinstance(kept, dict) and isinstance(kept.get(side), str):
        return kept[side], False
    return None, False


def export_mcp_memory(vault: Vault, path: Path | str, *, force: bool = False
                      ) -> GraphExportReport:
    """Write the vault as the memory server's file at ``path``, and beside it what the file
    cannot hold (see the module doc)."""
    target = Path(path).expanduser()
    beside = kept_name(target.name)
    found = export_targets(target.parent, [target.name, beside], force=force, empty_ok=True)
    memories = sorted(vault.memories.values(), key=lambda m: (m.created_at, m.id))
    report = GraphExportReport(os.path.abspath(target), "mcp-memory", len(memories), 0)
    names = entity_names(memories, report)
    kept = KeptFields(f"what {target.name} (the MCP memory server's file) cannot hold; "
                      "memvault import --from mcp-memory reads it back")
    lines = []
    for m in memories:
        entity = entity_record(m, names[m.id])
        native = {k: entity[k] for k in ("name", "entityType", "observations")}
        kept.keep(names[m.id], m, entity_memory(entity["name"], entity["entityType"],
                                                list(dict.fromkeys(entity["observations"])),
                                                m.created_at), native)
        lines.append(json.dumps(entity, ensure_ascii=False, separators=(",", ":")))
    written: set[tuple[str, str, str]] = set()
    for r in sorted(vault.relations.values(), key=lambda r: (r.created_at, r.id)):
        (source, known_a), (target_name, known_b) = _end(r, "from", names), _end(r, "to", names)
        holder = names.get(r.from_memory_id) or names.get(r.to_memory_id)
        if not (known_a and known_b):
            report.dangling.append(r.id)
        if source is None or target_name is None:  # an end with no name: no raw id written
            if holder is None:
                report.left_out.append(r.id)
            else:
                kept.keep_relation(holder, r, None)
                report.kept_beside.append(r.id)
            continue
        triple = (source, r.relation_type, target_name)
        if holder is None:
            report.left_out.append(r.id)  # kept nowhere: neither end is a memory of the vault
        else:
            kept.keep_relation(holder, r, list(triple))
        if triple in written:
            report.merged_relations += 1
            continue
        written.add(triple)
        lines.append(json.dumps({"type": "relation", "from": source, "to": target_name,
                                 "relationType": r.relation_type}, ensure_ascii=False,
                                separators=(",", ":")))
    report.relations = len(written)
    report.kept_fields, report.kept_file = kept.summary(), os.path.abspath(found[beside])
    write_all({found[target.name]: "\n".join(lines).encode("utf-8"),
               found[beside]: kept.text().encode("utf-8")}, target.parent)
    return report


__all__ = ["GraphExportReport", "display_name", "entity_names", "entity_record", "export_mcp_memory"]
