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


def _level_at(root) -> str | None:
    from core.search.index import SearchIndex

    with SearchIndex.for_root(root) as index:
        return index.near_duplicates().level_at()


def test_a_new_process_follows_only_the_commits_made_since_the_rows_were_level(vault, monkeypatch):
    from core.search.index import SearchIndex

    rng = random.Random(11)
    texts = [_text(rng) for _ in range(30)]
    memories = _fill(vault, texts)
    assert duplicates_of(vault, memories[0].id) == []
    assert _level_at(vault.root) == vault.head  # the rows noted as level with the vault's head
    # another process writes without looking for duplicates: a paraphrase, a change, a delete
    other = Vault.open(vault.root)
    twin = other.add(_reworded(rng, texts[4], 1))
    other.update(memories[9].id, content=_reworded(rng, texts[12], 1))
    other.delete(memories[20].id)
    forget(vault.root)  # (this process as a new one: no index open)
    fresh = Vault.open(vault.root)

    def compare_all(self, *args, **kwargs):
        raise AssertionError("a new process compared every memory")

    monkeypatch.setattr(SearchIndex, "sync", compare_all)
    new = fresh.add(_reworded(rng, texts[4], 2))
    found = {m.id for m, _ in duplicates_of(fresh, new.id)}
    assert {memories[4].id, twin.id} <= found  # the other process's paraphrase too
    changed = {m.id for m, _ in duplicates_of(fresh, memories[12].id)}
    assert memories[9].id in changed  # its new words, not its old ones
    assert memories[20].id not in fresh.memories
    assert _level_at(vault.root) == fresh.head
    monkeypatch.undo()
    with SearchIndex.for_root(vault.root) as index:  # the rows equal a sync of every memory
        before = index.fingerprints()
        report = index.sync(fresh.memories)
        assert (report.added, report.changed, report.removed) == (0, 0, 0)
        assert before == index.fingerprints() and memories[20].id not in before


def test_a_sync_that_cannot_say_which_commit_it_mirrors_drops_the_note(vault):
    from core.search.index import SearchIndex

    rng = random.Random(12)
    texts = [_text(rng) for _ in range(10)]
    memories = _fill(vault, texts)
    duplicates_of(vault, memories[0].id)
    assert _level_at(vault.root) == vault.head
    with SearchIndex.for_root(vault.root) as index:  # e.g. a search over other memories
        changed = dict(vault.memories)
        changed[memories[1].id] = memories[1].model_copy(update={"content": "other words now"})
        index.sync(changed)
        assert index.near_duplicates().level_at() is None
        # a follow from the old note is refused: the caller then compares every memory
        assert index.sync_changed(vault.memories, set(), vault.head, vault.head) is None
    forget(vault.root)
    fresh = Vault.open(vault.root)
    found = indexed_duplicates(fresh.root, fresh.memories, texts[1], vault=fresh)
    assert [m.id for m, _ in found] == [memories[1].id]  # its row holds its own words again
    assert _level_at(vault.root) == fresh.head
