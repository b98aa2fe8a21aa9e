"""Gists: the short trace of a memory that recall reads first.

A memory's ``content`` is its verbatim trace; its ``gist`` is a shorter trace made of the
content's own words: whole sentences (or, when it must, whole clauses) in their original order,
with filler taken out. :func:`generate_gist` is deterministic, offline, never raises for a
``str`` and runs in time linear in the content (~1.5 ms for an ordinary note, ~0.1 s of CPU for
a 100k-character one).

Bands (fewer tokens than the content): ``light`` 5-15%, ``moderate`` 20-40%, ``aggressive``
50-75%. ``bench/gist.py`` measures them on real text.

The steps, in the order :func:`~core.gist.pipeline.build_gist` runs them, and where each lives:

0. no gist under :data:`MIN_WORDS` words ............................ :mod:`.levels`
1. parse into units: code blocks, list items, sentences ............. :mod:`.sentences`,
   then scored and assembled as units ............................... :mod:`.units`
2. protect numbers, identifiers, code and URLs behind placeholders .. :mod:`.masking`
   (what counts as such a fact: :mod:`.facts`)
3. phrase pass through token-reducer, verified edit by edit ......... :mod:`.token_reducer_step`
   (off by default: it changes no gist; the figures are in that module)
4. our own phrase pass (filler deletions, compact rewrites) ......... :mod:`.phrases`
5. extractive pass over whole units (greedy, cheapest value first) .. :mod:`.pipeline`
6. extractive pass over clauses and asides, when units cannot do it . :mod:`.clauses`
7. last resort: one more unit, overshooting the band a little ....... :mod:`.pipeline`
8. guards: too long, or a number/identifier not in the content ...... :mod:`.guards`
"""

from __future__ import annotations

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
from .pipeline import format_memory_for_context, generate_gist

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
