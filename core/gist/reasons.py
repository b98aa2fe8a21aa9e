"""Why a note keeps no gist: the reason the app shows where it shows a memory without one.

A note keeps no gist when it is short (under :data:`~.levels.MIN_WORDS` words: it is its own
gist), or when it is a short note (up to :data:`SHORT_NOTE_WORDS` words) every clause of which
carries a number, an identifier or a negation: no clause can go without losing one, and a gist
must keep them all (:func:`every_clause_carries_a_fact`; the pipeline returns no gist for such a
note). Other notes miss a gist when no version inside the level's band keeps every number,
identifier and negation of the sentences it keeps, or when a code block (kept whole or dropped
whole) is most of the note.
"""

from __future__ import annotations

import re

from .clause_words import drops_number_or_negation
from .facts import INLINE_CODE, URL, classify, strip_token
from .levels import BANDS, MIN_WORDS, word_count
from .sentences import parse_blocks

#: Notes up to this many words whose every clause carries a fact keep no gist.
SHORT_NOTE_WORDS = 60

_CLAUSE_END = re.compile(r"(?<=[.!?;:,])\s+|\s+[—–]\s+|\s+--?\s+")


def _carries_a_fact(clause: str) -> bool:
    if drops_number_or_negation(clause) or INLINE_CODE.search(clause) or URL.search(clause):
        return True
    return any(classify(strip_token(t)) == "ident" for t in clause.split())


def clauses(content: str) -> list[str]:
    """The clauses of a note's prose (cut after ``. ! ? ; : ,`` and at dashes) and its code
    blocks whole."""
    found: list[str] = []
    for kind, lines in parse_blocks(content):
        text = "\n".join(lines)
        if kind == "code":
            found.append(text)
            continue
        found.extend(c for c in _CLAUSE_END.split(" ".join(text.split())) if c.strip(" ,;:"))
    return found


def every_clause_carries_a_fact(content: str) -> bool:
    """True for a note of :data:`~.levels.MIN_WORDS` to :data:`SHORT_NOTE_WORDS` words every
    clause of which carries a number, an identifier or a negation."""
    if not MIN_WORDS <= word_count(content) <= SHORT_NOTE_WORDS:
        return False
    found = clauses(content)
    return bool(found) and all(_carries_a_fact(c) for c in found)


def has_code(content: str) -> bool:
    return any(kind == "code" for kind, _lines in parse_blocks(content))


def no_gist_reason(content: str) -> str:
    """Why ``content`` keeps no gist, in a few words for a person (see the module docstring)."""
    words = word_count(content) if isinstance(content, str) else 0
    if words < MIN_WORDS:
        return f"under {MIN_WORDS} words, it is its own gist"
    if every_clause_carries_a_fact(content):
        return "every clause holds a number, identifier or negation"
    if has_code(content):
        return "its code is kept whole"
    lo, hi = BANDS["moderate"]
    return f"no version {lo:.0%}-{hi:.0%} shorter keeps every fact"
