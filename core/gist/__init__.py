"""Gists: the short trace of a memory that recall reads first.

A memory's ``content`` is its verbatim trace; its ``gist`` is a shorter trace made of the
content's own words: whole sentences (or, when it must, whole clauses) in their original order,
with filler taken out. :func:`generate_gist` is deterministic, offline, never raises for a
``str`` and runs in time linear in the content (~1.5 ms for an ordinary note, ~0.1 s of CPU for
a 100k-character one).

Bands (fewer tokens than the content): ``light`` 5-15%, ``moderate`` 20-40%, ``aggressive``
50-75%. ``bench/gist.py`` measures them on real text. Units are valued by what the note is about
(its facts, tags, entities and the topic sentence's words), not by position; a circumstance
(*Said while ...*: :mod:`.asides`) weighs less.

The steps, in the order :func:`~core.gist.pipeline.build_gist` runs them, and where each lives:

0. no gist under :data:`MIN_WORDS` words ............................ :mod:`.levels`
1. parse into units: code blocks, list items, sentences ............. :mod:`.sentences`,
   then scored and assembled as units ............................... :mod:`.units`
2. protect numbers, identifiers, code and URLs behind placeholders .. :mod:`.masking`
   (what counts as such a fact: :mod:`.facts`)
3. phrase pass through token-reducer, verified edit by edit ......... :mod:`.token_reducer_step`
   (off by default: it changes no gist; figures in docs/gists.md)
4. our own phrase pass (filler deletions, compact rewrites) ......... :mod:`.phrases`
5. extractive pass over whole units (greedy, cheapest value first) .. :mod:`.pipeline`
6. cuts inside kept sentences, when units cannot do it: asides and
   comma clauses (:mod:`.clauses`), and the clause cutter's hedges,
   modifiers, appositives and list tails ............................ :mod:`.clause_cutter`
   (its word lists and what must stay: :mod:`.clause_words`); no cut
   ever drops a number or a negation, or crosses a sentence; a last
   cut may overshoot the band like step 7
7. last resort: one more unit, overshooting the band a little ....... :mod:`.pipeline`
8. guards: too long, or a number/identifier not in the content ...... :mod:`.guards`

What a gist keeps, why a note keeps none (:mod:`.reasons`) and the figures measured on the
gist corpus and the demo's notes (``python bench/gists.py``): ``docs/gists.md``.
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
