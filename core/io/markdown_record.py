"""The records built from a markdown entry: its memory (its metadata checked by
:mod:`core.io.markdown_schema`) and its links, with the vault ids of both."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any

from ..errors import InvalidIdError
from ..store.layout import check_id
from .markdown_entries import LONG_TERM_FILE, Entry, ImportProblem
from .markdown_schema import MAPPED_FIELDS, TIERS, Retrieval, read_meta
from ..model.records import Memory, MemoryMetadata, MemoryStatus

ID_NAMESPACE = uuid.UUID("2f8d7a36-8b1e-4c8e-9a3f-6d61726b646e")


def vault_id(original: str) -> str:
    """The vault id of a markdown entry id: itself when safe, else a uuid5 of it."""
    try:
        return check_id(original)
    except InvalidIdError:
        return str(uuid.uuid5(ID_NAMESPACE, "id:" + original))


def relation_id(from_id: str, kind: str, to_id: str) -> str:
    return str(uuid.uuid5(ID_NAMESPACE, f"link:{from_id}:{kind}:{to_id}"))


@dataclass
class Built:
    memory: Memory
    links: list[tuple[str, str, float, int]]  # (to vault id, type, weight, line)
    superseded_by: str | None
    explicit: set[str]  # memory fields the markdown states (the rest keep the vault's values)
    entry: Entry


def build(entry: Entry, problems: list[ImportProblem], remapped: dict[str, str],
          tz: tzinfo | None, mtime: int) -> Built:
    """The memory (and its links) of one entry; problems with its metadata are appended."""
    where = entry.fields_line or entry.line
    line: Callable[[str], int] = lambda key: entry.field_lines.get(key, where)  # noqa: E731
    meta, ignored, said = read_meta(entry.fields, long_term=entry.long_term, tz=tz)
    problems.extend(ImportProblem(entry.file, line(key), message)
                    for key, message in sorted(said, key=lambda s: line(s[0])))
    explicit: set[str] = set()
    extra: dict[str, Any] = {}
    if meta.id is not None:
        memory_id = vault_id(meta.id)
        if memory_id != meta.id:
            extra["original_id"] = meta.id
            remapped[meta.id] = memory_id
    else:
        clock = ":".join(f"{x:02d}" for x in entry.clock) if entry.clock else ""
        memory_id = str(uuid.uuid5(ID_NAMESPACE, f"entry:{entry.file}:{clock}:{entry.title}:"
                                                 f"{entry.rank}"))
    extra.update((k, v) for k, v in entry.fields.items() if k not in MAPPED_FIELDS | ignored)
    if meta.summary is None and entry.fields.get("summary") is not None:
        extra["summary"] = entry.fields["summary"]
    importance = meta.importance
    if importance is not None:
        explicit.add("strength")
    else:
        tier = meta.tier if isinstance(meta.tier, str) and meta.tier in TIERS else (
            "long" if entry.long_term else "short")
        importance = TIERS[tier]
    status = MemoryStatus.PROMOTED if entry.long_term else MemoryStatus.ACTIVE
    if meta.status is not None:
        status = meta.status
        explicit.add("status")
    superseded_by = None
    if meta.superseded_by is not None:
        superseded_by = vault_id(meta.superseded_by)
        status = MemoryStatus.SUPERSEDED
        explicit.add("status")
    if meta.summary is not None:
        explicit.add("gist")
    retrieval = meta.retrieval or Retrieval()
    if retrieval.access_count is not None:
        explicit.add("use_count")
    if entry.long_term:
        created = meta.created_at
        if created is None:
            created = mtime
        else:
            explicit.add("created_at")
    else:
        assert entry.day is not None and entry.clock is not None
        naive = datetime(entry.day.year, entry.day.month, entry.day.day, *entry.clock)
        created = int((naive.replace(tzinfo=tz) if tz is not None else naive).timestamp())
        explicit.add("created_at")
    last_used = created
    if retrieval.last_accessed is not None:
        last_used = max(created, retrieval.last_accessed)
        explicit.add("last_used")
    tags = [*entry.tags, *(t.lstrip("#") for t in meta.tags if t.lstrip("#"))]
    memory = Memory(
        id=memory_id, content=entry.content, gist=meta.summary,
        meta=MemoryMetadata(tags=list(dict.fromkeys(tags)), source=f"markdown:{entry.file}",
                            extra=extra),
        created_at=created, last_used=last_used, use_count=retrieval.access_count or 0,
        strength=round(1.0 + float(importance), 6), status=status,
        entities=list(dict.fromkeys(meta.entities)),
        promoted_at=created if status == MemoryStatus.PROMOTED else None,
        promoted_to=LONG_TERM_FILE if status == MemoryStatus.PROMOTED else None,
    )
    links = [(vault_id(link.to), link.type, link.weight, line("links")) for link in meta.links]
    return Built(memory, links, superseded_by, explicit, entry)


__all__ = ["ID_NAMESPACE", "Built", "build", "relation_id", "vault_id"]
