"""How the tree groups memories: the modes and the sort orders.

Pure Python over a :class:`~tui.app.view.VaultView`: a mode turns the memories that pass the filter
into top-level :class:`~tui.app.groups.Group` objects; a group knows its members (or how to make
its subgroups), and the tree asks for them only when a person expands it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import partial

from core import MemoryStatus
from core.vault.preview import Glance

from .choices import MODES as MODES  # (defined in .choices, read from here too)
from .choices import NO_TAG
from .choices import SORTS as SORTS
from .groups import Group, LineageRoot
from .view import VaultView


MODE_NAMES = {"status_tag": "status → tag", "tag": "tag", "band": "decay band",
              "lineage": "lineage", "duplicates": "possible duplicates"}
SORT_NAMES = {"score": "score", "last_used": "last used", "created": "created"}
STATUS_ORDER = [s.value for s in MemoryStatus]
STATUSES = [MemoryStatus(s) for s in STATUS_ORDER]


def _by_tag(view: VaultView, ids: Iterable[str], key_prefix: str) -> list[Group]:
    tags: dict[str, list[str]] = {}
    untagged: list[str] = []
    rows = view.rows
    for i in ids:
        memory_tags = rows[i].brief.meta.tags
        if not memory_tags:
            untagged.append(i)
        for t in memory_tags if len(memory_tags) < 2 else dict.fromkeys(memory_tags):
            tags.setdefault(t, []).append(i)  # (a tag named twice: one member, as the glance)
    groups = [_tag_group(key_prefix, t, len(members), members)
              for t, members in sorted(tags.items(), key=lambda kv: kv[0].lower())]
    if untagged:
        groups.append(_no_tag_group(key_prefix, len(untagged), untagged))
    return groups


def _tag_group(key_prefix: str, tag: str, count: int, ids: list[str]) -> Group:
    return Group(f"{key_prefix}tag:{tag}", tag, count, ids, style="")


def _no_tag_group(key_prefix: str, count: int, ids: list[str]) -> Group:
    return Group(f"{key_prefix}tag:", NO_TAG, count, ids, style="dim")


def _status_group(status: str, count: int, ids: list[str],
                  subgroups: Callable[[], list[Group]]) -> Group:
    return Group(f"status:{status}", status, count, ids, subgroups=subgroups)


#: The modes a glance (counts only: :attr:`VaultView.glance`) can draw: the others need the
#: memories' scores, relations or contents.
GLANCE_MODES = ("status_tag", "tag")


def glance_groups(glance: Glance, mode: str) -> list[Group | LineageRoot]:
    """The top level of the tree drawn from a glance's counts (no member ids: opening a group of
    memories shows that they are loading), with the keys, titles, styles and order that
    :func:`groups_for` gives the memories, so what is open and where the cursor is carry over
    to the vault's groups. Nothing for a mode not in :data:`GLANCE_MODES`."""
    if mode not in GLANCE_MODES:
        return []

    def by_tag(counts: Mapping[str, int], key_prefix: str) -> list[Group]:
        groups = [_tag_group(key_prefix, t, n, [])
                  for t, n in sorted(counts.items(), key=lambda kv: (kv[0].lower(), kv[0]))
                  if t]
        if counts.get(""):
            groups.append(_no_tag_group(key_prefix, counts[""], []))
        return groups

    if mode == "tag":
        totals: dict[str, int] = {}
        for (_status, tag), n in glance.tags.items():
            totals[tag] = totals.get(tag, 0) + n
        return list(by_tag(totals, ""))
    out: list[Group | LineageRoot] = []
    for member in STATUSES:
        count = glance.statuses.get(member, 0)
        if not count:
            continue
        tags = {tag: n for (status, tag), n in glance.tags.items() if status is member}
        out.append(_status_group(member.value, count, [],
                                 partial(by_tag, tags, f"status:{member.value}/")))
    return out


def groups_for(view: VaultView, ids: list[str], mode: str) -> list[Group | LineageRoot]:
    """The top level of the tree for the memories ``ids`` (those that pass the filter); for a
    glance, the groups its counts draw (:func:`glance_groups`)."""
    if view.glance is not None:
        return glance_groups(view.glance, mode)
    rows = view.rows
    if mode == "tag":
        return list(_by_tag(view, ids, ""))
    if mode == "band":
        in_band: dict[str, list[str]] = {b.key: [] for b in view.band_table}
        for i in ids:
            in_band[rows[i].band].append(i)
        return [Group(f"band:{b.key}", b.name, len(in_band[b.key]), in_band[b.key],
                      style=f"bold {b.style}", note=b.range_text)
                for b in view.band_table]
    if mode == "lineage":
        return lineage_groups(view, ids)
    if mode == "duplicates":  # found in a worker (tui/app/duplicates.py)
        from .duplicates import duplicate_groups  # (not on the first paint's path)
        return list(duplicate_groups(view, ids))
    # keyed by the member itself: an enum's ``.value`` is a Python-level property, a cost at 100k
    by_member: dict[MemoryStatus, list[str]] = {s: [] for s in STATUSES}
    for i in ids:
        by_member[rows[i].brief.status].append(i)
    out: list[Group | LineageRoot] = []
    for member, members in by_member.items():
        status = member.value
        if not members:
            continue
        out.append(_status_group(status, len(members), members,
                                 partial(_by_tag, view, members, f"status:{status}/")))
    return out


def prepare(view: VaultView, ids: list[str], mode: str, sort: str,
            rank: Mapping[str, float] | None, opened: set[str] | None, everything: bool = False
            ) -> list[Group | LineageRoot]:
    """:func:`groups_for`, with what the tree opens at once already worked out (so that a worker
    does the whole-vault part for a big vault): the groups whose keys are in ``opened`` (None: the
    first group, as a tree with a new shape opens; ``everything``: every group, as a narrow
    filter opens them), their subgroups and their members in order."""
    items = groups_for(view, ids, mode)

    def wanted(group: Group) -> bool:
        return everything or (opened is not None and group.key in opened)

    def work_out(group: Group, deeper: bool) -> None:
        children = group.children()
        if children is None:
            group.ordered(view, sort, rank)
        elif deeper:
            for child in children:
                if wanted(child):
                    work_out(child, True)

    if opened is None and not everything:
        if items and isinstance(items[0], Group):
            work_out(items[0], False)
    else:
        for item in items:
            if isinstance(item, Group) and wanted(item):
                work_out(item, True)
    return items


def lineage_groups(view: VaultView, ids: list[str]) -> list[Group | LineageRoot]:
    """Lineages that hold a memory passing the filter, newest first, then one group with the
    memories that have no provenance at all. A merge whose sources have no other history is shown
    from the merged memory (sources beneath) rather than once under each source."""
    parents, children = view.provenance()
    wanted = set(ids)
    roots = [n for n in children if n not in parents]
    merge_only = {r for r in roots if all(kind == "merge" for _c, kind in children[r])}
    merged_tops: dict[str, set[str]] = {}  # merged memory -> its family (sources, descendants)
    for r in merge_only:
        for child, _kind in children[r]:
            if all(p in merge_only for p, _k in parents.get(child, ())):
                family = {p for p, _k in parents[child]} | descendants(children, child)
                merged_tops[child] = family
    shown_under_merge = {p for top in merged_tops for p, _k in parents[top]}
    entries: list[tuple[LineageRoot, set[str]]] = []
    seen_in_lineage: set[str] = set()
    for top, family in merged_tops.items():
        entries.append((LineageRoot(f"lineage:{top}", top, len(family), merged=True), family))
    for root in roots:
        if root in shown_under_merge:
            continue
        entries.append((LineageRoot(f"lineage:{root}", root, 0), descendants(children, root)))
    # Memories caught in a provenance cycle have parents but no root: list them as roots too.
    covered = set()
    for entry, family in entries:
        covered |= family | {entry.memory_id}
    for i in sorted(parents):
        if i not in covered and i not in shown_under_merge:
            family = descendants(children, i)
            entries.append((LineageRoot(f"lineage:{i}", i, 0), family))
            covered |= family | {i}
    rows = view.rows
    out: list[Group | LineageRoot] = []

    def newest(entry: LineageRoot, family: set[str]) -> tuple:
        members = family | {entry.memory_id}
        latest = max((rows[i].brief.created_at for i in members if i in rows), default=0)
        return (-latest, min(members), entry.memory_id)

    for entry, family in sorted(entries, key=lambda e: newest(*e)):
        if not entry.merged:
            entry.descendants = len(family)
        seen_in_lineage |= family | {entry.memory_id}
        if entry.memory_id in wanted or wanted.intersection(family):
            out.append(entry)
    plain = [i for i in ids if i not in seen_in_lineage]
    if plain:
        out.append(Group("lineage:none", "no lineage", len(plain), plain, style="dim bold"))
    return out


def descendants(children: dict[str, list[tuple[str, str]]], root: str) -> set[str]:
    found: set[str] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        for child, _kind in children.get(node, ()):
            if child not in found and child != root:
                found.add(child)
                stack.append(child)
    return found
