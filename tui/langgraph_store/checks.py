"""What a batch is checked for before the store reads or writes anything: each op's namespace
(LangGraph's rules: no empty label, no ``.`` or NUL; and a tag path's: no ``/``, no control
character), each put's key and value (JSON that :func:`json.loads` gives back equal).

A refusal raises LangGraph's :class:`~langgraph.store.base.InvalidNamespaceError` for a
namespace and :class:`InvalidValueError` (a ``ValueError``) for a value or a key; the whole
batch is refused and nothing is written."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from langgraph.store.base import (
    GetOp,
    InvalidNamespaceError,
    ListNamespacesOp,
    Op,
    PutOp,
    SearchOp,
)

from core.textutil import has_controls, neutralise_line

#: How deep a value may nest (the record's file nests the value four levels down, and a
#: record may nest 200: :data:`core.model.checks.MAX_NESTING`).
MAX_VALUE_DEPTH = 190


class InvalidValueError(ValueError):
    """A put's value (or key) the vault cannot keep as it was given: nothing was written."""


def check_ops(ops: Sequence[Op]) -> None:
    """Refuse the batch if any op is malformed (see the module's docstring)."""
    for op in ops:
        if not isinstance(op, (GetOp, PutOp, SearchOp, ListNamespacesOp)):
            raise ValueError(f"Unknown operation type: {type(op)}")
        for labels in _namespaces(op):
            check_labels(labels)
        if isinstance(op, PutOp):
            check_put(op)


def _namespaces(op: Op) -> list[tuple[str, ...]]:
    if isinstance(op, (GetOp, PutOp)):
        return [op.namespace]
    if isinstance(op, SearchOp):
        return [op.namespace_prefix]
    if isinstance(op, ListNamespacesOp):
        return [c.path for c in op.match_conditions or ()]
    return []


def check_labels(namespace: tuple[str, ...]) -> None:
    """A namespace's labels as a tag path needs them: no ``/`` (it separates the labels), no
    control character, none empty (InvalidNamespaceError)."""
    for label in namespace:
        if not isinstance(label, str) or not label:
            raise InvalidNamespaceError(
                f"Namespace labels cannot be empty strings. Got {label!r} in {namespace}")
        if "." in label or "\x00" in label:
            raise InvalidNamespaceError(
                f"Invalid namespace label {neutralise_line(label)!r} found in {namespace}. "
                "Namespace labels cannot contain periods ('.') or NUL bytes.")
        if "/" in label:
            raise InvalidNamespaceError(
                f"Invalid namespace label {label!r} found in {namespace}. Namespace labels "
                "cannot contain slashes ('/'): memvault keeps a namespace as the tag path "
                "'a/b'.")
        if has_controls(label, single_line=True) or label != label.strip():
            raise InvalidNamespaceError(
                f"Invalid namespace label {neutralise_line(label)!r} found in {namespace}. "
                "Namespace labels cannot hold control characters or start or end with "
                "whitespace: memvault keeps a namespace as a tag.")


def check_put(op: PutOp) -> None:
    """A put's namespace (not empty), key and value. (The root ``langgraph`` is refused by
    ``BaseStore.put`` and left to LangGraph's own puts through ``batch``, as its stores do.)"""
    if not op.namespace:
        raise InvalidNamespaceError("Namespace cannot be empty.")
    if not isinstance(op.key, str) or not op.key:
        raise InvalidValueError(f"refused: a key must be a non-empty string, got {op.key!r}; "
                                "nothing was written")
    if op.value is not None:
        if not isinstance(op.value, Mapping):
            raise InvalidValueError(f"refused: the value for key {op.key!r} must be a dict "
                                    f"(a JSON object), got {type(op.value).__name__}; "
                                    "nothing was written")
        check_json(dict(op.value), f"value[{op.key!r}]")


def check_json(value: Any, where: str) -> None:
    """Refuse anything :func:`json.loads` would not give back equal: only dicts with string
    keys, lists, strings, finite numbers, booleans and None (a tuple would come back a list,
    an int key a string, a datetime not at all). Iterative: any depth is safe to check."""
    stack: list[tuple[Any, str, int]] = [(value, where, 0)]
    while stack:
        item, path, depth = stack.pop()
        if item is None or isinstance(item, (str, bool, int)):
            continue
        if isinstance(item, float):
            if not math.isfinite(item):
                raise InvalidValueError(f"refused: {path} is {item}, not JSON (a number must be "
                                        "finite); nothing was written")
            continue
        if not isinstance(item, (dict, list)):
            raise InvalidValueError(f"refused: {path} is a {type(item).__name__}, not JSON "
                                    "(dict, list, str, number, bool or None); nothing was written")
        if depth >= MAX_VALUE_DEPTH:
            raise InvalidValueError(f"refused: {where} nests deeper than {MAX_VALUE_DEPTH} "
                                    "levels; nothing was written")
        if isinstance(item, list):
            stack.extend((v, f"{path}[{i}]", depth + 1) for i, v in enumerate(item))
            continue
        for key, inner in item.items():
            if not isinstance(key, str):
                raise InvalidValueError(f"refused: {path} has the key {key!r}, not a string "
                                        "(JSON keys are strings); nothing was written")
            stack.append((inner, f"{path}[{key!r}]", depth + 1))
