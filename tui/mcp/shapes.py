"""Memories, relations and pages as CortexGraph 1.2.1's tools return them (the same keys, the same
rounding), so prompts written for CortexGraph read memvault's answers unchanged. memvault adds a
key here and there (``gist``), never removes one."""

from __future__ import annotations

from typing import Any, Literal

from core import Memory, Relation, Vault

Status = Literal["active", "promoted", "archived", "superseded"]  # a status a search filters on
DEFAULT_STATUSES: tuple[Status, ...] = ("active", "promoted")  # a search's, when none is given
SECONDS_PER_DAY = 86400
DEFAULT_PAGE_SIZE = 10
MAX_PAGE_SIZE = 100


def truncate(content: str, max_length: int | None) -> str:
    """CortexGraph's preview: cut at ``max_length`` characters with ``...`` (None or 0: whole)."""
    if not max_length or len(content) <= max_length:
        return content
    return content[:max_length].rstrip() + "..."


def age_days(memory: Memory, now: int) -> float:
    return round((now - memory.created_at) / SECONDS_PER_DAY, 1)


def search_result(vault: Vault, memory: Memory, now: int,
                  preview_length: int | None) -> dict[str, Any]:
    """One result of ``search_memory``."""
    return {
        "id": memory.id,
        "content": truncate(memory.content, preview_length),
        "tags": memory.meta.tags,
        "score": round(vault.score(memory, now), 4),
        "similarity": None,
        "use_count": memory.use_count,
        "last_used": memory.last_used,
        "age_days": age_days(memory, now),
        "review_priority": round(memory.review_priority, 4) if memory.review_priority > 0 else None,
        "gist": memory.gist,
    }


def opened_memory(vault: Vault, memory: Memory, now: int, *, include_relations: bool,
                  include_scores: bool) -> dict[str, Any]:
    """One memory of ``open_memories``."""
    data: dict[str, Any] = {
        "id": memory.id,
        "content": memory.content,
        "gist": memory.gist,
        "entities": memory.entities,
        "tags": memory.meta.tags,
        "source": memory.meta.source,
        "context": memory.meta.context,
        "created_at": memory.created_at,
        "last_used": memory.last_used,
        "use_count": memory.use_count,
        "strength": memory.strength,
        "status": memory.status.value,
        "promoted_at": memory.promoted_at,
        "promoted_to": memory.promoted_to,
    }
    if include_scores:
        data["score"] = round(vault.score(memory, now), 4)
        data["age_days"] = age_days(memory, now)
    if include_relations:
        relations = vault.store.relations_of(memory.id)
        data["relations"] = {
            "outgoing": [{"to": r.to_memory_id, "type": r.relation_type,
                          "strength": round(r.strength, 4)}
                         for r in relations if r.from_memory_id == memory.id],
            "incoming": [{"from": r.from_memory_id, "type": r.relation_type,
                          "strength": round(r.strength, 4)}
                         for r in relations if r.to_memory_id == memory.id],
        }
    return data


#: ``read_graph`` lists every memory: a huge one's content is cut to this many characters
#: (and ``content_chars`` says its whole length: ``open_memories`` gives it whole)
GRAPH_CONTENT = 20_000


def graph_memory(vault: Vault, memory: Memory, now: int, include_scores: bool) -> dict[str, Any]:
    """One memory of ``read_graph``."""
    data: dict[str, Any] = {
        "id": memory.id,
        "content": truncate(memory.content, GRAPH_CONTENT),
        "entities": memory.entities,
        "tags": memory.meta.tags,
        "created_at": memory.created_at,
        "last_used": memory.last_used,
        "use_count": memory.use_count,
        "strength": memory.strength,
        "status": memory.status.value,
    }
    if len(memory.content) > GRAPH_CONTENT:
        data["content_chars"] = len(memory.content)
    if include_scores:
        data["score"] = round(vault.score(memory, now), 4)
        data["age_days"] = age_days(memory, now)
    return data


def graph_relation(relation: Relation) -> dict[str, Any]:
    """One relation of ``read_graph``."""
    return {
        "id": relation.id,
        "from": relation.from_memory_id,
        "to": relation.to_memory_id,
        "type": relation.relation_type,
        "strength": round(relation.strength, 4),
        "created_at": relation.created_at,
    }


def preview(memory: Memory, length: int = 100) -> str:
    return memory.content[:length]


def page_of(items: list[Any], page: int | None,
            page_size: int | None) -> tuple[list[Any], dict[str, Any]]:
    """CortexGraph's pagination: page (from 1, default 1) of page_size (1-100, default 10)."""
    number = 1 if page is None else page
    size = DEFAULT_PAGE_SIZE if page_size is None else page_size
    total = len(items)
    pages = (total + size - 1) // size
    start = (number - 1) * size
    return items[start:start + size], {
        "page": number,
        "page_size": size,
        "total_count": total,
        "total_pages": pages,
        "has_more": number < pages,
        "has_previous": number > 1,
    }
