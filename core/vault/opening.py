"""Opening a vault: reading every file into the cache, finishing what a crashed writer left, and
committing a person's edits made outside memvault (only those that load as valid records)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..store.private import make_paths_private, make_tree_private
from .creating import check_new_vault
from .finding import holds_vault
from .indexed_open import OpenIndex
from .loading import CacheLoader
from .settled_view import SettledView
from .state import VaultState

if TYPE_CHECKING:  # (made on first use: an open that commits nothing imports no models)
    from .writing import WritePath


class Opening:
    """Opens the vault whose cache is ``state``: ``loader`` reads the files, ``index`` takes
    what it can from the derived index, ``write_path`` makes the part that commits what an
    open commits (a crashed operation finished, a person's outside edits, a new vault's
    ``.meta.json``), called only when there is one: an open that commits nothing imports
    neither it nor the models (pydantic: 0.2 s of CPU, the fifth of an open at 10k)."""

    def __init__(self, state: VaultState, loader: CacheLoader, index: OpenIndex,
                 write_path: Callable[[], WritePath]) -> None:
        self.state = state
        self.loader = loader
        self.index = index
        self.write_path = write_path

    @property
    def writes(self) -> WritePath:
        return self.write_path()

    def load(self) -> None:
        """Read every vault file into the cache. Unless read-only: finish a crashed operation,
        commit files changed outside memvault (saying so), and create the vault if it is new
        and the open may (:mod:`core.vault.creating`: VaultError, nothing written, if not)."""
        state = self.state
        if state.readonly:
            SettledView(state, self.loader, self.index).load()
            return
        if not holds_vault(state.layout.root):  # only when asked, never into another repository
            create, inside_repo = state.creating
            check_new_vault(state.root, create=create, inside_repo=inside_repo)
        state.layout.ensure_dirs()
        journal = state.journal
        journal.work_tree.ensure_private()
        # a person's own clone, files a checkout left readable
        make_tree_private(state.root, journal.work_tree.shared_on_purpose)
        if journal.recovery.has_intent():
            with journal.lock():
                self.writes.recover()
        if os.path.lexists(journal.repository.git_dir / "index.lock"):  # a killed memvault's?
            with journal.lock():
                journal.git_index.index_lock.remove_if_left()
        head = journal.head()
        with journal.work_tree.status_running(state.layout.vault_paths()) as status:
            fresh = self.index.index_absent()  # (after a clone: made by the rows' writer)
            files = None if fresh else self.index.files_index()
            try:
                stale = None if files is None else self.index.load_from_index(files, head)
                read: dict[str, bytes] | None = None
                settle: Callable[[], None] | None = None
                if stale is None:  # (the index is written from what is read)
                    read = {} if files is not None or fresh else None
                    self.loader.load_files(read, unchecked=True)
                    settle = state.store.settle  # (drops from read what its check refuses)
                state.head = head
                changed = journal.work_tree.finish_status(status)
                if stale is not None:
                    self.index.read_from_disk(stale | set(changed))
                    # files a `git pull` checked out 0644
                    make_paths_private(state.root, stale, journal.work_tree.shared_on_purpose)
                self._adopt_at_open(changed)
                if files is not None:
                    self.index.write_index(files, read=read or None, settle=settle)
                elif fresh and read is not None:
                    self.index.write_fresh(read, settle)
            finally:
                if files is not None:
                    files.close()
        state.is_open = True

    def _adopt_at_open(self, changed: list[str]) -> None:
        state = self.state
        layout = state.layout
        state.report.writes_refused = state.journal.work_tree.write_refusal()
        if state.report.writes_refused is None and (
                changed or not os.path.lexists(layout.meta_path)):
            with self.writes.transaction():
                self.writes.adopt_outside_edits(changed)
                if not os.path.lexists(layout.meta_path):
                    self.writes.commit("init: create memvault vault", {
                        layout.meta_path: layout.encode(layout.new_meta())})
                    state.report.initialised = True
