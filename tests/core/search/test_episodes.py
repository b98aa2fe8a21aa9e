"""Context from the vault itself (:mod:`core.search.episodes`): the hits of one sitting (memories
written close together in time) lift each other, on their own and in a search."""

from __future__ import annotations

import pytest

from core import Memory
from core.search import Searcher
from core.search.episodes import EPISODE_GAP, EPISODE_WEIGHT, episodes_of, in_context

NOW = 1_800_000_000
DAY = 86400


def test_episodes_are_cut_where_the_pause_is_longer_than_the_gap():
    created = [500, 0, 501 + EPISODE_GAP, 100, 5 * DAY]
    assert episodes_of(created) == [0, 0, 1, 0, 2]
    assert episodes_of([]) == []


def test_a_hit_is_lifted_by_the_best_hit_of_its_episode():
    # four hits, best first: the 1st and the 4th were written together, the 2nd and 3rd alone
    relevance = [1.0, 0.6, 0.55, 0.5]
    created = [0, 10 * DAY, 20 * DAY, 60]
    lifted = in_context(relevance, created)
    weight = EPISODE_WEIGHT * (1 - 2 / 4)
    top = 1.0 + weight * 0.5  # the best hit gains from the second best of its episode
    assert lifted == pytest.approx([1.0, 0.6 / top, 0.55 / top, (0.5 + weight * 1.0) / top])
    assert lifted[3] > lifted[1]  # the sitting of the best hit now comes before the strays


def test_no_hit_is_lifted_when_every_hit_is_of_one_episode_or_alone():
    assert in_context([1.0, 0.5, 0.2], [0, 1, 2]) == [1.0, 0.5, 0.2]  # a vault written at once
    assert in_context([1.0, 0.5, 0.2], [0, DAY, 2 * DAY]) == [1.0, 0.5, 0.2]
    assert in_context([0.7], [0]) == [0.7] and in_context([], []) == []


def test_the_hits_below_the_depth_stay_below_every_lifted_one():
    relevance = [1.0, 0.9, 0.8, 0.79, 0.78]
    created = [0, DAY, 2 * DAY, 60, 2 * DAY + 60]
    lifted = in_context(relevance, created, depth=3)
    assert lifted[3:] == pytest.approx([0.79, 0.78])  # nothing to lift among the first 3
    lifted = in_context(relevance, [0, DAY, 60, 3 * DAY, 120], depth=3)
    assert min(lifted[:3]) > max(lifted[3:]) and lifted[3] > lifted[4]


def _save(vault, memory_id: str, content: str, created: int) -> None:
    vault.save(Memory(id=memory_id, content=content, created_at=created, last_used=created))


def test_a_search_ranks_the_sitting_of_its_best_hit_before_a_stray_match(vault):
    """Melanie's pets: the turn that answers ("Luna and Oliver") holds one of the question's
    words, as does a turn of another day; the one said in the sitting that names the pets
    comes first."""
    day = NOW - 30 * DAY
    _save(vault, "pets", "Melanie: we adopted two pets last spring, a cat and a dog", day)
    _save(vault, "names", "Melanie: they are called Luna and Oliver, names from a book", day + 60)
    _save(vault, "stray", "Melanie: I read the names of every street on the map", NOW - 5 * DAY)
    for n in range(20):
        _save(vault, f"other-{n:02d}", f"Caroline: note {n} on painting and the garden",
              NOW - (60 + n) * DAY)
    with Searcher(vault, mode="bm25") as s:
        hits = s.search("What are the names of Melanie's pets?", now=NOW, limit=3).hits
    assert [h.memory.id for h in hits] == ["pets", "names", "stray"]
    assert hits[0].relevance == 1.0 and hits[1].relevance > hits[2].relevance
