"""The MCP reference memory server's file (``@modelcontextprotocol/server-memory``,
``MEMORY_FILE_PATH``) read into the vault: ``memvault import --from mcp-memory FILE``.

The file is a knowledge graph, one JSON object a line: entities
``{"type": "entity", "name", "entityType", "observations": [...]}`` and relations
``{"type": "relation", "from", "to", "relationType"}``. It is read line by line (a huge file
is streamed: one line at a time in memory, besides the records it maps to), split on ``\n``
as the server splits it; blank lines are skipped, as the server skips them.

One memory per entity (the server's own unit of recall): its name as the header, then one
``- `` line per observation (:func:`observations_of` reads them back, also after the content
was edited in memvault); its id a uuid5 of the name, so a relation to an entity the file lacks
still points where that entity would land. A relation becomes a relation of type
``relationType`` between the two memories; an end that names no entity is kept, dangling, and
reported. What the server would not do is said, not fatal (two entities with one name become
one memory); a line that is not JSON, is cut short, or lacks a field the server needs is a bad
record (:mod:`core.io.foreign_import`). Field by field: ``docs/import-export.md``.
"""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path
from typing import Any

from ..model.records import Memory, MemoryMetadata, Relation, now_epoch
from .foreign_import import (
    ForeignSnapshot,
    LineProblem,
    Progress,
    digest_files,
    not_finite,
    reject_constant,
)
from .foreign_read import TooDeepError, load_json, open_file_to_import
from .kept_fields import KeptFileError, native_digest, read_kept, restore

FORMAT = "mcp-memory"
KEY = "mcp_memory"  # meta.extra / relation metadata
ID_NAMESPACE = uuid.UUID("6d637000-6d65-4d6f-9279-6d656d766c74")
BULLET, MORE = "- ", "  "
#: fields a memory of this source states (the time is the import's: not stated)
STATED = frozenset({"content", "entities", "meta"})


def entity_id(name: str) -> str:
    return str(uuid.uuid5(ID_NAMESPACE, f"entity\0{name}"))


def relation_id(source: str, kind: str, target: str) -> str:
    return str(uuid.uuid5(ID_NAMESPACE, json.dumps(["relation", source, kind, target])))


def _one_line(text: str) -> str:
    return " ".join(text.split())


def render(name: str, entity_type: str, observations: list[str]) -> str:
    """An entity as a memory's content (see the module doc)."""
    head = _one_line(name) + (f" ({_one_line(entity_type)})" if entity_type.strip() else "")
    lines = [head]
    for text in observations:
        first, *rest = text.split("\n")
        lines.append(BULLET + first)
        lines.extend(MORE + more for more in rest)
    return "\n".join(lines)


def observations_of(content: str) -> list[str]:
    """The observations in a memory's content written by :func:`render` (the first line is
    the header); a line edited into another shape is an observation of its own."""
    found: list[str] = []
    for line in content.split("\n")[1:]:
        if line.startswith(BULLET) or line == "-":
            found.append(line[len(BULLET):])
        elif line.startswith(MORE) and found:
            found[-1] += "\n" + line[len(MORE):]
        elif line.strip():
            found.append(line)
    return found


class _Entity:
    def __init__(self, name: str, entity_type: str, observations: list[str], line: int):
        self.name, self.entity_type, self.line = name, entity_type, line
        self.observations = list(dict.fromkeys(observations))
        self.native = {"name": name, "entityType": entity_type, "observations": observations}


def _parse(line: bytes) -> tuple[dict[str, Any] | None, str | None]:
    """The object on one line, or the reason it is a bad record."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8 text (byte {exc.start + 1})"
    try:
        item = load_json(text, parse_constant=reject_constant)
    except TooDeepError as exc:
        return None, f"a JSON value {exc}"
    except ValueError as exc:
        cut = text.lstrip().startswith("{") and not text.rstrip().endswith("}")
        return None, f"{'cut short, ' if cut else ''}not JSON: {exc}"
    if not isinstance(item, dict):
        return None, f"not a JSON object but {type(item).__name__}"
    where = not_finite(item)
    if where:
        return None, f"a number that is not finite at {where}"
    kind = item.get("type")
    needs = {"entity": ("name", "entityType"), "relation": ("from", "to", "relationType")}
    for key in needs.get(kind if isinstance(kind, str) else "", ()):
        if not isinstance(item.get(key), str):
            return None, f"a {kind} without a text {key!r}"
    if kind == "entity":
        observations = item.get("observations", [])
        if not isinstance(observations, list) or not all(isinstance(o, str)
                                                         for o in observations):
            return None, "an entity whose observations are not a list of texts"
        if not item["name"]:
            return None, "an entity with an empty name"
    return item, None


def read_mcp_memory(path: Path | str, progress: Progress | None = None,
                    now: int | None = None) -> ForeignSnapshot:
    """Read the memory server's file into a snapshot (see the module doc)."""
    file = Path(path).expanduser()
    opened = open_file_to_import(file)  # a regular file, never through a link
    name = file.name
    snap = ForeignSnapshot(FORMAT, file.resolve(), files={name: file})
    entities: dict[str, _Entity] = {}
    edges: dict[tuple[str, str, str], int] = {}
    done = 0
    with opened as f:
        total = os.fstat(f.fileno()).st_size
        for lineno, line in enumerate(f, 1):
            done += len(line)
            if progress is not None and lineno % 1000 == 0:
                progress("read", done, total)
            if not line.strip():
                continue
            item, bad = _parse(line)
            if bad is not None:
                snap.problems.append(LineProblem(name, lineno, bad))
                continue
            assert item is not None
            kind = item.get("type")
            if kind == "entity":
                _add_entity(entities, item, lineno, snap, name)
            elif kind == "relation":
                triple = (item["from"], item["relationType"], item["to"])
                if triple in edges:
                    snap.notes.append(LineProblem(name, lineno, f"the relation {_edge(triple)} "
                                                  f"repeats line {edges[triple]}; kept once"))
                else:
                    edges[triple] = lineno
            else:
                snap.notes.append(LineProblem(name, lineno, f"a line of type {kind!r} (neither "
                                              "entity nor relation) left out, as the server "
                                              "does"))
    if progress is not None:
        progress("read", total, total)
    kept = _kept_beside(file, snap)
    snap.digest = digest_files(snap.files.items())
    at = now_epoch() if now is None else now
    for entity in entities.values():
        memory = entity_memory(entity.name, entity.entity_type, entity.observations, at)
        snap.memories[memory.id] = memory
        snap.stated[memory.id] = STATED
        snap.where[memory.id] = (name, entity.line)
        snap.import_time.append(memory.id)
    for (source, kind, target), lineno in edges.items():
        rid = relation_id(source, kind, target)
        snap.relations[rid] = Relation(
            id=rid, from_memory_id=entity_id(source), to_memory_id=entity_id(target),
            relation_type=kind, strength=1.0, created_at=at,
            metadata={KEY: {"from": source, "to": target, "relationType": kind}})
        missing = [n for n in (source, target) if n not in entities]
        if missing:
            snap.dangling[rid] = (f"{name}:{lineno}: {_edge((source, kind, target))}: "
                                  + " and ".join(repr(n) for n in missing)
                                  + " is no entity of the file; kept dangling")
    if kept is not None:
        restore(snap, kept, kept_name(name),
                {e.name: (entity_id(e.name), e.native, _held(snap.memories[entity_id(e.name)]))
                 for e in entities.values()},
                {native_digest(list(edge)): [relation_id(*edge)] for edge in edges}, {})
    return snap


def _held(memory: Memory) -> dict[str, Any]:
    """What the server's file holds of a memory (:func:`core.io.kept_fields.restore`)."""
    return {"content": memory.content, "extra": {KEY: memory.meta.extra[KEY]}}


def kept_name(name: str) -> str:
    """The file beside the server's file ``name`` that holds what it cannot
    (:mod:`core.io.kept_fields`)."""
    return name + ".memvault.json"


def _kept_beside(file: Path, snap: ForeignSnapshot) -> dict[str, dict[str, Any]] | None:
    """The kept fields beside ``file`` (added to the snapshot's files: backed up, and a change
    of them is a changed source); a file that is not one memvault wrote is a bad record."""
    beside = file.with_name(kept_name(file.name))
    try:
        kept = read_kept(beside)
    except KeptFileError as exc:
        snap.problems.append(LineProblem(beside.name, 1, str(exc)))
        return None
    if kept is not None:
        snap.files[beside.name] = beside
    return kept


def _edge(triple: tuple[str, str, str]) -> str:
    return f"{triple[0]!r} -{triple[1]}-> {triple[2]!r}"


def _add_entity(entities: dict[str, _Entity], item: dict[str, Any], lineno: int,
                snap: ForeignSnapshot, file: str) -> None:
    name, observations = item["name"], item.get("observations", [])
    seen = entities.get(name)
    if seen is None:
        entities[name] = _Entity(name, item["entityType"], observations, lineno)
        return
    seen.observations = list(dict.fromkeys(seen.observations + observations))
    kept = "" if item["entityType"] == seen.entity_type else (
        f"; its type {item['entityType']!r} differs, {seen.entity_type!r} kept")
    snap.notes.append(LineProblem(file, lineno, f"the entity {name!r} repeats line "
                                  f"{seen.line}: one memory with the observations of both{kept}"))


def entity_memory(name: str, entity_type: str, observations: list[str], at: int) -> Memory:
    """The memory of one entity (see the module doc)."""
    return Memory(
        id=entity_id(name), content=render(name, entity_type, observations),
        meta=MemoryMetadata(tags=[entity_type] if entity_type.strip() else [],
                            source=FORMAT,
                            extra={KEY: {"name": name, "entityType": entity_type}}),
        created_at=at, last_used=at, entities=[name])


__all__ = ["FORMAT", "KEY", "entity_id", "entity_memory", "kept_name", "observations_of",
           "read_mcp_memory", "relation_id", "render"]
