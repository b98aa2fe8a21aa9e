"""The clause cutter: a kept sentence made shorter with its own words, saying the same.

Step 6 of the gist pipeline: when whole units cannot reach the band (the usual 31-60-word note:
one to three sentences, none of which can go without cutting too much), a kept sentence may lose
what reads as an aside. :func:`cut_candidates` finds, on a masked sentence (:mod:`.masking`,
read by :mod:`.clause_grammar`), the spans that can go, each a :class:`Cut` of a kind (filler,
intro, relative, appositive, tail, colon, example, list, and the modifiers that close a clause);
:mod:`.pipeline` chooses among them (cheapest value per saved token first, :data:`KIND_COST`)
and :func:`apply_cuts` makes them, tidying the space or comma each leaves.

It never adds a word and never cuts what :func:`.clause_words.is_protected` protects (a number,
a negation or restriction, an entity of the memory); a name may go only if the gist still says
it elsewhere. Each kind, with examples, and what it earns: ``docs/gists.md``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .clause_words import (
    CAPITALISABLE,
    CLAUSE_WORDS,
    CONNECTORS,
    FILLER_PHRASES,
    FILLER_WORDS,
    INTRO_OPENERS,
    NEGATIONS,
    RELATIVE,
    STRICT_AUX,
    TAIL_OPENERS,
)
from .clause_words import WORD, is_protected, names_in, words
from .clause_grammar import (BREAKS, EXAMPLES, LIST_OF_ITEMS, body_end, has_verb, inside_brackets,
                             leaves_dangling, next_stop, tail_end, tail_kind)
from .clauses import balanced

#: Switch for the bench (``bench/gists.py`` measures the pipeline with and without it).
ENABLED = True


@dataclass(frozen=True)
class Cut:
    """Replace ``masked[start:end]`` by ``replacement``; ``kind`` names the rule (docs/gists.md)."""

    start: int
    end: int
    replacement: str
    kind: str
    names: tuple[str, ...] = ()  # names the span holds: cut only if each is still said elsewhere


#: Readability cost of a kind of cut (added to its value; cheapest value per token goes first).
KIND_COST = {
    "filler": 0.05,
    "list": 0.4,
    "tail": 0.5,
    "relative": 0.5,
    "appositive": 0.5,
    "intro": 0.6,
    "colon": 0.7,
    "example": 0.8,
    "phrase": 0.8,
    "participle": 0.8,
    "restrictive": 0.9,
    "coordinate": 1.0,
    "purpose": 1.0,
}

def cut_candidates(masked: str, entities: Sequence[str] = ()) -> list[Cut]:
    """Every cut :mod:`.clause_cutter` may make in one masked sentence, none of them protected."""
    if len(masked) > 2000:
        return []
    body = body_end(masked)
    out: list[Cut] = []

    def add(start: int, end: int, replacement: str, kind: str, at_start: bool = False) -> None:
        if start >= end or not masked[start:end].strip():
            return
        if is_protected(masked[start:end], entities) or not balanced(masked[start:end]):
            return
        rest = masked[:start] + replacement + masked[end:]
        if leaves_dangling(masked, end) and kind != "list":
            return
        if len(words(rest)) < 4:
            return  # a sentence needs something left to say
        names = tuple(names_in(masked[start:end], at_start))
        out.append(Cut(start, end, replacement, kind, names))

    # filler words and phrases (" very" -> ""), never after a negation
    toks = [(m.group(), m.start(), m.end()) for m in WORD.finditer(masked)]
    low = [t[0].lower() for t in toks]
    for i, (w, s, e) in enumerate(toks):
        prev = low[i - 1] if i else ""
        if prev in NEGATIONS or prev.endswith(("n't", "n’t")) or prev in ("-", "not"):
            continue
        nxt = low[i + 1] if i + 1 < len(toks) else ""
        span_end = e
        if low[i] in FILLER_WORDS:
            if nxt in ("-", "than", "and", "or") or prev in ("and", "or") or (low[i] == "just" and nxt == "as"):
                continue  # "quickly and easily": both or neither
        else:
            for a, b in FILLER_PHRASES:
                if low[i] == a and nxt == b:
                    span_end = toks[i + 1][2]
                    break
            else:
                continue
            if a == "as" and b == "well" and i + 2 < len(toks) and low[i + 2] == "as":
                continue  # "as well as X" is a tail, not filler
        if i == 0 or s == 0:
            continue  # sentence openers are intros
        # delete the word with the space before it
        start = s
        while start > 0 and masked[start - 1] == " ":
            start -= 1
        if start > 0 and masked[start - 1] == "," and span_end < len(masked) and masked[span_end] == ",":
            span_end += 1  # ", also," -> ","
        add(start, span_end, "", "filler")

    # sentence-opening adverbial up to its comma
    opening = masked.split(None, 1)
    if opening and opening[0].lower().strip("\"'“(") in INTRO_OPENERS:
        comma = next_stop(masked, 0, ",;:", body)
        if comma < body and masked[comma] == "," and 1 <= len(words(masked[:comma])) <= 8:
            j = comma + 1
            while j < len(masked) and masked[j] == " ":
                j += 1
            nxt_word = words(masked[j : j + 40])[:1]
            if nxt_word and j < len(masked) and (
                nxt_word[0].lower() in CAPITALISABLE and nxt_word[0].islower()
            ):
                add(0, j + 1, masked[j].upper(), "intro", at_start=True)
            elif nxt_word and masked[j].isupper() and "zqx" not in nxt_word[0]:
                add(0, j, "", "intro", at_start=True)

    # comma-led pieces: relative clauses, appositives, trailing phrases
    for m in re.finditer(r",\s+", masked[:body]):
        s, e = m.start(), m.end()
        if inside_brackets(masked, s):
            continue
        rest_low = masked[e:body].lower()
        first = rest_low.split(None, 1)[0].strip("\"'“(") if rest_low.split() else ""
        stop = next_stop(masked, e, ",;:", body)
        if first in RELATIVE and stop - e >= 8:
            add(s, stop, "", "relative")
        elif (
            first in ("a", "an", "the")
            and stop < body
            and masked[stop] == ","
            and len(masked[e:stop].split()) <= 8
            and len(words(masked[:s])) <= 5
            and masked[stop + 1 :].split(None, 1)[:1] not in (["and"], ["or"], ["the"], ["a"], ["an"])
        ):
            add(s, stop + 1, "", "appositive")  # "Nettle, a low-level library, is ..."
        elif any(rest_low == t or rest_low.startswith((t + " ", t + ".")) for t in TAIL_OPENERS):
            add(s, tail_end(masked, e, body), "", "tail")
        elif re.match(r"[a-z]{3,}(?:ing|ed)\s", rest_low) and not first.endswith(("thing", "ceed", "need")):
            add(s, tail_end(masked, e, body), "", "tail")

    # an elaboration after a colon or semicolon, to the end of the sentence
    for m in re.finditer(r"\s*[:;]\s+", masked[:body]):
        if len(words(masked[: m.start()])) >= 5 and len(words(masked[m.end() : body])) >= 4:
            if not inside_brackets(masked, m.start()):
                add(m.start(), body, "", "colon")

    # examples: "such as X, Y and Z" / "like X or Y" / "including X" to the end of their list
    for m in EXAMPLES.finditer(masked):
        start = m.start()
        while start > 0 and masked[start - 1] == " ":
            start -= 1
        if start > 0 and masked[start - 1] == ",":
            continue  # ", such as ..." is a tail
        add(start, m.end(), "", "example")

    # a modifier closing a clause: a phrase, a restrictive relative, a coordinated or purpose
    # phrase, a participle ("... a library for X." / "... files that you have," / "... and Y.")
    clause_start = 0
    for i, (w, s_, _e) in enumerate(toks):
        if w in ",;:(—–":
            clause_start = i + 1
            continue
        if i - clause_start < 3 or i == 0 or not toks[i - 1][0][0].isalnum():
            continue
        kind = tail_kind(low, i, clause_start)
        if kind is None:
            continue
        end_i = i + 1
        if not has_verb(low, toks, i, clause_start):
            # inside the subject: a phrase or participle may go up to the sentence's verb
            if kind not in ("phrase", "participle"):
                continue
            while end_i < len(toks) and low[end_i] not in STRICT_AUX and toks[end_i][0] not in BREAKS:
                end_i += 1
            if end_i >= len(toks) or low[end_i] not in STRICT_AUX or end_i - i < 2:
                continue
            start = s_
            while start > 0 and masked[start - 1] == " ":
                start -= 1
            add(start, toks[end_i - 1][2], "", kind)
            continue
        while end_i < len(toks) and toks[end_i][0] not in BREAKS and end_i - i <= 25:
            end_i += 1
        if end_i - i > 25 or end_i - i < 2 or (end_i < len(toks) and toks[end_i][0] == "("):
            continue
        if end_i < len(toks) and toks[end_i][0] == "," and toks[end_i][1] < body:
            nxt_seg = 0
            k = end_i + 1
            while k < len(toks) and toks[k][0] not in ",;:.!?":
                nxt_seg += toks[k][0][0].isalnum()
                k += 1
            if (end_i + 1 < len(toks) and low[end_i + 1] in ("and", "or")) or nxt_seg <= 3:
                continue  # the comma goes on with the same list: "for X, Y, and Z"
            if kind != "phrase" and (end_i + 1 >= len(toks) or low[end_i + 1] not in CONNECTORS):
                continue  # "to build modular, reusable components": the comma is inside a phrase
        if kind == "phrase" and any(low[k] in CLAUSE_WORDS for k in range(i + 1, end_i)):
            continue  # the phrase runs into another clause: cut that one instead
        start = s_
        while start > 0 and masked[start - 1] == " ":
            start -= 1
        add(start, toks[end_i - 1][2], "", kind)

    # lists of plain items trimmed to their head
    for m in LIST_OF_ITEMS.finditer(masked):
        commas = [m.start() + i for i, ch in enumerate(m.group()) if ch == ","]
        keep = 2 if len(commas) >= 3 else 1  # four items or more: keep two
        end = m.end()
        if masked[end : end + 1] == "." and masked[end + 1 : end + 2] != ".":
            end += 1  # "..., and strings." -> "..., ..." ends the sentence once
        add(commas[keep - 1], end, ", ...", "list")
    return out


def apply_cuts(masked: str, cuts: Sequence[Cut]) -> str:
    """``masked`` with non-overlapping ``cuts`` made (an overlapping one is skipped); the space
    or comma left at each cut is tidied (no double space, no space or comma before ``,.;:!?``)."""
    out = ""
    pos = 0
    for c in sorted(cuts, key=lambda c: c.start):
        if c.start < pos:
            continue
        out = _join(_join(out, masked[pos : c.start]), c.replacement)
        pos = c.end
    return _join(out, masked[pos:]).strip()


def _join(left: str, right: str) -> str:
    if not right:
        return left
    if right[0] == " " and (not left or left[-1] == " "):
        right = right.lstrip(" ")
    if right[:1] in tuple(",;:.!?") and not right.startswith("..."):
        left = left.rstrip(" ")
        if left[-1:] in (",", ";", ":"):
            left = left[:-1]
    return left + right
