"""The tree's "possible duplicates" grouping: memories that look like duplicates of one another,
as the consolidate wizard's clusters find them. A suggestion only: nothing is merged unless the
person marks them and runs the consolidate wizard.

The clusters are :func:`core.ops.consolidate.find_clusters`'s: content, tag and entity
similarity at its default threshold, every active memory compared through the pairs the vault's
near-duplicate index names.

Pure Python (no textual). Finding the clusters reads every memory, so the screen does it in a
worker (:func:`find_duplicates`, through the service) and keeps the newest answer for each vault
folder here (:func:`remember`); until one is known the grouping says it is looking.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from core.vault import first_words

from .groups import Group
from .view import VaultView

if TYPE_CHECKING:  # core's clustering is imported by the search itself (a worker), not here
    from core.ops.consolidate import Cluster


@dataclass(frozen=True)
class Duplicates:
    """The clusters of one view: (cluster id, cohesion, suggested action, member ids)."""

    view: VaultView
    clusters: list[tuple[str, float, str, list[str]]]


_lock = threading.Lock()
_known: dict[Path, Duplicates] = {}  # vault folder -> the newest view's clusters


def find_duplicates(view: VaultView, clusters: Callable[[], list[Cluster]]) -> Duplicates:
    """The possible duplicates among the active memories (``clusters``: the service's, of the
    vault the view shows); call it in a worker."""
    return Duplicates(view, [(c.id, c.cohesion, c.suggested_action, [m.id for m in c.members])
                             for c in clusters()])


def remember(found: Duplicates) -> None:
    with _lock:
        _known[found.view.root] = found


def forget(root: Path) -> None:
    with _lock:
        _known.pop(root, None)


def known(view: VaultView) -> Duplicates | None:
    """The clusters of ``view`` if they were found (None: not yet)."""
    with _lock:
        found = _known.get(view.root)
    return found if found is not None and found.view is view else None


def duplicate_groups(view: VaultView, ids: list[str]) -> list[Group]:
    """One group holding a subgroup per cluster with a member among ``ids`` (the filter's), then
    the memories that are in none. While the view's clusters are being found, those of the view
    before it stand in (an operation changes a few memories, not the groups' shape); before any
    is known, one group says it is looking."""
    with _lock:
        found = _known.get(view.root)
    if found is None:
        return [Group("dupes:looking", "looking for possible duplicates…", len(ids), list(ids),
                      style="dim italic")]
    wanted = set(ids)
    rows = view.rows
    subgroups: list[Group] = []
    in_cluster: set[str] = set()
    for cluster_id, cohesion, action, members in found.clusters:
        shown = [i for i in members if i in wanted and i in rows]
        if not shown:
            continue
        in_cluster.update(shown)
        first = rows[shown[0]].memory
        subgroups.append(Group(f"dupes:{cluster_id}", first_words(first.text, 40), len(shown),
                               shown, style="", note=f"alike {cohesion:.2f} · {action}"))
    out: list[Group] = []
    if subgroups:
        n = len(subgroups)
        out.append(Group("dupes:found", "possible duplicates", len(in_cluster),
                         subgroups=lambda: subgroups, style="bold #e3c948",
                         note=f"{n} group{'s' if n != 1 else ''} · space marks, M merges"))
    else:
        out.append(Group("dupes:none", "no possible duplicates", 0, [], style="dim",
                         note="(every active memory compared)"))
    rest = [i for i in ids if i not in in_cluster]
    if rest:
        out.append(Group("dupes:rest", "no likely duplicate", len(rest), rest, style="dim bold"))
    return out
