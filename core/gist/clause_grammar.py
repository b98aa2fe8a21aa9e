"""How the clause cutter (:mod:`.clause_cutter`) reads a masked sentence: where its body and a
clause end, whether a clause has its verb yet, what kind of modifier a word opens, and the
patterns of a list of plain items and of examples."""

from __future__ import annotations

import re

from .clause_words import (
    AUX,
    COMPLEMENT_HOSTS,
    DETERMINERS,
    NEGATIONS,
    PP_HOSTS,
    PP_OPENERS,
    SUBJECTS,
    THAT_HOSTS,
    TO_HOSTS,
)

_W = r"(?!and\b|or\b)[a-z][a-z'’-]*"
# a list of plain items: a one-word head, short middle items, "and"/"or" and a last item
LIST_OF_ITEMS = re.compile(
    rf"(?<![\w-])({_W})((?:,\s{_W}(?:\s{_W})?)+),?\s(?:and|or)\s{_W}(?:\s{_W}){{0,2}}(?=[.;:)!?]|$)"
)
_END_PUNCT = ".!?…"
BREAKS = ",;:.!?()—–"  # a token that ends a clause
_EX_ITEM = r"[\w'’+-]+(?:\s[\w'’+-]+){0,2}"
EXAMPLES = re.compile(
    rf"\b(?:such\sas|like|including|e\.g\.)\s{_EX_ITEM}(?:,\s{_EX_ITEM})*"
    rf"(?:,?\s(?:and|or)\s{_EX_ITEM})?(?=[.,;:)!?])"
    rf"|\b(?:such\sas|including)\s[\w'’+-]+(?:,\s[\w'’+-]+)*,?\s(?:and|or)\s[\w'’+-]+(?=\s)"
)


def leaves_dangling(masked: str, end: int) -> bool:
    """True if a cut ending at ``end`` would leave a trailing phrase that leaned on what was cut
    ("..., most notably X", "..., such as X")."""
    rest = masked[end:].lstrip()
    if not rest.startswith(","):
        return False
    rest = rest[1:].lstrip().lower()
    return rest.startswith(_LEANING)


_LEANING = (
    "most ", "such as", "including", "like ", "e.g.", "i.e.", "especially", "notably",
    "particularly", "for example", "for instance", "etc",
)  # fmt: skip


_NEXT_CLAUSE = re.compile(r",\s+(?:and|but|or|so|while|which|who)\s|\s*[;:]\s")


def tail_end(masked: str, start: int, body: int) -> int:
    """Where a trailing phrase starting at ``start`` ends: before the next clause, or at the
    end of the sentence."""
    m = _NEXT_CLAUSE.search(masked, start, body)
    return m.start() if m else body


def body_end(masked: str) -> int:
    end = len(masked.rstrip())
    while end > 0 and masked[end - 1] in _END_PUNCT + "\"'”’)":
        if masked[end - 1] == ")" and masked.count("(") >= masked.count(")"):
            break
        end -= 1
    return end


def next_stop(masked: str, pos: int, stops: str, limit: int) -> int:
    """Index of the next character of ``stops`` at or after ``pos`` outside brackets (or limit)."""
    depth = 0
    for i in range(pos, limit):
        c = masked[i]
        if c in "([":
            depth += 1
        elif c in ")]":
            if depth == 0:
                return i
            depth -= 1
        elif depth == 0 and c in stops:
            return i
    return limit


def has_verb(low: list[str], toks: list[tuple[str, int, int]], i: int, start: int) -> bool:
    """Whether the clause from token ``start`` to token ``i`` already has a finite verb (so what
    follows is a modifier, not the clause's own verb)."""
    for k in range(max(start, 1), i):
        w = low[k]
        if w in AUX:
            return True
        prev = toks[k - 1][0]
        if (w.endswith("ed") or w.endswith("s") and not w.endswith(("ss", "us", "is"))) and w.isalpha() and (
            prev[:1].isupper() or prev.lower() in SUBJECTS
        ):
            return True
    return False


def tail_kind(low: list[str], i: int, clause_start: int) -> str | None:
    """The kind of cut a clause tail starting at token ``i`` is, or None if it may not go."""
    w, prev = low[i], low[i - 1]
    if prev in NEGATIONS or prev.endswith(("n't", "n’t")):
        return None
    if w in PP_OPENERS:
        if prev in PP_HOSTS or prev in PP_OPENERS or prev.endswith(("ed", "en", "ing")):
            return None  # "used by X", "created with X", "depending on X": X is an argument
        return "phrase"
    if w in ("that", "which", "who"):
        if prev in THAT_HOSTS or prev.endswith("ly"):
            return None
        return "restrictive"
    if w == "and" and i + 2 < len(low):
        nxt, after = low[i + 1], low[i + 2]
        if nxt in DETERMINERS or (nxt.isalpha() and after in DETERMINERS and nxt not in ("so", "thus")):
            return "coordinate"
        return None
    if w == "to" and prev not in TO_HOSTS and not any(x in TO_HOSTS for x in low[clause_start:i]):
        return "purpose"
    if (
        len(w) > 4
        and w.endswith("ed")
        and i + 1 < len(low)
        and low[i + 1] in ("by", "for", "with", "in", "from", "as", "on", "at", "to", "via")
        and prev not in PP_HOSTS
        and not any(x in COMPLEMENT_HOSTS for x in low[max(0, i - 4) : i])
    ):
        return "participle"
    return None


def inside_brackets(masked: str, pos: int) -> bool:
    head = masked[:pos]
    return head.count("(") > head.count(")") or head.count("[") > head.count("]")
