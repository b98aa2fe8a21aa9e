"""Use records without a commit per read: what an assistant's searches and recalls touch.

An MCP server records every memory a search, a recall or an open returns (``last_used`` = now,
``use_count`` + 1). A commit per search would flood history, so :meth:`UseRecords.record_use`
writes the records to the memory files at once (so ``kill -9`` loses none: the bytes are in the
kernel when it returns; they are not flushed to disk one file at a time, which cost more than
the search itself, and reach it with the system's next flush or the commit) and notes them in
``.git/memvault/pending-use.json``, one line appended for each record_use (rewriting the whole
list each time cost more the longer it grew: 2-10 ms a search with 1,000 records pending);
:meth:`UseRecords.flush_use` commits every pending record
as ONE ``use:`` commit. Nothing else is needed for safety: every writer, in any process,
commits the pending records first when it takes the lock
(:meth:`~core.vault.writing.WritePath.transaction`), and so does the next open, so they are
never mistaken for a person's outside edits.

The pending file names each path with the SHA-256 of the bytes written. A file that no longer
holds those bytes when the records are committed was changed by someone else since: it is left
out (a person's edit is then committed by the outside-edit rules, never as a use record).
The line is written before the memory files, so a crash in between leaves at most a record of
a write that did not happen, which the digest check skips, and a line a crash cut short is one
whose memory files were never written: it is left out
(:func:`~core.vault.pending_use.parse_pending_use`).

Undo never takes a ``use:`` commit back, and later use records never block an undo
(:data:`core.ops.revert.USE_RECORDS`)."""

from __future__ import annotations

from pathlib import Path

from ..errors import ChangedMeanwhileError, VaultError
from ..model.records import Memory, now_epoch
from ..store.checked_replace import ChangedOnDiskError, file_state, replace_checked, stat_key
from .pending_use import PendingUse, digest, use_message_ids
from .reports import unique
from .state import VaultState
from .writing import WritePath


class UseRecords:
    """``record_use`` (written now, committed later) and ``flush_use`` (one commit) for the vault
    whose cache is ``state``: the records are noted in ``pending``, and ``writes`` commits
    them."""

    def __init__(self, state: VaultState, writes: WritePath, pending: PendingUse) -> None:
        self.state = state
        self.writes = writes
        self.pending = pending

    def record_use(self, keys: list[str] | tuple[str, ...]) -> list[Memory]:
        """Record a use of each memory (``use_count`` + 1, ``last_used`` = now) in its file at
        once, without a commit; :meth:`flush_use` (or the next writer) commits them. A person's
        valid edit of one of these files is committed first (``external:``) and the use is
        recorded on top of it, also when their save lands while the use is written (the write
        never replaces a file other than the one read: :mod:`core.store.checked_replace`; when
        they save again every time, the use is left unrecorded and said in the notices); a
        file that cannot be read is recorded with an ordinary commit (which sets it aside in the
        quarantine first)."""
        if not keys:
            return []
        with self.writes.transaction(flush_use=False):
            ids = unique(self.state.store.resolve(k) for k in keys)
            try:
                return self.writes.reapplying(lambda: self._record(ids))
            except ChangedMeanwhileError as exc:  # a person saves faster than a commit takes
                name = getattr(exc.path, "name", "a file")
                self.state.notices.append(f"a use was not recorded: {name} was saved again "
                                          "each time it was about to be written (every save "
                                          "is kept)")
                memories = self.state.store.memories
                return [memories[i] for i in ids if i in memories]

    def _record(self, ids: list[str]) -> list[Memory]:
        """One try of :meth:`record_use` (the lock held): ChangedMeanwhileError when a person
        saved one of the files after it was read; the files written before are use records
        like any other (listed as pending, and in the cache)."""
        state = self.state
        unreadable = self.writes.take_outside_edits(state.layout.memory_path(i) for i in ids)
        now = now_epoch()
        new = [state.store.memories[i].model_copy(update={
            "use_count": state.store.memories[i].use_count + 1, "last_used": now})
            for i in ids]
        files = self.writes.memory_writes(new)
        self.writes.check_sizes(files)
        moving = len(state.layout.complete_writes(files)) != len(files)
        if unreadable or moving or any(p.path in files for p in state.problems):
            # (moving: a file at the other layout's path goes in the same commit)
            self.writes.commit(use_message_ids([m.id for m in new]), files, memories=new,
                               again=False)
            return new
        # what each file holds now, and that it is still the file the cache was read from
        before = {path: file_state(path) for path in files}
        for path in files:
            if stat_key(path) != state.layout.seen.get(str(path)):
                raise ChangedMeanwhileError(f"{path.name} changed on disk since it was read",
                                            path)
        self.pending.append({
            "via": self.writes.trailers.via,
            "paths": {path.relative_to(state.root).as_posix(): digest(data or b"")
                      for path, data in files.items()}})
        written: dict[Path, tuple[int, int, int]] = {}
        try:  # (no flush to disk each: a killed process loses nothing, the commit keeps them)
            for memory, (path, data) in zip(new, files.items()):
                key = replace_checked(path, data or b"", before[path], durable=False)
                if key is not None:
                    written[path] = key
                state.store.put_memory(memory)
        except ChangedOnDiskError as exc:  # a person's save landed since the look: kept
            raise ChangedMeanwhileError(f"{exc.path.name} changed on disk while its use was "
                                        "recorded", exc.path) from None
        except OSError as exc:
            raise VaultError(f"could not record the use of {len(new)} memories: "
                             f"{exc.strerror or exc}") from None
        finally:  # what memvault wrote, never a save that replaced it since
            state.layout.note(list(written), written)
        return new

    def flush_use(self) -> str | None:
        """Commit the use records waiting on disk as one ``use:`` commit; the new HEAD, or None
        when there was nothing to commit."""
        if self.state.readonly:
            return None
        with self.writes.transaction(flush_use=False):
            return self.writes.commit_pending_use()

    @property
    def pending_use(self) -> int:
        """How many memories have use records waiting for a commit."""
        return len(self.pending.read().get("paths", {}))
