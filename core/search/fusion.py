"""Hybrid search's relevance: the text score and the cosine similarity, each over its best, in
one weighted sum (:func:`fused`; :mod:`core.search.rank` normalises it and applies decay)."""

from __future__ import annotations

from collections.abc import Container, Mapping

#: The cosine's share of a hybrid relevance. Tuned on the tune half of ``bench/recall.py``
#: (LoCoMo): 0.3 puts hybrid above bm25 and above the cosine ranking alone at R@1, R@5 and
#: R@10 on both turns and facts, where the reciprocal rank fusion it replaces let wordllama's
#: top 5 take the top 5 (R@5 0.33 on turns, bm25's 0.56).
COSINE_WEIGHT = 0.3


def fused(text: Mapping[str, float], cos: Mapping[str, float], near: Container[str]
          ) -> dict[str, float]:
    """Hybrid relevance before normalisation, for the text hits and the memories ``near`` the
    query: ``(1 - COSINE_WEIGHT) * text / best text + COSINE_WEIGHT * cosine / best cosine``
    (a negative cosine counts 0). Scores, not ranks: a fusion of ranks forgets by how much the
    best text match leads, and lets a near memory with one stray word in common outrank it."""
    best_text = max(text.values(), default=0.0) or 1.0
    best_cos = max(cos.values(), default=0.0) or 1.0
    wanted = set(text) | {i for i in cos if i in near}
    return {i: (1 - COSINE_WEIGHT) * text.get(i, 0.0) / best_text
            + COSINE_WEIGHT * max(0.0, cos.get(i, 0.0)) / best_cos for i in wanted}
