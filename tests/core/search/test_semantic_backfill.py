"""backfill: vectors made for the memories that have none for their current text, counted
first with dry_run, at most limit, all again with force; nothing made twice."""

from __future__ import annotations

from core import Memory
from core.search.index import SearchIndex
from core.search.semantic import backfill

from test_rank import FakeEmbedder


def _vault_with(vault, n: int):
    for i in range(n):
        vault.save(Memory(id=f"m{i}", content=f"pytest fixtures and deploys, note {i}"))
    return vault


def test_backfill_makes_what_is_missing_once(vault):
    _vault_with(vault, 5)
    embedder = FakeEmbedder()
    with SearchIndex.for_root(vault.root) as index:
        counted = backfill(index, embedder, vault.memories, dry_run=True)
        assert (counted.total, counted.targets, counted.processed, counted.missing_after) == (
            5, 5, 0, 5)
        assert embedder.calls == []
        first = backfill(index, embedder, vault.memories, limit=2)
        assert (first.processed, first.missing_after) == (2, 3)
        rest = backfill(index, embedder, vault.memories)
        assert (rest.processed, rest.missing_after) == (3, 0)
        assert backfill(index, embedder, vault.memories).targets == 0
        again = backfill(index, embedder, vault.memories, force=True)
        assert again.processed == 5 and sum(embedder.calls) == 10


def test_a_changed_text_needs_a_new_vector(vault):
    _vault_with(vault, 2)
    embedder = FakeEmbedder()
    with SearchIndex.for_root(vault.root) as index:
        backfill(index, embedder, vault.memories)
        vault.update("m0", content="a new text about cars")
        assert backfill(index, embedder, vault.memories, dry_run=True).targets == 1
