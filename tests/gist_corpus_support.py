"""The gist corpus (tests/fixtures/gist-corpus) and the checks made on gists of it.

Shared by tests/core/gist/test_gist_corpus.py and bench/gists.py (which also rebuilds the
corpus: ``python bench/gists.py --freeze``). The checks use their own regular expressions,
independent of core.gist.
"""

from __future__ import annotations

import json
import os
import re

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "gist-corpus", "paragraph_notes.jsonl")

_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,:]\d+)*")
_NEGATION = re.compile(r"\b(?:[Nn]ot|[Nn]o|[Nn]ever|[Nn]othing|nor|none|neither|nobody|cannot|without)\b|n[’']t\b")
_SENTENCE_END = re.compile(r"(?<=[.!?:;])\s+|\s*\n\s*")
_WORDS = re.compile(r"\w+")
_NAME = re.compile(r"(?<![.!?:\n]\s)(?<=\s)[A-Z][\w'-]*|\b[A-Z]{2,}\b|\b\d+(?:[.,]\d+)*\b")


def load_corpus(path: str = CORPUS) -> list[str]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line)["text"] for line in fh if line.strip()]


_ITEM_START = re.compile(r"^\s{0,3}(?:[-*+•]|\d{1,3}[.)])\s")
_CODE_LINE = re.compile(r"^(?:[ \t]{3,}|\t|>>>|\.\.\.)")


def pieces(text: str) -> list[str]:
    """Prose clauses and sentences: the text cut after ``. ! ? : ;`` and at line breaks, code
    (fenced, indented, ``>>>`` sessions: kept whole or left out whole) left aside."""
    prose: list[str] = []
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced or _CODE_LINE.match(line) or not line.strip():
            prose.append("\n")  # code and blank lines end a paragraph
        elif _ITEM_START.match(line):
            prose.append("\n" + line)
        else:
            prose.append(" " + line)  # a hard-wrapped line goes on with its sentence
    return [p.strip() for p in _SENTENCE_END.split("".join(prose)) if p.strip()]


def dropped_facts(gist: str, content: str) -> list[str]:
    """Numbers and negations of a content piece (sentence or clause) the gist kept part of but
    left out. A gist piece is matched to the content piece that holds most of its words."""
    content_pieces = [(p, set(_WORDS.findall(p.lower()))) for p in pieces(content)]
    lost: list[str] = []
    for g in pieces(gist):
        words = set(_WORDS.findall(g.lower()))
        if not words:
            continue
        best = max(content_pieces, key=lambda cp: len(words & cp[1]), default=None)
        if best is None or len(words & best[1]) < 0.6 * len(words):
            continue
        source = best[0]
        for num in dict.fromkeys(_NUMBER.findall(source)):
            if num not in _NUMBER.findall(g):
                lost.append(num)
        if len(_NEGATION.findall(source)) > len(_NEGATION.findall(g)):
            lost.append("negation: " + " ".join(source.split())[:60])
    return lost


def names_kept(gist: str, content: str) -> float | None:
    names = {m.group() for m in _NAME.finditer(content) if m.group() not in ("I", "A")}
    if not names:
        return None
    return sum(1 for n in names if re.search(r"(?<!\w)" + re.escape(n) + r"(?!\w)", gist)) / len(names)


