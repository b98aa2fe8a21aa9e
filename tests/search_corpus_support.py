"""A synthetic corpus for the search tests that compare ways of reading the index: memories of
3 to 40 words drawn from a Zipf-like vocabulary (a few words everywhere, most rare), every
``tag_every``-th one tagged, indexed in memory, with a decay factor a memory."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from core.model.records import Memory, MemoryMetadata
from core.search.index import SearchIndex


def zipf_corpus(n: int, seed: int, tag_every: int
                ) -> Iterator[tuple[SearchIndex, dict[str, Memory], Callable[[Memory], float]]]:
    """Yields (the index, the memories, their decay factor); closes the index after."""
    rng = random.Random(seed)
    vocabulary = [f"w{k}" for k in range(400)]
    weights = [1 / (k + 1) for k in range(400)]
    memories = {}
    for i in range(n):
        words = rng.choices(vocabulary, weights, k=rng.randint(3, 40))
        memories[f"m{i:04d}"] = Memory(
            id=f"m{i:04d}", content=" ".join(words), created_at=1, last_used=1,
            meta=MemoryMetadata(tags=[rng.choice(vocabulary)] if i % tag_every == 0 else []))
    index = SearchIndex(None)
    index.sync(memories)
    life = {i: rng.choice([0.05, 0.3, 0.8, 1.0, 1.7]) for i in memories}
    yield index, memories, (lambda m: life[m.id])
    index.close()
