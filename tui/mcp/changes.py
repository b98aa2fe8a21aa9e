"""What commits changed, as the change watcher (:mod:`tui.mcp.notifications`) announces it, from
two sources: the commits this server made itself, told by its write path as they land
(:class:`OwnCommits`: what each commit wrote, without asking git), and git's list of the paths
any other commit changed (``git diff-tree``, for commits made by another process, a person or a
sync). One rule turns a changed path into the memories it touches (:meth:`Changes.note`).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from mcp.shared.subscriptions import ResourcesListChanged, ResourceUpdated, ServerEvent

from core.git.commit import LandedCommit
from core.store.layout import Layout

from .resources import INBOX_URI, STATS_URI, memory_uri

#: The server's own commits kept until the watch has seen them (it sees them within an interval;
#: the oldest are forgotten past this, and then git is asked as for any other commit).
OWN_COMMITS_KEPT = 4096


@dataclass
class Changes:
    memories: set[str] = field(default_factory=set)  # ids whose resource changed
    came_or_went: bool = False  # memories were added or removed
    committed: bool = False  # HEAD moved
    reviewed: bool = False  # the review mark or accepted set changed

    def note(self, layout: Layout, status: str, rel: str,
             relation: Callable[[], bytes | None]) -> None:
        """Count one changed path (``rel``, relative to the vault root; git's status letter):
        a memory's file changes that memory (and came or went with ``A``/``D``); a relation's
        file changes the two memories it links, read from its bytes (``relation()``: as the
        commit left them, or as they were when the commit removed the file)."""
        kind = layout.classify(rel)
        if kind is None or kind[0] == "meta":
            return
        if kind[0] == "memory":
            self.memories.add(kind[1])
            self.came_or_went |= status in ("A", "D")
        else:
            self.memories.update(relation_ends(relation()))

    def merge(self, other: Changes) -> None:
        self.memories |= other.memories
        self.came_or_went |= other.came_or_went
        self.committed |= other.committed
        self.reviewed |= other.reviewed

    def events(self) -> list[ServerEvent]:
        found: list[ServerEvent] = [ResourceUpdated(uri=memory_uri(i)) for i in sorted(self.memories)]
        if self.committed:
            found.append(ResourceUpdated(uri=STATS_URI))
        if self.committed or self.reviewed:
            found.append(ResourceUpdated(uri=INBOX_URI))
        if self.came_or_went:
            found.append(ResourcesListChanged())
        return found


def relation_ends(data: bytes | None) -> Iterable[str]:
    """The two memories a relation file's bytes link (none when they are not a relation)."""
    try:
        record = json.loads(data or b"{}")
    except ValueError:
        return ()
    if not isinstance(record, dict):
        return ()
    return [v for v in (record.get("from_memory_id"), record.get("to_memory_id"))
            if isinstance(v, str)]


class OwnCommits:
    """The commits this server's write path made, each with what it changed, kept until the
    watch asks for them (:meth:`take`). :meth:`landed` is a listener of the journal's commits
    (``journal.committer.landed``); it runs in the tool's worker thread."""

    def __init__(self, layout: Layout, kept: int = OWN_COMMITS_KEPT):
        self.layout = layout
        self.kept = kept
        self._lock = threading.Lock()
        self._commits: OrderedDict[str, tuple[str | None, Changes]] = OrderedDict()

    def landed(self, commit: LandedCommit) -> None:
        if commit.adopted:  # files taken as they were: git says what they held
            return
        found = Changes(committed=True)
        for status, rel, data in commit.changes:
            found.note(self.layout, status, rel, _held(data))
        with self._lock:
            self._commits[commit.new] = (commit.pre, found)
            while len(self._commits) > self.kept:
                self._commits.popitem(last=False)

    def take(self, old: str | None, new: str) -> tuple[Changes, str]:
        """What this server's own commits from ``new`` back towards ``old`` changed, and the
        commit where that walk stopped: ``old`` when every commit in between was this server's,
        else the newest commit it did not make (git is to say what changed from ``old`` to
        there). The commits walked are forgotten."""
        found = Changes()
        at = new
        with self._lock:
            while at != old and at in self._commits:
                pre, changes = self._commits.pop(at)
                found.merge(changes)
                if pre is None:  # the first commit: ``old`` is not an ancestor of ``new``
                    return Changes(), new
                at = pre
        return found, at


def _held(data: bytes | None) -> Callable[[], bytes | None]:
    """What a relation file held, as :meth:`Changes.note` asks for it."""
    return lambda: data
