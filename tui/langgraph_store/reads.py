"""The store's reads over the vault's cache: an item by namespace and key, a search (memvault's
ranked search when the op has a query, newest first when not; then the value filter, the
offset and the limit) and the namespaces (prefix, suffix, ``*`` wildcards, ``max_depth``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from langgraph.store.base import Item, ListNamespacesOp, MatchCondition, SearchItem, SearchOp

from core import Memory, Vault
from core.search import Searcher
from core.search.query import TOKEN, Query, Term

from .items import LIVE, item_of, key_of, memory_id_for, namespace_of, namespaces_of
from .items import search_item_of, stored, tag_of, updated_epoch, value_of

LIVE_NAMES = [s.value for s in LIVE]


def in_namespace(vault: Vault, namespace: tuple[str, ...], *, live: bool) -> list[Memory]:
    """The memories tagged with ``namespace``'s tag (``live``: only the items)."""
    return vault.search(tags=[tag_of(namespace)], status=LIVE_NAMES if live else None,
                        sort="created")


def find(vault: Vault, namespace: tuple[str, ...], key: str, *, live: bool,
         keyed: dict[str, list[Memory]] | None = None) -> Memory | None:
    """The memory that is the item ``key`` in ``namespace``: one LangGraph put there first, then
    a person's (its id is the key); a live one before an archived one. The memory a first put
    made is looked up by its id (the common case: no scan of the namespace); else in ``keyed``
    (:func:`by_key` of the namespace, made once for a batch's many puts) or a scan."""
    made = first_put(vault, namespace, key)
    if made is not None:
        return made
    if keyed is None:
        keyed = by_key(vault, namespace, live=live)
    found = keyed.get(key, [])
    return found[0] if found else None


def first_put(vault: Vault, namespace: tuple[str, ...], key: str) -> Memory | None:
    """The live memory a first put of ``key`` in ``namespace`` made, if it is still there."""
    made = vault.find(memory_id_for(namespace, key))
    if made is not None and made.status in LIVE and key_of(made) == key \
            and tag_of(namespace) in made.meta.tags:
        return made
    return None


def by_key(vault: Vault, namespace: tuple[str, ...], *, live: bool) -> dict[str, list[Memory]]:
    """The memories of ``namespace`` by item key, the one :func:`find` takes first, first."""
    keyed: dict[str, list[Memory]] = {}
    for memory in in_namespace(vault, namespace, live=live):
        keyed.setdefault(key_of(memory), []).append(memory)
    for found in keyed.values():
        if len(found) > 1:
            found.sort(key=lambda m: (m.status not in LIVE, "key" not in stored(m), m.id))
    return keyed


def get(vault: Vault, namespace: tuple[str, ...], key: str) -> Item | None:
    memory = find(vault, namespace, key, live=True)
    return None if memory is None else item_of(memory, namespace)


def namespace_tags(vault: Vault, prefix: tuple[str, ...] = ()) -> dict[str, tuple[str, ...]]:
    """Every tag of the vault that names a namespace under ``prefix``, with that namespace."""
    n = len(prefix)
    found = {}
    for tag in vault.store.tags():
        namespace = namespace_of(tag)
        if namespace is not None and namespace[:n] == prefix:
            found[tag] = namespace
    return found


def search(vault: Vault, searcher: Searcher, op: SearchOp) -> list[SearchItem]:
    tags = namespace_tags(vault, tuple(op.namespace_prefix))
    if not tags:
        return []
    query = plain_words(op.query or "")
    if query.has_text:
        top = None if op.filter else op.offset + op.limit  # (the bounded ranking when it can)
        result = searcher.search(query, statuses=LIVE_NAMES, tags=list(tags), limit=top,
                                 snippets=False)
        ranked: list[tuple[Memory, float | None]] = [(h.memory, h.score) for h in result.hits]
    else:
        pool = vault.search(tags=list(tags), status=LIVE_NAMES, sort="created")
        pool.sort(key=lambda m: (-updated_epoch(m), m.id))
        ranked = [(m, None) for m in pool]
    prefix = tuple(op.namespace_prefix)
    hits: list[SearchItem] = []
    skipped = 0
    for memory, score in ranked:  # (an item is made only for the page: a namespace may be big)
        if len(hits) >= op.limit:
            break
        if op.filter and not matches(value_of(memory), op.filter):
            continue
        if skipped < op.offset:
            skipped += 1
            continue
        hits.append(search_item_of(memory, _first_under(memory, prefix), score))
    return hits


def _first_under(memory: Memory, prefix: tuple[str, ...]) -> tuple[str, ...]:
    return next(ns for ns in namespaces_of(memory) if ns[:len(prefix)] == prefix)


def plain_words(text: str) -> Query:
    """``text`` as plain words for the ranked search: a question an agent asks is never read as
    memvault's query language (``status:``, ``-word``, ``tag:`` are words here)."""
    return Query(text=text, terms=[Term("word", w) for w in TOKEN.findall(text)])


def list_namespaces(vault: Vault, op: ListNamespacesOp) -> list[tuple[str, ...]]:
    """The namespaces that hold an item, matching every condition, cut at ``max_depth``,
    sorted, then paged."""
    found = []
    for tag, namespace in namespace_tags(vault).items():
        if not all(_matches_path(c, namespace) for c in op.match_conditions or ()):
            continue
        if vault.search(tags=[tag], status=LIVE_NAMES, sort="created", limit=1):
            found.append(namespace)
    if op.max_depth is not None:
        found = [ns[:op.max_depth] for ns in found]
    return sorted(set(found))[op.offset:op.offset + op.limit]


def _matches_path(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    if condition.match_type == "prefix":
        pairs: Iterable[tuple[str, str]] = zip(namespace, path)
    elif condition.match_type == "suffix":
        pairs = zip(reversed(namespace), reversed(path))
    else:
        raise ValueError(f"Unsupported match type: {condition.match_type}")
    return all(want == "*" or have == want for have, want in pairs)


def matches(value: dict[str, Any], wanted: dict[str, Any]) -> bool:
    """Whether ``value`` has every field of ``wanted`` equal (nested dicts field by field, lists
    item by item; ``{"$eq"|"$ne"|"$gt"|"$gte"|"$lt"|"$lte": x}`` compares; a key ``a.b`` not in
    the value is the field ``b`` of its field ``a``), as LangGraph's stores filter."""
    return all(_equal(_field(value, k), v) for k, v in wanted.items())


def _field(value: dict[str, Any], key: str) -> Any:
    if key in value or "." not in key:
        return value.get(key)
    found: Any = value
    for part in key.split("."):
        found = found.get(part) if isinstance(found, dict) else None
    return found


def _equal(have: Any, want: Any) -> bool:
    if isinstance(want, dict):
        if any(isinstance(k, str) and k.startswith("$") for k in want):
            return all(_compare(have, op, v) for op, v in want.items())
        return isinstance(have, dict) and all(_equal(have.get(k), v) for k, v in want.items())
    if isinstance(want, (list, tuple)):
        return (isinstance(have, (list, tuple)) and len(have) == len(want)
                and all(_equal(h, w) for h, w in zip(have, want)))
    return bool(have == want)


def _compare(have: Any, operator: str, want: Any) -> bool:
    if operator == "$eq":
        return bool(have == want)
    if operator == "$ne":
        return bool(have != want)
    if operator not in ("$gt", "$gte", "$lt", "$lte"):
        raise ValueError(f"Unsupported operator: {operator}")
    try:
        a, b = float(have), float(want)
    except (TypeError, ValueError):
        return False
    return {"$gt": a > b, "$gte": a >= b, "$lt": a < b, "$lte": a <= b}[operator]
