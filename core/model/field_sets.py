"""Pydantic's set of given fields shared among the records loaded (:class:`FieldSetSharing`).
Its own module, without pydantic: the cache holds one whether or not its records are models
(a reading command's are not: :mod:`core.model.plain_records`)."""

from __future__ import annotations

from typing import Any, TypeVar

R = TypeVar("R")


class FieldSetSharing:
    """Lets each record loaded (and a memory's ``meta``) hold pydantic's set of the fields it was
    given as one set shared by the records given the same fields (nearly all: memvault writes
    every field), instead of a set of its own: ~0.9 KB a memory, 40% of what a loaded memory
    costs (120 MB at 100k), and done as each record is loaded, so the peak is lower too.
    memvault never dumps with ``exclude_unset``, the one thing that set serves (and
    ``validate_assignment`` keeps it a set: an assigned field lands in the set the record
    shares, which only widens what ``exclude_unset`` would keep of the others). A record that
    is no model (:mod:`core.model.plain_records`) is left as it is."""

    def __init__(self) -> None:
        self._memory: set[str] | None = None
        self._meta: set[str] | None = None
        self._relation: set[str] | None = None

    def memory(self, memory: R) -> R:
        if _is_model(memory):
            self._memory = _share_fields(memory, self._memory)
            self._meta = _share_fields(getattr(memory, "meta"), self._meta)
        return memory

    def relation(self, relation: R) -> R:
        if _is_model(relation):
            self._relation = _share_fields(relation, self._relation)
        return relation


def _is_model(record: Any) -> bool:
    """``record`` is a model (a plain record has no set of given fields: it answers none of
    pydantic's own names)."""
    return hasattr(record, "__pydantic_fields_set__")


def _share_fields(record: Any, shared: set[str] | None) -> set[str]:
    """Give ``record`` the ``shared`` set when its own set of given fields is equal to it; the
    set to share from now on (the first record's own)."""
    fields: set[str] = record.__pydantic_fields_set__
    if shared is None:
        return fields
    if fields == shared:
        object.__setattr__(record, "__pydantic_fields_set__", shared)
    return shared
