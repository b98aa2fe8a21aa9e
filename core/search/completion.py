"""An index left complete: level with the memories (a first build if it must) and with the
common words' lists and the near-duplicate keys a first build leaves pending made, so that no
later search or check of a duplicate makes them. What a verb that makes or fills a vault (``init``, ``migrate``, ``import``,
``reindex``), the background builder and the app's build run; a search only syncs."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..model.records import Memory
from .first_build import PHASE_KEYS, PHASE_WORDS, Progress
from .index import SearchIndex
from .pending_lists import make_pending
from .sync_compare import SyncReport


def complete(index: SearchIndex, memories: Mapping[str, Memory],
             progress: Progress | None = None) -> SyncReport:
    """Bring ``index`` level with ``memories`` (a first build's phases told to ``progress``),
    then make the word lists left pending (:data:`.first_build.PHASE_WORDS`, words) and the
    near-duplicate keys (:data:`.first_build.PHASE_KEYS`, rows). Nothing is made while
    another process builds (``report.building``)."""
    report = index.sync(memories, progress=progress)
    if report.building is None:
        make_pending(index.conn, index.reading.words, _phase(progress, PHASE_WORDS))
        index.near_duplicates(_phase(progress, PHASE_KEYS))
    return report


def _phase(progress: Progress | None, what: str) -> Callable[[int, int], None] | None:
    """``progress`` told ``(what, done, total)`` for each ``(done, total)``."""
    return None if progress is None else (lambda done, n: progress(what, done, n))
