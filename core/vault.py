"""The vault: memories and relations as files, every change one git commit.

``Vault`` is the API the app and the CLI use. It keeps three things equal: the in-memory cache
(:class:`~core.store.cache.Store`), the files on disk (:class:`~core.store.layout.Layout`) and the tree at git
HEAD (:class:`~core.git.journal.Journal`). Each operation takes the write lock, catches up with commits
made by other processes, computes the new records, commits them as one commit, and only then
updates the cache.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from . import decay
from .model.config import DecayConfig
from .errors import InvalidIdError, UnknownIdError, VaultError
from .gist import check_level
from .git.journal import HistoryEntry, Journal
from .store.layout import (
    MAX_FILE_BYTES,
    META_FILE,
    Layout,
    LoadProblem,
    RecordTooLargeError,
    check_folder,
    check_id,
)
from .ops.maintenance import check_maintenance, machine_id
from .model.records import (
    KNOWN_RELATION_TYPES,
    Memory,
    MemoryMetadata,
    MemoryStatus,
    Relation,
    now_epoch,
)
from .store.cache import MIN_PREFIX, SortKey, Store

if TYPE_CHECKING:
    from .ops.revert import RevertReport, UndoEntry
from .store.quarantine import quarantine
from .textutil import make_gist, neutralise_line
from .model.tokens import estimate_tokens

MAX_BOOSTED_STRENGTH = 2.0
STRENGTH_BOOST = 0.1


@dataclass
class DeleteReport:
    memories: list[Memory]
    relations: list[Relation]


@dataclass
class RestoreReport:
    memory: Memory
    relations: list[Relation]
    source_commit: str


@dataclass
class GcReport:
    threshold: float
    candidates: list[tuple[Memory, float]]  # (memory, score), lowest score first
    applied: bool
    archived: bool
    relations_removed: list[Relation] = field(default_factory=list)
    commit: str | None = None


@dataclass
class GistBackfill:
    level: str
    missing: int  # memories that had no gist
    made: list[Memory]  # those that got one (short notes get none)
    tokens_before: int  # what recalling ``made`` cost (their content), approximate
    tokens_after: int  # what it costs with the gists, approximate
    commit: str | None = None


@dataclass
class OpenReport:
    """What opening the vault found and did, for a person to read."""

    recovered: str | None = None
    external_commit: str | None = None
    external_paths: list[str] = field(default_factory=list)
    #: Files changed outside memvault that were NOT committed: they do not load as a valid
    #: record (or metadata), so they stay as they are on disk, reported with the reason.
    refused_external: list[LoadProblem] = field(default_factory=list)
    initialised: bool = False
    #: Why nothing may be written now (HEAD detached, a rebase or merge in progress); outside
    #: edits then wait, uncommitted, until it is over.
    writes_refused: str | None = None


@dataclass
class ChangeSet:
    """Everything one operation changes, committed as ONE commit by :meth:`Vault.apply`."""

    message: str
    put_memories: list[Memory] = field(default_factory=list)
    put_relations: list[Relation] = field(default_factory=list)
    drop_memories: list[str] = field(default_factory=list)
    drop_relations: list[str] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)  # keys to set in .meta.json
    #: Other files to commit with it, by vault-relative path (e.g. a migration's backup of its
    #: source files under ``.backup/``); never a record, ``.meta.json`` or a git path.
    put_files: dict[str, bytes] = field(default_factory=dict)
    commit: str | None = None  # filled in by apply()


class Vault:
    """A per-file memory vault at ``path`` (created, with a git repository, when missing)."""

    def __init__(
        self,
        path: Path | str,
        *,
        config: DecayConfig | None = None,
        readonly: bool = False,
        lock_timeout: float = 30.0,
        via: str | None = None,
    ):
        self.root = Path(path).expanduser().resolve()
        self.layout = Layout(self.root)
        self.config = config or DecayConfig.from_env()
        self.readonly = readonly
        self.journal = Journal(self.root, lock_timeout=lock_timeout)
        #: ``via``: who writes through this vault (``mcp/<client>``); every commit then carries
        #: the trailer ``Memvault-Via: <via>`` (see :data:`core.git.journal.VIA_TRAILER`).
        self.journal.via = via
        self.store = Store()
        self.problems: list[LoadProblem] = []
        #: What memvault did that a person should hear of, as it happened (a file set aside in
        #: the quarantine before being written over); the CLI prints these on stderr.
        self.notices: list[str] = []
        self.meta: dict[str, Any] = {}
        self.report = OpenReport()
        self._head: str | None = None
        self._open = False

    # -- opening ----------------------------------------------------------------------------
    @classmethod
    def open(cls, path: Path | str, **kwargs: Any) -> Vault:
        vault = cls(path, **kwargs)
        vault.load()
        return vault

    def load(self) -> None:
        """Read every vault file into the cache. Unless read-only: finish a crashed operation,
        commit files changed outside memvault (saying so), and create the vault if it is new."""
        if self.readonly:
            if not self.root.is_dir():
                raise VaultError(f"no vault at {self.root}")
            self._load_settled_view()
            self._open = True
            return
        self.layout.ensure_dirs()
        journal = self.journal
        journal.ensure_private()
        if journal.has_intent():
            with journal.lock():
                self._recover()
        head = journal.head()
        status = journal.start_status(self.layout.vault_paths())
        self._load_files()
        self._head = head
        changed = journal.finish_status(status)
        self.report.writes_refused = journal.write_refusal()
        if self.report.writes_refused is None and (changed or not os.path.lexists(self.layout.meta_path)):
            with self._writing():
                self._adopt_external(changed)
                if not os.path.lexists(self.layout.meta_path):
                    self._commit("init: create memvault vault", {
                        self.layout.meta_path: self.layout.encode(self.layout.new_meta())})
                    self.report.initialised = True
        self._open = True

    def _load_files(self) -> None:
        store, layout = Store(), self.layout
        # Tens of thousands of long-lived objects and no garbage among them: the cyclic collector
        # would only rescan them, again and again while loading and once more right after. So it
        # is paused while loading and the loaded heap is frozen out of its scans (objects are
        # still freed by reference counting as usual).
        collecting = gc.isenabled()
        gc.disable()
        try:
            memories, problems = layout.load_folder("memory")
            relations, relation_problems = layout.load_folder("relation")
            for memory in memories:
                store.put_memory(memory)
            for relation in relations:
                store.put_relation(relation)
        finally:
            if collecting:
                gc.freeze()
                gc.enable()
        self.store, self.problems = store, problems + relation_problems
        self.meta = layout.read_meta() or {}

    def _recover(self) -> None:
        """Finish operations that crashed or could not put the vault back (the lock is held),
        and bring the cache up to date with the files they touched."""
        journal = self.journal
        touched = journal.pending_paths()
        note = journal.recover()
        self._remove_temp_files()
        if note:
            self.report.recovered = f"{self.report.recovered}; {note}" if self.report.recovered \
                else note
        if self._open:
            self._reload_paths(journal.vault_rel(p) for p in touched)

    def _load_settled_view(self) -> None:
        """Read-only: load the files, and never show an operation half-way. Paths an unfinished
        operation names are shown as at HEAD; a commit landing while loading means load again.
        Plain file reads only (no git) unless an operation is under way."""
        from .git.gitdir import find_git_dir, read_head
        from .git.intent import IntentLog

        found = find_git_dir(self.root)
        for _attempt in range(5):
            before = _read_head_or_none(found, read_head)
            self._load_files()
            if found is None:
                return
            pending = IntentLog(found[0] / "memvault").pending()
            if _read_head_or_none(found, read_head) != before:
                continue
            if pending and before is not None:
                self._show_at(before, self.journal.pending_paths())
            return

    def _show_at(self, rev: str, repo_paths: list[str]) -> None:
        """Replace what the cache holds for these repository paths by their version at ``rev``."""
        contents = self.journal.files_at(rev, repo_paths)
        for repo_path in repo_paths:
            rel = self.journal.vault_rel(repo_path)
            what = self.layout.classify(rel)
            if what is None:
                continue
            kind, record_id = what
            data = contents.get(repo_path)
            if kind == "meta":
                with contextlib.suppress(ValueError):
                    self.meta = json.loads(data) if data is not None else {}
                continue
            self.problems = [p for p in self.problems if p.path != self.root / rel]
            if kind == "memory":
                self.store.drop_memory(record_id)
            else:
                self.store.drop_relation(record_id)
            if data is None:
                continue
            model = Memory if kind == "memory" else Relation
            try:
                record = model.model_validate_json(data)
            except ValidationError:
                continue
            if kind == "memory":
                self.store.put_memory(record)
            else:
                self.store.put_relation(record)

    def _reload_paths(self, rels: Iterable[str]) -> None:
        """Bring the cache up to date with the given vault-relative paths (after a commit made
        elsewhere: another process, a git pull)."""
        for rel in rels:
            what = self.layout.classify(rel)
            if what is None:
                continue
            kind, record_id = what
            path = self.root / rel
            if kind == "meta":
                self.meta = self.layout.read_meta() or {}
                continue
            self.problems = [p for p in self.problems if p.path != path]
            if kind == "memory":
                self.store.drop_memory(record_id)
            else:
                self.store.drop_relation(record_id)
            if not os.path.lexists(path):
                continue
            record, problem = self.layout.load_file(path, kind)
            if record is None:
                self.problems.append(LoadProblem(path, problem or "unreadable"))
            elif kind == "memory":
                self.store.put_memory(record)
            else:
                self.store.put_relation(record)

    def _remove_temp_files(self) -> None:
        from .store.layout import TEMP_PREFIX

        for folder in (self.layout.memories_dir, self.layout.relations_dir, self.root):
            for leftover in folder.glob(TEMP_PREFIX + "*"):
                with contextlib.suppress(OSError):
                    leftover.unlink()

    def _adopt_external(self, candidates: list[str]) -> None:
        """Commit vault files that differ from HEAD and that no memvault operation wrote, when
        they load as valid records (see :meth:`_sort_outside_edits`); the others are reported
        in ``report.refused_external`` and left as they are."""
        if not candidates:
            return
        # Re-check under the lock: a writer that was mid-commit when we looked has finished now.
        still = set(self.journal.finish_status(self.journal.start_status(
            [self.root / c for c in candidates])))
        rels = [c for c in candidates if c in still and self.layout.classify(c) is not None]
        rels, refused = self._sort_outside_edits(rels)
        self.report.refused_external = refused
        self._report_problems(refused)
        if not rels:
            return
        self._commit_external(rels)
        self._reload_paths(rels)
        self.report.external_commit = self._head
        self.report.external_paths = rels

    def _sort_outside_edits(self, rels: list[str]) -> tuple[list[str], list[LoadProblem]]:
        """The rule for a person's edits (vault-relative paths): a file is committed as they left
        it only when it loads as a valid record (or metadata), or when it was deleted. Anything
        else (unreadable, a symbolic link, hard-linked, not JSON, a bad id...) is never
        committed: returned as a problem with the reason."""
        adopt: list[str] = []
        refused: list[LoadProblem] = []
        for rel in rels:
            what = self.layout.classify(rel)
            path = self.root / rel
            if what is None or not os.path.lexists(path):
                adopt.append(rel)
                continue
            if what[0] == "meta":
                _, reason = self.layout.load_meta()
            else:
                _, reason = self.layout.load_file(path, what[0])
            if reason is None:
                adopt.append(rel)
            else:
                refused.append(LoadProblem(path, reason))
        return adopt, refused

    def _report_problems(self, problems: Iterable[LoadProblem]) -> None:
        known = {p.path for p in self.problems}
        self.problems.extend(p for p in problems if p.path not in known)

    def _set_aside(self, path: Path, reason: str) -> None:
        """Copy a file memvault cannot read, and is about to write over or remove, into the
        quarantine (``core.store.quarantine``), and say so in :attr:`notices`."""
        copy = quarantine(self.journal.state_dir, self.root, path, reason)
        rel = path.relative_to(self.root).as_posix()
        self.notices.append(f"{rel} could not be read ({reason}); set it aside as {copy} "
                            "before writing over it")

    def _commit_external(self, rels: list[str], when: str = "") -> None:
        """One ``external:`` commit of vault files (vault-relative paths) as they are on disk."""
        shown = ", ".join(rels[:5]) + (f" and {len(rels) - 5} more" if len(rels) > 5 else "")
        shown = neutralise_line(shown)
        noun = "file" if len(rels) == 1 else "files"
        message = f"external: {len(rels)} {noun} changed outside memvault{' ' + when if when else ''} ({shown})"
        paths = [self.root / r for r in rels]
        self._head = self.journal.commit(message, adopt=paths)
        self.layout.note(paths)

    def close(self) -> None:
        """Every operation commits as it goes, so closing leaves nothing uncommitted."""
        self._open = False

    def __enter__(self) -> Vault:
        if not self._open:
            self.load()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the write path ---------------------------------------------------------------------
    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """Hold the write lock and catch up with commits made since we last looked."""
        if self.readonly:
            raise VaultError(f"the vault at {self.root} was opened read-only")
        with self.journal.lock():
            if self.journal.has_intent():  # a writer crashed: finish it before anything else
                self._recover()
            head = self.journal.head()
            if head != self._head:
                self._reload_paths(self.journal.changed_between(self._head, head))
                self._head = head
            yield

    def _commit(
        self,
        message: str,
        writes: dict[Path, bytes | None],
        memories: Iterable[Memory] = (),
        relations: Iterable[Relation] = (),
        dropped_memories: Iterable[str] = (),
        dropped_relations: Iterable[str] = (),
    ) -> str | None:
        """Commit ``writes`` as one commit, then (only then) update the cache. A record larger
        than the reader accepts is refused before anything is written (RecordTooLargeError). A
        file among them that a person changed since we read it is first committed as it is
        (``external:``), so their edit stays in history before this operation replaces it, if it
        loads as a valid record; a file memvault cannot read (changed, known unreadable, or a
        garbage ``.meta.json``) is copied into the quarantine first instead, never committed."""
        self._check_sizes(writes)
        edited = [p.relative_to(self.root).as_posix()
                  for p in self.layout.changed_since_seen(writes)]
        adopt, unreadable = self._sort_outside_edits(edited)
        if adopt:
            self._commit_external(adopt, "while the vault was open")
        unreadable += [p for p in self.problems if p.path in writes]
        if self.layout.meta_path in writes:
            _, reason = self.layout.load_meta()
            if reason is not None:
                unreadable.append(LoadProblem(self.layout.meta_path, reason))
        for problem in {p.path: p for p in unreadable}.values():
            if os.path.lexists(problem.path):
                self._set_aside(problem.path, problem.reason)
        try:
            self._head = self.journal.commit(message, writes)
        finally:
            self.layout.note(writes)
        self.problems = [p for p in self.problems if p.path not in writes]
        for rid in dropped_relations:
            self.store.drop_relation(rid)
        for mid in dropped_memories:
            self.store.drop_memory(mid)
        for memory in memories:
            self.store.put_memory(memory)
        for relation in relations:
            self.store.put_relation(relation)
        for path, data in writes.items():
            if path == self.layout.meta_path and data is not None:
                self.meta = self.layout.read_meta() or {}
        return self._head

    def _check_sizes(self, writes: dict[Path, bytes | None]) -> None:
        """The one size limit, on every write path: no record or metadata file larger than
        :data:`MAX_FILE_BYTES`, which the reader would refuse (the memory could not be read
        back). Raised before anything is written."""
        for path, data in writes.items():
            if data is None or len(data) <= MAX_FILE_BYTES:
                continue
            what = self.layout.classify(path.relative_to(self.root).as_posix())
            if what is None:
                continue  # not a record: a migration's backup of its sources, never loaded
            kind, record_id = what
            name = f"{kind} {record_id}" if record_id else META_FILE
            raise RecordTooLargeError(
                f"refused: {name} would be a file of {len(data):,} bytes, more than the "
                f"{MAX_FILE_BYTES:,} bytes ({MAX_FILE_BYTES // (1024 * 1024)} MiB) a vault file "
                "may hold (memvault could not read it back); nothing was written")

    def apply(self, build: Callable[[Vault], ChangeSet]) -> ChangeSet:
        """Run ``build`` on the up-to-date vault while holding the write lock, and commit the
        change set it returns as one commit (for multi-file operations: split, consolidate...).
        ``build`` only reads the vault and returns records; if it raises nothing is changed."""
        with self._writing():
            change = build(self)
            for m in change.put_memories:
                check_id(m.id)
            for r in change.put_relations:
                check_id(r.id, "relation")
            writes: dict[Path, bytes | None] = {}
            if change.meta:
                writes.update(self._meta_write(**change.meta))
            writes.update({self.layout.memory_path(i): None for i in change.drop_memories})
            writes.update({self.layout.relation_path(i): None for i in change.drop_relations})
            writes.update(self._memory_writes(change.put_memories))
            writes.update({self.layout.relation_path(r.id): self.layout.encode(r)
                           for r in change.put_relations})
            writes.update({self._plain_file(rel): data for rel, data in change.put_files.items()})
            change.commit = self._commit(
                change.message, writes, memories=change.put_memories,
                relations=change.put_relations, dropped_memories=change.drop_memories,
                dropped_relations=change.drop_relations)
        return change

    def _plain_file(self, rel: str) -> Path:
        """The path of a :attr:`ChangeSet.put_files` entry: inside the vault, and not a record,
        ``.meta.json``, a record folder or a git path (refused with VaultError)."""
        parts = rel.split("/")
        if (not rel or rel.startswith("/") or "\\" in rel or "\0" in rel
                or any(p in ("", ".", "..") for p in parts)
                or parts[0] in (".git", self.layout.memories_dir.name,
                                self.layout.relations_dir.name)
                or self.layout.classify(rel) is not None):
            raise VaultError(f"refused: {rel!r} cannot be written as a plain vault file")
        for depth in range(1, len(parts)):  # never write through a folder that is a link
            check_folder(self.root.joinpath(*parts[:depth]))
        return self.root.joinpath(*parts)

    def _memory_writes(self, memories: Iterable[Memory]) -> dict[Path, bytes | None]:
        return {self.layout.memory_path(m.id): self.layout.encode(m) for m in memories}

    def _meta_write(self, **changes: Any) -> dict[Path, bytes | None]:
        meta = dict(self.layout.read_meta() or self.layout.new_meta())
        meta.update(changes)
        return {self.layout.meta_path: self.layout.encode(meta)}

    # -- lookups ----------------------------------------------------------------------------
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
        with self._writing():  # takes the lock and reloads the paths changed since
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
    def memories(self) -> dict[str, Memory]:
        return self.store.memories

    @property
    def relations(self) -> dict[str, Relation]:
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

    # -- creating and changing memories ----------------------------------------------------
    def add(
        self,
        content: str,
        *,
        tags: Iterable[str] = (),
        entities: Iterable[str] = (),
        source: str | None = None,
        context: str | None = None,
        strength: float = 1.0,
        gist: str | None = None,
        memory_id: str | None = None,
    ) -> Memory:
        """Create a memory and commit it (``add: <id8> <first words>``)."""
        if not isinstance(content, str) or not content.strip():
            raise VaultError("refused: a memory needs non-empty content")
        try:
            memory = Memory(
                id=check_id(memory_id) if memory_id is not None else str(uuid.uuid4()),
                content=content, gist=gist, strength=strength, entities=_unique(entities),
                meta=MemoryMetadata(tags=_unique(tags), source=source, context=context),
            )
        except ValidationError as exc:
            raise VaultError(f"refused: {_first_error(exc)}") from None
        return self.save(memory)

    def save(self, memory: Memory, *, message: str | None = None) -> Memory:
        """Write a whole memory record (create or replace) as one commit; a memory without a gist
        gets one (see :func:`core.gist.generate_gist`; short notes get none)."""
        return self.save_many([memory], message=message)[0]

    def save_many(self, memories: list[Memory], *, message: str | None = None,
                  make_gists: bool = True) -> list[Memory]:
        """Write several whole memory records as one commit. A memory whose ``gist`` is None
        gets one made first, unless ``make_gists`` is False (a bulk import that backfills
        later). The records passed in are not modified; the saved ones are returned."""
        memories = [self._with_gist(self._checked(m)) if make_gists else self._checked(m)
                    for m in memories]
        if not memories:
            return []
        with self._writing():
            if message is None:
                new = [m for m in memories if m.id not in self.store.memories]
                verb = "add" if len(new) == len(memories) else "update"
                message = _message(verb, memories)
            self._commit(message, self._memory_writes(memories), memories=memories)
        return memories

    def update(self, key: str, **changes: Any) -> Memory:
        """Change fields of a memory (``update: <id8> <words> (fields: a, b)``). A new content
        without a new gist drops the old gist, which no longer describes it."""
        if "id" in changes:
            raise VaultError("refused: a memory's id cannot be changed")
        with self._writing():
            old = self.get(key)
            before = old.model_dump()
            if "meta" in changes and isinstance(changes["meta"], MemoryMetadata):
                changes["meta"] = changes["meta"].model_dump()
            content_changed = "content" in changes and changes["content"] != old.content
            if content_changed and "gist" not in changes:
                changes["gist"] = None  # the old gist no longer describes it: made anew below
            data = {**before, **changes}
            try:
                new = Memory.model_validate(data)
            except ValidationError as exc:
                raise VaultError(f"refused: {_first_error(exc)}") from None
            if not new.content.strip():
                raise VaultError("refused: a memory needs non-empty content")
            if content_changed and new.gist is None:
                new = self._with_gist(new)
            fields_changed = sorted(k for k in changes if before.get(k) != data[k])
            message = _message("update", [new]) + (f" (fields: {', '.join(fields_changed)})"
                                                   if fields_changed else "")
            self._commit(message, self._memory_writes([new]), memories=[new])
        return new

    def touch(self, *keys: str, boost: bool = False) -> list[Memory]:
        """Reinforce memories: use_count + 1, last_used = now, and with ``boost`` strength + 0.1
        (capped at 2.0). Several ids are touched in one commit."""
        return self._change_each(keys, "touch", lambda m, now: {
            "use_count": m.use_count + 1,
            "last_used": now,
            **({"strength": min(MAX_BOOSTED_STRENGTH, m.strength + STRENGTH_BOOST)}
               if boost else {}),
        })

    def archive(self, *keys: str) -> list[Memory]:
        return self._set_status(keys, MemoryStatus.ARCHIVED, "archive")

    def unarchive(self, *keys: str) -> list[Memory]:
        return self._set_status(keys, MemoryStatus.ACTIVE, "unarchive",
                                require=MemoryStatus.ARCHIVED)

    def _set_status(self, keys: Iterable[str], status: MemoryStatus, verb: str,
                    require: MemoryStatus | None = None) -> list[Memory]:
        def change(m: Memory, _now: int) -> dict[str, Any]:
            if require is not None and m.status != require:
                raise VaultError(f"refused: {m.id[:8]} is {m.status.value}, not {require.value}")
            if m.status == status:
                raise VaultError(f"refused: {m.id[:8]} is already {status.value}")
            return {"status": status}
        return self._change_each(keys, verb, change)

    def _change_each(self, keys: Iterable[str], verb: str,
                     change: Callable[[Memory, int], dict[str, Any]]) -> list[Memory]:
        keys = list(keys)
        if not keys:
            raise VaultError(f"{verb}: no memory ids given")
        with self._writing():
            ids = _unique(self.resolve(k) for k in keys)
            now = now_epoch()
            new = [self.store.memories[i].model_copy(update=change(self.store.memories[i], now))
                   for i in ids]
            self._commit(_message(verb, new), self._memory_writes(new), memories=new)
        return new

    def delete(self, *keys: str) -> DeleteReport:
        """Delete memories and every relation that touches them, in one commit."""
        keys_list = list(keys)
        if not keys_list:
            raise VaultError("delete: no memory ids given")
        with self._writing():
            ids = _unique(self.resolve(k) for k in keys_list)
            gone = [self.store.memories[i] for i in ids]
            rels = _relations_touching(self.store, ids)
            writes: dict[Path, bytes | None] = {self.layout.memory_path(i): None for i in ids}
            writes.update({self.layout.relation_path(r.id): None for r in rels})
            message = _message("delete", gone)
            if rels:
                message += f" (+{len(rels)} relation{'s' if len(rels) != 1 else ''})"
            self._commit(message, writes, dropped_memories=ids,
                         dropped_relations=[r.id for r in rels])
        return DeleteReport(gone, rels)

    # -- relations --------------------------------------------------------------------------
    def relate(
        self,
        from_key: str,
        to_key: str,
        relation_type: str,
        *,
        strength: float = 1.0,
        metadata: dict[str, Any] | None = None,
        force: bool = False,
    ) -> Relation:
        """Create a typed relation between two living memories (``relate: ...``). A type outside
        :data:`KNOWN_RELATION_TYPES` is refused unless ``force``."""
        if not relation_type or not relation_type.strip():
            raise VaultError("refused: a relation needs a type")
        if relation_type not in KNOWN_RELATION_TYPES and not force:
            raise VaultError(
                f"refused: unknown relation type {relation_type!r} (known: "
                f"{', '.join(sorted(KNOWN_RELATION_TYPES))}; force to use it anyway)"
            )
        with self._writing():
            a, b = self.resolve(from_key), self.resolve(to_key)
            try:
                relation = Relation(id=str(uuid.uuid4()), from_memory_id=a, to_memory_id=b,
                                    relation_type=relation_type, strength=strength,
                                    metadata=dict(metadata or {}))
            except ValidationError as exc:
                raise VaultError(f"refused: {_first_error(exc)}") from None
            self.save_relations([relation])
        return relation

    def save_relations(self, relations: list[Relation], *, message: str | None = None) -> None:
        """Write whole relation records as one commit (the storage API: any type accepted)."""
        if not relations:
            return
        for r in relations:
            check_id(r.id, "relation")
        with self._writing():
            if message is None:
                if len(relations) == 1:
                    r = relations[0]
                    message = (f"relate: {r.from_memory_id[:8]} "
                               f"-{neutralise_line(r.relation_type)}-> {r.to_memory_id[:8]}")
                else:
                    message = f"relate: {len(relations)} relations"
            writes = {self.layout.relation_path(r.id): self.layout.encode(r) for r in relations}
            self._commit(message, writes, relations=relations)

    def unrelate(self, relation_key: str) -> Relation:
        with self._writing():
            rid = self.store.resolve(relation_key, kind="relation")
            r = self.store.relations[rid]
            message = (f"relate: remove {neutralise_line(r.relation_type)} "
                       f"{r.from_memory_id[:8]} -> {r.to_memory_id[:8]}")
            self._commit(message, {self.layout.relation_path(rid): None}, dropped_relations=[rid])
        return r

    # -- history ----------------------------------------------------------------------------
    def resolve_any(self, key: str) -> str:
        """Like :meth:`resolve`, but also finds memories that exist only in history."""
        try:
            return self.resolve(key)
        except UnknownIdError:
            pass
        try:
            check_id(key)
        except InvalidIdError:
            raise UnknownIdError(f"no memory with id or prefix {key!r}") from None
        if self.layout.memory_path(key).name in self.journal.names_ever(self.layout.memories_dir):
            return key
        if len(key) < MIN_PREFIX:
            raise UnknownIdError(f"no memory with id {key!r}")
        suffix = ".json"
        matches = sorted({n[: -len(suffix)] for n in self.journal.names_ever(self.layout.memories_dir)
                          if n.startswith(key) and n.endswith(suffix)})
        if not matches:
            raise UnknownIdError(f"no memory, living or in history, with id or prefix {key!r}")
        if len(matches) > 1:
            from .errors import AmbiguousIdError
            raise AmbiguousIdError(key, matches)
        return matches[0]

    # -- undo as revert (core/ops/revert.py) ---------------------------------------------------
    def revert(self, commit: str) -> RevertReport:
        """Reverse exactly the changes ``commit`` made, as a new commit; refused (nothing
        written) where a later commit changed the same, except later touches, which are kept."""
        from .ops.revert import revert

        return revert(self, commit)

    def undo(self) -> RevertReport:
        """Revert the newest operation not undone yet (read from the log: works across
        processes and restarts)."""
        from .ops.revert import undo

        return undo(self)

    def redo(self) -> RevertReport:
        """Revert the newest undo, if nothing but touches happened after it."""
        from .ops.revert import redo

        return redo(self)

    def undo_list(self, limit: int = 20) -> list[UndoEntry]:
        """What successive undos would take back, newest first."""
        from .ops.revert import undo_list

        return undo_list(self, limit)

    def history(self, key: str) -> list[HistoryEntry]:
        """The memory's life from git, newest first: created, each change, deletion."""
        return self.journal.log(self.layout.memory_path(self.resolve_any(key)))

    def version(self, key: str, rev: str) -> Memory:
        """The memory as it was at commit ``rev``."""
        memory_id = self.resolve_any(key)
        commit = self.journal.resolve_rev(rev)
        data = self.journal.show(commit, self.layout.memory_path(memory_id))
        if data is None:
            raise VaultError(f"memory {memory_id[:8]} did not exist at {rev}")
        try:
            memory = Memory.model_validate_json(data)
        except ValidationError as exc:
            raise VaultError(f"the version at {rev} is not a valid memory: {_first_error(exc)}") from None
        if memory.id != memory_id:
            raise VaultError(f"the version at {rev} holds id {memory.id!r}, not {memory_id!r}")
        return memory

    def restore(self, key: str, at: str | None = None) -> RestoreReport:
        """Bring back a deleted memory (with the relations its deletion removed) or an earlier
        version of a living one, as a new commit. Without ``at``: the last version before the
        deletion, or the version before the current one."""
        with self._writing():
            memory_id = self.resolve_any(key)
            entries = self.history(memory_id)
            live = memory_id in self.store.memories
            if at is None:
                if not entries:
                    raise VaultError(f"memory {memory_id[:8]} has no history to restore from")
                if not live:
                    at = f"{entries[0].commit}^" if entries[0].action == "deleted" else entries[0].commit
                else:
                    at = self._earlier_version(memory_id, entries[1:])
            source = self.journal.resolve_rev(at)
            memory = self.version(memory_id, source)
            relations: list[Relation] = []
            if not live:
                relations = self._relations_deleted_with(memory_id, entries)
            writes = self._memory_writes([memory])
            writes.update({self.layout.relation_path(r.id): self.layout.encode(r)
                           for r in relations})
            message = _message("restore", [memory]) + f" (from {source[:8]})"
            if relations:
                message += f" (+{len(relations)} relation{'s' if len(relations) != 1 else ''})"
            self._commit(message, writes, memories=[memory], relations=relations)
        return RestoreReport(memory, relations, source)

    def _earlier_version(self, memory_id: str, entries: list[HistoryEntry]) -> str:
        """The newest commit among ``entries`` (older history, newest first) at which the memory
        existed and differed from its current version. A deletion is skipped: the version before
        it is the next entry's, and after a restore it equals the current one."""
        current = self.store.memories[memory_id]
        for entry in entries:
            if entry.action == "deleted":
                continue
            data = self.journal.show(entry.commit, self.layout.memory_path(memory_id))
            try:
                if data is not None and Memory.model_validate_json(data) != current:
                    return entry.commit
            except ValidationError:
                continue
        raise VaultError(f"memory {memory_id[:8]} has no earlier version")

    def _relations_deleted_with(self, memory_id: str, entries: list[HistoryEntry]) -> list[Relation]:
        """Relations removed by the commit that deleted the memory, whose other end lives."""
        deleting = next((e for e in entries if e.action == "deleted"), None)
        if deleting is None:
            return []
        found = []
        for status, rel in self.journal.files_in_commit(deleting.commit, self.layout.relations_dir):
            what = self.layout.classify(rel)
            if status != "D" or what is None or what[1] in self.store.relations:
                continue
            data = self.journal.show(f"{deleting.commit}^", self.root / rel)
            try:
                relation = Relation.model_validate_json(data or b"")
            except ValidationError:
                continue
            ends = {relation.from_memory_id, relation.to_memory_id}
            if memory_id in ends and all(e == memory_id or e in self.store.memories for e in ends):
                found.append(relation)
        return found

    # -- gc and stats -----------------------------------------------------------------------
    def gc(self, *, dry_run: bool = False, archive: bool = False,
           threshold: float | None = None, now: int | None = None,
           force: bool = False) -> GcReport:
        """Active memories scoring below the forget threshold: listed (dry run), or deleted with
        their relations (or archived) in ONE commit that also records ``last_gc_at``. Refused
        (MaintenanceRefused) on a machine that is not the vault's designated maintenance
        machine (``core.ops.maintenance``), unless ``force``."""
        limit = self.config.forget_threshold if threshold is None else threshold
        at = now_epoch() if now is None else now

        def candidates() -> list[tuple[Memory, float]]:
            found = [(m, self.score(m, at)) for m in self.store.memories.values()
                     if m.status == MemoryStatus.ACTIVE]
            return sorted(((m, s) for m, s in found if s < limit), key=lambda p: (p[1], p[0].id))

        if dry_run:
            return GcReport(limit, candidates(), applied=False, archived=archive)
        with self._writing():
            check_maintenance(self.meta, "gc", force=force)
            found = candidates()
            report = GcReport(limit, found, applied=True, archived=archive)
            if not found:
                return report
            ids = [m.id for m, _ in found]
            writes = self._meta_write(last_gc_at=at, machine_id=_machine_id())
            noun = "memory" if len(ids) == 1 else "memories"
            if archive:
                new = [m.model_copy(update={"status": MemoryStatus.ARCHIVED}) for m, _ in found]
                writes.update(self._memory_writes(new))
                message = f"gc: archive {len(ids)} {noun} below {limit:g}"
                report.commit = self._commit(message, writes, memories=new)
            else:
                rels = _relations_touching(self.store, ids)
                writes.update({self.layout.memory_path(i): None for i in ids})
                writes.update({self.layout.relation_path(r.id): None for r in rels})
                message = f"gc: prune {len(ids)} {noun} below {limit:g}"
                report.relations_removed = rels
                report.commit = self._commit(message, writes, dropped_memories=ids,
                                             dropped_relations=[r.id for r in rels])
        return report

    def stats(self, now: int | None = None) -> dict[str, Any]:
        at = now_epoch() if now is None else now
        memories = list(self.store.memories.values())
        scores = [self.score(m, at) for m in memories]
        per_status = {s.value: 0 for s in MemoryStatus}
        for m in memories:
            per_status[m.status.value] += 1
        edges = [0.0, 0.05, 0.15, 0.35, 0.65, 1.0, 2.0]
        histogram = []
        for lo, hi in zip(edges, edges[1:] + [float("inf")]):
            histogram.append({"from": lo, "to": None if hi == float("inf") else hi,
                              "count": sum(1 for s in scores if lo <= s < hi)})
        relation_types: dict[str, int] = {}
        for r in self.store.relations.values():
            relation_types[r.relation_type] = relation_types.get(r.relation_type, 0) + 1
        threshold = self.config.forget_threshold
        return {
            "path": str(self.root),
            "memories": len(memories),
            "by_status": per_status,
            "relations": len(self.store.relations),
            "relation_types": dict(sorted(relation_types.items())),
            "tags": len(self.store.tags()),
            "avg_score": sum(scores) / len(scores) if scores else 0.0,
            "below_forget_threshold": sum(
                1 for m, s in zip(memories, scores) if s < threshold and m.status == MemoryStatus.ACTIVE),
            "forget_threshold": threshold,
            "decay_model": self.config.decay_model,
            "score_histogram": histogram,
            "problems": [str(p) for p in self.problems],
            "last_gc_at": self.meta.get("last_gc_at"),
            "last_consolidation_at": self.meta.get("last_consolidation_at"),
            "head": self._head,
        }

    def _checked(self, memory: Memory) -> Memory:
        check_id(memory.id)
        return memory

    @staticmethod
    def _with_gist(memory: Memory, level: str = "moderate") -> Memory:
        if memory.gist is not None or len(memory.content.encode("utf-8")) > MAX_FILE_BYTES:
            return memory  # (too large to be written: _commit refuses it, no gist is worth making)
        gist = make_gist(memory.content, memory.meta.tags, memory.entities, level)
        return memory if gist is None else memory.model_copy(update={"gist": gist})

    # -- gists ------------------------------------------------------------------------------
    def regenerate_gist(self, key: str, level: str = "moderate") -> Memory:
        """Make the memory's gist anew at ``level`` (``gist: <id8> ...``); None when the content
        is too short or no short enough gist exists."""
        check_level(level)
        with self._writing():
            old = self.get(key)
            gist = make_gist(old.content, old.meta.tags, old.entities, level)
            new = old.model_copy(update={"gist": gist})
            self._commit(_message("gist", [new]) + f" ({level})",
                         self._memory_writes([new]), memories=[new])
        return new

    def backfill_gists(
        self,
        level: str = "moderate",
        *,
        dry_run: bool = False,
        progress: Callable[[int, int], None] | None = None,
    ) -> GistBackfill:
        """Give every memory without a gist one, in ONE commit (``gist: backfill N ...``).
        ``progress(done, total)`` is called as gists are made. A dry run changes nothing."""
        check_level(level)
        with contextlib.ExitStack() as stack:
            if not dry_run:
                stack.enter_context(self._writing())
            missing = sorted((m for m in self.store.memories.values() if m.gist is None),
                             key=lambda m: m.id)
            made: list[Memory] = []
            for done, memory in enumerate(missing, 1):
                gist = make_gist(memory.content, memory.meta.tags, memory.entities, level)
                if gist is not None:
                    made.append(memory.model_copy(update={"gist": gist}))
                if progress is not None:
                    progress(done, len(missing))
            report = GistBackfill(level, len(missing), made,
                                  sum(estimate_tokens(m.content) for m in made),
                                  sum(estimate_tokens(m.gist or "") for m in made))
            if made and not dry_run:
                noun = "memory" if len(made) == 1 else "memories"
                report.commit = self._commit(
                    f"gist: backfill {len(made)} {noun} ({level})",
                    self._memory_writes(made), memories=made)
        return report


# -- helpers ---------------------------------------------------------------------------------
def _read_head_or_none(found: tuple[Path, Path] | None, read_head: Callable) -> str | None:
    if found is None:
        return None
    try:
        return read_head(*found)
    except OSError:
        return None


def _unique(items: Iterable[str]) -> list[str]:
    seen: dict[str, None] = {}
    for item in items:
        seen.setdefault(item, None)
    return list(seen)


def _relations_touching(store: Store, ids: Iterable[str]) -> list[Relation]:
    found: dict[str, Relation] = {}
    for i in ids:
        for r in store.relations_of(i):
            found[r.id] = r
    return list(found.values())


def first_words(text: str, limit: int = 48) -> str:
    """The first words of a text on one line, cut at a word boundary, with control characters
    shown as visible escapes (:func:`~core.textutil.neutralise_line`): safe in a commit subject
    and on a terminal."""
    flat = " ".join(text.split())
    if len(flat) > limit:
        flat = (flat[:limit].rsplit(" ", 1)[0] or flat[:limit]) + "…"
    return neutralise_line(flat)


def _message(verb: str, memories: list[Memory]) -> str:
    if len(memories) == 1:
        m = memories[0]
        return f"{verb}: {m.id[:8]} {first_words(m.text)}"
    shown = ", ".join(m.id[:8] for m in memories[:8])
    more = f", +{len(memories) - 8}" if len(memories) > 8 else ""
    return f"{verb}: {len(memories)} memories ({shown}{more})"


def _first_error(exc: ValidationError) -> str:
    err = exc.errors(include_url=False)[0]
    where = ".".join(str(p) for p in err.get("loc", ()))
    return f"{where}: {err.get('msg')}" if where else str(err.get("msg"))


def _machine_id() -> str:
    return machine_id()


__all__ = ["ChangeSet", "DeleteReport", "GistBackfill", "GcReport", "OpenReport", "RestoreReport", "Vault", "META_FILE"]
