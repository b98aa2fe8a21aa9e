"""A batch's puts as ONE commit (:meth:`core.Vault.apply`, the lock held and the vault up to
date while the plan is made): a value creates or replaces the item's memory (its id, times,
other tags, relations and use kept); ``value=None`` archives it (nothing is lost: ``memvault
unarchive``, undo); a put on an archived item brings it back. The last put of a key in a
batch wins, as in LangGraph's stores. Nothing changed, no commit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langgraph.store.base import PutOp
from pydantic import ValidationError

from core import Memory, MemoryMetadata, MemoryStatus, Vault
from core.model.records import now_epoch
from core.textutil import make_gist
from core.vault.reports import Plan, first_error, op_message

from .checks import InvalidValueError
from .items import EXTRA, LIVE, memory_id_for, tag_of, text_and_rest
from .reads import by_key, find, first_put


def apply_puts(vault: Vault, puts: Sequence[PutOp]) -> str | None:
    """Commit ``puts`` (checked already) as one commit; its sha, or None when nothing changed."""
    last = {(tuple(p.namespace), p.key): p for p in puts}

    def build(current: Vault) -> Plan:
        now = now_epoch()
        changed: dict[str, Memory] = {}
        verbs: set[str] = set()
        keyed: dict[tuple[str, ...], dict[str, list[Memory]]] = {}
        for (namespace, key), op in last.items():
            old = first_put(current, namespace, key)
            if old is None:
                if namespace not in keyed:  # (once a namespace: a batch may put thousands)
                    keyed[namespace] = by_key(current, namespace, live=False)
                old = find(current, namespace, key, live=False, keyed=keyed[namespace])
            try:
                new, verb = _put(current, namespace, key, op, old, now)
            except ValidationError as exc:
                raise InvalidValueError(f"refused: the value for key {key!r} cannot be kept: "
                                        f"{first_error(exc)}; nothing was written") from None
            if new is not None:
                changed[new.id] = new
                verbs.add(verb)
        if not changed:
            raise _Nothing()  # (under the lock, before anything is written)
        memories = list(changed.values())
        return Plan(message=op_message(verbs.pop() if len(verbs) == 1 else "update", memories),
                    put_memories=memories)

    if not last:
        return None
    try:
        return vault.apply(build).commit
    except _Nothing:
        return None


class _Nothing(Exception):
    """A batch whose puts change nothing (an archive of a key that is not there, a value put
    again as it is): no commit."""


def _put(vault: Vault, namespace: tuple[str, ...], key: str, op: PutOp, old: Memory | None,
         now: int) -> tuple[Memory | None, str]:
    """The memory ``op`` leaves and its verb (add, update, archive), or (None, "")."""
    if op.value is None:
        if old is None or old.status not in LIVE:
            return None, ""
        return old.model_copy(update={"status": MemoryStatus.ARCHIVED}), "archive"
    text, text_key, rest = text_and_rest(op.value)
    kept = {"key": key, "text_key": text_key, **({"value": rest} if text_key else {})}
    extra = {EXTRA: {**kept, "updated_at": now}}
    tag = tag_of(namespace)
    if old is None:
        memory_id = memory_id_for(namespace, key)
        if vault.find(memory_id) is not None:  # (moved out of the namespace by a person)
            memory_id = memory_id_for(namespace, f"{key}\x00{now}")
        memory = Memory(id=memory_id, content=text, created_at=now, last_used=now,
                        meta=MemoryMetadata(tags=[tag], source="langgraph", extra=extra))
        return _with_gist(memory), "add"
    meta = old.meta.model_copy(update={
        "tags": old.meta.tags if tag in old.meta.tags else [*old.meta.tags, tag],
        "extra": {**old.meta.extra, **extra}})
    status = MemoryStatus.ACTIVE if old.status not in LIVE else old.status
    gist = old.gist if text == old.content else None
    new = Memory.model_validate({**old.model_dump(), "content": text, "gist": gist,
                                 "meta": meta.model_dump(), "status": status})
    if _without_time(new) == _without_time(old):
        return None, ""  # (the same value again: nothing to commit)
    return _with_gist(new), "update"


def _without_time(memory: Memory) -> dict[str, Any]:
    """``memory``'s fields, less when LangGraph last put it (and the gist, made from the rest)."""
    data = memory.model_dump()
    data["gist"] = None
    kept = data["meta"]["extra"].get(EXTRA)
    if isinstance(kept, dict):
        data["meta"]["extra"][EXTRA] = {k: v for k, v in kept.items() if k != "updated_at"}
    return data


def _with_gist(memory: Memory) -> Memory:
    if memory.gist is not None:
        return memory
    gist = make_gist(memory.content, memory.meta.tags, memory.entities)
    return memory if gist is None else memory.model_copy(update={"gist": gist})

