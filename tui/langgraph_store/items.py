"""How a LangGraph item is a memory, and back (the rules: ``docs/langgraph.md``).

- A **namespace** is a tag path: ``("users", "alice")`` is the tag ``users/alice``. Every tag
  whose ``/``-separated labels are all valid LangGraph labels names a namespace; a memory is
  in the namespace of each such tag it carries (a person who tags a memory ``users/alice`` in
  the app puts it there).
- A **key** is the memory's ``meta.extra["langgraph"]["key"]`` (a memory LangGraph wrote), else
  its id (a person's memory). A new item's memory id is :func:`memory_id_for` (namespace, key):
  the same key in the same namespace is the same memory, in every process.
- The **value**'s text is the memory's content: ``value["content"]`` when it is text, else
  ``value["text"]``; the other fields are kept in ``meta.extra["langgraph"]["value"]`` and come
  back on a read. A value with neither is written as its JSON (the content), read back by
  parsing it.
- Items are the memories that are ``active`` or ``promoted``: a ``PutOp`` with ``value=None``
  archives (:mod:`.writes`), and an archived memory is no item until it is put again.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Any

from langgraph.store.base import Item, SearchItem

from core import Memory, MemoryStatus

#: The key of ``meta.extra`` that holds what LangGraph put beside the text.
EXTRA = "langgraph"
#: The keys of a value whose text (a non-blank string) is the content, first found first.
TEXT_KEYS = ("content", "text")
#: Statuses of the memories that are items.
LIVE = (MemoryStatus.ACTIVE, MemoryStatus.PROMOTED)
#: The uuid5 namespace of the ids of the memories LangGraph creates (fixed: ids are stable).
ID_SPACE = uuid.UUID("6f0b7c1e-5a39-4c55-9d59-1b6b0c1d4a72")
SEPARATOR = "/"


def tag_of(namespace: tuple[str, ...]) -> str:
    """The tag that is ``namespace`` (its labels checked by :mod:`.checks` first)."""
    return SEPARATOR.join(namespace)


def namespace_of(tag: str) -> tuple[str, ...] | None:
    """The namespace a tag names, or None when one of its labels is no LangGraph label (empty,
    a ``.``, a NUL): such a tag is a person's, never a namespace."""
    labels = tuple(tag.split(SEPARATOR))
    if any(not label or "." in label or "\x00" in label for label in labels):
        return None
    return labels


def namespaces_of(memory: Memory) -> list[tuple[str, ...]]:
    """The namespaces ``memory`` is in (one per tag that names one), sorted."""
    found = (namespace_of(tag) for tag in memory.meta.tags)
    return sorted({ns for ns in found if ns is not None})


def stored(memory: Memory) -> dict[str, Any]:
    """What LangGraph put beside the text (``meta.extra["langgraph"]``), or {}."""
    extra = memory.meta.extra.get(EXTRA)
    return extra if isinstance(extra, dict) else {}


def key_of(memory: Memory) -> str:
    """The item key of ``memory``: the key LangGraph put it under, else its id."""
    key = stored(memory).get("key")
    return key if isinstance(key, str) else memory.id


def memory_id_for(namespace: tuple[str, ...], key: str) -> str:
    """The id of the memory a first put of ``key`` in ``namespace`` creates: the same in every
    process (a uuid5 of both), a safe file name whatever the key holds."""
    return "lg-" + str(uuid.uuid5(ID_SPACE, json.dumps([list(namespace), key])))


def text_and_rest(value: Mapping[str, Any]) -> tuple[str, str | None, dict[str, Any]]:
    """The content a value is written as, the key it came from (None: the value's JSON) and the
    fields kept beside it."""
    for name in TEXT_KEYS:
        text = value.get(name)
        if isinstance(text, str) and text.strip():
            return text, name, {k: v for k, v in value.items() if k != name}
    return json.dumps(dict(value), ensure_ascii=False), None, {}


def value_of(memory: Memory) -> dict[str, Any]:
    """The value of ``memory`` as an item: the text under the key it came from with the fields
    kept beside it; the parsed content of a value written as JSON; ``{"content": ...}`` for a
    person's memory (or a JSON content a person has since changed into prose)."""
    extra = stored(memory)
    name = extra.get("text_key")
    rest = extra.get("value")
    if isinstance(name, str):
        return {**(rest if isinstance(rest, dict) else {}), name: memory.content}
    if "key" in extra:
        try:
            parsed = json.loads(memory.content)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict):
            return parsed
    return {"content": memory.content}


def updated_epoch(memory: Memory) -> int:
    """When LangGraph last put ``memory`` (else when it was made), epoch seconds."""
    when = stored(memory).get("updated_at")
    return when if isinstance(when, int) and not isinstance(when, bool) else memory.created_at


def _time(epoch: int) -> datetime:
    return datetime.fromtimestamp(epoch, tz=timezone.utc)


def item_of(memory: Memory, namespace: tuple[str, ...]) -> Item:
    """``memory`` as the item under ``namespace``."""
    return Item(value=value_of(memory), key=key_of(memory), namespace=namespace,
                created_at=_time(memory.created_at), updated_at=_time(updated_epoch(memory)))


def search_item_of(memory: Memory, namespace: tuple[str, ...],
                   score: float | None) -> SearchItem:
    """``memory`` as a search hit under ``namespace`` (``score``: the ranked search's)."""
    return SearchItem(namespace, key_of(memory), value_of(memory), _time(memory.created_at),
                      _time(updated_epoch(memory)), score)
