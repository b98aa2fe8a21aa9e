"""The vault: memories and relations as files, every change one git commit.

``Vault`` is the API the app and the CLI use. It keeps three things equal: the in-memory cache
(:class:`~core.store.cache.Store`), the files on disk (:class:`~core.store.layout.Layout`) and
the tree at git HEAD (:class:`~core.git.journal.Journal`). Each operation takes the write lock,
catches up with other processes' commits, commits its records as one commit, then updates the
cache; it is a front door: its parts (:mod:`core.vault`) work."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import decay
from ..git.journal import HistoryEntry, Journal
from ..model.config import DecayConfig
from ..store.layout import Layout
from ..store.shards import SHARDED
from .indexed_open import OpenIndex
from .loading import CacheLoader
from .parts import VaultParts
from .pending_use import PendingUse
from .state import VaultState
from .trailers import Trailers

if TYPE_CHECKING:  # (the parts that write or read history are imported when first used)
    from ..model.records import Memory, MemoryStatus, Relation
    from ..store.cache import SortKey, Store
    from ..store.layout import LoadProblem
    from .relayout import LayoutReport
    from .reports import DeleteReport, GcReport, GistBackfill, OpenReport, Plan, RestoreReport
    from .writing import WritePath


class Vault:
    """A per-file memory vault at ``path``: the front door to its parts (docs/architecture.md)."""

    def __init__(
        self,
        path: Path | str,
        *,
        config: DecayConfig | None = None,
        readonly: bool = False,
        lock_timeout: float = 30.0,
        via: str | None = None,
        secrets: str | None = None,
        layout: str | None = None, create: bool = True, inside_repo: bool = False,
        keep_read: bool = False, search_rows: bool = False, copies_later: bool = False,
    ):
        """``layout``: a new vault's layout ("flat", the default, or "sharded": :mod:`core.store.
        shards`); ``create``: it may make one where there is none (else VaultError), never in
        another git repository unless ``inside_repo`` (:mod:`.creating`). ``keep_read``: a read-
        only open reading every file keeps their bytes for :meth:`index_files`; ``search_rows``:
        it makes the search rows as it reads them; ``copies_later``: the index's copies read
        on the cache's first use (:mod:`.later_copies`; the app)."""
        root = Path(path).expanduser().resolve()
        journal = Journal(root, lock_timeout=lock_timeout)
        journal.read_only = readonly
        self.state = VaultState(root, Layout(root, layout), journal,
                                config or DecayConfig.from_env(), readonly,
                                creating=(create, inside_repo))
        self.loader = CacheLoader(self.state)
        self.open_index = OpenIndex(self.state, self.loader, keep_read=keep_read,
                                    search_rows=search_rows, copies_later=copies_later)
        self.pending = PendingUse(self.state, self.loader)
        self._make_parts(Trailers(via), secrets)  # via: each commit's ``Memvault-Via``

    def _make_parts(self, trailers: Trailers, secrets: str | None) -> None:
        """The parts that write or read history, committing as ``trailers`` with the secrets
        policy ``secrets`` (:class:`~.parts.VaultParts`: each made on first use)."""
        self.parts = VaultParts(self.state, self.loader, self.open_index, self.pending,
                                trailers, secrets)

    @property
    def write_path(self) -> WritePath:
        """The one write path (the only caller of the journal's commit): :attr:`parts`'."""
        return self.parts.write_path

    def acting_for(self, *, via: str | None = None, tool: str | None = None,
                   secrets: str | None = None) -> Vault:
        """This vault as one caller writes to it: a view over the same cache, files and journal
        whose commits carry ``Memvault-Via: <via>`` and ``Memvault-Tool: <tool>`` and whose
        writes are checked with the secrets policy ``secrets`` (each None: this vault's). The
        trailers are arguments of the view's commits, never state set on the vault: callers in
        several threads each get their own (the MCP server: one view per tool call)."""
        view = copy.copy(self)  # shares state, loader, open index, pending use records
        view._make_parts(Trailers(via or self.via, tool or self.tool),
                         secrets or self.secret_policy)
        return view

    @property
    def via(self) -> str | None:
        """Who writes (``mcp/<client>``): the trailer ``Memvault-Via`` (see
        :data:`core.git.journal.VIA_TRAILER`); ``tool`` (``save_memory``): ``Memvault-Tool``."""
        return self.parts.trailers.via

    @property
    def tool(self) -> str | None:
        return self.parts.trailers.tool

    # -- where it is, its settings, its cache ----------------------------------------------------
    @property
    def root(self) -> Path:
        return self.state.root

    @property
    def layout(self) -> Layout:
        return self.state.layout

    @property
    def journal(self) -> Journal:
        return self.state.journal

    @property
    def config(self) -> DecayConfig:
        return self.state.config

    @property
    def readonly(self) -> bool:
        return self.state.readonly

    @property
    def keep_read(self) -> bool:
        return self.open_index.keep_read

    @property
    def secret_policy(self) -> str | None:
        """The secrets policy this writer asked for (``refuse``, ``redact``, ``allow``; the
        CLI's ``--allow-secret``), over the environment's and the vault's
        (:func:`core.secrets.policy.policy_in_force`). None: theirs."""
        return self.parts.secrets

    @property
    def store(self) -> Store:
        return self.state.store

    @property
    def problems(self) -> list[LoadProblem]:
        return self.state.problems

    @property
    def notices(self) -> list[str]:
        """What memvault did that a person should hear of, as it happened (a file set aside in
        the quarantine before being written over); the CLI prints these on stderr."""
        return self.state.notices

    @property
    def meta(self) -> dict[str, Any]:
        return self.state.meta

    @property
    def report(self) -> OpenReport:
        return self.state.report

    # -- opening ----------------------------------------------------------------------------
    @classmethod
    def open(cls, path: Path | str, **kwargs: Any) -> Vault:
        vault = cls(path, **kwargs)
        vault.load()
        return vault

    def load(self) -> None:
        """Read every vault file into the cache; see :meth:`core.vault.opening.Opening.load`
        (read-only: :meth:`core.vault.settled_view.SettledView.load`)."""
        if self.state.readonly:
            self.parts.settled_view.load()
        else:
            self.parts.opening.load()

    def close(self) -> None:
        """Every operation commits as it goes, so closing leaves nothing uncommitted; the
        journal's long-lived git processes end (a later write starts them again)."""
        self.state.is_open = False
        self.wait_for_open_index()
        self.journal.close()

    def __enter__(self) -> Vault:
        if not self.state.is_open:
            self.load()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def kept_read(self) -> bool:
        return self.open_index.kept_read

    def index_files(self) -> int | None:
        return self.open_index.index_files()

    def wait_for_open_index(self) -> None:
        self.open_index.wait_for_open_index()

    def copies_read(self) -> bool:
        """The index's copies read now if not yet (``copies_later``); True when the cache is not
        the rows' records: a view made from the summaries is made again (:mod:`.later_copies`)."""
        from .later_copies import read_now

        return read_now(self.open_index)

    # -- lookups ----------------------------------------------------------------------------
    @property
    def head(self) -> str | None:
        """The commit this vault's cache shows (a plan built now records it as its base)."""
        return self.state.head

    def refresh(self) -> bool:
        """Catch up with commits made by other processes (or other Vault objects) since this
        vault last looked; True when HEAD had moved. For long-lived readers whose callers
        read, modify and write back (the CortexGraph storage API: ``get_memory`` then
        ``update_memory(use_count=m.use_count + 1)``): an answer from a stale cache would write
        back an old value and undo the other writer's change. One read of the HEAD ref when
        nothing changed; nothing read-only or inside an operation (caught up already)."""
        if self.readonly or not self.state.is_open or self.journal.locked:
            return False
        if self.journal.head() == self.state.head:
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

    # -- the write path ---------------------------------------------------------------------
    def transaction(self, *, flush_use: bool | str = True) -> AbstractContextManager[None]:
        """The write lock held, the cache up to date (:meth:`WritePath.transaction`)."""
        return self.write_path.transaction(flush_use=flush_use)

    def catch_up(self) -> None:
        self.write_path.catch_up()

    def adopt_outside_edits(self, candidates: list[str]) -> None:
        self.write_path.adopt_outside_edits(candidates)

    def apply(self, plan: Plan | Callable[[Vault], Plan]) -> Plan:
        """Commit a :class:`Plan` as ONE commit and return it, with its ``commit`` filled in.

        A plan built beforehand (the preview a person confirmed, ``plan.base`` set) is applied as
        it is, with the ids it showed; refused with :class:`StalePlanError`, nothing written,
        when a commit since ``plan.base`` changed a record it writes or removes, or related a
        memory it removes (but by a lineage relation, which outlives it). A callable instead is
        run under the lock on the caught-up vault and returns the plan (it only reads)."""
        with self.write_path.transaction(flush_use="lazy"):
            if callable(plan):
                plan = plan(self)
            else:
                self.write_path.settle_use()  # (a use commit since the plan's base is no clash)
                self.parts.plans.check_fresh(plan)
            for check in plan.requires:
                check(self)
            self.parts.plans.commit(plan)
        return plan

    # -- records (core.vault.records) -------------------------------------------------------
    def add(self, content: str, *, tags: Iterable[str] = (), entities: Iterable[str] = (),
            source: str | None = None, context: str | None = None, strength: float = 1.0,
            gist: str | None = None, memory_id: str | None = None) -> Memory:
        return self.parts.records.add(content, tags=tags, entities=entities, source=source,
                                context=context, strength=strength, gist=gist,
                                memory_id=memory_id)

    def save(self, memory: Memory, *, message: str | None = None) -> Memory:
        return self.parts.records.save(memory, message=message)

    def save_many(self, memories: list[Memory], *, message: str | None = None,
                  make_gists: bool = True) -> list[Memory]:
        return self.parts.records.save_many(memories, message=message, make_gists=make_gists)

    def update(self, key: str, **changes: Any) -> Memory:
        return self.parts.records.update(key, **changes)

    def touch(self, *keys: str, boost: bool = False) -> list[Memory]:
        return self.parts.records.touch(*keys, boost=boost)

    def pin(self, *keys: str) -> list[Memory]:
        return self.parts.records.pin(*keys)

    def unpin(self, *keys: str) -> list[Memory]:
        return self.parts.records.unpin(*keys)

    def archive(self, *keys: str) -> list[Memory]:
        return self.parts.records.archive(*keys)

    def unarchive(self, *keys: str) -> list[Memory]:
        return self.parts.records.unarchive(*keys)

    def promote(self, *keys: str) -> list[Memory]:
        return self.parts.records.promote(*keys)

    def tag(self, *keys: str, tags: Iterable[str]) -> list[Memory]:
        return self.parts.records.tag(*keys, tags=tags)

    def untag(self, *keys: str, tags: Iterable[str]) -> list[Memory]:
        return self.parts.records.untag(*keys, tags=tags)

    def delete(self, *keys: str) -> DeleteReport:
        return self.parts.records.delete(*keys)

    def relate(self, from_key: str, to_key: str, relation_type: str, *, strength: float = 1.0,
               metadata: dict[str, Any] | None = None, force: bool = False) -> Relation:
        return self.parts.records.relate(from_key, to_key, relation_type, strength=strength,
                                   metadata=metadata, force=force)

    def save_relations(self, relations: list[Relation], *, message: str | None = None) -> None:
        self.parts.records.save_relations(relations, message=message)

    def unrelate(self, relation_key: str) -> Relation:
        return self.parts.records.unrelate(relation_key)

    # -- the past (core.vault.history) ------------------------------------------------------
    def resolve_any(self, key: str) -> str:
        return self.parts.past.resolve_any(key)

    def history(self, key: str) -> list[HistoryEntry]:
        return self.parts.past.history(key)

    def version(self, key: str, rev: str) -> Memory:
        return self.parts.past.version(key, rev)

    def restore(self, key: str, at: str | None = None) -> RestoreReport:
        return self.parts.past.restore(key, at)

    # -- upkeep (core.vault.upkeep), use records (core.vault.use), layout (core.vault.relayout)
    def gc(self, *, dry_run: bool = False, archive: bool = False,
           threshold: float | None = None, now: int | None = None,
           force: bool = False, keep: Iterable[str] = ()) -> GcReport:
        return self.parts.upkeep.gc(dry_run=dry_run, archive=archive, threshold=threshold, now=now,
                              force=force, keep=keep)

    def stats(self, now: int | None = None) -> dict[str, Any]:
        from .statistics import vault_stats

        return vault_stats(self.state, now)

    def regenerate_gist(self, key: str, level: str = "moderate") -> Memory:
        return self.parts.upkeep.regenerate_gist(key, level)

    def backfill_gists(self, level: str = "moderate", *, dry_run: bool = False,
                       progress: Callable[[int, int], None] | None = None) -> GistBackfill:
        return self.parts.upkeep.backfill_gists(level, dry_run=dry_run, progress=progress)

    def record_use(self, keys: list[str] | tuple[str, ...]) -> list[Memory]:
        return self.parts.use.record_use(keys)

    def flush_use(self) -> str | None:
        return self.parts.use.flush_use()

    @property
    def pending_use(self) -> int:
        return self.parts.use.pending_use

    def migrate_layout(self, to: str = SHARDED) -> LayoutReport:
        return self.parts.relayout.migrate_layout(to)
