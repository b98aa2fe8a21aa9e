"""Consolidation: find clusters of similar memories and merge one into a single memory with
``consolidated_from`` provenance (merged -> each source), as ONE commit.

Clusters: single linkage at a threshold (default 0.83, as CortexGraph) on the similarity of
:mod:`.similarity`, strongest links first, at most 12 members. Cohesion = mean pairwise
similarity; >= 0.9 merge, >= 0.75 review, else keep separate.
"""

from __future__ import annotations

import hashlib
import uuid
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..errors import VaultError
from .maintenance import check_maintenance
from .merge_text import merge_texts
from ..model.records import (
    Memory,
    MemoryMetadata,
    MemoryStatus,
    Relation,
    now_epoch,
)
from ..textutil import content_tokens, given_gist, make_gist
from ..vault import Plan, Vault
from ..vault.reports import relations_going_with
from .similarity import Features, cohesion, indexed_pairs, linked_pairs

DEFAULT_THRESHOLD = 0.83
MAX_CLUSTER_SIZE = 12
MERGE_COHESION = 0.9
REVIEW_COHESION = 0.75
MAX_STRENGTH = 2.0
SourceFate = Literal["delete", "archive"]


@dataclass
class Cluster:
    id: str
    members: list[Memory]
    cohesion: float

    @property
    def suggested_action(self) -> str:
        return suggested_action(self.cohesion)


@dataclass
class ConsolidationPreview:
    merged: Memory
    sources: list[Memory]
    relations: list[Relation]  # consolidated_from, merged -> each source
    moved_relations: list[Relation]  # sources' other relations, re-pointed at the merged memory
    cluster_id: str
    cohesion: float
    message: str
    plan: Plan | None = None  # what apply_consolidation commits, exactly (ids included)
    commit: str | None = None  # set when it is committed


def suggested_action(cohesion: float) -> str:
    if cohesion >= MERGE_COHESION:
        return "merge"
    if cohesion >= REVIEW_COHESION:
        return "review"
    return "keep separate"


def find_clusters(
    vault: Vault | None,
    threshold: float = DEFAULT_THRESHOLD,
    max_size: int = MAX_CLUSTER_SIZE,
    memories: Iterable[Memory] | None = None,
) -> list[Cluster]:
    """Clusters (2+ members) of active memories (of ``memories``, default the vault's: then
    ``vault`` may be None), most cohesive first."""
    if not 0 < threshold <= 1:
        raise VaultError(f"refused: threshold must be in (0, 1], got {threshold}")
    whole_vault = memories is None  # then the vault's near-duplicate index names the pairs
    if memories is None:
        if vault is None:
            raise VaultError("find_clusters needs a vault or the memories to compare")
        memories = vault.memories.values()
    pool = sorted((m for m in memories
                   if m.status == MemoryStatus.ACTIVE), key=lambda m: m.id)
    embeds = bool(pool) and all(m.embed for m in pool)
    indexed = None if embeds else indexed_pairs(vault, pool, whole_vault, threshold)
    if indexed is not None:  # only the memories in a candidate pair are compared
        involved = sorted({k for pair in indexed for k in pair})
        pool = [pool[k] for k in involved]
        at = {old: new for new, old in enumerate(involved)}
        indexed = {(at[a], at[b]) for a, b in indexed}
    feats = [Features(m) for m in pool]
    edges = sorted(linked_pairs(feats, threshold, embeds, indexed),
                   key=lambda e: (-e[0], e[1], e[2]))
    parent = list(range(len(pool)))
    size = [1] * len(pool)

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for _sim, i, j in edges:
        ri, rj = root(i), root(j)
        if ri != rj and size[ri] + size[rj] <= max_size:
            if size[ri] < size[rj]:
                ri, rj = rj, ri
            parent[rj] = ri
            size[ri] += size[rj]
    groups: dict[int, list[Memory]] = {}
    for i, memory in enumerate(pool):
        groups.setdefault(root(i), []).append(memory)
    # Cohesion measures what linked the members (text features unless every memory has embed).
    clusters = [Cluster(cluster_id(g), g, cohesion(g, embeds)) for g in groups.values()
                if len(g) > 1]
    return sorted(clusters, key=lambda c: (-c.cohesion, c.id))


def cluster_id(members: Iterable[Memory]) -> str:
    digest = hashlib.sha1("\n".join(sorted(m.id for m in members)).encode()).hexdigest()
    return f"clust-{digest[:12]}"


# -- merging ------------------------------------------------------------------------------------
def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


def merged_content(members: Sequence[Memory]) -> str:
    """The longest content if it contains every other one, else the contents longest first with
    repeated sentences and clauses taken out, every number, name and negation kept
    (:func:`core.ops.merge_text.merge_texts`)."""
    ordered = sorted(members, key=lambda m: (-len(m.content), m.id))
    longest = _norm(ordered[0].content)
    if all(_norm(m.content) in longest for m in ordered[1:]):
        return ordered[0].content
    return merge_texts([m.content for m in ordered])


def _union(lists: Iterable[Iterable[str]]) -> list[str]:
    return list(dict.fromkeys(x for xs in lists for x in xs))


def _joined(values: Iterable[str | None]) -> str | None:
    distinct = list(dict.fromkeys(v for v in values if v))
    return "; ".join(distinct) if distinct else None


def _topic(members: Sequence[Memory]) -> str:
    tags = Counter(t for m in members for t in m.meta.tags)
    if tags:
        return tags.most_common(1)[0][0]
    tokens = Counter(t for m in members for t in content_tokens(m.content))
    return tokens.most_common(1)[0][0] if tokens else "related"


def plan_consolidation(
    vault: Vault,
    ids: Sequence[str],
    content: str | None = None,
    sources: SourceFate = "delete",
    now: int | None = None,
    force: bool = False,
    gist: str | None = None,
) -> ConsolidationPreview:
    """What a consolidation would create and remove, with the :class:`Plan` that
    :func:`apply_consolidation` commits as it is (ids included); nothing is written. The
    maintenance-machine rule is checked when it is applied, unless ``force``. ``gist``: the
    merged memory's gist as someone wrote it (checked: :func:`core.textutil.given_gist`);
    None: memvault makes one."""
    if sources not in ("delete", "archive"):
        raise VaultError(f"refused: sources must be 'delete' or 'archive', not {sources!r}")
    resolved = list(dict.fromkeys(vault.resolve(k) for k in ids))
    if len(resolved) < 2:
        raise VaultError("refused: a consolidation needs at least 2 different memories")
    members = [vault.store.memories[i] for i in resolved]
    for m in members:
        if m.status != MemoryStatus.ACTIVE:
            raise VaultError(f"refused: {m.id[:8]} is {m.status.value}; only active memories "
                             "can be consolidated")
    if content is not None and not content.strip():
        raise VaultError("refused: the merged content is empty")
    at = now_epoch() if now is None else now
    score = cohesion(members)
    cid = cluster_id(members)
    ordered = sorted(members, key=lambda m: (-len(m.content), m.id))
    text = content.strip() if content is not None else merged_content(members)
    tags = _union(m.meta.tags for m in ordered)
    entities = _union(m.entities for m in ordered)
    extra: dict[str, Any] = {}
    for m in reversed(ordered):
        extra.update(m.meta.extra)
    max_strength = max(m.strength for m in members)
    merged = Memory(
        id=str(uuid.uuid4()), content=text,
        gist=given_gist(gist, text) if gist is not None else make_gist(text, tags, entities),
        meta=MemoryMetadata(tags=tags, source=_joined(m.meta.source for m in ordered),
                            context=_joined(m.meta.context for m in ordered), extra=extra),
        created_at=min(m.created_at for m in members),
        last_used=max(m.last_used for m in members),
        use_count=sum(m.use_count for m in members),
        strength=min(max_strength + min(score * len(members) * 0.1, 0.5), MAX_STRENGTH),
        entities=entities,
        review_count=sum(m.review_count for m in members),
        cross_domain_count=sum(m.cross_domain_count for m in members),
    )
    relations = [
        Relation(id=str(uuid.uuid4()), from_memory_id=merged.id, to_memory_id=m.id,
                 relation_type="consolidated_from", strength=1.0, created_at=at,
                 metadata={"cluster_id": cid, "cluster_cohesion": round(score, 4)})
        for m in members
    ]
    moved: list[Relation] = []
    if sources == "delete":
        moved = _moved_relations(vault, resolved, merged.id, at)
    message = (f"consolidate: merge {len(members)} {_topic(members)} memories into "
               f"{merged.id[:8]} ({', '.join(m.id[:8] for m in members)})")
    preview = ConsolidationPreview(merged, members, relations, moved, cid, score, message)
    preview.plan = _plan(vault, preview, sources, at, force)
    return preview


def _plan(vault: Vault, preview: ConsolidationPreview, sources: SourceFate, at: int,
          force: bool) -> Plan:
    plan = Plan(preview.message, put_memories=[preview.merged],
                put_relations=preview.relations + preview.moved_relations,
                meta={"last_consolidation_at": at}, base=vault.head,
                requires=[lambda v: check_maintenance(v.meta, "consolidate", force=force)])
    source_ids = [m.id for m in preview.sources]
    if sources == "archive":
        plan.put_memories += [m.model_copy(update={"status": MemoryStatus.ARCHIVED})
                              for m in preview.sources]
    else:
        plan.drop_memories = source_ids
        # the one rule (core.model.relation_rule): lineage relations stay, the others go
        plan.drop_relations = relations_going_with(vault.store, source_ids).removed_ids()
    return plan


def _moved_relations(vault: Vault, ids: list[str], merged_id: str, at: int) -> list[Relation]:
    """The deleted sources' relations to memories outside the cluster, re-pointed at the merged
    memory (lifecycle edges stay where they are: they are the history of the sources)."""
    members, seen, moved = set(ids), set(), []
    for r in relations_going_with(vault.store, ids).removed:
        a = merged_id if r.from_memory_id in members else r.from_memory_id
        b = merged_id if r.to_memory_id in members else r.to_memory_id
        key = (a, b, r.relation_type)
        if a == b or key in seen:
            continue
        seen.add(key)
        moved.append(r.model_copy(update={"id": str(uuid.uuid4()), "from_memory_id": a,
                                          "to_memory_id": b}))
    return moved


def preview_consolidation(vault: Vault, ids: Sequence[str], content: str | None = None,
                          sources: SourceFate = "delete") -> ConsolidationPreview:
    return plan_consolidation(vault, ids, content, sources)


def execute_consolidation(
    vault: Vault,
    ids: Sequence[str],
    content: str | None = None,
    sources: SourceFate = "delete",
    force: bool = False,
) -> ConsolidationPreview:
    """Merge the memories as ONE commit; also records ``last_consolidation_at``. Refused
    (MaintenanceRefused) on a machine that is not the vault's designated maintenance machine
    (``core.ops.maintenance``), unless ``force``."""
    holder: list[ConsolidationPreview] = []

    def build(v: Vault) -> Plan:  # runs under the lock, on the up-to-date vault
        holder.append(plan_consolidation(v, ids, content, sources, force=force))
        assert holder[-1].plan is not None
        return holder[-1].plan

    change = vault.apply(build)
    holder[-1].commit = change.commit
    return holder[-1]


def apply_consolidation(vault: Vault, preview: ConsolidationPreview) -> ConsolidationPreview:
    """Commit a consolidation planned (and shown) beforehand, as it is: refused with
    StalePlanError, nothing written, if a source or its relations changed since."""
    if preview.plan is None:
        raise VaultError("refused: this consolidation preview has no plan to apply")
    preview.commit = vault.apply(preview.plan).commit
    return preview
