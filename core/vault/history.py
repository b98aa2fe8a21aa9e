"""A memory's past: its history from git, any version, restore (also after deletion). Undo and
redo, a revert of exactly one operation, are :mod:`core.ops.revert`'s."""

from __future__ import annotations

from pydantic import ValidationError

from ..errors import InvalidIdError, UnknownIdError, VaultError
from ..git.journal import HistoryEntry
from ..model.records import (
    Memory,
    Relation,
)
from ..store.prefixes import MIN_PREFIX, resolve_prefix
from ..store.layout import (
    check_id,
)
from .reports import RestoreReport, first_error, op_message
from .state import VaultState
from .writing import WritePath


class History:
    """A memory's past (history, versions, restore) in the vault whose cache is ``state``;
    a restore commits through ``writes``."""

    def __init__(self, state: VaultState, writes: WritePath) -> None:
        self.state = state
        self.writes = writes

    def resolve_any(self, key: str) -> str:
        """Like :meth:`Vault.resolve`, but also finds memories that exist only in history."""
        try:
            return self.state.store.resolve(key)
        except UnknownIdError:
            pass
        try:
            check_id(key)
        except InvalidIdError:
            raise UnknownIdError(f"no memory with id or prefix {key!r}") from None
        layout = self.state.layout
        names = self.state.journal.history.names_ever(layout.memories_dir)
        if layout.memory_path(key).name in names:
            return key
        suffix = ".json"
        ever = {n[: -len(suffix)] for n in names if n.endswith(suffix)}
        try:
            return resolve_prefix(key, ever)
        except UnknownIdError:
            if len(key) < MIN_PREFIX:
                raise
            raise UnknownIdError(f"no memory, living or in history, with id or prefix {key!r}",
                                 key) from None

    def history(self, key: str) -> list[HistoryEntry]:
        """The memory's life from git, newest first: created, each change, deletion."""
        return self.state.journal.history.log(self.state.layout.memory_paths(self.resolve_any(key)))

    def version(self, key: str, rev: str) -> Memory:
        """The memory as it was at commit ``rev``."""
        memory_id = self.resolve_any(key)
        commit = self.state.journal.history.resolve_rev(rev)
        data = self._memory_at(commit, memory_id)
        if data is None:
            raise VaultError(f"memory {memory_id[:8]} did not exist at {rev}")
        try:
            memory = Memory.model_validate_json(data)
        except ValidationError as exc:
            raise VaultError(f"the version at {rev} is not a valid memory: "
                             f"{first_error(exc)}") from None
        if memory.id != memory_id:
            raise VaultError(f"the version at {rev} holds id {memory.id!r}, not {memory_id!r}")
        return memory

    def _memory_at(self, commit: str, memory_id: str) -> bytes | None:
        """The memory's file at ``commit``, in whichever layout the vault had then."""
        for path in self.state.layout.memory_paths(memory_id):
            data = self.state.journal.history.show(commit, path)
            if data is not None:
                return data
        return None

    def restore(self, key: str, at: str | None = None) -> RestoreReport:
        """Bring back a deleted memory (with the relations its deletion removed) or an earlier
        version of a living one, as a new commit. Without ``at``: the version before the
        memory's last change (its deletion, or the last edit), restores not counted, so
        restoring twice is restoring once. A memory already at that version is left as it is:
        no commit, and the report says so (``unchanged``)."""
        with self.writes.transaction():
            memory_id = self.resolve_any(key)
            entries = self.history(memory_id)
            live = memory_id in self.state.store.memories
            if at is None:
                at = self._before_last_change(memory_id, entries)
            source = self.state.journal.history.resolve_rev(at)
            memory = self.version(memory_id, source)
            if live and self.state.store.memories[memory_id] == memory:
                return RestoreReport(memory, [], source, unchanged=True)
            relations: list[Relation] = []
            if not live:
                relations = self._relations_deleted_with(memory_id, entries)
            writes = self.writes.memory_writes([memory])
            writes.update({self.state.layout.relation_path(r.id): self.state.layout.encode(r)
                           for r in relations})
            message = op_message("restore", [memory]) + f" (from {source[:8]})"
            if relations:
                message += f" (+{len(relations)} relation{'s' if len(relations) != 1 else ''})"
            self.writes.commit(message, writes, memories=[memory], relations=relations)
        return RestoreReport(memory, relations, source)

    def _before_last_change(self, memory_id: str, entries: list[HistoryEntry]) -> str:
        """The revision just before the memory's last change that was not itself a restore
        nor a move between layouts (``entries``: its history, newest first)."""
        last = next((e for e in entries
                     if e.operation != "restore" and e.action != "moved"), None)
        if last is None:
            raise VaultError(f"memory {memory_id[:8]} has no history to restore from")
        if last.action == "created":
            raise VaultError(f"memory {memory_id[:8]} has no earlier version")
        return f"{last.commit}^"

    def _relations_deleted_with(self, memory_id: str, entries: list[HistoryEntry]
                                ) -> list[Relation]:
        """Relations removed by the commit that deleted the memory, whose other end lives."""
        deleting = next((e for e in entries if e.action == "deleted"), None)
        if deleting is None:
            return []
        state = self.state
        found = []
        for status, rel in state.journal.history.files_in_commit(deleting.commit,
                                                         state.layout.relations_dir):
            what = state.layout.classify(rel)
            if status != "D" or what is None or what[1] in state.store.relations:
                continue
            data = state.journal.history.show(f"{deleting.commit}^", state.root / rel)
            try:
                relation = Relation.model_validate_json(data or b"")
            except ValidationError:
                continue
            ends = {relation.from_memory_id, relation.to_memory_id}
            if memory_id in ends and all(e == memory_id or e in state.store.memories
                                         for e in ends):
                found.append(relation)
        return found

