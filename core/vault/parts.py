"""The parts of a vault that write or read history (:class:`VaultParts`), each made, and its
module imported, the first time it is used: a read-only open (``memvault list``) imports none
of them, nor what they import (the journal's commit, the secrets scanner, history).

A view that writes as another caller (:meth:`core.vault.api.Vault.acting_for`) gets parts of
its own, made with its trailers and secrets policy, over the same cache, files and journal."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from .indexed_open import OpenIndex
from .loading import CacheLoader
from .pending_use import PendingUse
from .state import VaultState
from .trailers import Trailers

if TYPE_CHECKING:
    from .history import History
    from .opening import Opening
    from .plans import PlanCommit
    from .records import Records
    from .relayout import Relayout
    from .settled_view import SettledView
    from .upkeep import Upkeep
    from .use import UseRecords
    from .writing import WritePath

class VaultParts:
    """The parts of the vault whose cache is ``state`` (read by ``loader`` and ``index``, its
    use records ``pending``) that commit as ``trailers`` with the secrets policy ``secrets``."""

    def __init__(self, state: VaultState, loader: CacheLoader, index: OpenIndex,
                 pending: PendingUse, trailers: Trailers, secrets: str | None) -> None:
        self.state = state
        self.loader = loader
        self.index = index
        self.pending = pending
        self.trailers = trailers
        self.secrets = secrets

    @functools.cached_property
    def write_path(self) -> WritePath:
        """The one write path (the only caller of the journal's commit)."""
        from .writing import WritePath

        return WritePath(self.state, self.loader, self.index, self.pending,
                         trailers=self.trailers, secret_policy=self.secrets)

    @functools.cached_property
    def opening(self) -> Opening:
        """Load, recover, outside edits at open."""
        from .opening import Opening

        return Opening(self.state, self.loader, self.index, lambda: self.write_path)

    @functools.cached_property
    def settled_view(self) -> SettledView:
        """A read-only open."""
        from .settled_view import SettledView

        return SettledView(self.state, self.loader, self.index)

    @functools.cached_property
    def plans(self) -> PlanCommit:
        """A plan as one commit."""
        from .plans import PlanCommit

        return PlanCommit(self.state, self.write_path)

    @functools.cached_property
    def records(self) -> Records:
        """Add, update, touch, promote, pin, archive, delete, relate."""
        from .records import Records

        return Records(self.state, self.write_path)

    @functools.cached_property
    def past(self) -> History:
        """History, versions, restore."""
        from .history import History

        return History(self.state, self.write_path)

    @functools.cached_property
    def upkeep(self) -> Upkeep:
        """gc and gists."""
        from .upkeep import Upkeep

        return Upkeep(self.state, self.write_path)

    @functools.cached_property
    def use(self) -> UseRecords:
        """Use records written now, committed in batches."""
        from .use import UseRecords

        return UseRecords(self.state, self.write_path, self.pending)

    @functools.cached_property
    def relayout(self) -> Relayout:
        """Every memory into one layout, one commit."""
        from .relayout import Relayout

        return Relayout(self.state, self.write_path)
