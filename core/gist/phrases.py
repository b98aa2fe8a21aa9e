"""Filler deletions and compact rewrites, made on masked sentences (our own phrase pass).

4. **Phrase pass (ours).** The same filler/hedge deletions and compact rewrites, found by a
linear phrase matcher, so the result does not depend on token-reducer being installed.
Hedges are not deleted after a negation (``not really``); sentence-opening hedges only when
followed by a comma; an edit that would leave a sentence opening with something we cannot
safely capitalise (a name, an identifier) is not made.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# word tokens for the phrase passes (on masked text)
WORD_TOKEN = re.compile(r"\w+(?:['’]\w+)*|[^\w\s]")

_CAPITALISABLE = frozenset(
    """a an the this that these those it its we our you your they their there here he she his
    her i in on at for to from with by of if when while because although before after now
    since as all some most many several each every no one two both any other such what which
    who how why where so then also each use run add set make keep call check avoid can could
    should must will would may might do does did is are was were be has have had""".split()
)

# ---- filler / hedge deletions and compact rewrites (lower-case token tuples) ----------------

ANYWHERE_DELETE = [
    "basically",
    "essentially",
    "literally",
    "actually",
    "really",
    "i think that",
    "i think",
    "i believe that",
    "i believe",
    "i guess",
    "i suppose",
    "i feel like",
    "in my opinion",
    "it seems that",
    "it seems like",
    "needless to say",
]
START_DELETE = [
    "please note that",
    "it should be noted that",
    "it is important to note that",
    "it's important to note that",
    "it is worth noting that",
    "it's worth noting that",
    "note that",
    "as you know",
    "as you may know",
    "as mentioned before",
    "as mentioned earlier",
    "as mentioned above",
    "as noted above",
    "in other words",
    "to be honest",
    "honestly",
    "frankly",
    "of course",
    "obviously",
    "clearly",
    "anyway",
    "well",
    "so",
    "ok",
    "okay",
    "also",
]
REWRITES = {
    "in order to": "to",
    "in order for": "for",
    "due to the fact that": "because",
    "owing to the fact that": "because",
    "in view of the fact that": "because",
    "in the event that": "if",
    "at this point in time": "now",
    "at the present time": "now",
    "in spite of the fact that": "although",
    "despite the fact that": "although",
    "for the purpose of": "for",
    "is able to": "can",
    "are able to": "can",
    "has the ability to": "can",
    "have the ability to": "can",
    "prior to": "before",
    "subsequent to": "after",
    "a large number of": "many",
    "the vast majority of": "most",
    "the majority of": "most",
    "in the near future": "soon",
    "make use of": "use",
    "makes use of": "uses",
    "made use of": "used",
}
_NEGATIONS = frozenset({"not", "no", "never", "nothing", "nor", "hardly", "nicht", "kein", "pas"})


def _phrase_index(phrases: Iterable[str]) -> dict[str, list[tuple[str, ...]]]:
    index: dict[str, list[tuple[str, ...]]] = {}
    for p in phrases:
        toks = tuple(p.split())
        index.setdefault(toks[0], []).append(toks)
    for lst in index.values():
        lst.sort(key=len, reverse=True)  # longest match first
    return index


_ANYWHERE_IDX = _phrase_index(ANYWHERE_DELETE)
PHRASE_TRIGGER = re.compile(
    r"\b(?:"
    + "|".join(
        r"\s+".join(re.escape(w).replace("'", "['’]") for w in p.split())
        for p in sorted({*ANYWHERE_DELETE, *START_DELETE, *REWRITES}, key=len, reverse=True)
    )
    + r")\b",
    re.IGNORECASE,
)
_START_IDX = _phrase_index(START_DELETE)
_REWRITE_IDX = _phrase_index(REWRITES)
SAFE_DELETE_PHRASES = frozenset(ANYWHERE_DELETE) | frozenset(START_DELETE)


def tokens_with_spans(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(), m.start(), m.end()) for m in WORD_TOKEN.finditer(text)]


def find_phrase_edits(toks: list[tuple[str, int, int]]) -> list[tuple[int, int, str | None]]:
    """Edits (start_tok, end_tok, replacement or None for delete) from our phrase tables."""
    low = [t[0].lower() for t in toks]
    n = len(low)
    edits: list[tuple[int, int, str | None]] = []
    i = 0
    while i < n:
        w = low[i]
        hit: tuple[int, int, str | None] | None = None
        if w in _REWRITE_IDX:
            for ph in _REWRITE_IDX[w]:
                if tuple(low[i : i + len(ph)]) == ph:
                    hit = (i, i + len(ph), REWRITES[" ".join(ph)])
                    break
        if hit is None and w in _ANYWHERE_IDX:
            for ph in _ANYWHERE_IDX[w]:
                if tuple(low[i : i + len(ph)]) == ph:
                    hit = (i, i + len(ph), None)
                    break
        if hit is None and i == 0 and w in _START_IDX:
            for ph in _START_IDX[w]:
                k = len(ph)
                # sentence-start hedges must be followed by a comma or be a "that"-phrase
                if tuple(low[:k]) == ph and (
                    (k < n and low[k] == ",") or ph[-1] == "that"
                ):
                    hit = (0, k, None)
                    break
        if hit is not None:
            edits.append(hit)
            i = hit[1]
        else:
            i += 1
    return edits


def apply_phrase_edits(masked: str, toks: list[tuple[str, int, int]], edits: list[tuple[int, int, str | None]]) -> str:
    """Apply token-range edits to ``masked``, fixing commas, spacing and capitalisation.

    Each edit is checked on its own; one that cannot be applied cleanly is skipped.
    """
    n = len(toks)
    low = [t[0].lower() for t in toks]
    out: list[str] = []
    pos = 0
    applied = False
    for s, e, repl in edits:
        if s >= e or e > n or toks[s][1] < pos:
            continue
        if repl is None:
            # negation guard: "not really", "isn't basically"
            prev = low[s - 1] if s > 0 else ""
            if prev in _NEGATIONS or prev.endswith("n't") or prev.endswith("n’t"):
                continue
            # comma handling: ", basically," -> ","; "Basically, we" -> "We"
            ee = e
            if ee < n and low[ee] == "," and (s == 0 or low[s - 1] == ","):
                ee += 1
            if s == 0 and ee >= n:
                continue
            if s == 0:
                nxt = low[ee]
                if nxt not in _CAPITALISABLE and not toks[ee][0][:1].isupper():
                    continue
                cut_from, cut_to = toks[s][1], toks[ee][1]
                out.append(masked[pos:cut_from])
                pos = cut_to
                applied = True
                continue
            if ee >= n or not toks[ee][0][0].isalnum() and toks[ee][0] not in "([\"'“‘":
                # deletion before punctuation / at end: remove the preceding whitespace instead
                # (and a comma left dangling: "it works, basically." -> "it works.")
                before = s - 1
                if low[before] == "," and before > 0:
                    before -= 1
                cut_from, cut_to = toks[before][2], toks[ee - 1][2]
            else:
                cut_from, cut_to = toks[s][1], toks[ee][1]
            if cut_from < pos:
                continue
            out.append(masked[pos:cut_from])
            pos = cut_to
            applied = True
        else:
            cut_from, cut_to = toks[s][1], toks[e - 1][2]
            if cut_from < pos:
                continue
            original = masked[cut_from:cut_to]
            if original[:1].isupper():
                repl = repl[:1].upper() + repl[1:]
            out.append(masked[pos:cut_from])
            out.append(repl)
            pos = cut_to
            applied = True
    if not applied:
        return masked
    out.append(masked[pos:])
    result = "".join(out)
    stripped = result.lstrip()
    if not stripped:
        return masked
    if masked.lstrip()[:1].isupper() and stripped[:1].islower():
        # an edit removed the sentence's opening words: capitalise what now opens it, if that
        # is an ordinary word (never a name or identifier); otherwise keep the sentence as is
        first = re.match(r"[^\W\d_]+", stripped)
        if first is None or first.group().lower() not in _CAPITALISABLE or "zqx" in first.group():
            return masked
        lead = len(result) - len(stripped)
        result = result[:lead] + stripped[:1].upper() + stripped[1:]
    return result
