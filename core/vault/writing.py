"""The one write path: every operation runs in a :meth:`Writing.transaction` (the lock held, the
cache caught up with other writers) and commits its files as ONE commit (:meth:`Writing._commit`).
Multi-file operations build a :class:`~core.vault.reports.Plan` (which is also their preview)
and hand it to :meth:`Writing.apply`."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import JournalError, VaultError
from ..model.records import (
    Memory,
    Relation,
)
from ..store.layout import (
    LAYOUT_KEY,
    MAX_FILE_BYTES,
    META_FILE,
    LoadProblem,
    RecordTooLargeError,
    check_folder,
    check_id,
)
from ..model.relation_rule import is_lineage
from .reports import Plan, StalePlanError, relations_going_with

if TYPE_CHECKING:
    from .api import Vault


def _record_name(layout: Any, rel: str) -> str:
    what = layout.classify(rel)
    if what is None:
        return rel
    kind, record_id = what
    return META_FILE if kind == "meta" else f"{kind} {record_id[:8]}"


class Writing:
    """The one write path: the lock, catching up with other writers, one commit per operation."""

    @contextlib.contextmanager
    def transaction(self, *, flush_use: bool | str = True) -> Iterator[None]:
        """Hold the write lock, up to date: finish what a crashed writer left, commit the use
        records waiting on disk (:mod:`core.vault.use`; unless ``flush_use`` is False), and catch
        up with commits other processes made since this vault last looked. Every write runs
        inside one; so do callers that run git themselves (sync), calling :meth:`catch_up` after.

        ``flush_use="lazy"`` (the record operations and :meth:`apply`): the cache takes the
        use records at once, and they are committed only just before the operation's own
        first commit or its look for a person's edits (:meth:`_settle_use`), so an operation
        refused before it writes (an unknown id, a bad value) commits nothing at all."""
        if self.readonly:
            raise VaultError(f"the vault at {self.root} was opened read-only")
        with self.journal.lock():
            if self.journal.has_intent():  # a writer crashed: finish it before anything else
                self._recover()
            if flush_use == "lazy":
                self._use_due = self._take_pending_use_into_cache() or self._use_due
            elif flush_use:
                self._use_due = False
                self._commit_pending_use()
            self.catch_up()
            yield

    _use_due = False  # use records taken into the cache, not committed yet (lazy transaction)

    def _settle_use(self) -> None:
        """Commit the use records a lazy transaction took into the cache (before a commit, or
        before files that changed on disk are taken for a person's edits)."""
        if self._use_due:
            self._use_due = False
            self._commit_pending_use()
            self.catch_up()

    def catch_up(self) -> None:
        """Reload what commits made since this vault last looked changed (another process, a
        sync, a commit made straight through the journal), and take the new HEAD as seen."""
        head = self.journal.head()
        if head != self._head:
            try:
                changed = self.journal.changed_between(self._head, head)
            except JournalError:  # our HEAD is gone (history rewritten: `memvault purge`)
                self._load_files()
            else:
                self._reload_paths(changed)
            self._head = head

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
        garbage ``.meta.json``) is copied into the quarantine first instead, never committed.
        Memories removed take along the relations the one rule removes with them
        (:mod:`core.model.relation_rule`), in this same commit, whoever forgot to list them.
        A memory's file at the other layout's path goes in the same commit
        (:meth:`~core.store.layout.Layout.complete_writes`).
        Every commit's files are checked for secrets first (:mod:`core.secrets.write_check`:
        refused, redacted or allowed by the policy in force); the cache takes what was written.
        The use records a lazy transaction took are committed only once the operation's files
        passed the screen and the size check: a refused write commits nothing at all."""
        dropped_memories = list(dropped_memories)
        dropped_relations = [*dropped_relations,
                             *self._drop_relations_of_gone(writes, dropped_memories)]
        writes = self.layout.complete_writes(writes)
        from ..secrets.policy import policy_in_force
        from ..secrets.write_check import check_commit  # only a write checks

        checked = check_commit(message, writes, memories, relations, layout=self.layout,
                               store=self.store,
                               policy=policy_in_force(self.secret_policy, self.meta))
        self.notices.extend(checked.notices)
        message, writes = checked.message, checked.writes
        memories, relations = checked.memories, checked.relations
        self._check_sizes(writes)
        self._settle_use()
        unreadable = self._take_outside_edits(writes, reload=False)
        unreadable += [p for p in self.problems if p.path in writes]
        if self.layout.meta_path in writes:
            _, reason = self.layout.load_meta()
            if reason is not None:
                unreadable.append(LoadProblem(self.layout.meta_path, reason))
        for problem in {p.path: p for p in unreadable}.values():
            if os.path.lexists(problem.path):
                self._set_aside(problem.path, problem.reason)
        try:
            self._head = self.journal.commit(message, writes, via=self.via, tool=self.tool)
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

    def _drop_relations_of_gone(self, writes: dict[Path, bytes | None],
                                memory_ids: list[str]) -> list[str]:
        """Add to ``writes`` the removal of every relation the one rule removes with the
        memories ``memory_ids`` (not lineage, touching one of them) that ``writes`` does not
        already remove or rewrite; their ids."""
        extra = []
        if memory_ids:
            for r in relations_going_with(self.store, memory_ids).removed:
                path = self.layout.relation_path(r.id)
                if path not in writes:
                    writes[path] = None
                    extra.append(r.id)
        return extra

    def _take_outside_edits(self, paths: Iterable[Path], *, reload: bool = True
                            ) -> list[LoadProblem]:
        """Commit a person's valid edits of these files made while the vault was open
        (``external:``), so their edit is in history before an operation writes the file. With
        ``reload`` (an operation that changes only some fields: touch, archive, a use record)
        the cache takes them too, so the operation applies on top of the edit instead of
        writing the old fields back over it. Returns the changed files that cannot be read."""
        self._settle_use()
        changed = self.layout.changed_since_seen(paths)
        same = self._unchanged_since_open_many(changed)
        edited = [p.relative_to(self.root).as_posix() for p in changed if p not in same]
        adopt, unreadable = self._sort_outside_edits(edited)
        if adopt:
            self._commit_external(adopt, "while the vault was open")
            self._note_secrets_in(adopt)
            if reload:
                self._reload_paths(adopt)
        return unreadable

    def _note_secrets_in(self, rels: Iterable[str]) -> None:
        """A person's edits just committed as they wrote them (``external:``) are never
        rewritten; one that holds what looks like a secret is said in :attr:`notices`."""
        from ..secrets.policy import policy_in_force
        from ..secrets.write_check import outside_edit_notices

        policy = policy_in_force(self.secret_policy, self.meta)
        self.notices.extend(outside_edit_notices(self.layout, policy, rels))

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

    def apply(self, plan: Plan | Callable[[Vault], Plan]) -> Plan:
        """Commit a :class:`Plan` as ONE commit and return it, with its ``commit`` filled in.

        A plan built beforehand (the preview a person confirmed, ``plan.base`` set) is applied as
        it is, with the ids it showed; refused with :class:`StalePlanError`, nothing written,
        when a commit since ``plan.base`` changed a record it writes or removes, or related a
        memory it removes (other than by a lineage relation, which outlives it). A callable instead is run under the lock on the up-to-date vault and
        returns the plan (it only reads; if it raises, nothing is changed)."""
        with self.transaction(flush_use="lazy"):
            if callable(plan):
                plan = plan(self)
            else:
                self._settle_use()  # (a use commit since the plan's base is not a conflict)
                self._check_fresh(plan)
            for check in plan.requires:
                check(self)
            for m in plan.put_memories:
                check_id(m.id)
            for r in plan.put_relations:
                check_id(r.id, "relation")
            writes: dict[Path, bytes | None] = {}
            if plan.meta:
                writes.update(self._meta_write(**plan.meta))
            writes.update({self.layout.memory_path(i): None for i in plan.drop_memories})
            writes.update({self.layout.relation_path(i): None for i in plan.drop_relations})
            # a plan that changes the layout (an undo of `migrate-layout`) writes in the new one
            writes.update(self._memory_writes(plan.put_memories, plan.meta.get(LAYOUT_KEY)))
            writes.update({self.layout.relation_path(r.id): self.layout.encode(r)
                           for r in plan.put_relations})
            writes.update({self._plain_file(rel): data for rel, data in plan.put_files.items()})
            plan.drop_relations += self._drop_relations_of_gone(writes, plan.drop_memories)
            plan.commit = self._commit(
                plan.message, writes, memories=plan.put_memories,
                relations=plan.put_relations, dropped_memories=plan.drop_memories,
                dropped_relations=plan.drop_relations)
            # what was written (a redacted record under the ``redact`` secrets policy)
            plan.put_memories = [self.store.memories.get(m.id, m) for m in plan.put_memories]
            plan.put_relations = [self.store.relations.get(r.id, r) for r in plan.put_relations]
        return plan

    def _check_fresh(self, plan: Plan) -> None:
        """Refuse a plan built from an older HEAD that a later commit would be written over by
        (see :meth:`apply`). The lock is held and the cache is up to date."""
        if plan.base is None or plan.base == self._head:
            return
        changed = set(self.journal.changed_between(plan.base, self._head))
        mine = {p.relative_to(self.root).as_posix() for p in plan.record_paths(self.layout)}
        clash = sorted(changed & mine)
        removed = set(plan.drop_memories)
        for rel in changed - mine:
            what = self.layout.classify(rel)
            relation = self.store.relations.get(what[1]) if what and what[0] == "relation" else None
            if relation is not None and not is_lineage(relation) and \
                    {relation.from_memory_id, relation.to_memory_id} & removed:
                clash.append(rel)
        if clash:
            names = ", ".join(_record_name(self.layout, rel) for rel in clash[:5])
            more = f" and {len(clash) - 5} more" if len(clash) > 5 else ""
            raise StalePlanError(
                f"refused: the vault changed since this was planned ({names}{more} changed "
                f"after {plan.base[:8]}); nothing was written. Plan it again to see the "
                "current state")

    def _plain_file(self, rel: str) -> Path:
        """The path of a :attr:`Plan.put_files` entry: inside the vault, and not a record,
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

    def _memory_writes(self, memories: Iterable[Memory], layout: str | None = None
                       ) -> dict[Path, bytes | None]:
        return {self.layout.memory_path(m.id, layout): self.layout.encode(m) for m in memories}

    def _meta_write(self, **changes: Any) -> dict[Path, bytes | None]:
        meta = dict(self.layout.read_meta() or self.layout.new_meta())
        meta.update(changes)
        return {self.layout.meta_path: self.layout.encode(meta)}

