"""The tree's groups: a :class:`Group` of memories (or of subgroups, made when first opened), a
:class:`LineageRoot`, and the sort orders of a group's members. The grouping modes that make them
are :mod:`tui.app.grouping` and :mod:`tui.app.duplicates`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .view import VaultView

T = TypeVar("T")


@dataclass
class Group:
    key: str  # stable across rebuilds: which groups were expanded survives a refresh
    title: str
    count: int
    ids: list[str] = field(default_factory=list)  # member memory ids, in no particular order
    subgroups: Callable[[], list[Group]] | None = None
    style: str = "bold"
    note: str = ""  # shown dim after the count (a band's range)
    # what opening the group shows, made once (by a worker for a big vault: :func:`prepare`)
    _children: list[Group] | None = field(default=None, repr=False, compare=False)
    _ordered: dict[str, tuple[Mapping[str, float] | None, list[str]]] = field(
        default_factory=dict, repr=False, compare=False)
    # what the detail pane says of it, and the view it is of (made once: :meth:`figures`)
    _figures: tuple[VaultView, Any] | None = field(default=None, repr=False, compare=False)

    def figures(self, view: VaultView, make: Callable[[VaultView, list[str]], T]) -> T:
        """``make(view, ids)``, made once for a view (the detail pane asks again as the tree
        is redrawn around the same cursor: twice as the vault opens)."""
        found = self._figures
        if found is None or found[0] is not view:
            found = self._figures = (view, make(view, self.ids))
        return found[1]  # type: ignore[no-any-return]

    def children(self) -> list[Group] | None:
        """The subgroups (made on first use), or None for a group of memories."""
        if self.subgroups is None:
            return None
        if self._children is None:
            self._children = self.subgroups()
        return self._children

    def ordered(self, view: VaultView, sort: str, rank: Mapping[str, float] | None = None
                ) -> list[str]:
        """The members in the order ``sort`` (and ``rank``), made once per order."""
        rank = rank or None
        found = self._ordered.get(sort)
        if found is None or found[0] is not rank:
            found = self._ordered[sort] = (rank, sort_ids(view, self.ids, sort, rank))
        return found[1]


@dataclass
class LineageRoot:
    """A top-level lineage entry: a provenance root (a memory, living or gone, with descendants
    but no ancestors) with its descendants beneath, or, for a merge of memories that came from
    nowhere else, the merged memory with its sources beneath (``merged``)."""

    key: str
    memory_id: str
    descendants: int
    merged: bool = False


def sort_ids(view: VaultView, ids: Iterable[str], sort: str,
             rank: Mapping[str, float] | None = None) -> list[str]:
    """``ids`` in the order ``sort``; with ``rank`` (a search's scores: the filter has words),
    the ranked memories first, best first, then the others in the order ``sort``."""
    rows = view.rows
    if rank:
        ids = list(ids)
        rest = sort_ids(view, [i for i in ids if i not in rank], sort)
        return sorted((i for i in ids if i in rank), key=lambda i: (-rank[i], i)) + rest
    if sort == "last_used":
        return sorted(ids, key=lambda i: (-rows[i].brief.last_used, i))
    if sort == "created":
        return sorted(ids, key=lambda i: (-rows[i].brief.created_at, i))
    return sorted(ids, key=lambda i: (-rows[i].score, i))
