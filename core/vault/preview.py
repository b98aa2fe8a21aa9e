"""A first look at a vault before it is open: its memories as the derived index summarises them
(:mod:`core.search.indexed_files`), for the app to paint a tree at once while the real open
(which reads and validates every record) goes on in the background.

The summaries are as of the commit the index's rows are for: the last open, which moves them to
HEAD (commits made since by this or another program, and edits on disk, show when the open is
done, seconds later). The memories are :class:`MemorySummary` values, never
:class:`~core.model.records.Memory` objects, so nothing can mistake them for records to write
back.

Before even that, a glance (:func:`read_glance`): how many memories there are of each status, and
of each tag within each status, counted by SQLite (milliseconds at 100k memories, where reading
the summaries takes most of a second), for the app to paint a tree of groups and counts first.
"""

from __future__ import annotations

import sqlite3
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple, TypeVar

from ..model.records import PIN_KEY, MemoryStatus

T = TypeVar("T")


class MemorySummary(NamedTuple):
    """A memory as the index summarises it: a tuple (100k of them are made at once) that also
    answers what the app's tree, grouping and filter read of a memory (``text``, ``meta.tags``,
    ``status``, ``meta.extra``...), with ``content`` and ``text`` the start of the gist or
    content only."""

    id: str
    status: MemoryStatus
    use_count: int
    last_used: int
    strength: float
    created_at: int
    tags: tuple[str, ...]
    head: str  # the start of the gist, or of the content when there is none
    # (the head and the tags are for display: control characters in them are shown as escapes)
    pinned: bool = False

    @property
    def content(self) -> str:
        return self.head

    @property
    def text(self) -> str:
        return self.head

    @property
    def gist(self) -> None:
        return None

    @property
    def entities(self) -> tuple[str, ...]:
        return ()

    @property
    def meta(self) -> MemorySummary:
        return self  # ``meta.tags``; ``meta.source`` and ``meta.context`` are None

    @property
    def extra(self) -> dict[str, bool]:
        return {PIN_KEY: True} if self.pinned else {}

    @property
    def source(self) -> None:
        return None

    @property
    def context(self) -> None:
        return None


@dataclass(frozen=True)
class Preview:
    commit: str  # the commit the summaries are for
    at_head: bool  # whether that is HEAD as the preview was read
    memories: list[MemorySummary]


def read_preview(root: Path | str, at_least: int = 0) -> Preview | None:
    """The summaries of the vault at ``root``; None when the index has none (a first open, an
    index of another schema, no repository) or fewer than ``at_least`` (counted first, nothing
    read): the caller waits for the open. Never writes anything, never raises for a missing or
    unreadable index."""
    from ..collector import collector_paused
    from ..search.indexed_files import TAG_SEPARATOR, read_summaries

    with collector_paused():  # (100k rows and summaries, all kept: nothing for it to find)
        found = _read_index(root, lambda path, folder: read_summaries(path, folder, at_least))
        if found is None:
            return None
        head, (commit, rows) = found
        if commit is None:
            return None
        statuses = {s.value: s for s in MemoryStatus}
        make = tuple.__new__  # MemorySummary(...) is a Python call per memory: 100k of them
        memories = [make(MemorySummary, (i, statuses[status], use_count, last_used, strength,
                                         created_at,
                                         tuple(tags.split(TAG_SEPARATOR)) if tags else (),
                                         text, bool(pinned)))
                    for i, status, use_count, last_used, strength, created_at, tags, text, pinned
                    in rows if status in statuses]
    return Preview(commit, commit == head, memories)


@dataclass(frozen=True)
class Glance:
    """How many memories the derived index counts, by status and by status and tag, without
    reading one: what a tree of groups and counts needs. Statuses the model does not know are
    left out (as :func:`read_preview` leaves their memories out)."""

    commit: str  # the commit the counts are for
    at_head: bool  # whether that is HEAD as the glance was read
    total: int  # memories
    statuses: dict[MemoryStatus, int]  # memories of each status (only those with some)
    #: (status, tag) -> memories of that status with that tag; the tag "" counts the memories
    #: of that status without tags (tags as the summaries hold them: safe to show)
    tags: dict[tuple[MemoryStatus, str], int]


def read_glance(root: Path | str, at_least: int = 0) -> Glance | None:
    """The counts of the vault at ``root`` as its derived index holds them; None when the index
    has none (a first open, an index of another schema, no repository) or counts fewer than
    ``at_least`` memories. Never writes anything, never raises for a missing or unreadable
    index."""
    from ..search.indexed_files import read_counts

    found = _read_index(root, read_counts)
    if found is None:
        return None
    head, (commit, status_rows, tag_rows) = found
    if commit is None:
        return None
    return glance_of((commit, status_rows, tag_rows), head, at_least)


def glance_of(counts: tuple[str, list[tuple[str, int]], list[tuple[str, str, int]]],
              head: str | None = None, at_least: int = 0) -> Glance | None:
    """The :class:`Glance` of counts already read (:func:`~core.search.index_counts.
    read_counts`'s answer, of a commit; ``head``: HEAD as they were read, None when the caller
    read them only for the commit HEAD was at); None when they count fewer than ``at_least``
    memories."""
    commit, status_rows, tag_rows = counts
    known = {s.value: s for s in MemoryStatus}
    statuses = {known[status]: n for status, n in status_rows if status in known}
    total = sum(statuses.values())
    if total < at_least:
        return None
    tags = {(known[status], tag): n for status, tag, n in tag_rows if status in known}
    return Glance(commit, head is None or commit == head, total, statuses, tags)


def _read_index(root: Path | str, read: Callable[[Path, str], T]) -> tuple[str, T] | None:
    """HEAD, and ``read(the index file, the vault's folder in the repository)``, for the vault
    at ``root``: None when there is no repository or index, or it cannot be read."""
    from ..search.index import index_path

    root = Path(root)
    path = index_path(root)
    if path is None:
        return None
    try:
        found = subprocess.run(["git", "rev-parse", "--show-prefix", "HEAD"], cwd=root,
                               capture_output=True, text=True, timeout=30, check=True)
        folder, head = found.stdout.split("\n")[:2]
        return head, read(path, folder.rstrip("/") or ".")
    except (OSError, subprocess.SubprocessError, ValueError, sqlite3.Error):
        return None
