"""The vault: memories and relations as files, every change one git commit.

``Vault`` is the API the app and the CLI use. It keeps three things equal: the in-memory cache
(:class:`~core.store.cache.Store`), the files on disk (:class:`~core.store.layout.Layout`) and the tree at git
HEAD (:class:`~core.git.journal.Journal`). Each operation takes the write lock, catches up with commits
made by other processes, computes the new records, commits them as one commit, and only then
updates the cache.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .. import decay
from ..git.journal import Journal
from ..model.config import DecayConfig
from ..model.records import (
    Memory,
    MemoryStatus,
    Relation,
)
from ..store.cache import SortKey, Store
from ..store.layout import (
    Layout,
    LoadProblem,
)
from .history import History
from .index_writer import OpenIndexWriter
from .opening import Opening
from .records import Records
from .relayout import Relayout
from .reports import OpenReport
from .upkeep import Upkeep
from .use import UseRecords
from .writing import Writing


class Vault(Opening, Writing, Records, History, Upkeep, UseRecords, Relayout):
    """A per-file memory vault at ``path`` (created, with a git repository, when missing)."""

    def __init__(
        self,
        path: Path | str,
        *,
        config: DecayConfig | None = None,
        readonly: bool = False,
        lock_timeout: float = 30.0,
        via: str | None = None,
        secrets: str | None = None,
        layout: str | None = None,
        keep_read: bool = False,
    ):
        """``layout``: where a vault created by this open writes its memories ("flat", the
        default, or "sharded"; see :mod:`core.store.shards`); an existing vault keeps its own."""
        self.root = Path(path).expanduser().resolve()
        #: A read-only open that reads every file keeps their bytes until :meth:`index_files`
        #: writes the open index from them (the first search after a clone: each file read
        #: once); other opens keep nothing.
        self.keep_read = keep_read
        self._read_at_open: dict[str, bytes] | None = None
        self.layout = Layout(self.root, layout)
        self.config = config or DecayConfig.from_env()
        self.readonly = readonly
        self.journal = Journal(self.root, lock_timeout=lock_timeout)
        self.journal.read_only = readonly
        #: ``via``: who writes through this vault (``mcp/<client>``); every commit then carries
        #: the trailer ``Memvault-Via: <via>`` (see :data:`core.git.journal.VIA_TRAILER`).
        self.via = via
        #: Which tool of that door writes now (``save_memory``): the trailer ``Memvault-Tool``
        #: of the commits it makes; set around one operation, None otherwise.
        self.tool: str | None = None
        #: The secrets policy this writer asked for (``refuse``, ``redact``, ``allow``; the
        #: CLI's ``--allow-secret``), over the environment's and the vault's
        #: (:func:`core.secrets.policy.policy_in_force`). None: theirs.
        self.secret_policy = secrets
        self.store = Store()
        self.problems: list[LoadProblem] = []
        #: What memvault did that a person should hear of, as it happened (a file set aside in
        #: the quarantine before being written over); the CLI prints these on stderr.
        self.notices: list[str] = []
        self.meta: dict[str, Any] = {}
        self.report = OpenReport()
        self._head: str | None = None
        self._open = False
        #: True when the open took unchanged files from the derived index (never read them)
        self._opened_from_index = False
        #: The open index's rows a first open is writing in the background, if any
        #: (:mod:`core.vault.index_writer`; ``wait_for_open_index``)
        self._index_writer: OpenIndexWriter | None = None

    # -- opening ----------------------------------------------------------------------------
    @classmethod
    def open(cls, path: Path | str, **kwargs: Any) -> Vault:
        vault = cls(path, **kwargs)
        vault.load()
        return vault
    def close(self) -> None:
        """Every operation commits as it goes, so closing leaves nothing uncommitted; the
        journal's long-lived git processes end (a later write starts them again)."""
        self._open = False
        self.wait_for_open_index()
        self.journal.close()

    def __enter__(self) -> Vault:
        if not self._open:
            self.load()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- lookups ----------------------------------------------------------------------------
    @property
    def head(self) -> str | None:
        """The commit this vault's cache shows (a plan built now records it as its base)."""
        return self._head

    def refresh(self) -> bool:
        """Catch up with commits made by other processes (or other Vault objects) since this
        vault last looked; True when HEAD had moved. For long-lived readers whose callers
        read, modify and write back (the CortexGraph storage API: ``get_memory`` then
        ``update_memory(use_count=m.use_count + 1)``): an answer from a stale cache would write
        back an old value and undo the other writer's change. Costs one read of the HEAD ref
        when nothing changed; nothing for a read-only vault or inside an operation (which has
        caught up already)."""
        if self.readonly or not self._open or self.journal.locked:
            return False
        if self.journal.head() == self._head:
            return False
        with self.transaction():  # takes the lock and reloads the paths changed since
            return True

    def resolve(self, key: str) -> str:
        """A memory id or unique prefix (>= 4 characters) to the full id."""
        return self.store.resolve(key)

    def get(self, key: str) -> Memory:
        return self.store.memories[self.resolve(key)]

    def find(self, memory_id: str) -> Memory | None:
        """The memory with exactly this id, or None."""
        return self.store.memories.get(memory_id)

    @property
    def memories(self) -> Mapping[str, Memory]:
        """id -> memory (read it, never change it: changes go through the vault's operations;
        a memory is parsed from its file's bytes when first read, see core.store.lazy)."""
        return self.store.memories

    @property
    def relations(self) -> Mapping[str, Relation]:
        return self.store.relations

    def relations_of(self, key: str) -> list[Relation]:
        return self.store.relations_of(self.resolve(key))

    def search(
        self,
        query: str | None = None,
        tags: Iterable[str] | None = None,
        status: MemoryStatus | str | Iterable[MemoryStatus | str] | None = None,
        window_days: float | None = None,
        limit: int | None = None,
        offset: int = 0,
        sort: SortKey = "score",
    ) -> list[Memory]:
        return self.store.search(query=query, tags=tags, status=status, window_days=window_days,
                                 limit=limit, offset=offset, sort=sort, config=self.config)

    def score(self, memory: Memory, now: int | None = None) -> float:
        return decay.score(memory, self.config, now)

    def seconds_until_forgotten(self, memory: Memory, now: int | None = None) -> float | None:
        return decay.seconds_until_forgotten(memory, self.config, now)

    def forecast(self, memory: Memory, days: int = 30, now: int | None = None) -> list[float]:
        return decay.forecast(memory, self.config, days, now)

