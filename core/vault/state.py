"""What the parts of a vault share: where it is, its cache of the records, and what it has to
say. One :class:`VaultState` is made by the :class:`~core.vault.api.Vault` and handed to each
of its parts; the parts read and replace its fields (an open fills ``store`` anew), so they
always see the same cache."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..git.journal import Journal
from ..model.config import DecayConfig
from ..store.cache import Store
from ..store.layout import Layout, LoadProblem
from .reports import OpenReport

if TYPE_CHECKING:
    from ..model.records import Memory


class VaultState:
    """The vault's place (``root``, ``layout``, ``journal``), settings and cache. (A plain class,
    not a dataclass: it is made once per vault, and a dataclass costs every program that imports
    core its making, at import.)"""

    def __init__(self, root: Path, layout: Layout, journal: Journal, config: DecayConfig,
                 readonly: bool, creating: tuple[bool, bool] = (True, False)) -> None:
        self.root = root
        self.layout = layout
        self.journal = journal
        self.config = config
        self.readonly = readonly
        #: (create, inside_repo): whether an open may make a vault where there is none, and
        #: inside another git repository (:mod:`core.vault.creating`)
        self.creating = creating
        self.store = Store()
        self._problems: list[LoadProblem] = []
        #: The problems found by checking a record held unchecked (as it was read)
        self.refused_on_check: list[LoadProblem] = []
        self.meta: dict[str, Any] = {}  # .meta.json as last read
        #: the commit the cache shows
        self.head: str | None = None
        #: What memvault did that a person should hear of, as it happened (a file set aside in
        #: the quarantine before being written over); the CLI prints these on stderr.
        self.notices: list[str] = []
        self.report = OpenReport()
        self.is_open = False
        #: True when the open took unchanged files from the derived index (never read them)
        self.opened_from_index = False

    @property
    def problems(self) -> list[LoadProblem]:
        """The files that could not be read as records (the reason with each); every record
        the cache holds unchecked (an open with no index) is checked first."""
        if self.store.unchecked:
            self.store.settle()
        return self._problems

    @problems.setter
    def problems(self, problems: list[LoadProblem]) -> None:
        self._problems = problems

    @property
    def problems_found(self) -> list[LoadProblem]:
        """The :attr:`problems` found so far, no record checked for them: those of the records
        held unchecked join them as each is checked (read, or all of them listed)."""
        return self._problems

    def add_problem(self, problem: LoadProblem) -> None:
        """One more file that could not be read as a record (a record held unchecked, refused
        when checked): added as it is, the others left unchecked."""
        self._problems.append(problem)
        self.refused_on_check.append(problem)

    def get(self, key: str) -> Memory:
        """The living memory with this id or unique prefix (UnknownIdError otherwise)."""
        return self.store.memories[self.store.resolve(key)]

    def report_problems(self, problems: list[LoadProblem]) -> None:
        """Add these unreadable files to :attr:`problems` (each path once)."""
        known = {p.path for p in self.problems}
        self.problems.extend(p for p in problems if p.path not in known)
