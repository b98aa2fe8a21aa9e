"""The snippet of a hit: a verbatim piece of the memory around its matches, with the matches as
character spans (data, never markup: the CLI and the app style them, so a memory's ``[x]`` or an
escape sequence in it cannot change how they are drawn)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .query import Term
from .word_spans import match_spans

if TYPE_CHECKING:
    from ..model.records import Memory

SNIPPET_CHARS = 160
LEAD_CHARS = 40  # context kept before the first match of the window


@dataclass(frozen=True)
class Snippet:
    """``text`` is ``field``'s value from ``start`` on, verbatim (control characters and
    newlines included: whoever shows it neutralises them); ``spans`` are (start, end) offsets
    in ``text``, in characters (code points); ``cut_before``/``cut_after`` say that text was
    left out there."""

    field: str  # content, gist, tags or entities
    text: str
    start: int = 0
    # (dataclasses.field: the name ``field`` is this class's first attribute)
    spans: list[tuple[int, int]] = dataclasses.field(default_factory=list)
    cut_before: bool = False
    cut_after: bool = False

    def as_json(self) -> dict[str, object]:
        return {"field": self.field, "text": self.text, "start": self.start,
                "spans": [list(s) for s in self.spans], "cut_before": self.cut_before,
                "cut_after": self.cut_after}


def snippet_for(memory: Memory, terms: Iterable[Term], width: int = SNIPPET_CHARS) -> Snippet:
    """The snippet of ``memory`` for the text ``terms``: from the first field (content, gist,
    tags, entities) where they are found, the ``width`` characters holding the most matches;
    the content's beginning when they are found nowhere (a stemmed or semantic hit)."""
    terms = list(terms)
    fields = (("content", memory.content), ("gist", memory.gist or ""),
              ("tags", ", ".join(memory.meta.tags)), ("entities", ", ".join(memory.entities)))
    for name, text in fields:
        spans = match_spans(text, terms) if terms else []
        if spans:
            return window(name, text, spans, width)
    return window("content", memory.content, [], width)


def window(name: str, text: str, spans: list[tuple[int, int]], width: int) -> Snippet:
    if len(text) <= width:
        return Snippet(name, text, 0, spans)
    start = 0
    if spans:
        best = _fullest(spans, width - LEAD_CHARS)
        start = max(0, spans[best][0] - LEAD_CHARS)
        if start:  # begin at a word
            space = text.find(" ", start, spans[best][0])
            start = space + 1 if space != -1 else start
    end = min(len(text), start + width)
    if end < len(text):
        space = text.rfind(" ", start + width // 2, end)
        end = space if space != -1 else end
    inside = [(max(s, start) - start, min(e, end) - start) for s, e in spans if s < end and e > start]
    return Snippet(name, text[start:end], start, inside, start > 0, end < len(text))


def _fullest(spans: list[tuple[int, int]], reach: int) -> int:
    """The first span from which the most spans fit within ``reach`` characters (from its
    start). ``spans`` are sorted and apart (:func:`core.search.word_spans.match_spans`), so
    their ends rise too: those fitting from span ``i`` are ``i`` up to an end that only moves
    on as ``i`` does (linear: a memory of megabytes holds tens of thousands of matches)."""
    best, most, end = 0, -1, 0
    for i, (start, _) in enumerate(spans):
        end = max(end, i)
        while end < len(spans) and spans[end][1] <= start + reach:
            end += 1
        if end - i > most:
            best, most = i, end - i
    return best
