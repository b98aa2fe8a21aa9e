"""A search's hit: the memory, its final score and both parts of it (:mod:`core.search.rank`'s
formula), and how the parts make the score (:func:`combine`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .snippet import Snippet

if TYPE_CHECKING:
    from ..model.records import Memory

#: The share of a hit's relevance it keeps however faded it is (decay only breaks near-ties).
ALPHA = 0.9


@dataclass(frozen=True)
class Hit:
    memory: Memory
    score: float  # the final score
    relevance: float  # (0, 1]: bm25 * coverage (or fused) over the best, lifted by its episode
    decay: float  # vault.score(memory) now
    bm25: float | None = None  # FTS5's bm25, higher is better; None: no text match
    bm25_rank: int | None = None  # rank by bm25 * coverage
    cosine: float | None = None  # hybrid mode only: similarity to the query
    cosine_rank: int | None = None
    snippet: Snippet = field(default_factory=lambda: Snippet("content", ""))

    def as_json(self) -> dict[str, Any]:
        return {"id": self.memory.id, "score": self.score, "relevance": self.relevance,
                "decay": self.decay, "bm25": self.bm25, "bm25_rank": self.bm25_rank,
                "cosine": self.cosine, "cosine_rank": self.cosine_rank,
                "status": self.memory.status.value, "tags": list(self.memory.meta.tags),
                "snippet": self.snippet.as_json()}


def life(decay: float) -> float:
    return min(1.0, max(0.0, decay))


def combine(relevance: float, decay: float) -> float:
    return relevance * (ALPHA + (1 - ALPHA) * life(decay))
