"""Clause-level cut candidates: asides and clauses a sentence can lose and still say the same.

6. **Extractive pass (clauses).** Only if whole units cannot reach the band (few sentences, one
very long sentence): parentheticals and dash asides, then clauses (split at ``;`` ``,``
``—``) are cut the same way, cheapest value per token first. Never a sentence's first
clause nor the one that holds its verb after a short subject (*The manager, Mr Costa, wants
...*), nothing after a subordinate opening (*If X, ..., Y.*), no clause that restricts the
sentence (starting with *if, unless, except, only, not, without, when, but, as...*) nor one
that such a clause restricts, no list
element (under 4 words), nothing with unbalanced brackets or quotes. ``light`` cuts only
asides and clauses that carry no fact (no name, number or identifier). The pipeline takes these
together with the clause cutter's (:mod:`.clause_cutter`) and drops any that would lose a
number or a negation.
"""

from __future__ import annotations

import re

from .clause_words import AUX, CONNECTORS, STRICT_AUX, words
from .sentences import paren_regions

_CLAUSE_SEP = re.compile(r"\s*;\s+|,\s+|\s+[—–]\s+|\s+--?\s+")
ASIDE_CUT = re.compile(r"\s\([^()\n]{1,200}\)(?=[\s.,;:!?]|$)|\s+[—–]\s+[^—–\n]{1,200}?\s+[—–](?=\s)")

# Clauses that restrict their sentence: never cut.
_RESTRICTIVE = frozenset(
    """if unless except only not no never without when whenever until while unlike but however
    otherwise provided once before after instead rather nor whereas although though as so
    yet except""".split()
)


# Openers of a clause that qualifies the one before it (", never to ...", ", so that ..."): that
# clause is never cut alone.
_QUALIFIERS = frozenset(
    """not no never only except unless without but nor so rather instead otherwise however yet
    though although""".split()
)


_SUBORDINATE = frozenset(
    """if unless when whenever while although though because since as after before once until
    whereas where whether in on at for from by with without during despite given to for
    after""".split()
)


def balanced(span: str) -> bool:
    return (
        span.count("(") == span.count(")")
        and span.count("[") == span.count("]")
        and span.count('"') % 2 == 0
        and span.count("“") == span.count("”")
        and span.count("`") % 2 == 0
    )


_MAX_CLAUSES = 300


def _has_verb(span: str) -> bool:
    """Whether ``span`` holds a word that is surely a verb (*is, has, can, provides*...)."""
    return any(w.lower() in AUX or w.lower() in STRICT_AUX for w in words(span))


def clause_candidates(masked: str) -> list[tuple[int, int]]:
    """(start, end) spans of cuttable clauses in a masked sentence.

    Never the first clause; none at all when the first clause is subordinate ("If X, and Y, Z":
    the main clause may come anywhere after it); not the second when the first is short
    ("Today, we ..."), nor, while no verb came, any clause up to the first long one after short
    ones ("The manager, Mr Costa, wants ..."); never a clause that restricts the sentence (_RESTRICTIVE); never a span
    with unbalanced brackets or quotes.
    """
    seps = []
    capped = False
    for m in _CLAUSE_SEP.finditer(masked):
        seps.append((m.start(), m.end()))
        if len(seps) >= _MAX_CLAUSES:
            capped = True  # a "sentence" with more clauses is not prose; its tail stays whole
            break
    if not seps:
        return []
    body_end = len(masked.rstrip())
    while body_end > 0 and masked[body_end - 1] in ".!?…。！？":
        body_end -= 1
    first_clause = masked[: seps[0][0]].split()
    if first_clause and first_clause[0].lower().strip("\"'“(") in _SUBORDINATE:
        return []  # "If X, (and Y,) Z." - the main clause may come anywhere after
    # After a short opening ("Today, ...", "The manager, Mr Costa, ...") the next clause holds the
    # sentence's verb: it stays, and so does every clause up to the first long one.
    protect_next = len(first_clause) < 6
    seen_verb, s_prev = False, 0
    parens = paren_regions(masked) if "(" in masked else []  # sorted by start
    pi = 0
    cands: list[tuple[int, int]] = []
    for idx, (s, e) in enumerate(seps):
        if protect_next:
            nxt_sep = seps[idx + 1][0] if idx + 1 < len(seps) else body_end
            seen_verb = seen_verb or _has_verb(masked[s_prev:s])
            s_prev = s
            protected = masked[e:nxt_sep].split()
            protect_next = not seen_verb and len(protected) < 6 and not _has_verb(masked[e:nxt_sep])
            if protect_next and idx + 1 < len(seps):
                after = masked[seps[idx + 1][1] :].split(None, 1)
                # "..., and reviews them ..." opens a clause of its own: not the verb's clause
                protect_next = not after or after[0].lower().strip(",;\"'“(") not in CONNECTORS
            continue
        if capped and idx == len(seps) - 1:
            break
        while pi < len(parens) and parens[pi][1] <= s:
            pi += 1
        if pi < len(parens) and parens[pi][0] < s:
            continue  # separator inside parentheses
        nxt = seps[idx + 1][0] if idx + 1 < len(seps) else body_end
        if nxt <= e:
            continue
        first_word = masked[e:nxt].split(None, 1)
        if not first_word:
            continue
        fw = first_word[0].strip(",;:\"'“(").lower()
        if fw in _RESTRICTIVE:
            continue
        if not balanced(masked[s:nxt]):
            continue
        if len(masked[e:nxt].split()) < 4:
            continue  # a list element ("x86, x86-64, and ARM"), not a clause
        if idx + 1 < len(seps):
            then = masked[seps[idx + 1][1] :].split(None, 1)
            if then and then[0].lower().strip(",;:\"'“(") in _QUALIFIERS:
                continue  # the clause after restricts this one (", never to ..."): both stay
        cands.append((s, nxt))
    return cands
