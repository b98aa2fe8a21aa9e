"""CortexGraph's tools about the server itself, on memvault: ``get_performance_metrics`` and
``reset_performance_metrics`` (this server's own timings, :mod:`tui.mcp.metrics`) and
``backfill_embeddings`` (the optional semantic index: wordllama's vectors for the memories that
have none cached yet; a clear answer when wordllama is not installed). memvault's vectors live in
the derived search index (``.git/memvault/index.sqlite``), never in the memory files, so a
backfill writes no commit."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from pydantic import Field

from core import Vault
from core.search.semantic import INSTALL_HINT, backfill, load_embedder, semantic_available

from . import hints
from .access import VaultAccess
from .metrics import ToolTimings

CORTEXGRAPH_MODEL = "all-MiniLM-L6-v2"


def register(server: MCPServer, access: VaultAccess, timings: ToolTimings) -> None:
    @server.tool(**hints.reads("Performance of this server"))
    def get_performance_metrics() -> dict[str, Any]:
        """This server's timings per tool since it started (or since the last reset): count,
        avg_ms, min_ms, max_ms, total_ms, p50_ms, p95_ms; and <tool>_count."""
        return timings.stats()

    @server.tool(**hints.destructive("Reset the performance figures", idempotent=True))
    def reset_performance_metrics() -> dict[str, Any]:
        """Forget this server's timings (the vault is not touched)."""
        timings.reset()
        return {"success": True, "message": "Performance metrics have been reset"}

    @server.tool(**hints.writes("Compute missing embeddings", idempotent=True))
    def backfill_embeddings(
        model: str = CORTEXGRAPH_MODEL,
        limit: Annotated[int | None, Field(ge=1, le=10_000)] = None,
        force: bool = False,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        """Make the semantic vectors of the memories that have none yet (force: all of them
        again), at most limit, with memvault's embedder (wordllama, installed with
        memvault[semantic]; the model argument is CortexGraph's and is not used). The vectors
        go into the search index, not the memory files: no commit."""
        if not semantic_available():
            return {"success": False, "error": "wordllama not installed",
                    "hint": INSTALL_HINT.split(": ", 1)[-1], "message": INSTALL_HINT}

        def fill(vault: Vault) -> dict[str, Any]:
            embedder = load_embedder()
            assert embedder is not None
            index = access.finder.index(vault)
            report = backfill(index, embedder, vault.memories, limit=limit, force=force,
                              dry_run=dry_run)
            verb = "Would backfill" if dry_run else ("Regenerated" if force else "Backfilled")
            answer = {"success": True, "dry_run": dry_run, "processed": report.processed,
                      "errors": 0, "model": embedder.name, "requested_model": model,
                      "total_memories": report.total,
                      "memories_without_embeddings": report.missing_after,
                      "message": f"{verb} embeddings for {report.targets} memories"
                                 if report.targets else "No memories need embeddings backfill"}
            if dry_run:
                answer["would_process"] = report.targets
            return answer

        return access.read(fill)
