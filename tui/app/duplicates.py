"""The tree's "possible duplicates" grouping: memories that look like duplicates of
one another, as the consolidate wizard's clusters find them (:func:`core.ops.consolidate.find_clusters`:
content, tag and entity similarity at its default threshold, active memories only). A
suggestion only: nothing is merged unless the person marks them and runs the consolidate wizard.

At most :data:`MAX_COMPARED` active memories are compared, the highest-scoring ones: the
clustering is quadratic when many memories share words (measured on bench/run.py's generated
10k vault: 4 s for 1,000 memories, 17 s for 2,000, 400 s for all of them, under load), and the
worker shares the interpreter with the screen. The grouping says when it compared fewer than
all.

Pure Python (no textual). Finding the clusters reads every memory, so the screen does it in a
worker (:func:`find_duplicates`) and keeps the newest answer for each vault folder here
(:func:`remember`); until one is known the grouping says it is looking.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from core import MemoryStatus
from core.ops.consolidate import find_clusters
from core.vault import first_words

from .grouping import Group
from .view import VaultView


MAX_COMPARED = 1500


@dataclass(frozen=True)
class Duplicates:
    """The clusters of one view: (cluster id, cohesion, suggested action, member ids), and how
    many active memories were compared of how many."""

    view: VaultView
    clusters: list[tuple[str, float, str, list[str]]]
    compared: int = 0
    active: int = 0


_lock = threading.Lock()
_known: dict[Path, Duplicates] = {}  # vault folder -> the newest view's clusters


def find_duplicates(view: VaultView, limit: int | None = None) -> Duplicates:
    """The possible duplicates among the view's active memories (the ``limit``, default
    :data:`MAX_COMPARED`, highest-scoring of them); slow: call it in a worker."""
    limit = MAX_COMPARED if limit is None else limit
    active = [row for row in view.rows.values() if row.memory.status == MemoryStatus.ACTIVE]
    if len(active) > limit:
        active = sorted(active, key=lambda r: (-r.score, r.id))[:limit]
    clusters = find_clusters(None, memories=[r.memory for r in active])
    total = sum(1 for r in view.rows.values() if r.memory.status == MemoryStatus.ACTIVE)
    return Duplicates(view, [(c.id, c.cohesion, c.suggested_action, [m.id for m in c.members])
                             for c in clusters], len(active), total)


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
    partial = (f" · the {found.compared:,} highest-scoring of {found.active:,} active compared"
               if found.compared < found.active else "")
    if subgroups:
        n = len(subgroups)
        out.append(Group("dupes:found", "possible duplicates", len(in_cluster),
                         subgroups=lambda: subgroups, style="bold #e3c948",
                         note=f"{n} group{'s' if n != 1 else ''} · space marks, M merges"
                              f"{partial}"))
    else:
        out.append(Group("dupes:none", "no possible duplicates", 0, [], style="dim",
                         note=f"(active memories compared{partial})"))
    rest = [i for i in ids if i not in in_cluster]
    if rest:
        out.append(Group("dupes:rest", "no likely duplicate", len(rest), rest, style="dim bold"))
    return out
