"""Hybrid search's fusion of the text score and the cosine similarity (core/search/fusion.py)."""

from __future__ import annotations

import pytest

from core.search.fusion import AGREEMENT_DEPTH, COSINE_WEIGHT, cosine_weight, fused


def test_hybrid_fusion_weighs_scores_so_a_stray_word_near_in_meaning_does_not_lead():
    text = {"strong": 10.0, "stray": 0.5}  # bm25 * coverage: "stray" holds one common word
    cos = {"strong": 0.2, "stray": 0.9, "near": 0.8, "far": 0.1}
    scores = fused(text, cos, near={"stray", "near"})
    assert set(scores) == {"strong", "stray", "near"}  # the text hits and the near ones
    assert max(scores, key=scores.__getitem__) == "strong"
    assert scores["strong"] == pytest.approx(1 - COSINE_WEIGHT + COSINE_WEIGHT * 0.2 / 0.9)
    assert scores["near"] == pytest.approx(COSINE_WEIGHT * 0.8 / 0.9)
    assert fused({}, {"near": -0.5}, near={"near"}) == {"near": 0.0}  # a negative cosine is 0


def _text(lead: float, rest: int) -> dict[str, float]:
    """A text ranking: ``lead``'s score for the best, 1.0 for each of ``rest`` others."""
    return {"best": lead, **{f"m{n}": 1.0 for n in range(rest)}}


def test_the_cosine_weighs_as_much_as_the_text_s_top_is_flat():
    assert cosine_weight(_text(1.0, 12)) == pytest.approx(COSINE_WEIGHT)  # ten scored alike
    assert cosine_weight(_text(10.0, 12)) == pytest.approx(COSINE_WEIGHT * 1.0 / 10.0)
    assert cosine_weight(_text(10.0, AGREEMENT_DEPTH - 2)) == COSINE_WEIGHT  # (too few to say)
    assert cosine_weight({}) == COSINE_WEIGHT and cosine_weight(_text(0.0, 0) | {
        n: 0.0 for n in "abcdefghij"}) == 0.0


def test_a_text_answer_that_leads_by_far_is_not_passed_by_the_cosine_s_favourite():
    """Many memories hold a common word, one holds the question's words; the one the cosine
    prefers holds a few of them. The text has decided: the cosine does not reorder it."""
    text = _text(10.0, 12) | {"liked": 8.0}
    cos = {"best": 0.1, "liked": 0.9, **{f"m{n}": 0.1 for n in range(12)}}
    scores = fused(text, cos, near=set())
    assert max(scores, key=scores.__getitem__) == "best"
    flat = fused(_text(1.0, 12) | {"liked": 1.0}, cos, near=set())  # (ten alike: the cosine's)
    assert max(flat, key=flat.__getitem__) == "liked"
