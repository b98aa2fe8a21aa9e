"""The tools that only read: CortexGraph's ``search_memory``, ``open_memories`` and
``read_graph``, memvault's ``recall`` and ``memory_history``. ``search_memory``,
``open_memories`` and ``recall`` record the use of what they return (written at once, committed
in batches: see :mod:`tui.mcp.access`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from pydantic import Field

from core import Memory, MemoryStatus, Vault
from core.git.entries import VIA_TRAILER, trailer_of
from core.model.records import now_epoch

from . import hints, shapes
from .access import VaultAccess
from .shapes import DEFAULT_STATUSES, Status
from .ids import resolve_many

Page = Annotated[int | None, Field(ge=1)]
PageSize = Annotated[int | None, Field(ge=1, le=shapes.MAX_PAGE_SIZE)]
DEFAULT_PREVIEW = 300


def _page_used(access: VaultAccess, vault: Vault, found: list[Memory], page: int | None,
               page_size: int | None) -> tuple[list[Memory], dict[str, Any] | None]:
    """The page of ``found`` asked for (all of it when no page is), its use recorded, as the
    memories now are; and the pagination block, if paged."""
    paged = page is not None or page_size is not None
    shown, pagination = shapes.page_of(found, page, page_size) if paged else (found, None)
    return _fresh(shown, access.record_use(vault, shown)), pagination


def _fresh(found: list[Memory], used: dict[str, Memory]) -> list[Memory]:
    """The memories with the use just recorded (last_used, use_count) where there is one."""
    return [used.get(m.id, m) for m in found]


def register(server: MCPServer, access: VaultAccess) -> None:
    @server.tool(**hints.reads("Search memories"))
    def search_memory(
        query: Annotated[str | None, Field(max_length=50_000)] = None,
        tags: Annotated[list[str] | None, Field(max_length=50)] = None,
        status: Status | list[Status] | None = None,
        top_k: Annotated[int, Field(ge=1, le=100)] = 10,
        window_days: Annotated[int | None, Field(ge=1, le=3650)] = None,
        min_score: Annotated[float | None, Field(ge=0.0, le=1.0)] = None,
        page: Page = None,
        page_size: PageSize = None,
        preview_length: Annotated[int | None, Field(ge=0, le=5000)] = None,
        use_embeddings: bool = False,
        include_review_candidates: bool = True,
    ) -> dict[str, Any]:
        """Search memories, ranked: bm25 over content, gist, tags and entities (any word finds;
        memories with every word first) combined with the decay score; the query language takes
        "phrases", prefix*, tag:x, entity:y, -excluded. Filters by tags (any), status (default
        active and promoted), recent use (window_days) and decay score (min_score); at most
        top_k. Records their use. use_embeddings and include_review_candidates are CortexGraph's
        and change nothing here: memvault ranks with the semantic index whenever
        memvault[semantic] is installed, and does not mix review candidates into a search."""
        statuses = [status] if isinstance(status, str) else (status or list(DEFAULT_STATUSES))
        length = DEFAULT_PREVIEW if preview_length is None else preview_length

        def search(vault: Vault) -> dict[str, Any]:
            now = now_epoch()
            found = access.finder.find(vault, query, tags=tags, statuses=statuses,
                                       window_days=window_days,
                                       limit=top_k if min_score is None else None)
            if min_score is not None:
                found = [m for m in found if vault.score(m, now) >= min_score]
            shown, pagination = _page_used(access, vault, found[:top_k], page, page_size)
            answer: dict[str, Any] = {
                "success": True, "count": len(shown),
                "results": [shapes.search_result(vault, m, now, length) for m in shown]}
            if pagination is not None:
                answer["pagination"] = pagination
            if query:  # the index's first build under way: said, with how far it is
                access.finder.tell(answer)
            return answer

        return access.read(search)

    @server.tool(**hints.reads("Open memories by id"))
    def open_memories(
        memory_ids: str | Annotated[list[str], Field(min_length=1, max_length=100)],
        include_relations: bool = True,
        include_scores: bool = True,
        page: Page = None,
        page_size: PageSize = None,
    ) -> dict[str, Any]:
        """Memories by id (or unique prefix), with relations and scores. Records their use."""
        keys = [memory_ids] if isinstance(memory_ids, str) else memory_ids

        def open_(vault: Vault) -> dict[str, Any]:
            now = now_epoch()
            found = [vault.memories[i] for i in resolve_many(vault, keys)]
            shown, pagination = _page_used(access, vault, found, page, page_size)
            answer: dict[str, Any] = {
                "success": True, "count": len(shown),
                "memories": [shapes.opened_memory(vault, m, now,
                                                  include_relations=include_relations,
                                                  include_scores=include_scores) for m in shown],
                "not_found": []}
            if pagination is not None:
                answer["pagination"] = pagination
            return answer

        return access.read(open_)

    @server.tool(**hints.reads("Read the memory graph"))
    def read_graph(
        status: Literal["active", "promoted", "archived", "superseded", "all"] = "active",
        include_scores: bool = True,
        limit: Annotated[int | None, Field(ge=1, le=10_000)] = None,
        page: Page = None,
        page_size: PageSize = None,
    ) -> dict[str, Any]:
        """The knowledge graph: memories of a status (or all), oldest first, and every relation,
        with counts and averages."""

        def graph(vault: Vault) -> dict[str, Any]:
            now = now_epoch()
            memories = sorted((m for m in vault.memories.values()
                               if status == "all" or m.status == MemoryStatus(status)),
                              key=lambda m: (m.created_at, m.id))
            scores = [vault.score(m, now) for m in memories]
            stats = {
                "total_memories": len(memories),
                "total_relations": len(vault.relations),
                "avg_score": round(sum(scores) / len(scores), 4) if scores else 0,
                "avg_use_count": (round(sum(m.use_count for m in memories) / len(memories), 2)
                                  if memories else 0),
                "status_filter": status,
            }
            if limit is not None:
                memories = memories[:limit]
            data = [shapes.graph_memory(vault, m, now, include_scores) for m in memories]
            relations = [shapes.graph_relation(r) for r in
                         sorted(vault.relations.values(), key=lambda r: (r.created_at, r.id))]
            answer: dict[str, Any] = {"success": True, "memories": data, "relations": relations,
                                      "stats": stats}
            if page is not None or page_size is not None:
                answer["memories"], answer["pagination"] = shapes.page_of(data, page, page_size)
            return answer

        return access.read(graph)

    @server.tool(**hints.reads("Recall memories for a task"))
    def recall(query: str,
               token_budget: Annotated[int | None, Field(ge=1)] = None) -> dict[str, Any]:
        """The best-matching active memories as one context block, gist first, as many as fit
        token_budget (estimated tokens): a memory's gist where it has one, else its content.
        Records their use."""

        def recall_(vault: Vault) -> dict[str, Any]:
            from core.ops.recall import recall as gist_recall

            found = gist_recall(vault, query, budget=token_budget)
            used = access.record_use(vault, [line.memory for line in found.lines])
            return {
                "success": True, "query": query, "context": found.block,
                "memories": [{"id": line.memory.id, "text": line.text, "tokens": line.tokens,
                              "relevance": round(line.relevance, 4),
                              "gist": line.memory.gist is not None,
                              "use_count": used.get(line.memory.id, line.memory).use_count}
                             for line in found.lines],
                "count": len(found.lines), "matched": found.matched, "tokens": found.tokens,
                "full_tokens": found.full_tokens, "saved_tokens": found.saved,
                "token_budget": token_budget,
            }

        return access.read(recall_)

    @server.tool(**hints.reads("A memory's history"))
    def memory_history(memory_id: str) -> dict[str, Any]:
        """A memory's life from git, newest first (also after its deletion): each commit with
        its time, what it did (created, changed, deleted), its message and who wrote it through
        which door (via: mcp/<client> for an assistant). restore_memory takes a commit."""

        def history(vault: Vault) -> dict[str, Any]:
            mid = vault.resolve_any(memory_id)
            entries = vault.history(mid)
            return {"success": True, "memory_id": mid, "exists": mid in vault.memories,
                    "count": len(entries),
                    "history": [{"commit": e.commit, "timestamp": e.timestamp, "action": e.action,
                                 "subject": e.message.splitlines()[0] if e.message else "",
                                 "author": e.author, "via": trailer_of(e.message, VIA_TRAILER)}
                                for e in entries]}

        return access.read(history)
