"""A read-only open: the vault's files read into the cache (from the derived index when it can
be used), never an operation shown half-way, nothing written. Its own part, so that a read-only
open imports none of what a writer's open uses (recovery, outside edits, the write path)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path

from ..errors import VaultError
from ..store.layout import Layout
from . import indexed_open
from .indexed_open import OpenIndex
from .loading import CacheLoader
from .state import VaultState


class SettledView:
    """Opens read-only the vault whose cache is ``state``: ``loader`` reads the files, ``index``
    takes what it can from the derived index (only read, never written)."""

    def __init__(self, state: VaultState, loader: CacheLoader, index: OpenIndex) -> None:
        self.state = state
        self.loader = loader
        self.index = index

    def load(self) -> None:
        """Read every vault file into the cache, as the vault is at one commit (VaultError when
        there is no folder at all)."""
        state = self.state
        if not state.root.is_dir():
            raise VaultError(f"no vault at {state.root}")
        self._load()
        state.is_open = True

    def _load(self) -> None:
        """Read-only: load the files (from the derived index when it can be used, as a read-write
        open does, but without writing it), and never show an operation half-way. Paths an
        unfinished operation names are shown as at HEAD; a commit landing while loading means
        load again. Nothing is written, under ``.git`` either."""
        from ..git.gitdir import find_git_dir, read_head
        from ..git.intent import IntentLog

        state, index = self.state, self.index
        found = find_git_dir(state.root)
        limit = indexed_open.READONLY_INDEX_FROM  # (read now: a test sets it)
        # (a small vault is read whole: neither the index's code nor SQLite is imported)
        small = _fewer_entries_than(state.layout, limit)
        for _attempt in range(5):
            before = _read_head_or_none(found, read_head)
            if before is None or small or not index.load_indexed_readonly(before):
                keep = index.keep_for_open()
                self.loader.load_files(keep, index.search_rows, unchecked=True)
                if keep is not None and len(keep) >= limit:
                    index.read_at_open = keep
            if found is None:
                return
            pending = IntentLog(found[0] / "memvault").pending()
            if _read_head_or_none(found, read_head) != before:
                continue
            if pending and before is not None:
                self.loader.show_at(before, state.journal.recovery.pending_paths())
            if pending or os.path.lexists(found[0] / "index.lock"):
                self._repair_git_index()
            return

    def _repair_git_index(self) -> None:
        """A read-only open brings git's index level with commits that landed but whose
        process was killed before it updated the index (else a person's `git commit` would
        commit the deletion of those memories), and removes an ``index.lock`` a killed memvault
        left: under the write lock, when it is free within a second; nothing is rolled back
        (the next writer does that)."""
        from ..errors import JournalError, LockTimeoutError

        journal = self.state.journal
        with contextlib.suppress(JournalError, LockTimeoutError, OSError):
            with journal.lock(timeout=1.0):
                journal.recovery.finish_landed()


def _read_head_or_none(found: tuple[Path, Path] | None,
                       read_head: Callable[[Path, Path], str | None]) -> str | None:
    if found is None:
        return None
    try:
        return read_head(*found)
    except OSError:
        return None


def _fewer_entries_than(layout: Layout, n: int) -> bool:
    """Whether the vault's two record folders hold fewer than ``n`` entries together, none of
    them a folder (a sharded vault's shard: its files are the index's to count); symlinks are
    never followed. False when a folder cannot be read."""
    count = 0
    if n <= 0:
        return False
    for folder in (layout.memories_dir, layout.relations_dir):
        if os.path.islink(folder):  # (never listed through: the loader says what it is)
            return False
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        return False
                    count += 1
                    if count >= n:
                        return False
        except FileNotFoundError:
            continue
        except OSError:
            return False
    return True
