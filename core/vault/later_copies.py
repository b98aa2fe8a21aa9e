"""The open index's copies of the record files read when the cache is first used, not by the
open: what an open with ``copies_later`` does (the app's: ``Vault.open(path, copies_later=True)``)
when the index's rows are for HEAD itself.

Reading the rows and hashing each copy (:mod:`.index_copies`) is most of a warm open of a big
vault (figures: docs/architecture.md); the app's first screen needs none of it:
it is made from the index's summaries (:mod:`tui.app.view_rows`). So the open leaves the
memories and the relations waiting (:meth:`core.store.lazy.LazyRecords.fill_later`), and the
first use of either, in any thread, reads both, exactly as the open would have: each copy
used only when its bytes are the blob its row names, the others read from disk (a damaged copy
said in a notice and its row written again). Every reader waits for that read, never for less:
nothing is answered, and nothing written, from a copy not checked.

The cache stands for the commit the vault was opened at (its HEAD until it catches up, as it
does before any write). When the index has moved on since (another process's open), its rows
are used for the paths unchanged between the two commits and the others are read as git holds
them at the open's commit; when it cannot be read (deleted, rebuilt), every file is read from
disk, into the same cache, those changed since the open's commit put back as they were then.
:attr:`CopiesLater.surprised` says when the cache is not exactly the rows' records (a copy damaged, a row without a body, every file read):
a view made from the summaries is then made again (:meth:`core.vault.api.Vault.copies_read`).
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Protocol

from ..store.cache import Store
from .index_copies import Copies

if TYPE_CHECKING:
    from ..search.indexed_files import IndexedFiles
    from .loading import CacheLoader
    from .state import VaultState


class OpenIndex(Protocol):
    """What is used here of :class:`core.vault.indexed_open.OpenIndex` (which imports this
    module on first use)."""

    state: VaultState
    loader: CacheLoader
    damaged: list[str]
    copies_later: CopiesLater | bool

    def files_index(self, readonly: bool = False) -> IndexedFiles | None: ...

    def read_from_disk(self, rels: set[str]) -> None: ...

    def write_index(self, files: IndexedFiles, head: str | None = None) -> None: ...


def open_later(index: OpenIndex, commit: str) -> set[str]:
    """The open's cache (``index.state``'s) made to wait for the copies of the rows for
    ``commit`` (HEAD): the paths to read from disk instead, none (as
    :meth:`~.indexed_open.OpenIndex.load_from_index` answers)."""
    state = index.state
    later = index.copies_later = CopiesLater(index, Store(), commit)
    later.hold()
    state.store, state.problems = later.store, []
    state.meta = state.layout.read_meta() or {}
    state.opened_from_index = True
    return set()


def read_now(index: OpenIndex) -> bool:
    """The copies an open left for the cache's first use (:func:`open_later`) read now, if
    not yet; True when the cache is not exactly the records of the rows (see
    :attr:`CopiesLater.surprised`), said once: False after that, and for any other open."""
    later = index.copies_later
    if not isinstance(later, CopiesLater):
        return False
    index.copies_later = False
    len(later.store.memories)  # (the first use reads both mappings)
    len(later.store.relations)
    return later.surprised


class CopiesLater:
    """The copies of the rows for ``commit`` read into ``store`` (whose mappings wait for them)
    the first time it is used; ``index`` is the open's part that reads them."""

    def __init__(self, index: OpenIndex, store: Store, commit: str) -> None:
        self.index = index
        self.store = store
        self.commit = commit
        #: the cache is not exactly the records of the rows (see the module docstring)
        self.surprised = False
        self.done = False

    def hold(self) -> None:
        """The store's memories and relations filled by :meth:`load` on first use."""
        self.store.memories.fill_later(self.load)
        self.store.relations.fill_later(self.load)

    def load(self) -> None:
        """(On the store's first use, under the lock of a first use) both mappings filled with
        the records of the vault at the open's commit."""
        if self.done:
            return
        self.done = True
        index = self.index
        state = index.state
        moved: set[str] | None = None  # paths the rows hold at another commit than the open's
        copies = Copies(set())
        files = index.files_index(readonly=True)
        if files is not None:
            try:
                moved = self._changed_since(files.commit())
                if moved is not None:
                    copies = Copies(set(moved))
                    if not copies.read(files):
                        moved = None  # two files for one id: every file read says which
            except sqlite3.Error:
                moved = None
            finally:
                files.close()
        if moved is None:  # no rows to use (the index deleted, rebuilt): every file read
            self.surprised = True
            state.opened_from_index = False
            index.loader.load_files(unchecked=True, into=self.store)
            self._at_commit(self._changed_since(state.journal.head()))  # (HEAD moved since?)
            return
        self.store.fill_raw(copies.memories, copies.relations)
        self._at_commit(moved)
        wrong = copies.stale - moved
        if not wrong:
            return
        self.surprised = True  # a row with no body (no record then), or a damaged copy
        if copies.damaged:
            state.notices.append(copies.notice(state.readonly))
        index.read_from_disk(wrong)
        if copies.damaged and not state.readonly:  # their rows written again
            index.damaged = copies.damaged
            writable = index.files_index()
            if writable is not None:
                try:
                    index.write_index(writable, self.commit)
                finally:
                    writable.close()

    def _changed_since(self, commit: str | None) -> set[str] | None:
        """The vault paths that differ between the open's commit and ``commit`` (another
        process moved the index, or HEAD, on since the open); None when git cannot say."""
        from ..errors import JournalError

        if commit is None:
            return None
        try:
            return set(self.index.state.journal.history.changed_between(self.commit, commit))
        except JournalError:
            return None

    def _at_commit(self, rels: set[str] | None) -> None:
        """These vault paths' records put back as git holds them at the open's commit (what
        the cache stands for: its HEAD is that commit until it catches up, as it does before
        any write)."""
        if rels:
            state = self.index.state
            self.index.loader.show_at(self.commit,
                                      sorted(state.journal.relpath(state.root / rel)
                                             for rel in rels))
