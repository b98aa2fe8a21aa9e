"""What the parts of a vault share: where it is, its cache of the records, and what it has to
say. One :class:`VaultState` is made by the :class:`~core.vault.api.Vault` and handed to each
of its parts; the parts read and replace its fields (an open fills ``store`` anew), so they
always see the same cache."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..git.journal import Journal
from ..model.config import DecayConfig
from ..model.records import Memory
from ..store.cache import Store
from ..store.layout import Layout, LoadProblem
from .reports import OpenReport


@dataclass
class VaultState:
    """The vault's place (``root``, ``layout``, ``journal``), settings and cache."""

    root: Path
    layout: Layout
    journal: Journal
    config: DecayConfig
    readonly: bool
    store: Store = field(default_factory=Store)
    #: files that could not be read as records (the reason with each)
    problems: list[LoadProblem] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)  # .meta.json as last read
    #: the commit the cache shows
    head: str | None = None
    #: What memvault did that a person should hear of, as it happened (a file set aside in
    #: the quarantine before being written over); the CLI prints these on stderr.
    notices: list[str] = field(default_factory=list)
    report: OpenReport = field(default_factory=OpenReport)
    is_open: bool = False
    #: True when the open took unchanged files from the derived index (never read them)
    opened_from_index: bool = False

    def get(self, key: str) -> Memory:
        """The living memory with this id or unique prefix (UnknownIdError otherwise)."""
        return self.store.memories[self.store.resolve(key)]

    def report_problems(self, problems: list[LoadProblem]) -> None:
        """Add these unreadable files to :attr:`problems` (each path once)."""
        known = {p.path for p in self.problems}
        self.problems.extend(p for p in problems if p.path not in known)
