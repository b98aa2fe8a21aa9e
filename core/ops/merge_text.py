"""The consolidate draft: the text of memories that say much the same, each fact said once.

The sources are read longest first, sentence by sentence. A sentence whose words an earlier kept
sentence already says (:data:`COVERED` of its content terms, as the house compares texts:
:func:`core.wording.terms`, so *wants* / *prefers*, plurals, case and stopwords aside), that
holds no other value of one kind (:func:`core.wording.conflict`: dark / light) and whose
numbers, names and negations the kept text already holds is a repeat and goes, unless it says
all that sentence says and more. A sentence that adds something stays, less its later clauses (after ``, ; : —``) that repeat in the same way. So
every number, name and negation of every source is in the draft, and the person edits from it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..gist.clause_words import NEGATIONS
from ..gist.facts import classify, strip_token
from ..wording import NEGATION, conflict, terms

#: Share of a sentence's (or clause's) content words a kept sentence must say for it to repeat.
COVERED = 0.8

_PARAGRAPH = re.compile(r"\n\s*\n")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])")
_CLAUSE_SEP = re.compile(r"\s*[,;:]\s+|\s+[—–]\s+")
_WORD = re.compile(r"[^\W_]+(?:[-'’:.][^\W_]+)*")


def _stem(word: str) -> str:
    w = word.lower()
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
        return w[:-1]
    return w


def _content_words(text: str) -> frozenset[str]:
    """The content terms of ``text`` as the house compares texts (:func:`core.wording.terms`:
    stopwords out, stems, *likes* and *prefers* one term), less the negation (counted apart)."""
    return terms(text) - {NEGATION}


def facts_of(text: str) -> set[str]:
    """Numbers, identifiers and names (a capitalised word not opening the text, an acronym) of
    ``text``, plurals aside: what a draft must keep."""
    found: set[str] = set()
    for i, token in enumerate(text.split()):
        core = strip_token(token)
        if not core:
            continue
        if classify(core) is not None:
            found.add(core.lower())
        elif i > 0 and core[:1].isupper() and core.isalpha() and core != "I":
            found.add(_stem(core))
    return found


def _said(text: str) -> set[str]:
    """Every word of ``text`` as :func:`facts_of` writes a fact (a name in any case counts)."""
    return {_stem(w) for w in _WORD.findall(text)} | {strip_token(t).lower() for t in text.split()}


def _negations(text: str) -> int:
    low = text.lower()
    return sum(1 for w in _WORD.findall(low) if w in NEGATIONS) + low.count("n't") + low.count("n’t")


def _repeats(piece: str, kept: list[str], kept_facts: set[str]) -> bool:
    """Whether ``piece`` says nothing the kept sentences do not: its words mostly in one of
    them (and not all that one says and more), its facts all in the kept text, and no negation
    that sentence lacks."""
    words = _content_words(piece)
    if not words or not facts_of(piece) <= kept_facts:
        return False
    for sentence in kept:
        theirs = _content_words(sentence)
        if len(words & theirs) < COVERED * len(words) or _negations(piece) > _negations(sentence):
            continue
        if conflict(words, theirs):  # another value of one kind: dark / light, 02:00 / 03:00
            continue
        if words <= theirs or not theirs <= words:
            return True  # said already, or said another way
    return False


def _says_more(piece: str, sentence: str) -> bool:
    """Whether ``piece`` says all that ``sentence`` says (words, facts, negations) and more."""
    words, theirs = _content_words(piece), _content_words(sentence)
    return (theirs < words and len(theirs) >= COVERED * len(words)
            and facts_of(sentence) <= facts_of(piece) and _negations(piece) == _negations(sentence))


def _sentences(text: str) -> list[tuple[str, list[str]]]:
    """Each paragraph, and its sentences (whitespace inside a sentence kept as it is)."""
    return [(p.strip(), [s for s in _SENTENCE.split(p.strip()) if s.strip()])
            for p in _PARAGRAPH.split(text) if p.strip()]


def _without_repeated_clauses(sentence: str, kept: list[str], kept_facts: set[str]) -> str:
    """``sentence`` less its later clauses that repeat what is kept (never the first clause)."""
    seps = list(_CLAUSE_SEP.finditer(sentence))
    if not seps:
        return sentence
    end = len(sentence.rstrip())
    while end > 0 and sentence[end - 1] in ".!?":
        end -= 1
    out, pos = [], 0
    for n, sep in enumerate(seps):
        stop = seps[n + 1].start() if n + 1 < len(seps) else end
        clause = sentence[sep.end():stop]
        if _repeats(clause, kept, kept_facts) and len(clause.split()) >= 3:
            out.append(sentence[pos:sep.start()])
            pos = stop
    out.append(sentence[pos:])
    return "".join(out)


def merge_texts(texts: Sequence[str]) -> str:
    """The draft of one memory for ``texts`` (longest first is best: see the module docstring).
    Paragraphs of a source stay paragraphs; what a later source adds follows as its own. A
    sentence that says all a kept one says and more takes its place."""
    paragraphs: list[tuple[str, list[str], list[str]]] = []  # as written, its sentences, kept
    kept_facts: set[str] = set()

    def kept() -> list[str]:
        return [x for _w, _s, out in paragraphs for x in out]

    for text in texts:
        for whole, sentences in _sentences(text):
            out: list[str] = []
            paragraphs.append((whole, sentences, out))
            for sentence in sentences:
                replaced = False
                for _w, _s, other in paragraphs:
                    for i, old in enumerate(other):
                        if not replaced and _says_more(sentence, old):
                            other[i], replaced = sentence, True
                if not replaced:
                    if _repeats(sentence, kept(), kept_facts):
                        continue
                    sentence = _without_repeated_clauses(sentence, kept(), kept_facts)
                    out.append(sentence)
                kept_facts |= facts_of(sentence) | _said(sentence)
    # a paragraph nothing was taken out of stays as it was written
    drafted = [whole if out == sentences else " ".join(out) for whole, sentences, out in paragraphs if out]
    return "\n\n".join(drafted)
