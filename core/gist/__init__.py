"""Gists: the short trace of a memory that recall reads first.

A memory's ``content`` is its verbatim trace; its ``gist`` is a shorter trace made of the
content's own words: whole sentences (or, when it must, whole clauses) in their original order,
with filler taken out. :func:`generate_gist` is deterministic, offline, never raises for a
``str`` and runs in time linear in the content. Bands (fewer tokens than the content): ``light``
5-15%, ``moderate`` 20-40%, ``aggressive`` 50-75% (:mod:`.levels`). Units are valued by what the
note is about (its facts, tags, entities and the topic sentence's words), not by position.

The steps, in the order :func:`~core.gist.pipeline.build_gist` runs them:

0. no gist for a short note: :mod:`.levels`
1. units (code blocks, list items, sentences), scored and assembled: :mod:`.sentences`,
   :mod:`.units`
2. numbers, identifiers, code and URLs behind placeholders: :mod:`.masking`, :mod:`.facts`
3. token-reducer's phrase pass, verified edit by edit (off by default): :mod:`.token_reducer_step`
4. our own phrase pass (filler deletions, compact rewrites): :mod:`.phrases`
5. the extractive pass over whole units, cheapest value first: :mod:`.pipeline`
6. cuts inside kept sentences (asides, comma clauses, hedges, modifiers, list tails; never a
   number or a negation): :mod:`.clauses`, :mod:`.clause_cutter`
7. last resort, one more unit, overshooting the band a little: :mod:`.pipeline`
8. guards (too long, or a number or identifier not in the content): :mod:`.guards`

What a gist keeps, why a note keeps none (:mod:`.reasons`) and the figures: ``docs/gists.md``.
"""

from __future__ import annotations

from typing import Any

from .levels import (
    BANDS,
    GUARD_RATIO,
    LEVELS,
    LIGHT_GUARD_RATIO,
    MIN_WORDS,
    OVERSHOOT,
    check_level,
    word_count,
)

_LAZY = {"format_memory_for_context", "generate_gist"}


def __getattr__(name: str) -> Any:
    """The pipeline is imported when first used (PEP 562): opening a vault, the app's first
    paint and ``memvault list`` never make a gist, and the pipeline's word tables cost start-up."""
    if name in _LAZY:
        from . import pipeline

        return getattr(pipeline, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "BANDS",
    "GUARD_RATIO",
    "LEVELS",
    "LIGHT_GUARD_RATIO",
    "MIN_WORDS",
    "OVERSHOOT",
    "check_level",
    "format_memory_for_context",
    "generate_gist",
    "word_count",
]
