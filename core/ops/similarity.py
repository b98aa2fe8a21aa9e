"""How alike two memories are, and which pairs of many reach a threshold.

Similarity of two memories: the likeness of their content terms (:mod:`core.wording`: words
lowercased, stopwords out, simple stems, negations as one term; Jaccard, or the containment of a
short memory in a longer one, and a conflict such as dark / light or a negation on one side
weighs little) blended with tag and entity overlap (weights 0.7 / 0.15 / 0.15, over the
signals both memories have: a memory saved without tags, or a text whose entities are guessed,
says nothing by lacking them); cosine on ``embed`` instead when every memory compared has one.
The pairs compared (:func:`linked_pairs`) are those the vault's near-duplicate index names
(:mod:`.near_duplicates`: near-linear in the vault's size), else every pair that can reach the
threshold (prefix filtering: quadratic where many memories share words). The consolidate
clusters (:mod:`.consolidate`) and the duplicate check (:mod:`.duplicates`) use it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ..model.records import Memory
from ..textutil import jaccard
from ..wording import largest_partner, least_shared, likeness, terms

if TYPE_CHECKING:
    from ..vault import Vault

CONTENT_WEIGHT, TAG_WEIGHT, ENTITY_WEIGHT = 0.7, 0.15, 0.15


class Features:
    """What similarity looks at, computed once per memory."""

    __slots__ = ("tokens", "tags", "entities", "embed")

    def __init__(self, memory: Memory):
        self.tokens = terms(memory.content)
        self.tags = {t.lower() for t in memory.meta.tags}
        self.entities = {e.lower() for e in memory.entities}
        self.embed = memory.embed


def similarity(a: Memory, b: Memory, use_embeddings: bool | None = None) -> float:
    """Similarity of two memories in 0..1 (see the module docstring)."""
    if use_embeddings is None:
        use_embeddings = bool(a.embed) and bool(b.embed)
    return feature_similarity(Features(a), Features(b), use_embeddings)


def feature_similarity(a: Features, b: Features, use_embeddings: bool) -> float:
    """:func:`similarity` of two memories' features."""
    if use_embeddings and a.embed and b.embed and len(a.embed) == len(b.embed):
        return max(0.0, _cosine(a.embed, b.embed))
    total, weight = CONTENT_WEIGHT * likeness(a.tokens, b.tokens), CONTENT_WEIGHT
    if a.tags and b.tags:
        total, weight = total + TAG_WEIGHT * jaccard(a.tags, b.tags), weight + TAG_WEIGHT
    if a.entities and b.entities:
        total += ENTITY_WEIGHT * jaccard(a.entities, b.entities)
        weight += ENTITY_WEIGHT
    return total / weight


def _cosine(x: Sequence[float], y: Sequence[float]) -> float:
    dot = sum(p * q for p, q in zip(x, y))
    nx, ny = math.sqrt(sum(p * p for p in x)), math.sqrt(sum(q * q for q in y))
    return dot / (nx * ny) if nx and ny else 0.0


def cohesion(members: Sequence[Memory], use_embeddings: bool | None = None) -> float:
    """Mean pairwise similarity (1.0 for a single memory). Cosine on ``embed`` when every member
    has one, unless ``use_embeddings`` says otherwise."""
    if len(members) < 2:
        return 1.0
    feats = [Features(m) for m in members]
    if use_embeddings is None:
        use_embeddings = all(m.embed for m in members)
    pairs = [(i, j) for i in range(len(feats)) for j in range(i + 1, len(feats))]
    return sum(feature_similarity(feats[i], feats[j], use_embeddings) for i, j in pairs) / len(pairs)


def indexed_pairs(vault: Vault | None, pool: list[Memory], whole: bool, threshold: float
                  ) -> set[tuple[int, int]] | None:
    """The pairs of positions in ``pool`` the vault's near-duplicate index names as candidates
    (:mod:`.near_duplicates`), or None when it cannot answer: no vault, a threshold below
    :data:`.near_duplicates.INDEX_FROM`, or memories that are not the vault's own."""
    from .near_duplicates import INDEX_FROM, candidate_pairs  # the index's reader: only here

    if vault is None or threshold < INDEX_FROM:
        return None
    everything = vault.memories
    if not whole and any(everything.get(m.id) is not m for m in pool):
        return None
    at = {m.id: k for k, m in enumerate(pool)}
    return {(at[a], at[b]) for a, b in candidate_pairs(vault.root, everything, at, vault)}


def linked_pairs(feats: list[Features], threshold: float, embeds: bool,
                 indexed: set[tuple[int, int]] | None = None) -> list[tuple[float, int, int]]:
    """Pairs at or above the threshold: of the ``indexed`` candidates when given, else of the
    pairs that can reach it (prefix filtering, below: it misses none, but is quadratic where
    many memories share words)."""
    n = len(feats)
    if indexed is not None:
        candidates: Iterable[tuple[int, int]] = indexed
    elif embeds:
        candidates = ((i, j) for i in range(n) for j in range(i + 1, n))
    else:
        candidates = _candidate_pairs(feats, threshold)
    found = []
    for i, j in candidates:
        s = feature_similarity(feats[i], feats[j], embeds)
        if s >= threshold:
            found.append((s, i, j))
    return found


def _candidate_pairs(feats: list[Features], threshold: float) -> set[tuple[int, int]]:
    """Every pair whose similarity can reach ``threshold``.

    Tags and entities add at most 0.3 of 1.0, so a linked pair has a content likeness
    >= j = (threshold - 0.3) / 0.7, so the smaller set x of the two shares at least
    o = :func:`core.wording.least_shared` (|x|, j) terms with the larger: one of them among the
    |x| - o + 1 rarest of x (prefix filtering), and the larger has at most
    :func:`core.wording.largest_partner` (|x|, j) terms. So every term is indexed, and each set
    is paired with the sets no smaller than it, up to that size, holding one of its rarest
    terms. Below a threshold of 0.3 any shared term, tag or entity can make a link, so all of
    them are compared."""
    j = (threshold - (TAG_WEIGHT + ENTITY_WEIGHT)) / CONTENT_WEIGHT - 1e-9
    rarity = Counter(t for f in feats for t in f.tokens)
    index: dict[str, list[int]] = {}
    probes: list[list[str]] = []
    for i, f in enumerate(feats):
        if j > 0:
            ordered = sorted(f.tokens, key=lambda t: (rarity[t], t))
            keys = list(f.tokens)
            probes.append(ordered[: len(ordered) - least_shared(len(ordered), j) + 1]
                          if ordered else [])
        else:
            keys = [*f.tokens, *("#" + t for t in f.tags), *("@" + e for e in f.entities)]
            probes.append(keys)
        for key in keys:
            index.setdefault(key, []).append(i)
    sizes = [len(f.tokens) for f in feats]
    pairs: set[tuple[int, int]] = set()
    for a, probe in enumerate(probes):
        limit = largest_partner(sizes[a], j)
        for key in probe:
            for b in index[key]:
                if b != a and (j <= 0 or ((sizes[b], b) > (sizes[a], a) and sizes[b] <= limit)):
                    pairs.add((a, b) if a < b else (b, a))
    return pairs
