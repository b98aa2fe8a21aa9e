"""The vault's statistics (``memvault stats``, the app's): counts, scores, relation types, read
from the cache alone. Its own module: a read-only open that asks for them imports no part that
writes (:mod:`.upkeep`'s gc and gists commit through the write path)."""

from __future__ import annotations

from typing import Any

from ..decay import score
from ..model.values import MemoryStatus, now_epoch
from .state import VaultState


def vault_stats(state: VaultState, now: int | None = None) -> dict[str, Any]:
    """The statistics of the vault whose cache is ``state``, at ``now``."""
    at = now_epoch() if now is None else now
    memories = list(state.store.memories.values())
    scores = [score(m, state.config, at) for m in memories]
    per_status = {s.value: 0 for s in MemoryStatus}
    for m in memories:
        per_status[m.status.value] += 1
    edges = [0.0, 0.05, 0.15, 0.35, 0.65, 1.0, 2.0]
    histogram = []
    for lo, hi in zip(edges, edges[1:] + [float("inf")]):
        histogram.append({"from": lo, "to": None if hi == float("inf") else hi,
                          "count": sum(1 for s in scores if lo <= s < hi)})
    relation_types: dict[str, int] = {}
    for r in state.store.relations.values():
        relation_types[r.relation_type] = relation_types.get(r.relation_type, 0) + 1
    threshold = state.config.forget_threshold
    return {
        "path": str(state.root),
        "memories": len(memories),
        "layout": state.layout.name,  # where memories are written (core/store/shards.py)
        "by_status": per_status,
        "relations": len(state.store.relations),
        "relation_types": dict(sorted(relation_types.items())),
        "tags": len(state.store.tags()),
        "avg_score": sum(scores) / len(scores) if scores else 0.0,
        "below_forget_threshold": sum(
            1 for m, s in zip(memories, scores)
            if s < threshold and m.status == MemoryStatus.ACTIVE),
        "forget_threshold": threshold,
        "decay_model": state.config.decay_model,
        "score_histogram": histogram,
        "problems": [str(p) for p in state.problems],
        "last_gc_at": state.meta.get("last_gc_at"),
        "last_consolidation_at": state.meta.get("last_consolidation_at"),
        "head": state.head,
    }
