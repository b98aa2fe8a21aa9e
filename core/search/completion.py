"""An index left complete: level with the memories (a first build if it must) and with the
near-duplicate keys a first build leaves pending made, so that no later check of a duplicate
makes them. What a verb that makes or fills a vault (``init``, ``migrate``, ``import``,
``reindex``), the background builder and the app's build run; a search only syncs."""

from __future__ import annotations

from collections.abc import Mapping

from ..model.records import Memory
from .first_build import PHASE_KEYS, Progress
from .index import SearchIndex
from .sync_compare import SyncReport


def complete(index: SearchIndex, memories: Mapping[str, Memory],
             progress: Progress | None = None) -> SyncReport:
    """Bring ``index`` level with ``memories`` (a first build's phases told to ``progress``),
    then make the near-duplicate keys left pending (:data:`.first_build.PHASE_KEYS`, rows).
    Nothing is made while another process builds (``report.building``)."""
    report = index.sync(memories, progress=progress)
    if report.building is None:
        told = None if progress is None else (lambda done, n: progress(PHASE_KEYS, done, n))
        index.near_duplicates(told)
    return report
