"""The vault the app has open, the view of it the screens show, and the lock every core call
holds: :class:`OpenVault`. The service and its parts (:mod:`.service_edit`, :mod:`.service_bulk`,
:mod:`.service_wizards`) are each handed the same one."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from core import Vault, VaultError
from core.collector import collector_paused
from core.store.lazy import LazyRecords

from .view import VaultView
from .view_rows import (
    due_summaries,
    index_summaries,
    view_again,
    view_from_index,
    view_from_summaries,
)


class OpenVault:
    """One opened vault and its current view. ``clock`` gives "now" in epoch seconds; every view
    is computed at its ``now``. Callers hold :attr:`lock` around each core call."""

    def __init__(self, clock: Callable[[], int]) -> None:
        self.clock = clock
        self.lock = threading.RLock()
        self.vault: Vault | None = None
        self.current: VaultView | None = None
        #: HEAD and the folders' modification times when the view was last brought up to date
        self.seen_on_disk: tuple[Any, ...] | None = None

    @property
    def is_open(self) -> bool:
        return self.current is not None

    @property
    def view(self) -> VaultView:
        if self.current is None:
            raise VaultError("the vault is not open yet")
        return self.current

    def rescore(self, config: Any) -> VaultView:
        """Every score with ``config`` (a ``DecayConfig``: the settings screen's decay model and
        thresholds) from now on, the vault's too: a view made anew, made the current one."""
        with self.lock:
            self.vault_or_fail().state.config = config
            self.current = None
            return self.rebuild()

    def vault_or_fail(self) -> Vault:
        if self.vault is None:
            raise VaultError("the vault is not open yet")
        return self.vault

    def rebuild(self, now: int | None = None) -> VaultView:
        """A whole new view of the vault at ``now`` (default: the clock's), made the current one.
        The view is made with the cyclic collector paused (a big vault's 100k rows: long-lived,
        no garbage among them); not while the index's summaries are waited for (the index the
        open writes in a thread: its garbage is collected as always)."""
        vault = self.vault_or_fail()
        now = self.clock() if now is None else now
        head, problems = vault.journal.head(), [str(p) for p in vault.problems]
        # a big vault's rows without parsing its memories: the view again from the one made
        # from the index's summaries of this cache, or from those summaries
        with collector_paused():
            again = view_again(self.current, vault, now, head, problems)
        due = due_summaries(vault) if again is None else None
        summaries = index_summaries(vault) if again is None and due is None else None
        with collector_paused():
            if again is not None:
                self.current = again
            elif due is not None and isinstance(memories := vault.memories, LazyRecords):
                self.current = view_from_summaries(vault.root, memories, due, vault.relations,
                                                   vault.config, now, head, problems,
                                                   previous=self.current)
            elif summaries is not None and isinstance(memories := vault.memories, LazyRecords):
                self.current = view_from_index(vault.root, memories, summaries,
                                               vault.relations, vault.config, now, head,
                                               problems, previous=self.current)
            else:
                self.current = VaultView.build(vault.root, vault.memories.values(),
                                               vault.relations, vault.config, now, head=head,
                                               problems=problems, previous=self.current)
        return self.current

    def next_view(self, ids: list[str]) -> VaultView:
        """The current view with the memories ``ids`` (and their relations) read again, after an
        operation of the app's own: what is on disk now is what the app has seen."""
        vault = self.vault_or_fail()
        self.current = self.view.changed(vault.memories, vault.relations, ids,
                                         head=vault.journal.head(),
                                         problems=[str(p) for p in vault.problems])
        self.remember_disk()
        return self.current

    def disk_signature(self) -> tuple[Any, ...]:
        vault = self.vault_or_fail()
        return (vault.journal.head(), *vault.layout.folder_stamps())

    def remember_disk(self) -> None:
        self.seen_on_disk = self.disk_signature()
