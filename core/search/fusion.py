"""Hybrid search's relevance: the text score and the cosine similarity, each over its best, in
one weighted sum (:func:`fused`; :mod:`core.search.rank` normalises it and applies decay).

The cosine's weight is chosen per query from how much the text has decided
(:func:`cosine_weight`): :data:`COSINE_WEIGHT` times the :data:`AGREEMENT_DEPTH`-th best text
score over the best. Where the text's top is flat (ten memories scored alike: a question whose
only words are common ones), the cosine orders them; where one memory leads the text by far, the
cosine hardly moves it. A fixed weight let a static word-vector model reorder the text's clear
answers, and hybrid fell below bm25 alone (LoCoMo's tune half, turns R@1 / R@10 / MRR -0.002 /
-0.010 / -0.001); chosen per query it is at or above bm25 on every measure there, turns and facts.
"""

from __future__ import annotations

from collections.abc import Container, Mapping

#: The cosine's share of a hybrid relevance at most (a text top of ten scored alike). Tuned on
#: the tune half of ``bench/recall.py`` (LoCoMo): 0.3 puts hybrid above bm25 and above the
#: cosine ranking alone, where the reciprocal rank fusion it replaces let wordllama's top 5 take
#: the top 5 (R@5 0.33 on turns, bm25's 0.56). Per query, 0.2 / 0.3 / 0.5: turns R@1 0.371 /
#: 0.370 / 0.363 (bm25 0.369), facts R@5 0.559 / 0.560 / 0.563 (bm25 0.559).
COSINE_WEIGHT = 0.3
#: Whose text score, over the best, says how flat the text's top is. On the tune half, the 5th /
#: 10th / 20th: turns R@1 0.368 / 0.370 / 0.370, facts R@5 0.563 / 0.560 / 0.556.
AGREEMENT_DEPTH = 10


def cosine_weight(text: Mapping[str, float]) -> float:
    """The cosine's share for the text scores ``text``: :data:`COSINE_WEIGHT` times the
    :data:`AGREEMENT_DEPTH`-th best over the best (0 when fewer memories hold a word: the text
    has then ranked every one it found, and the cosine only adds its nearest)."""
    if len(text) < AGREEMENT_DEPTH:
        return COSINE_WEIGHT
    scores = sorted(text.values(), reverse=True)
    return COSINE_WEIGHT * scores[AGREEMENT_DEPTH - 1] / scores[0] if scores[0] > 0 else 0.0


def fused(text: Mapping[str, float], cos: Mapping[str, float], near: Container[str]
          ) -> dict[str, float]:
    """Hybrid relevance before normalisation, for the text hits and the memories ``near`` the
    query: ``(1 - w) * text / best text + w * cosine / best cosine`` with ``w`` the query's
    :func:`cosine_weight` (a negative cosine counts 0). Scores, not ranks: a fusion of ranks
    forgets by how much the best text match leads, and lets a near memory with one stray word in
    common outrank it."""
    best_text = max(text.values(), default=0.0) or 1.0
    best_cos = max(cos.values(), default=0.0) or 1.0
    weight = cosine_weight(text)
    wanted = set(text) | {i for i in cos if i in near}
    return {i: (1 - weight) * text.get(i, 0.0) / best_text
            + weight * max(0.0, cos.get(i, 0.0)) / best_cos for i in wanted}
