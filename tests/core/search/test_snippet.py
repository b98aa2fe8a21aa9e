"""The snippet's window (core.search.snippet): the passage holding the most matches, found in
one pass over them, as a memory of megabytes holds tens of thousands of matches."""

from __future__ import annotations

import random

from core.search import snippet
from core.search.snippet import LEAD_CHARS, window


class _Spans(list):
    """The spans, counting how often they are gone through from the start."""

    walks = 0

    def __iter__(self):
        type(self).walks += 1
        return super().__iter__()


def _fullest_by_counting(spans: list[tuple[int, int]], width: int) -> int:
    """The first span from which the most spans fit, by counting them for each (the rule)."""
    return max(range(len(spans)), key=lambda i: (sum(
        1 for s in spans if spans[i][0] <= s[0] and s[1] <= spans[i][0] + width - LEAD_CHARS), -i))


def _spans(rng: random.Random, n: int) -> list[tuple[int, int]]:
    out, at = [], 0
    for _ in range(n):
        at += rng.randint(1, 90)
        end = at + rng.randint(1, 150)
        out.append((at, end))
        at = end
    return out


def test_many_matches_are_gone_through_once():
    spans = _Spans(_spans(random.Random(3), 3000))
    text = "x" * (spans[-1][1] + 10)
    found = window("content", text, spans, 160)
    assert _Spans.walks <= 2
    best = _fullest_by_counting(list(spans), 160)
    assert found.start <= spans[best][0] and found.spans


def test_the_window_starts_at_the_first_fullest_passage():
    rng = random.Random(8)
    for _ in range(300):
        spans = _spans(rng, rng.randint(1, 40))
        width = rng.choice([60, 100, 160, 400])
        assert snippet._fullest(spans, width - LEAD_CHARS) == _fullest_by_counting(spans, width)
