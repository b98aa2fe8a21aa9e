"""The one write path: every operation runs in a :meth:`WritePath.transaction` (the lock held, the
cache caught up with other writers) and commits its files as ONE commit (:meth:`WritePath.commit`).

Nothing else in the vault calls the journal's commit: a person's outside edits
(:meth:`WritePath.commit_external`) and the pending use records
(:meth:`WritePath.commit_pending_use`) are committed here too. Who writes (the trailers
``Memvault-Via`` and ``Memvault-Tool``) is fixed when the write path is made (``trailers``) and
passed to the journal's commit as arguments: never set and restored around an operation."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from ..errors import ChangedMeanwhileError, JournalError, VaultError
from ..model.records import Memory, Relation
from ..store.layout import MAX_FILE_BYTES, META_FILE, LoadProblem, RecordTooLargeError
from ..store.checked_replace import stat_key
from ..store.private import make_paths_private
from ..textutil import neutralise_line
from .adopted_times import times_for_adoption
from .indexed_open import OpenIndex
from .leftovers import clear_temp_files
from .loading import CacheLoader
from .outside_edits import set_aside, sort_outside_edits
from .pending_use import PendingUse, use_message_ids
from .reports import relations_going_with
from .state import VaultState
from .trailers import Trailers as Trailers  # (made by the vault, which imports this late)


T = TypeVar("T")

#: How many times an operation is done again over a person's save that landed while it wrote.
ATTEMPTS = 5


class WritePath:
    """The lock, catching up with other writers, one commit per operation, for the vault whose
    cache is ``state`` (``loader`` and ``index`` read files into it, ``pending`` is the list of
    use records waiting for a commit). ``trailers``: who writes, on each of its commits.
    ``secret_policy``: the secrets policy this writer asked for (``refuse``, ``redact``,
    ``allow``; the CLI's ``--allow-secret``), over the environment's and the vault's
    (:func:`core.secrets.policy.policy_in_force`); None: theirs. Both are fixed for the write
    path's life: a caller writing as someone else makes its own (:meth:`Vault.acting_for`)."""

    def __init__(self, state: VaultState, loader: CacheLoader, index: OpenIndex,
                 pending: PendingUse, *, trailers: Trailers,
                 secret_policy: str | None = None) -> None:
        self.state = state
        self.loader = loader
        self.index = index
        self.pending = pending
        self.trailers = trailers
        self.secret_policy = secret_policy
        self._use_due = False  # use records taken into the cache, not committed yet (lazy)

    @contextlib.contextmanager
    def transaction(self, *, flush_use: bool | str = True) -> Iterator[None]:
        """Hold the write lock, up to date: finish what a crashed writer left, commit the use
        records waiting on disk (:mod:`core.vault.use`; unless ``flush_use`` is False), and catch
        up with commits other processes made since this vault last looked. Every write runs
        inside one; so do callers that run git themselves (sync), calling :meth:`catch_up` after.

        ``flush_use="lazy"`` (the record operations and :meth:`Vault.apply`): the cache takes the
        use records at once, and they are committed only just before the operation's own
        first commit or its look for a person's edits (:meth:`settle_use`), so an operation
        refused before it writes (an unknown id, a bad value) commits nothing at all."""
        state = self.state
        if state.readonly:
            raise VaultError(f"the vault at {state.root} was opened read-only")
        with state.journal.lock():
            if state.journal.recovery.has_intent():  # a writer crashed: finish it first
                self.recover()
            if flush_use == "lazy":
                self._use_due = self.pending.take_into_cache() or self._use_due
            elif flush_use:
                self._use_due = False
                self.commit_pending_use()
            self.catch_up()
            yield

    def reapplying(self, change: Callable[[], T]) -> T:
        """``change()``, again (up to :data:`ATTEMPTS` times) when a person saves one of its files
        while it commits (ChangedMeanwhileError): ``change`` takes their edits, reads the files
        again and commits with ``again=False``: its change lands on their save, never over it."""
        for attempt in range(1, ATTEMPTS + 1):
            try:
                return change()
            except ChangedMeanwhileError:
                if attempt == ATTEMPTS:
                    raise
                self.catch_up()  # (a person's commit: re-read what it changed)
        raise AssertionError("unreachable")

    def settle_use(self) -> None:
        """Commit the use records a lazy transaction took into the cache (before a commit, or
        before files that changed on disk are taken for a person's edits)."""
        if self._use_due:
            self._use_due = False
            self.commit_pending_use()
            self.catch_up()

    def catch_up(self) -> None:
        """Reload what commits made since this vault last looked changed (another process, a
        sync, a commit made straight through the journal), and take the new HEAD as seen."""
        state = self.state
        head = state.journal.head()
        if head != state.head:
            try:
                changed = state.journal.history.changed_between(state.head, head)
            except JournalError:  # our HEAD is gone (history rewritten: `memvault purge`)
                self.loader.load_files()
            else:
                self.loader.reload_paths(changed)
            state.head = head

    def recover(self) -> None:
        """Finish operations that crashed or could not put the vault back (the lock is held),
        and bring the cache up to date with the files they touched."""
        state = self.state
        journal = state.journal
        touched = journal.recovery.pending_paths()
        note = journal.recovery.recover()
        clear_temp_files(state)
        if note:
            state.report.recovered = f"{state.report.recovered}; {note}" \
                if state.report.recovered else note
        if state.is_open:
            self.loader.reload_paths(journal.vault_rel(p) for p in touched)

    def commit(
        self,
        message: str,
        writes: dict[Path, bytes | None],
        memories: Iterable[Memory] = (),
        relations: Iterable[Relation] = (),
        dropped_memories: Iterable[str] = (),
        dropped_relations: Iterable[str] = (),
        *,
        again: bool = True,
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
        passed the check and the size check: a refused write commits nothing at all.
        A file a person saves while this commits is never written over
        (:meth:`~core.git.commit.Committer.commit`): their save is committed as theirs and the
        operation done again over it (up to :data:`ATTEMPTS` times); with ``again=False`` (an
        operation that changes some fields of what it read) ChangedMeanwhileError goes to the
        caller, which reads the file again and does its change on top."""
        state = self.state
        layout = state.layout
        dropped_memories = list(dropped_memories)
        dropped_relations = [*dropped_relations,
                             *self.drop_relations_of_gone(writes, dropped_memories)]
        writes = layout.complete_writes(writes)
        from ..secrets.policy import policy_in_force
        from ..secrets.write_check import check_commit  # only a write checks

        checked = check_commit(message, writes, memories, relations, layout=layout,
                               store=state.store,
                               policy=policy_in_force(self.secret_policy, state.meta))
        state.notices.extend(checked.notices)
        message, writes = checked.message, checked.writes
        memories, relations = checked.memories, checked.relations
        self.check_sizes(writes)
        self.settle_use()
        for attempt in range(1, ATTEMPTS + 1):
            try:
                self._commit_once(message, writes)
                break
            except ChangedMeanwhileError:  # a person saved one of the files, or committed
                if not again or attempt == ATTEMPTS:
                    raise
                self.catch_up()  # (their commit: re-read what it changed)
        state.problems = [p for p in state.problems if p.path not in writes]
        for rid in dropped_relations:
            state.store.drop_relation(rid)
        for mid in dropped_memories:
            state.store.drop_memory(mid)
        for memory in memories:
            state.store.put_memory(memory)
        for relation in relations:
            state.store.put_relation(relation)
        for path, data in writes.items():
            if path == layout.meta_path and data is not None:
                state.meta = layout.read_meta() or {}
        return state.head

    def _commit_once(self, message: str, writes: dict[Path, bytes | None]) -> None:
        """Take a person's edits of these files, set aside the unreadable ones, and commit
        ``writes`` over the files as last seen (ChangedMeanwhileError: one changed since)."""
        state, layout = self.state, self.state.layout
        unreadable = self.take_outside_edits(writes, reload=False)
        unreadable += [p for p in state.problems if p.path in writes]
        if layout.meta_path in writes:
            _, reason = layout.load_meta()
            if reason is not None:
                unreadable.append(LoadProblem(layout.meta_path, reason))
        for problem in {p.path: p for p in unreadable}.values():
            if os.path.lexists(problem.path):
                set_aside(state, problem.path, problem.reason)
        aside = {p.path for p in unreadable}
        seen = {p: layout.seen[str(p)] for p in writes  # (.meta.json: never a person's edit)
                if p not in aside and p != layout.meta_path and str(p) in layout.seen}
        trailers = self.trailers
        state.head = state.journal.commit(message, writes, via=trailers.via, tool=trailers.tool,
                                          seen=seen)
        # what memvault wrote, never a save that replaced it since (after a failure nothing is
        # noted: the files put back are looked at again before they are next written)
        written = state.journal.written
        layout.note([p for p in writes if p in written or writes[p] is None], written)

    def commit_external(self, rels: list[str], when: str = "") -> None:
        """One ``external:`` commit of vault files (vault-relative paths) as they are on disk; a
        record without its times gets them written in (:mod:`core.vault.adopted_times`)."""
        state = self.state
        shown = ", ".join(rels[:5]) + (f" and {len(rels) - 5} more" if len(rels) > 5 else "")
        shown = neutralise_line(shown)
        noun = "file" if len(rels) == 1 else "files"
        message = (f"external: {len(rels)} {noun} changed outside memvault"
                   f"{' ' + when if when else ''} ({shown})")
        paths = [state.root / r for r in rels]
        keys = {p: key for p in paths if (key := stat_key(p)) is not None}
        timed, said = times_for_adoption(state, paths)  # the times a file did not give
        if said:
            message += "\n\n" + said
        trailers = self.trailers
        state.head = state.journal.commit(message, timed, adopt=paths, via=trailers.via,
                                          tool=trailers.tool)
        # as before the commit read them: a save since is looked at again
        state.layout.note(paths, {**keys, **state.journal.written})

    def commit_pending_use(self) -> str | None:
        """Commit the pending use records whose files still hold what was recorded, then forget
        the list. The cache is brought up to date by the caller's catch-up."""
        record = self.pending.read()
        if not record:
            return None
        adopt = self.pending.files(record)
        commit = None
        if adopt:
            journal = self.state.journal
            before = journal.head()
            keys = {p: key for p, _ in adopt if (key := stat_key(p)) is not None}
            # who recorded the uses, not the tool running now
            commit = journal.commit(use_message_ids([i for _, i in adopt]),
                                    adopt=[p for p, _ in adopt], via=record.get("via") or None)
            if commit == before:
                commit = None
            self.state.layout.note((p for p, _ in adopt), keys)
        self.pending.forget()
        return commit

    def commit_repository_files(self, message: str, writes: dict[Path, bytes | None]
                                ) -> str | None:
        """Commit files of the repository that are none of the vault's (sync's
        ``.gitattributes``) as one commit with this write path's trailers: no rule of records
        applies to them, and the cache has nothing to take. A vault file is refused here (it
        goes through :meth:`commit`)."""
        state = self.state
        for path in writes:
            if path.is_relative_to(state.root) and state.layout.classify(
                    path.relative_to(state.root).as_posix()) is not None:
                raise ValueError(f"{path} is a vault file: commit it with WritePath.commit")
        self.settle_use()
        trailers = self.trailers
        state.head = state.journal.commit(message, writes, via=trailers.via, tool=trailers.tool)
        return state.head

    def drop_relations_of_gone(self, writes: dict[Path, bytes | None],
                               memory_ids: list[str]) -> list[str]:
        """Add to ``writes`` the removal of every relation the one rule removes with the
        memories ``memory_ids`` (not lineage, touching one of them) that ``writes`` does not
        already remove or rewrite; their ids."""
        extra = []
        if memory_ids:
            for r in relations_going_with(self.state.store, memory_ids).removed:
                path = self.state.layout.relation_path(r.id)
                if path not in writes:
                    writes[path] = None
                    extra.append(r.id)
        return extra

    def take_outside_edits(self, paths: Iterable[Path], *, reload: bool = True
                           ) -> list[LoadProblem]:
        """Commit a person's valid edits of these files made while the vault was open
        (``external:``), so their edit is in history before an operation writes the file. With
        ``reload`` (an operation that changes only some fields: touch, archive, a use record)
        the cache takes them too, so the operation applies on top of the edit instead of
        writing the old fields back over it. Returns the changed files that cannot be read."""
        state = self.state
        self.settle_use()
        changed = state.layout.changed_since_seen(paths)
        same = self.index.unchanged_since_open_many(changed)
        edited = [p.relative_to(state.root).as_posix() for p in changed if p not in same]
        adopt, unreadable = sort_outside_edits(state, edited)
        if adopt:
            self.commit_external(adopt, "while the vault was open")
            self.note_secrets_in(adopt)
            if reload:
                self.loader.reload_paths(adopt)
        return unreadable

    def adopt_outside_edits(self, candidates: list[str]) -> None:
        """Commit vault files that differ from HEAD and that no memvault operation wrote, when
        they load as valid records (see :func:`~core.vault.outside_edits.sort_outside_edits`);
        the others are reported in ``report.refused_external`` and left as they are."""
        if not candidates:
            return
        state = self.state
        journal = state.journal
        # Re-check under the lock: a writer that was mid-commit when we looked has finished now.
        still = set(journal.work_tree.finish_status(journal.work_tree.start_status(
            [state.root / c for c in candidates])))
        rels = [c for c in candidates if c in still and state.layout.classify(c) is not None]
        rels, refused = sort_outside_edits(state, rels)
        state.report.refused_external = refused
        state.report_problems(refused)
        if not rels:
            return
        self.commit_external(rels)
        make_paths_private(state.root, rels, journal.work_tree.shared_on_purpose)
        self.note_secrets_in(rels)
        self.loader.reload_paths(rels)
        state.report.external_commit = state.head
        state.report.external_paths = rels

    def note_secrets_in(self, rels: Iterable[str]) -> None:
        """A person's edits just committed as they wrote them (``external:``) are never
        rewritten; one that holds what looks like a secret is said in the notices."""
        from ..secrets.policy import policy_in_force
        from ..secrets.write_check import outside_edit_notices

        policy = policy_in_force(self.secret_policy, self.state.meta)
        self.state.notices.extend(outside_edit_notices(self.state.layout, policy, rels))

    def check_sizes(self, writes: dict[Path, bytes | None]) -> None:
        """The one size limit, on every write path: no record or metadata file larger than
        :data:`MAX_FILE_BYTES`, which the reader would refuse (the memory could not be read
        back). Raised before anything is written."""
        for path, data in writes.items():
            if data is None or len(data) <= MAX_FILE_BYTES:
                continue
            what = self.state.layout.classify(path.relative_to(self.state.root).as_posix())
            if what is None:
                continue  # not a record: a migration's backup of its sources, never loaded
            kind, record_id = what
            name = f"{kind} {record_id}" if record_id else META_FILE
            raise RecordTooLargeError(
                f"refused: {name} would be a file of {len(data):,} bytes, more than the "
                f"{MAX_FILE_BYTES:,} bytes ({MAX_FILE_BYTES // (1024 * 1024)} MiB) a vault file "
                "may hold (memvault could not read it back); nothing was written")

    def memory_writes(self, memories: Iterable[Memory], layout: str | None = None
                      ) -> dict[Path, bytes | None]:
        """The files of these memories (in ``layout``, else the vault's), to commit."""
        at = self.state.layout
        return {at.memory_path(m.id, layout): at.encode(m) for m in memories}

    def meta_write(self, **changes: Any) -> dict[Path, bytes | None]:
        """``.meta.json`` as on disk with ``changes`` set, to commit."""
        layout = self.state.layout
        meta = dict(layout.read_meta() or layout.new_meta())
        meta.update(changes)
        return {layout.meta_path: layout.encode(meta)}
