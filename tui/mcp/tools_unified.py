"""CortexGraph's ``search_unified`` on memvault. CortexGraph searches two stores, its short-term
memories (STM, the JSONL store) and the long-term notes it promoted into an Obsidian vault (LTM),
and ranks them together with a weight each. memvault keeps promoted memories in the vault itself
(status ``promoted``), so: one ranked search (:mod:`tui.mcp.search`) over the statuses asked for
(active and promoted by default); a promoted memory is an ``ltm`` result (its file's path in the
vault as ``path``), any other an ``stm`` one; each score (relevance x decay, as search_memory's
order) times ``ltm_weight`` or ``stm_weight``; results with the same first 100 characters shown
once, best first. Records the use of what it returns, as every search here does."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from pydantic import Field

from core import Memory, MemoryStatus, Vault
from core.model.records import now_epoch

from . import hints, shapes
from .access import VaultAccess
from .shapes import DEFAULT_STATUSES, Status

Weight = Annotated[float, Field(ge=0.0, le=2.0)]
DEFAULT_PREVIEW = 300
DEDUP_CHARS = 100


def _result(vault: Vault, memory: Memory, score: float, preview: int) -> dict[str, Any]:
    promoted = memory.status == MemoryStatus.PROMOTED
    return {
        "content": shapes.truncate(memory.content, preview),
        "title": f"Memory {memory.id[:8]}",
        "source": "ltm" if promoted else "stm",
        "score": round(score, 4),
        "path": (vault.layout.memory_path(memory.id).relative_to(vault.root).as_posix()
                 if promoted else None),
        "memory_id": memory.id,
        "tags": memory.meta.tags,
        "created_at": memory.created_at,
        "last_used": memory.last_used,
    }


def register(server: MCPServer, access: VaultAccess) -> None:
    @server.tool(**hints.reads("Search short- and long-term memories"))
    def search_unified(
        query: Annotated[str | None, Field(max_length=50_000)] = None,
        tags: Annotated[list[str] | None, Field(max_length=50)] = None,
        status: Status | list[Status] | None = None,
        limit: Annotated[int, Field(ge=1, le=100)] = 10,
        stm_weight: Weight = 1.0,
        ltm_weight: Weight = 0.7,
        window_days: Annotated[int | None, Field(ge=1, le=3650)] = None,
        min_score: Annotated[float | None, Field(ge=0.0, le=1.0)] = None,
        page: Annotated[int | None, Field(ge=1)] = None,
        page_size: Annotated[int | None, Field(ge=1, le=shapes.MAX_PAGE_SIZE)] = None,
        preview_length: Annotated[int | None, Field(ge=0, le=5000)] = None,
    ) -> dict[str, Any]:
        """Search active (stm) and promoted (ltm) memories together, ranked as search_memory,
        each score times stm_weight or ltm_weight; same filters (tags, status, window_days,
        min_score on the decay score), at most limit, duplicates by their first 100 characters
        once. Records their use."""
        statuses = [status] if isinstance(status, str) else (status or list(DEFAULT_STATUSES))
        preview = DEFAULT_PREVIEW if preview_length is None else preview_length

        def search(vault: Vault) -> dict[str, Any]:
            now = now_epoch()
            found = access.finder.ranked(vault, query, tags=tags, statuses=statuses,
                                         window_days=window_days,
                                         limit=None if min_score is not None else limit * 2)
            scored = []
            for m, score in found:
                if min_score is not None and vault.score(m, now) < min_score:
                    continue
                weight = ltm_weight if m.status == MemoryStatus.PROMOTED else stm_weight
                scored.append((score * weight, m))
            scored.sort(key=lambda p: (-p[0], p[1].id))
            kept, seen = [], set()
            for score, m in scored:
                key = shapes.truncate(m.content, preview)[:DEDUP_CHARS].lower().strip()
                if key not in seen:
                    seen.add(key)
                    kept.append((score, m))
                if len(kept) >= limit:
                    break
            pagination = None
            if page is not None or page_size is not None:
                kept, pagination = shapes.page_of(kept, page, page_size)
            used = access.record_use(vault, [m for _, m in kept])
            answer: dict[str, Any] = {
                "success": True, "count": len(kept),
                "results": [_result(vault, used.get(m.id, m), s, preview) for s, m in kept]}
            if pagination is not None:
                answer["pagination"] = pagination
            if query:  # the index's first build under way: said, with how far it is
                access.finder.tell(answer)
            return answer

        return access.read(search)
