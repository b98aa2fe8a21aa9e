"""Small text helpers shared by the command line and the app: lengths of time, dates, counted
nouns and short ids. Plain strings only (no rich, no textual), so either side may import it."""

from __future__ import annotations

import time
from datetime import datetime

_UNITS = (
    (365 * 86400, "year"),
    (30 * 86400, "month"),
    (7 * 86400, "week"),
    (86400, "day"),
    (3600, "hour"),
    (60, "minute"),
)


def plural(n: int, word: str, plural_form: str | None = None) -> str:
    """``1 memory``, ``3 memories`` (``plural(3, "memory", "memories")``), ``2 files``."""
    return f"{n} {word if n == 1 else (plural_form or word + 's')}"


def short_id(memory_id: str | None) -> str:
    """The first eight characters of an id or a commit (what every listing shows)."""
    return (memory_id or "")[:8]


def span(seconds: float) -> str:
    """A length of time in its largest whole unit: ``3 days``, ``1 hour``, ``40 seconds``."""
    seconds = abs(seconds)
    for size, name in _UNITS:
        if seconds >= size:
            return plural(int(seconds // size), name)
    return plural(int(seconds), "second")


def relative_time(ts: int | float, now: int | float | None = None) -> str:
    """``3 days ago``, ``in 2 hours`` or ``just now``."""
    delta = (time.time() if now is None else now) - ts
    if abs(delta) < 45:
        return "just now"
    return f"{span(delta)} ago" if delta > 0 else f"in {span(delta)}"


def absolute_time(ts: int | float) -> str:
    """Local date and time, to the minute."""
    return datetime.fromtimestamp(ts).astimezone().strftime("%Y-%m-%d %H:%M %Z").strip()


def until_forgotten(seconds: float | None, now: int, threshold: float) -> str:
    if seconds is None:
        return "never"
    if seconds <= 0:
        return f"now (score is below the forget threshold {threshold:g})"
    return f"in {span(seconds)} ({absolute_time(now + seconds)})"
