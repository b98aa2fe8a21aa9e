"""Sentences that lean on the one before them: asides, not facts of their own.

An aside qualifies the sentence before it: it says when or how that was said (*Said with
obvious enthusiasm while ...*, *It came up again during ...*), points back at it (*It ...*,
*This ...*, *... ignored it, so ...*) or is a fragment with no verb of its own (*A steady hobby
for many years that ...*, *Worth remembering before ...*). The gist ranks a circumstance below
the sentence it qualifies (:mod:`.units`); the split draft keeps an aside with its sentence
(:mod:`core.ops.split`). Word lists only, like the clause cutter: no tagger, no model.
"""

from __future__ import annotations

import re

from .clause_words import STRICT_AUX, words

#: Participles that open a sentence saying when or how its fact was learned (*Said while ...*).
REPORTING = frozenset(
    """said stated mentioned heard noted decided written learned learnt confirmed told asked
    agreed discussed raised repeated explained added suggested recommended observed remarked
    noticed seen""".split()
)

#: First words that point back at the sentence before (*It ...*, *This ...*, *So ...*).
BACK_POINTERS = frozenset(
    "it this that these those they them such so both its their he she his her also".split()
)

_CAME_UP = re.compile(r"^(?:it|this|that)\s+(?:came|comes|has\s+come)\s+up\b", re.IGNORECASE)
_FIRST_CLAUSE_END = re.compile(r"[,;:]|\b(?:that|which|who|whom|whose)\b")


def is_circumstance(sentence: str) -> bool:
    """True if ``sentence`` says when or how something was said or learned rather than a fact:
    it opens with a reporting participle and no subject (*Said with obvious enthusiasm while
    ...*, *Heard in the weekly one-to-one ...*) or with *It came up ...*."""
    ws = words(sentence)
    if len(ws) < 2:
        return False
    if _CAME_UP.match(sentence.lstrip("\"'“(")):
        return True
    first, second = ws[0], ws[1]
    return first[0].isupper() and first.lower() in REPORTING and second[0].islower()


def leans_on_previous(sentence: str) -> bool:
    """True if ``sentence`` cannot stand without the sentence before it: a circumstance, a
    sentence opening with a word that points back (*It, This, They, So*...), a first clause
    that says *it* (*An earlier answer ignored it, so ...*), or a fragment with no verb before
    its first clause ends (*A steady hobby for many years that ...*, *Worth a reminder ...*)."""
    ws = words(sentence)
    if not ws:
        return False
    if is_circumstance(sentence):
        return True
    first = ws[0].lower()
    if first in BACK_POINTERS or first == "worth":
        return True
    end = _FIRST_CLAUSE_END.search(sentence)
    head = words(sentence[: end.start()] if end else sentence)
    if "it" in (w.lower() for w in head[1:]):
        return True
    if first in ("a", "an") and len(head) < len(ws):
        return not any(w.lower() in STRICT_AUX or w.lower().endswith("ed") for w in head[1:])
    return False
