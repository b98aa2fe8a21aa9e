"""Creating and changing memories and relations: add, save, update, touch, archive, promote,
tag and untag, delete, relate. Each is one commit through the write path."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..errors import VaultError
from ..model.records import (
    KNOWN_RELATION_TYPES,
    PIN_KEY,
    Memory,
    MemoryMetadata,
    MemoryStatus,
    Relation,
    is_pinned,
    now_epoch,
)
from ..store.layout import (
    check_record,
    MAX_FILE_BYTES,
    check_id,
)
from ..textutil import has_controls, make_gist, neutralise_line
from .reports import DeleteReport, first_error, op_message, relations_going_with, unique
from .state import VaultState
from .writing import WritePath

MAX_BOOSTED_STRENGTH = 2.0
STRENGTH_BOOST = 0.1


class Records:
    """Creating and changing memories and relations of the vault whose cache is ``state``,
    each operation one commit through ``writes``."""

    def __init__(self, state: VaultState, writes: WritePath) -> None:
        self.state = state
        self.writes = writes

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
                content=content, gist=gist, strength=strength, entities=unique(entities),
                meta=MemoryMetadata(tags=unique(tags), source=source, context=context),
            )
        except ValidationError as exc:
            raise VaultError(f"refused: {first_error(exc)}") from None
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
        with self.writes.transaction(flush_use="lazy"):
            if message is None:
                new = [m for m in memories if m.id not in self.state.store.memories]
                verb = "add" if len(new) == len(memories) else "update"
                message = op_message(verb, memories)
            self.writes.commit(message, self.writes.memory_writes(memories), memories=memories)
            return [self.state.store.memories[m.id] for m in memories]  # as written (redacted...)

    def update(self, key: str, **changes: Any) -> Memory:
        """Change fields of a memory (``update: <id8> <words> (fields: a, b)``). A new content
        without a new gist drops the old gist, which no longer describes it."""
        if "id" in changes:
            raise VaultError("refused: a memory's id cannot be changed")
        with self.writes.transaction(flush_use="lazy"):
            old = self.state.get(key)
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
                raise VaultError(f"refused: {first_error(exc)}") from None
            if not new.content.strip():
                raise VaultError("refused: a memory needs non-empty content")
            check_record(new)  # before a gist is made of text that cannot be written
            if content_changed and new.gist is None:
                new = self._with_gist(new)
            fields_changed = sorted(k for k in changes if before.get(k) != data[k])
            message = op_message("update", [new]) + (f" (fields: {', '.join(fields_changed)})"
                                                   if fields_changed else "")
            self.writes.commit(message, self.writes.memory_writes([new]), memories=[new])
            return self.state.store.memories[new.id]

    def touch(self, *keys: str, boost: bool = False) -> list[Memory]:
        """Reinforce memories: use_count + 1, last_used = now, and with ``boost`` strength + 0.1
        (capped at 2.0). Several ids are touched in one commit."""
        return self._change_each(keys, "touch", lambda m, now: {
            "use_count": m.use_count + 1,
            "last_used": now,
            **({"strength": min(MAX_BOOSTED_STRENGTH, m.strength + STRENGTH_BOOST)}
               if boost else {}),
        })

    def pin(self, *keys: str) -> list[Memory]:
        """Pin memories: gc never deletes or archives them (``meta.extra["pinned"] = true``);
        one commit (``pin: ...``)."""
        return self._set_pin(keys, True)

    def unpin(self, *keys: str) -> list[Memory]:
        return self._set_pin(keys, False)

    def _set_pin(self, keys: Iterable[str], pinned: bool) -> list[Memory]:
        def change(m: Memory, _now: int) -> dict[str, Any]:
            if is_pinned(m) == pinned:
                raise VaultError(f"refused: {m.id[:8]} is {'already' if pinned else 'not'} "
                                 "pinned")
            extra = {k: v for k, v in m.meta.extra.items() if k != PIN_KEY}
            if pinned:
                extra[PIN_KEY] = True
            return {"meta": m.meta.model_copy(update={"extra": extra})}
        return self._change_each(keys, "pin" if pinned else "unpin", change)

    def archive(self, *keys: str) -> list[Memory]:
        return self._set_status(keys, MemoryStatus.ARCHIVED, "archive")

    def unarchive(self, *keys: str) -> list[Memory]:
        """Make archived memories what they were before: promoted when they carry a promotion
        (``promoted_at`` or ``promoted_to``, which archiving keeps), else active."""
        return self._set_status(keys, _unarchived_status, "unarchive",
                                require=MemoryStatus.ARCHIVED)

    def promote(self, *keys: str) -> list[Memory]:
        """Mark active memories promoted (``promoted_at`` = now: they no longer decay out of
        search), as CortexGraph's ``promote_memory`` does with ``force``, in one commit
        (``promote: ...``). One that is already promoted, or archived, is refused (nothing is
        written)."""
        def change(m: Memory, now: int) -> dict[str, Any]:
            if m.status != MemoryStatus.ACTIVE:
                raise VaultError(f"refused: {m.id[:8]} is {m.status.value}; only an active "
                                 "memory can be promoted")
            return {"status": MemoryStatus.PROMOTED, "promoted_at": now}
        return self._change_each(keys, "promote", change)

    def tag(self, *keys: str, tags: Iterable[str]) -> list[Memory]:
        """Add ``tags`` to memories in one commit (``tag: <ids> +a +b``); the ones that have them
        all already are left as they are (returned are the changed ones). Refused when no memory
        changes, or for an empty tag."""
        wanted = _tags(tags)
        return self._retag(keys, wanted, "tag", lambda have: unique([*have, *wanted]))

    def untag(self, *keys: str, tags: Iterable[str]) -> list[Memory]:
        """Take ``tags`` off memories in one commit (``untag: <ids> -a``); the ones without
        them are left as they are. Refused when no memory has any of them."""
        unwanted = set(_tags(tags))
        return self._retag(keys, sorted(unwanted), "untag",
                           lambda have: [t for t in have if t not in unwanted])

    def _retag(self, keys: Iterable[str], tags: list[str], verb: str,
               new_tags: Callable[[list[str]], list[str]]) -> list[Memory]:
        keys = list(keys)
        if not keys:
            raise VaultError(f"{verb}: no memory ids given")
        sign = "+" if verb == "tag" else "-"
        with self.writes.transaction(flush_use="lazy"):
            ids = unique(self.state.store.resolve(k) for k in keys)

            def change() -> list[Memory]:  # (again over a person's save landing meanwhile)
                self.writes.take_outside_edits(self.state.layout.memory_path(i) for i in ids)
                new = []
                for memory_id in ids:
                    old = self.state.store.memories[memory_id]
                    changed = new_tags(list(old.meta.tags))
                    if changed != old.meta.tags:
                        meta = old.meta.model_copy(update={"tags": changed})
                        new.append(old.model_copy(update={"meta": meta}))
                if not new:
                    which = ", ".join(neutralise_line(t) for t in tags)
                    state = "already has" if verb == "tag" else "has none of"
                    whom = "it" if len(ids) == 1 else f"each of the {len(ids)} memories"
                    raise VaultError(f"refused: {whom} {state} the tag"
                                     f"{'s' if len(tags) > 1 else ''} {which}; nothing was written")
                label = " ".join(sign + neutralise_line(t) for t in tags)
                self.writes.commit(f"{op_message(verb, new)} ({label})",
                                   self.writes.memory_writes(new), memories=new, again=False)
                return [self.state.store.memories[m.id] for m in new]
            return self.writes.reapplying(change)

    def _set_status(self, keys: Iterable[str],
                    status: MemoryStatus | Callable[[Memory], MemoryStatus], verb: str,
                    require: MemoryStatus | None = None) -> list[Memory]:
        def change(m: Memory, _now: int) -> dict[str, Any]:
            if require is not None and m.status != require:
                raise VaultError(f"refused: {m.id[:8]} is {m.status.value}, not {require.value}")
            new = status(m) if callable(status) else status
            if m.status == new:
                raise VaultError(f"refused: {m.id[:8]} is already {new.value}")
            return {"status": new}
        return self._change_each(keys, verb, change)

    def _change_each(self, keys: Iterable[str], verb: str,
                     change: Callable[[Memory, int], dict[str, Any]]) -> list[Memory]:
        keys = list(keys)
        if not keys:
            raise VaultError(f"{verb}: no memory ids given")
        with self.writes.transaction(flush_use="lazy"):
            ids = unique(self.state.store.resolve(k) for k in keys)

            def apply() -> list[Memory]:  # (again over a person's save landing meanwhile)
                self.writes.take_outside_edits(self.state.layout.memory_path(i) for i in ids)
                now = now_epoch()
                memories = self.state.store.memories
                new = [memories[i].model_copy(update=change(memories[i], now)) for i in ids]
                self.writes.commit(op_message(verb, new), self.writes.memory_writes(new),
                                   memories=new, again=False)
                return [self.state.store.memories[m.id] for m in new]
            return self.writes.reapplying(apply)

    def delete(self, *keys: str) -> DeleteReport:
        """Delete memories in one commit, with the relations that go with them by the one rule
        (:mod:`core.model.relation_rule`): lineage relations (``consolidated_from``,
        ``split_from``) stay, every other relation touching them is removed."""
        keys_list = list(keys)
        if not keys_list:
            raise VaultError("delete: no memory ids given")
        with self.writes.transaction(flush_use="lazy"):
            ids = unique(self.state.store.resolve(k) for k in keys_list)
            gone = [self.state.store.memories[i] for i in ids]
            fate = relations_going_with(self.state.store, ids)
            rels = fate.removed
            writes: dict[Path, bytes | None] = {self.state.layout.memory_path(i): None for i in ids}
            writes.update({self.state.layout.relation_path(r.id): None for r in rels})
            message = op_message("delete", gone)
            if rels:
                message += f" (+{len(rels)} relation{'s' if len(rels) != 1 else ''})"
            self.writes.commit(message, writes, dropped_memories=ids,
                         dropped_relations=[r.id for r in rels])
        return DeleteReport(gone, rels, fate.kept)

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
        with self.writes.transaction(flush_use="lazy"):
            a, b = self.state.store.resolve(from_key), self.state.store.resolve(to_key)
            try:
                relation = Relation(id=str(uuid.uuid4()), from_memory_id=a, to_memory_id=b,
                                    relation_type=relation_type, strength=strength,
                                    metadata=dict(metadata or {}))
            except ValidationError as exc:
                raise VaultError(f"refused: {first_error(exc)}") from None
            self.save_relations([relation])
            return self.state.store.relations[relation.id]

    def save_relations(self, relations: list[Relation], *, message: str | None = None) -> None:
        """Write whole relation records as one commit (the storage API: any type accepted)."""
        if not relations:
            return
        for r in relations:
            check_id(r.id, "relation")
        with self.writes.transaction(flush_use="lazy"):
            if message is None:
                if len(relations) == 1:
                    r = relations[0]
                    message = (f"relate: {r.from_memory_id[:8]} "
                               f"-{neutralise_line(r.relation_type)}-> {r.to_memory_id[:8]}")
                else:
                    message = f"relate: {len(relations)} relations"
            layout = self.state.layout
            files: dict[Path, bytes | None] = {layout.relation_path(r.id): layout.encode(r)
                                               for r in relations}
            self.writes.commit(message, files, relations=relations)

    def unrelate(self, relation_key: str) -> Relation:
        with self.writes.transaction(flush_use="lazy"):
            rid = self.state.store.resolve(relation_key, kind="relation")
            r = self.state.store.relations[rid]
            message = (f"relate: remove {neutralise_line(r.relation_type)} "
                       f"{r.from_memory_id[:8]} -> {r.to_memory_id[:8]}")
            self.writes.commit(message, {self.state.layout.relation_path(rid): None},
                               dropped_relations=[rid])
        return r

    def _checked(self, memory: Memory) -> Memory:
        check_id(memory.id)
        check_record(memory)  # before a gist is made of text that cannot be written
        return memory

    @staticmethod
    def _with_gist(memory: Memory, level: str = "moderate") -> Memory:
        if memory.gist is not None or len(memory.content.encode("utf-8")) > MAX_FILE_BYTES:
            return memory  # (too large to be written: the write path refuses it, so no gist)
        gist = make_gist(memory.content, memory.meta.tags, memory.entities, level)
        return memory if gist is None else memory.model_copy(update={"gist": gist})


def _tags(tags: Iterable[str]) -> list[str]:
    """Tags as given, stripped; refused (VaultError) when there is none, one is empty or holds
    a control character."""
    if isinstance(tags, str):
        tags = [tags]
    out = []
    for tag in tags:
        text = tag.strip() if isinstance(tag, str) else ""
        if not text:
            raise VaultError("refused: a tag cannot be empty")
        if has_controls(text, single_line=True):
            raise VaultError(f"refused: the tag {neutralise_line(text)!r} holds a control "
                             "character")
        out.append(text)
    if not out:
        raise VaultError("refused: give at least one tag")
    return unique(out)


def _unarchived_status(memory: Memory) -> MemoryStatus:
    """The status an archived memory goes back to: its promotion survives the archive."""
    promoted = memory.promoted_at is not None or memory.promoted_to is not None
    return MemoryStatus.PROMOTED if promoted else MemoryStatus.ACTIVE
