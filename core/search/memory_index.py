"""A search index in memory, made from the memories a process holds: what a search answers from
while the index file is first built by another process (:mod:`.background_build`), or by
another connection past the search's wait (:mod:`.first_build`): every memory, never a part.

It holds the same FTS5 rows as the index file will (every memory, every status, the same
columns and tokenizer), so bm25 sees the same documents, row counts and lengths, and the ranking
is the one the file will give. Only the search rows are made: no near-duplicate keys and no word
lists ahead (a common word's list is made in memory the first time it is searched), which is
what makes it much quicker than the file's first build (figures: docs/writes.md).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from .first_build import search_wait, waited
from .index import SearchIndex
from .read_rows import RowsWhileReading, row_texts
from .rows_child import insert_rows, made_once
from .transaction import transaction

if TYPE_CHECKING:
    from ..model.records import Memory


def memory_index(memories: Mapping[str, Memory]) -> SearchIndex:
    """An index in memory with the search rows of every memory of ``memories`` (never synced:
    made again for other memories)."""
    index = SearchIndex(None)
    made_once(index.conn)
    with transaction(index.conn):
        insert_rows(index.conn, map(row_texts, memories.values()), 1)
    return index


class HandingOver:
    """A searcher's part that answers from an index in memory, made once for the same
    memories, while the index file's first build is not done, for the vault at ``root``:
    the build left to a background builder (``hand_over``, :mod:`.background_build`: the
    builder's lock claimed during the search and the builder started by :meth:`close`, once
    the answer is out, so that it does not compete with it), or another's build under way past
    the search's wait (:meth:`wait_for_build`, :meth:`made_for`)."""

    def __init__(self, root: Path, read: RowsWhileReading | None = None, *,
                 hand_over: bool = True):
        self.root = root
        #: False: never leaves the build to a builder; only :meth:`made_for` is used (a search
        #: that answers from the memories while another's first build is under way)
        self.hands_over = hand_over
        #: how long a search waits for a first build under way elsewhere (seconds: the setting,
        #: :func:`.first_build.search_wait`; a value that is no number of seconds refused here)
        self.build_wait = search_wait()
        #: the rows made while the open read the files, if any (used for its memories, once)
        self.read = read
        #: (the memories, their version) and the index in memory made from them
        self._made: tuple[Mapping[str, Memory], object, SearchIndex] | None = None
        self._claimed: int | None = None

    def index_for(self, index: SearchIndex, memories: Mapping[str, Memory]
                  ) -> tuple[SearchIndex, str, tuple[int, int, float | None]] | None:
        """The index in memory to answer from, the note to give and how far the file's first
        build is (rows done, of how many, seconds left: :attr:`.SyncReport.building`), while
        that build is left to a builder; None when ``index`` is to be brought level as usual."""
        from .background_build import hand_over
        from .first_build import building

        over = hand_over(index, memories, self.root) if self.hands_over else None
        if over is None:
            return None
        note, claimed = over
        if claimed is not None:
            if self._claimed is None:
                self._claimed = claimed
            else:
                os.close(claimed)
        state = building(index.conn)
        far = (index.row_count(), len(memories), None) if state is None else (
            state.done, state.total, state.eta)
        return self.made_for(memories), note, far

    def wait_for_build(self, index: SearchIndex) -> None:
        """Wait for a first build of ``index`` under way elsewhere within :attr:`build_wait`
        (:func:`.first_build.waited`): a search then answers from the file, complete; past it,
        from :meth:`made_for`. At once when no build is under way."""
        if index.path is not None:
            waited(index.conn, self.build_wait)

    def made_for(self, memories: Mapping[str, Memory]) -> SearchIndex:
        """The index in memory of ``memories`` (made once for the same memories and version)."""
        version = getattr(memories, "version", None)
        made = self._made
        if made is None or made[0] is not memories or version is None or made[1] != version:
            read, self.read = self.read, None
            ready = read.index_for(memories) if read is not None else None
            made = self._made = (memories, version,
                                 memory_index(memories) if ready is None else ready)
        return made[2]

    def close(self) -> None:
        """Start the builder whose lock was claimed (and stop the rows' child if they were not
        used). The index in memory is left open: a result's lazy total may still count from
        it."""
        self._made = None
        if self.read is not None:
            self.read.discard()
            self.read = None
        if self._claimed is not None:
            from .background_build import launch

            fd, self._claimed = self._claimed, None
            launch(self.root, fd)
