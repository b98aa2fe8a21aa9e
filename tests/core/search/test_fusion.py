"""Hybrid search's fusion of the text score and the cosine similarity (core/search/fusion.py)."""

from __future__ import annotations

import pytest

from core.search.fusion import COSINE_WEIGHT, fused


def test_hybrid_fusion_weighs_scores_so_a_stray_word_near_in_meaning_does_not_lead():
    text = {"strong": 10.0, "stray": 0.5}  # bm25 * coverage: "stray" holds one common word
    cos = {"strong": 0.2, "stray": 0.9, "near": 0.8, "far": 0.1}
    scores = fused(text, cos, near={"stray", "near"})
    assert set(scores) == {"strong", "stray", "near"}  # the text hits and the near ones
    assert max(scores, key=scores.__getitem__) == "strong"
    assert scores["strong"] == pytest.approx(1 - COSINE_WEIGHT + COSINE_WEIGHT * 0.2 / 0.9)
    assert scores["near"] == pytest.approx(COSINE_WEIGHT * 0.8 / 0.9)
    assert fused({}, {"near": -0.5}, near={"near"}) == {"near": 0.0}  # a negative cosine is 0
