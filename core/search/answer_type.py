"""What a question asks for lifts the memories that could say it: a question that names a day
or a month lifts the memories written then (:mod:`core.search.dated`), and a question that asks
*when* ("When did Caroline go to the support group?", "How long ago...", "Which year...") lifts
the memories that say a time ("last Friday", "two weeks ago", "in May 2023", "at 3 pm").

Words alone cannot tell the answer from the story around it: "When did Melanie paint the sunset?"
holds the same words as "Melanie painted a sunset" and as "Melanie painted that sunset last
week", and only the second answers it. So, among the 30 best hits
(:data:`core.search.episodes.CONTEXT_DEPTH`, after the lifts of the episodes and the neighbours:
the same hits whether a search asks for the top few or for every hit) and after the days named::

    lifted    = relevance + TIME_WEIGHT   if the question asks when and the memory says a time
    relevance = lifted / best lifted                 (the best hit still has 1)

A memory that does not hold a word of the question is still never a hit; a question that does
not ask when ranks as before. English only (the question words are English: the stopwords of
:mod:`core.search.query` are too). Measured on LoCoMo (``bench/recall.py``, docs/search.md),
held-out half, bm25 R@1 / R@5: dialog turns 0.352 / 0.613 -> 0.373 / 0.616, facts 0.365 / 0.553
-> 0.371 / 0.553.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING

from .dated import lifted_by_date, windows_named

if TYPE_CHECKING:
    from ..model.records import Memory

#: How much a memory that says a time gains when the question asks when (the best relevance is
#: 1). On LoCoMo's tune half (bm25 R@5 turns / facts, before 0.615 / 0.559): 0.1: 0.621 / 0.561,
#: 0.2: 0.622 / 0.562, 0.25: 0.622 / 0.563, 0.3: 0.622 / 0.563, 0.5: 0.623 / 0.563. At 0.25
#: hybrid fell below bm25 at R@1 on facts (0.389 against 0.390); at 0.2 it is at or above it.
TIME_WEIGHT = 0.2

#: A question asking for a time: it starts with "when", asks "when did/was/..." anywhere, or
#: "how long", "what day/date/month/year/time", "which day/...".
ASKS_WHEN = re.compile(
    r"^\W*when\b|\bwhen\s+(?:did|do|does|was|were|is|are|will|would|has|have|had)\b"
    r"|\bhow\s+long\b|\b(?:what|which)\s+(?:day|date|month|year|time|week|season)\b",
    re.IGNORECASE)
#: The words that say a time: a weekday, a month, a word of time ("ago", "last", "week").
TIME_WORDS = frozenset((
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday yesterday today tonight tomorrow "
    "ago last next recently lately earlier soon since day days week weeks weekend weekends month "
    "months year years morning evening night summer winter spring autumn fall").split())
_WORD = re.compile(r"[a-z]+")
#: A time said in digits: a year (1800-2199), a clock time (3 pm, 10:30am), a date (2023-07-07,
#: 7/7/2023; not a version: 1.2.3).
DIGITS_OF_TIME = re.compile(r"\b(?:1[89]|2[01])\d\d\b|\b\d{1,2}(?::\d\d)?\s*[aApP]\.?[mM]\b"
                            r"|\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b")
_DIGIT = re.compile(r"\d")
#: How much of a memory's content (and of its gist) is read for a time: a search stays bounded
#: whatever a memory holds (a page pasted in), and a time said past that is not looked for.
READ_CHARS = 10_000


def asks_when(question: str) -> bool:
    """Whether ``question`` asks for a time (:data:`ASKS_WHEN`)."""
    return ASKS_WHEN.search(question) is not None


def says_a_time(memory: Memory) -> bool:
    """Whether ``memory``'s content or gist (the first :data:`READ_CHARS` of each) says a time:
    a word of :data:`TIME_WORDS` or a time in digits (:data:`DIGITS_OF_TIME`)."""
    return any(_says_a_time(text[:READ_CHARS]) for text in (memory.content, memory.gist or "")
               if text)


def _says_a_time(text: str) -> bool:
    """Whether ``text`` says a time (:func:`says_a_time`)."""
    return not TIME_WORDS.isdisjoint(_WORD.findall(text.lower())) \
        or _DIGIT.search(text) is not None and DIGITS_OF_TIME.search(text) is not None


def lifted_by_time_asked(relevance: Mapping[str, float], lifted: Collection[str],
                         question: str, memory_of: Callable[[str], Memory]) -> dict[str, float]:
    """``relevance`` (id -> relevance, the best 1) with those of ``lifted`` that say a time
    gaining :data:`TIME_WEIGHT` when ``question`` asks when, all over the best again (module
    doc). Unchanged when it does not ask when or none of ``lifted`` says a time."""
    gaining = {i for i in lifted if says_a_time(memory_of(i))} if asks_when(question) else set()
    if not gaining:
        return dict(relevance)
    out = {i: r + TIME_WEIGHT if i in gaining else r for i, r in relevance.items()}
    best = max(out.values()) or 1.0
    return {i: r / best for i, r in out.items()}


def lifted_as_asked(relevance: Mapping[str, float], head: Collection[str], question: str,
                    memory_of: Callable[[str], Memory]) -> dict[str, float]:
    """``relevance`` lifted among the ``head`` hits by the days ``question`` names
    (:func:`core.search.dated.lifted_by_date`), then by the time it asks for
    (:func:`lifted_by_time_asked`)."""
    dated = lifted_by_date(relevance, head, windows_named(question),
                           lambda i: memory_of(i).created_at)
    return lifted_by_time_asked(dated, head, question, memory_of)
