"""A view's relations, read on first use: :class:`ViewRelations`.

A view is a snapshot: it holds what the vault's relations mapping held as it was made, each
relation as the record or, when the vault's cache had not parsed it yet (an open from the
derived index parses none), as its file's bytes. The first screen shows no relation: the
relations are parsed, and indexed by memory, only when something first asks for them (a
memory's detail and relations, provenance, the lineage tree, a delete's preview), once, under a
lock (a worker warms them once the open vault is painted: :mod:`tui.app.main.opening`). Parsing
every relation of a big vault before the tree could show it open was most of the wait for it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping

from core import Relation
from core.model.exact_records import read_relation
from core.store.lazy import LazyRecords


class ViewRelations(Mapping[str, Relation]):
    """id -> relation, as ``relations`` held them when made; parsed on first read (all at
    once: what reads one relation of a view soon reads its memory's others)."""

    def __init__(self, relations: Mapping[str, Relation],
                 previous: ViewRelations | None = None) -> None:
        """``previous``: the relations of the view this one follows; what it parsed of the very
        bytes held here is taken, not parsed again (a view after an operation, a rescore).
        A mapping still waiting to be filled on first use (an open that reads the index's
        copies then: :mod:`core.vault.later_copies`) is looked at first when these are:
        it stands for the same relations (its version kept), read once the open is shown."""
        self._source: tuple[LazyRecords[Relation], ViewRelations | None] | None = None
        self._snapshot: dict[str, Relation | bytes] | None = None
        if isinstance(relations, LazyRecords) and relations.due:
            self._source = (relations, previous)
        else:
            self._snapshot = _held_now(relations, previous)
        self._parsed: dict[str, Relation] | None = None
        self._by_memory: dict[str, list[Relation]] | None = None
        self._lock = threading.Lock()

    @property
    def _held(self) -> dict[str, Relation | bytes]:
        found = self._snapshot
        if found is None:
            with self._lock:
                found = self._take_snapshot()
        return found

    def _take_snapshot(self) -> dict[str, Relation | bytes]:  # (the lock is held)
        found = self._snapshot
        if found is None:
            assert self._source is not None
            relations, previous = self._source
            # (what the mapping held as it was filled: what it stood for when this was made)
            found = self._snapshot = _held_now(relations, previous, relations.as_filled())
            self._source = None
        return found

    @property
    def parsed(self) -> bool:
        """Whether the relations were read (parsed and indexed) already."""
        return self._by_memory is not None

    def by_memory(self) -> dict[str, list[Relation]]:
        """For each memory id, the relations that touch it, oldest first."""
        found = self._by_memory
        if found is None:
            with self._lock:
                if self._by_memory is None:
                    self._by_memory = _index(self._records())
                found = self._by_memory
        return found

    def _records(self) -> dict[str, Relation]:  # (the lock is held)
        if self._parsed is None:
            self._parsed = {key: value if isinstance(value, Relation) else read_relation(value)
                            for key, value in self._take_snapshot().items()}
        return self._parsed

    def __getitem__(self, key: str) -> Relation:
        self.by_memory()
        assert self._parsed is not None
        return self._parsed[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._held)

    def __len__(self) -> int:
        return len(self._held)

    def __repr__(self) -> str:
        return f"<ViewRelations: {len(self)}{'' if self.parsed else ', not read yet'}>"


def _held_now(relations: Mapping[str, Relation], previous: ViewRelations | None,
              filled: Mapping[str, Relation | bytes] | None = None
              ) -> dict[str, Relation | bytes]:
    """What ``relations`` holds now (or ``filled``), each relation as its record or its file's
    bytes; what ``previous`` parsed of the very bytes held here taken as it is."""
    if filled is not None:
        found: dict[str, Relation | bytes] = dict(filled)
    else:
        held = relations.held if isinstance(relations, LazyRecords) else relations.__getitem__
        found = {key: held(key) for key in relations}
    before = previous._parsed if previous is not None else None
    if before is not None and previous is not None:
        was = previous._held
        for key, value in found.items():
            if type(value) is bytes and was.get(key) is value:
                found[key] = before[key]
    return found


def _index(relations: dict[str, Relation]) -> dict[str, list[Relation]]:
    index: dict[str, list[Relation]] = {}
    for r in sorted(relations.values(), key=lambda r: (r.created_at, r.id)):
        index.setdefault(r.from_memory_id, []).append(r)
        if r.to_memory_id != r.from_memory_id:
            index.setdefault(r.to_memory_id, []).append(r)
    return index
