"""Likely duplicates through the near-duplicate index (core/ops/near_duplicates.py and its users:
find_clusters, duplicates_of, indexed_duplicates): the same answers as comparing every pair on
planted paraphrases, nothing merged, and bounded on bad input."""

from __future__ import annotations

import random

import pytest

from core import Memory, Vault
from core.ops.consolidate import find_clusters
from core.ops.duplicates import (
    DUPLICATE_HINT,
    duplicates_of,
    indexed_duplicates,
    possible_duplicates,
)
from core.ops.near_duplicates import candidate_pairs, forget
from core.vault import Plan

WORDS = [f"w{n:03d}{c}" for n in range(400) for c in "xyz"]


def _text(rng: random.Random, n: int = 30) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def _reworded(rng: random.Random, text: str, changes: int) -> str:
    words = text.split()
    for _ in range(changes):
        words[rng.randrange(len(words))] = rng.choice(WORDS)
    return " ".join(words)


@pytest.fixture
def vault(tmp_path):
    v = Vault.open(tmp_path / "v")
    yield v
    forget(v.root)


def _fill(vault: Vault, texts: list[str]) -> list[Memory]:
    memories = [Memory(id=f"{i:08x}-0000-4000-8000-000000000000", content=t)
                for i, t in enumerate(texts)]
    vault.apply(lambda _v: Plan("add: test memories", put_memories=memories))
    return memories


def _shape(clusters) -> list[tuple[list[str], float]]:
    return [([m.id for m in c.members], round(c.cohesion, 9)) for c in clusters]


def test_indexed_clusters_equal_the_pairwise_pass_on_planted_paraphrases(vault):
    rng = random.Random(3)
    texts = [_text(rng) for _ in range(150)]
    for base in texts[:12]:
        texts += [_reworded(rng, base, rng.choice((1, 2, 3, 5)))
                  for _ in range(rng.randint(1, 3))]
    _fill(vault, texts)
    everything = list(vault.memories.values())
    indexed = find_clusters(vault)
    assert indexed and _shape(indexed) == _shape(find_clusters(None, memories=everything))
    # a pool of the vault's own memories: only pairs inside it
    pool = [m for m in everything if m.content in texts[:6] or m.content in texts[150:]]
    assert _shape(find_clusters(vault, memories=pool)) == _shape(
        find_clusters(None, memories=pool))
    # below the index's threshold, and memories that are not the vault's: every pair, as before
    assert _shape(find_clusters(vault, threshold=0.5)) == _shape(
        find_clusters(None, threshold=0.5, memories=everything))
    copies = [m.model_copy(update={"content": m.content + " extra"}) for m in pool]
    assert _shape(find_clusters(vault, memories=copies)) == _shape(
        find_clusters(None, memories=copies))


def test_a_saved_paraphrase_names_what_it_likely_duplicates_and_merges_nothing(vault):
    rng = random.Random(5)
    texts = [_text(rng) for _ in range(40)]
    _fill(vault, texts)
    new = vault.add(_reworded(rng, texts[7], 1))
    head = vault.head
    found = duplicates_of(vault, new.id)
    assert [m.content for m, _ in found] == [texts[7]]
    assert found[0][1] >= DUPLICATE_HINT
    answer = possible_duplicates(vault, new.id)
    assert answer[0]["id"] == found[0][0].id and answer[0]["similarity"] == round(found[0][1], 4)
    assert len(vault.memories) == 41 and vault.head == head  # the check wrote no commit
    # the app's n: a text not saved yet, against the same index
    probe = indexed_duplicates(vault.root, vault.memories, texts[3])
    assert [m.content for m, _ in probe] == [texts[3]]
    assert indexed_duplicates(vault.root, vault.memories, _text(rng)) == []


def test_one_word_memories_are_duplicates_of_each_other_and_nothing_else(vault):
    memories = _fill(vault, ["hello", "hello", "hello", "goodbye", "a"])
    found = duplicates_of(vault, memories[0].id)
    assert sorted((m.id, s) for m, s in found) == [(memories[1].id, 1.0), (memories[2].id, 1.0)]
    assert duplicates_of(vault, memories[4].id) == []  # no word of 3 letters: nothing to compare
    assert indexed_duplicates(vault.root, vault.memories, "") == []
    clusters = find_clusters(vault)
    assert [sorted(m.id for m in c.members) for c in clusters] == [
        sorted(m.id for m in memories[:3])]


def test_huge_content_is_compared_in_bounded_time(vault):
    rng = random.Random(9)
    huge = " ".join(f"{rng.getrandbits(40):x}" for _ in range(1_500_000))  # ~16 MiB
    assert len(huge) > 15 * 2**20
    _fill(vault, [_text(rng) for _ in range(20)])
    assert indexed_duplicates(vault.root, vault.memories, huge) == []  # the app's n
    big = vault.add(huge[: 2**20])  # (saving more is the save's own cost: gist, secrets scan)
    assert duplicates_of(vault, big.id) == []
    assert find_clusters(vault) == []


def test_many_identical_memories_give_bounded_clusters(vault):
    n = 3000
    memories = _fill(vault, ["the very same note about the build server"] * n)
    pairs = candidate_pairs(vault.root, vault.memories, [m.id for m in memories])
    assert len(pairs) <= n * 16
    clusters = find_clusters(vault)
    assert all(len(c.members) <= 12 for c in clusters)
    assert sum(len(c.members) for c in clusters) == n  # every copy is in a suggestion
    assert len(duplicates_of(vault, memories[0].id)) == 5  # the shown limit
