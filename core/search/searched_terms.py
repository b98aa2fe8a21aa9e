"""The terms a search looks for: a query's words, phrases and prefixes, bounded.

A query of :data:`MOST_TERMS` text terms or fewer is searched as typed, a repeated word included
(it weighs in the coverage of :mod:`core.search.rank`). A longer one (a page pasted into the
box, 10,000 words) is cut to its first ``MOST_TERMS`` distinct terms (by kind and tokens), so
that what goes to FTS5 (an OR of a phrase a term, a count and a match a term, a pattern a term
over a snippet's text) is bounded whatever is typed; the search says so in its notes.
"""

from __future__ import annotations

from .query import Term

MOST_TERMS = 64


def searched(terms: list[Term]) -> list[Term]:
    """``terms`` when they are at most :data:`MOST_TERMS`, else their first ``MOST_TERMS``
    distinct ones (by kind and tokens)."""
    if len(terms) <= MOST_TERMS:
        return terms
    kept: dict[tuple[str, tuple[str, ...]], Term] = {}
    for term in terms:
        kept.setdefault((term.kind, tuple(term.tokens())), term)
        if len(kept) == MOST_TERMS:
            break
    return list(kept.values())


def cut_note(terms: list[Term]) -> list[str]:
    """The note a search gives when ``terms`` (a query's text terms) were cut, else none."""
    if len(terms) <= MOST_TERMS:
        return []
    return [f"the query's {len(terms):,} words: the first {MOST_TERMS} different ones were "
            "looked for"]
