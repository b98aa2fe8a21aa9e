"""A question that names a day or a month ("What did Maria share on 16 June, 2023?", "in
August 2023") is about what was written then: the memories written in that window are lifted.

A memory's time is its ``created_at``, and a question names a date the way people write one::

    7 July, 2023    7th of July 2023    July 7, 2023    Jul 7 2023    2023-07-07    (that day)
    July 2023       in August, 2023                                                (that month)

A month is named only when no day is. Each window is widened by :data:`MARGIN` on either side:
the day a person means is their own, the times are epoch seconds (the widest time zones are
within a day of UTC). Then, among the :data:`~core.search.episodes.CONTEXT_DEPTH` best hits
(after the lifts of :mod:`core.search.episodes` and :mod:`core.search.neighbours`: the same hits
whether a search asks for the top few or for every hit)::

    lifted    = relevance + DATE_WEIGHT   if written in a window the query names
    relevance = lifted / best lifted                 (the best hit still has 1)

so a memory of the day named passes any of another day that holds the words at most
``DATE_WEIGHT`` better; a memory that does not hold a word of the question is still never a
hit. A query naming no date (or only a year, or a day without its year: which one?) ranks as
before. Measured on LoCoMo (``bench/recall.py``, docs/search.md): tune half R@5 +0.019 on dialog
turns, +0.013 on facts.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable, Collection, Mapping
from datetime import datetime, timedelta, timezone

#: How much a memory written in a window the query names gains (the best relevance is 1). On
#: LoCoMo's tune half (R@5 turns / facts, before 0.596 / 0.546; measured re-ranking the top 30):
#: 0.2: 0.609 / 0.554, 0.5: 0.618 / 0.558, 1.0: 0.619 / 0.559.
DATE_WEIGHT = 0.5
#: Seconds a window is widened by on either side (a day: whatever the writer's time zone).
MARGIN = 86400

_MONTHS = {name.lower(): n for names in (calendar.month_name, calendar.month_abbr)
           for n, name in enumerate(names) if name}
_MONTH = "(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(\d{4})"
_FOUR_DIGITS = re.compile(r"\d{4}")
#: 7 July, 2023 / 7th of July 2023
_DAY_MONTH_YEAR = re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}\b", re.IGNORECASE)
#: July 7, 2023 / Jul 7th 2023
_MONTH_DAY_YEAR = re.compile(rf"\b{_MONTH}\s+{_DAY},?\s+{_YEAR}\b", re.IGNORECASE)
#: 2023-07-07
_ISO_DAY = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
#: July 2023 / August, 2023
_MONTH_YEAR = re.compile(rf"\b{_MONTH},?\s+{_YEAR}\b", re.IGNORECASE)


def windows_named(text: str) -> list[tuple[int, int]]:
    """The windows of time ``text`` names, as ``(start, end)`` epoch seconds (``start <= t <
    end``), each a day or a month widened by :data:`MARGIN` (module doc); [] if it names none.
    A date that does not exist (31 June) names nothing."""
    if not _FOUR_DIGITS.search(text):  # (every date named has its year: most queries, none)
        return []
    days: list[tuple[int, int, int]] = []
    days += [(int(y), _MONTHS[m.lower()], int(d)) for d, m, y in _DAY_MONTH_YEAR.findall(text)]
    days += [(int(y), _MONTHS[m.lower()], int(d)) for m, d, y in _MONTH_DAY_YEAR.findall(text)]
    days += [(int(y), int(m), int(d)) for y, m, d in _ISO_DAY.findall(text)]
    out = [w for w in (_window(y, m, d, whole_month=False) for y, m, d in days) if w]
    if not days:  # (a day written, even one that does not exist, is not its month)
        out = [w for w in (_window(int(y), _MONTHS[m.lower()], 1, whole_month=True)
                           for m, y in _MONTH_YEAR.findall(text)) if w]
    return out


def _window(year: int, month: int, day: int, *, whole_month: bool) -> tuple[int, int] | None:
    """The day (or with ``whole_month``, its month) of that date, widened; None if there is none."""
    try:
        start = datetime(year, month, day, tzinfo=timezone.utc)
        end = start + timedelta(days=1) if not whole_month else \
            datetime(year + month // 12, month % 12 + 1, 1, tzinfo=timezone.utc)
    except ValueError:  # (31 June, month 13, year 0)
        return None
    return int(start.timestamp()) - MARGIN, int(end.timestamp()) + MARGIN


def lifted_by_date(relevance: Mapping[str, float], lifted: Collection[str],
                   windows: Collection[tuple[int, int]], created: Callable[[str], int]
                   ) -> dict[str, float]:
    """``relevance`` (id -> relevance, the best 1) with those of ``lifted`` written
    (``created(id)``) in one of ``windows`` gaining :data:`DATE_WEIGHT`, all over the best again
    (module doc). Unchanged when no window is named or none of ``lifted`` is in one."""
    gaining = {i for i in lifted if any(a <= created(i) < b for a, b in windows)} \
        if windows else set()
    if not gaining:
        return dict(relevance)
    out = {i: r + DATE_WEIGHT if i in gaining else r for i, r in relevance.items()}
    best = max(out.values()) or 1.0
    return {i: r / best for i, r in out.items()}
