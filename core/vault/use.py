"""Use records without a commit per read: what an assistant's searches and recalls touch.

An MCP server records every memory a search, a recall or an open returns (``last_used`` = now,
``use_count`` + 1). A commit per search would flood history, so :meth:`UseRecords.record_use`
writes the records to the memory files at once (so ``kill -9`` loses none: the bytes are in the
kernel when it returns; they are not flushed to disk one file at a time, which cost more than
the search itself, and reach it with the system's next flush or the commit) and notes them in
``.git/memvault/pending-use.json``; :meth:`UseRecords.flush_use` commits every pending record
as ONE ``use:`` commit. Nothing else is needed for safety: every writer, in any process,
commits the pending records first when it takes the lock (:meth:`Writing.transaction`), and so
does the next open, so they are never mistaken for a person's outside edits.

The pending file names each path with the SHA-256 of the bytes written. A file that no longer
holds those bytes when the records are committed was changed by someone else since: it is left
out (a person's edit is then committed by the outside-edit rules, never as a use record).
The file is written before the memory files, so a crash in between leaves at most a record of
a write that did not happen, which the digest check skips.

Undo never takes a ``use:`` commit back, and later use records never block an undo
(:data:`core.ops.revert.USE_RECORDS`)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path

from ..errors import VaultError
from ..model.records import Memory, now_epoch
from ..store.layout import read_vault_file, remove_file, write_atomic
from ..textutil import neutralise_line
from .reports import unique

PENDING_USE_FILE = "pending-use.json"
USE_VERB = "use"


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class UseRecords:
    """``record_use`` (written now, committed later) and ``flush_use`` (one commit)."""

    def record_use(self, keys: list[str] | tuple[str, ...]) -> list[Memory]:
        """Record a use of each memory (``use_count`` + 1, ``last_used`` = now) in its file at
        once, without a commit; :meth:`flush_use` (or the next writer) commits them. A person's
        valid edit of one of these files is committed first (``external:``) and the use is
        recorded on top of it; a file that cannot be read is recorded with an ordinary commit
        (which sets it aside in the quarantine first)."""
        if not keys:
            return []
        with self.transaction(flush_use=False):
            ids = unique(self.resolve(k) for k in keys)
            unreadable = self._take_outside_edits(self.layout.memory_path(i) for i in ids)
            now = now_epoch()
            new = [self.store.memories[i].model_copy(update={
                "use_count": self.store.memories[i].use_count + 1, "last_used": now})
                for i in ids]
            writes = self._memory_writes(new)
            self._check_sizes(writes)
            moving = len(self.layout.complete_writes(writes)) != len(writes)
            if unreadable or moving or any(p.path in writes for p in self.problems):
                # (moving: a file at the other layout's path goes in the same commit)
                self._commit(_use_message(new), writes, memories=new)
                return new
            pending = self._read_pending_use()
            pending["via"] = self.via
            paths = pending.setdefault("paths", {})
            for path, data in writes.items():
                paths[path.relative_to(self.root).as_posix()] = _digest(data or b"")
            self._write_pending_use(pending, durable=False)
            try:  # (no flush to disk each: a killed process loses nothing, the commit keeps them)
                for path, data in writes.items():
                    write_atomic(path, data or b"", durable=False)
            except OSError as exc:
                raise VaultError(f"could not record the use of {len(new)} memories: "
                                 f"{exc.strerror or exc}") from None
            finally:
                self.layout.note(writes)
            for memory in new:
                self.store.put_memory(memory)
        return new

    def flush_use(self) -> str | None:
        """Commit the use records waiting on disk as one ``use:`` commit; the new HEAD, or None
        when there was nothing to commit."""
        if self.readonly:
            return None
        with self.transaction(flush_use=False):
            return self._commit_pending_use()

    @property
    def pending_use(self) -> int:
        """How many memories have use records waiting for a commit."""
        return len(self._read_pending_use().get("paths", {}))

    # -- internals (the lock is held) ---------------------------------------------------------
    def _pending_use_path(self) -> Path:
        return self.journal.state_dir / PENDING_USE_FILE

    def _read_pending_use(self) -> dict:
        try:
            data, _ = read_vault_file(self._pending_use_path())
            record = json.loads(data)
        except FileNotFoundError:
            return {}
        except (OSError, ValueError):
            self.notices.append("the list of pending use records was unreadable and was "
                                "discarded; the records stay in the files and are committed "
                                "as outside edits")
            with contextlib.suppress(OSError):
                remove_file(self._pending_use_path())
            return {}
        if not isinstance(record, dict) or not isinstance(record.get("paths", {}), dict):
            return {}
        return record

    def _write_pending_use(self, record: dict, *, durable: bool = True) -> None:
        try:
            os.makedirs(self.journal.state_dir, mode=0o700, exist_ok=True)
            write_atomic(self._pending_use_path(),
                         json.dumps(record, indent=2, sort_keys=True).encode(), durable=durable)
        except OSError as exc:
            raise VaultError(f"could not record a use: {exc.strerror or exc}; nothing was "
                             "written") from None

    def _pending_use_files(self, record: dict) -> list[tuple[Path, str]]:
        """(path, memory id) of the pending use records whose files still hold what was
        recorded."""
        adopt = []
        for rel, digest in sorted(record.get("paths", {}).items()):
            what = self.layout.classify(rel) if isinstance(rel, str) else None
            if what is None or what[0] != "memory":
                continue
            path = self.root / rel
            try:
                data, _ = read_vault_file(path)
            except OSError:
                continue
            if _digest(data) == digest:
                adopt.append((path, what[1]))
        return adopt

    def _take_pending_use_into_cache(self) -> bool:
        """The cache takes the pending use records (another process's too) without a commit;
        True when there are some (see :meth:`Writing.transaction`'s lazy mode)."""
        record = self._read_pending_use()
        files = self._pending_use_files(record) if record else []
        if files:
            self._reload_paths(p.relative_to(self.root).as_posix() for p, _ in files)
            self.layout.note(p for p, _ in files)
        return bool(record)

    def _commit_pending_use(self) -> str | None:
        """Commit the pending use records whose files still hold what was recorded, then forget
        the list. The cache is brought up to date by the caller's catch-up."""
        record = self._read_pending_use()
        if not record:
            return None
        adopt = self._pending_use_files(record)
        commit = None
        if adopt:
            before = self.journal.head()
            # who recorded the uses, not the tool running now
            commit = self.journal.commit(_use_message_ids([i for _, i in adopt]),
                                         adopt=[p for p, _ in adopt],
                                         via=record.get("via") or None)
            if commit == before:
                commit = None
            self.layout.note(p for p, _ in adopt)
        with contextlib.suppress(FileNotFoundError):
            remove_file(self._pending_use_path())
        return commit


def _use_message(memories: list[Memory]) -> str:
    return _use_message_ids([m.id for m in memories])


def _use_message_ids(ids: list[str]) -> str:
    shown = ", ".join(i[:8] for i in ids[:8]) + (f", +{len(ids) - 8}" if len(ids) > 8 else "")
    noun = "memory" if len(ids) == 1 else "memories"
    return neutralise_line(f"{USE_VERB}: {len(ids)} {noun} recalled or searched ({shown})")
