"""The tools that prune, promote, merge and split: CortexGraph's ``gc``, ``promote_memory``,
``cluster_memories`` and ``consolidate_memories``, memvault's ``split_memory``. Previews (gc's
dry run, consolidate's preview, a split's preview) only read; each applied change is one commit
through core (``Vault.gc``, ``Vault.apply``, ``core.ops.consolidate``, ``core.ops.split``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, Field

from core import Memory, MemoryStatus, Vault
from core.decay import should_promote
from core.model.records import now_epoch
from core.ops.consolidate import (
    DEFAULT_THRESHOLD,
    ConsolidationPreview,
    SourceFate,
    find_clusters,
    plan_consolidation,
)
from core.vault import Plan, first_words

from . import hints, shapes
from .access import ToolRefusal, VaultAccess
from .ids import resolve, resolve_many

DUPLICATE_THRESHOLD = 0.88  # CortexGraph's semantic_hi
SHOWN = 10  # CortexGraph lists at most this many ids and candidates


class SplitPart(BaseModel):
    """One part of a split with the gist its writer gives it."""

    content: Annotated[str, Field(min_length=1, max_length=1_000_000)]
    gist: Annotated[str | None, Field(max_length=20_000)] = None
SECONDS_PER_DAY = 86400


def _promotion_reason(vault: Vault, memory: Memory, now: int) -> str:
    cfg, score = vault.config, vault.score(memory, now)
    if score >= cfg.promote_threshold:
        return f"score {score:.2f} >= {cfg.promote_threshold}"
    if should_promote(memory, cfg, now):
        return (f"used {memory.use_count} times within {cfg.promote_time_window:g} days of "
                "creation")
    return (f"score {score:.2f} < {cfg.promote_threshold} and {memory.use_count} uses "
            f"(needs {cfg.promote_use_count} within {cfg.promote_time_window:g} days)")


def _merged_memory(plan: ConsolidationPreview) -> dict[str, Any]:
    m = plan.merged
    return {"id": m.id, "content": m.content, "gist": m.gist, "tags": m.meta.tags,
            "entities": m.entities, "source": m.meta.source, "context": m.meta.context,
            "created_at": m.created_at, "last_used": m.last_used, "use_count": m.use_count,
            "strength": round(m.strength, 4)}


def register(server: MCPServer, access: VaultAccess) -> None:
    @server.tool(**hints.destructive("Forget faded memories"))
    def gc(
        dry_run: bool = True,
        archive_instead: bool = False,
        limit: Annotated[int | None, Field(ge=1, le=10_000)] = None,
    ) -> dict[str, Any]:
        """Active memories whose decay score fell below the forget threshold: listed (dry_run,
        the default), or deleted with their relations (archived with archive_instead), lowest
        score first, at most limit (memories tied with the first one left out stay too).
        Applied: one commit (gc: ...)."""

        def collect(vault: Vault) -> dict[str, Any]:
            found = vault.gc(dry_run=True).candidates
            threshold = None
            if limit is not None and len(found) > limit:
                threshold = found[limit][1]  # below the first one left out: at most `limit`
                found = [(m, s) for m, s in found if s < threshold]
            if not dry_run and found:
                found = vault.gc(archive=archive_instead, threshold=threshold).candidates
            ids = [m.id for m, _ in found]
            freed = sum(s for _, s in found)
            done = "Would remove" if dry_run else ("Archived" if archive_instead else "Removed")
            return {
                "success": True, "dry_run": dry_run,
                "removed_count": 0 if archive_instead else len(ids),
                "archived_count": len(ids) if archive_instead else 0,
                "freed_score_sum": round(freed, 4), "memory_ids": ids[:SHOWN],
                "total_affected": len(ids),
                "message": f"{done} {len(ids)} low-scoring memories "
                           f"(threshold: {vault.config.forget_threshold})",
            }

        return access.read(collect) if dry_run else access.write("gc", collect)

    @server.tool(**hints.writes("Promote a memory", idempotent=True))
    def promote_memory(
        memory_id: str | None = None,
        auto_detect: bool = False,
        dry_run: bool = False,
        force: bool = False,
        target: Literal["obsidian"] = "obsidian",
    ) -> dict[str, Any]:
        """Mark a high-value memory promoted (it no longer decays out of search), or with
        auto_detect every active memory that meets the criteria (score at or above the promote
        threshold, or used often soon after creation); force promotes one that does not. The
        memory stays in the vault (target is CortexGraph's, which writes an Obsidian note: here
        a promoted memory stays a file in git like every other). One commit (promote_memory:
        ...)."""
        if memory_id is None and not auto_detect:
            raise ToolRefusal("refused: give memory_id, or auto_detect=true")

        def candidates(vault: Vault, now: int) -> list[Memory]:
            if memory_id is None:
                return [m for m in sorted(vault.memories.values(), key=lambda m: m.id)
                        if m.status == MemoryStatus.ACTIVE and should_promote(m, vault.config, now)]
            m = vault.memories[resolve(vault, memory_id)]
            if m.status == MemoryStatus.PROMOTED:
                raise ToolRefusal(f"refused: memory {m.id} is already promoted")
            if m.status != MemoryStatus.ACTIVE:
                raise ToolRefusal(f"refused: memory {m.id} is {m.status.value}; only an active "
                                  "memory can be promoted")
            if not force and not should_promote(m, vault.config, now):
                raise ToolRefusal(f"refused: memory {m.id} does not meet the promotion criteria: "
                                  f"{_promotion_reason(vault, m, now)} (force=true promotes it)")
            return [m]

        def answer(vault: Vault, found: list[Memory], promoted: list[str],
                   now: int) -> dict[str, Any]:
            ranked = sorted(found, key=lambda m: -vault.score(m, now))
            return {
                "success": True, "dry_run": dry_run, "candidates_found": len(found),
                "promoted_count": len(promoted), "promoted_ids": promoted,
                "candidates": [{"id": m.id, "content_preview": shapes.preview(m),
                                "reason": _promotion_reason(vault, m, now),
                                "score": round(vault.score(m, now), 4), "use_count": m.use_count,
                                "age_days": shapes.age_days(m, now)} for m in ranked[:SHOWN]],
                "message": f"{'Would promote' if dry_run else 'Promoted'} "
                           f"{len(found) if dry_run else len(promoted)} memories",
            }

        def preview(vault: Vault) -> dict[str, Any]:
            now = now_epoch()
            return answer(vault, candidates(vault, now), [], now)

        def promote(vault: Vault) -> dict[str, Any]:
            found: list[Memory] = []

            def build(v: Vault) -> Plan:
                now = now_epoch()
                found[:] = candidates(v, now)
                new = [m.model_copy(update={"status": MemoryStatus.PROMOTED, "promoted_at": now})
                       for m in found]
                if len(new) == 1:
                    message = f"promote_memory: {new[0].id[:8]} {first_words(new[0].text)}"
                else:
                    message = (f"promote_memory: {len(new)} memories "
                               f"({', '.join(m.id[:8] for m in new[:8])})")
                return Plan(message, put_memories=new)

            if memory_id is None and not candidates(vault, now_epoch()):
                return answer(vault, [], [], now_epoch())
            vault.apply(build)
            return answer(vault, found, [m.id for m in found], now_epoch())

        return access.read(preview) if dry_run else access.write("promote_memory", promote)

    @server.tool(**hints.reads("Find similar memories"))
    def cluster_memories(
        threshold: Annotated[float | None, Field(gt=0.0, le=1.0)] = None,
        max_cluster_size: Annotated[int | None, Field(ge=2, le=100)] = None,
        find_duplicates: bool = False,
        duplicate_threshold: Annotated[float | None, Field(gt=0.0, le=1.0)] = None,
        strategy: Literal["similarity"] = "similarity",
    ) -> dict[str, Any]:
        """Groups of similar active memories (text and tag overlap; default threshold 0.83, at
        most 12 a cluster), most cohesive first, with a suggested action; or, with
        find_duplicates, the pairs similar enough to be the same memory. strategy: similarity
        (the one CortexGraph implements too)."""

        def cluster(vault: Vault) -> dict[str, Any]:
            if find_duplicates:
                limit = DUPLICATE_THRESHOLD if duplicate_threshold is None else duplicate_threshold
                pairs = find_clusters(vault, threshold=limit, max_size=2)
                return {"success": True, "mode": "duplicate_detection",
                        "duplicates_found": len(pairs),
                        "duplicates": [{"id1": p.members[0].id, "id2": p.members[1].id,
                                        "content1_preview": shapes.preview(p.members[0]),
                                        "content2_preview": shapes.preview(p.members[1]),
                                        "similarity": round(p.cohesion, 4)} for p in pairs[:20]],
                        "message": f"Found {len(pairs)} potential duplicate pairs"}
            kwargs: dict[str, Any] = {}
            if threshold is not None:
                kwargs["threshold"] = threshold
            if max_cluster_size is not None:
                kwargs["max_size"] = max_cluster_size
            found = find_clusters(vault, **kwargs)
            used = kwargs.get("threshold", DEFAULT_THRESHOLD)
            return {"success": True, "mode": "clustering", "clusters_found": len(found),
                    "strategy": "similarity", "threshold": used,
                    "clusters": [{"id": c.id, "size": len(c.members),
                                  "cohesion": round(c.cohesion, 4),
                                  "suggested_action": c.suggested_action,
                                  "memory_ids": [m.id for m in c.members],
                                  "content_previews": [m.content[:80] for m in c.members[:3]]}
                                 for c in found[:20]],
                    "message": f"Found {len(found)} clusters using similarity strategy"}

        return access.read(cluster)

    @server.tool(**hints.destructive("Merge memories"))
    def consolidate_memories(
        memory_ids: Annotated[list[str] | None, Field(min_length=2, max_length=100)] = None,
        cluster_id: str | None = None,
        mode: Literal["preview", "apply"] = "preview",
        archive_sources: bool = False,
        gist: Annotated[str | None, Field(max_length=20_000)] = None,
        auto_detect: bool = False,
        cohesion_threshold: Annotated[float, Field(gt=0.0, le=1.0)] = 0.75,
    ) -> dict[str, Any]:
        """Merge similar memories into one: the memories given (memory_ids), or a cluster from
        cluster_memories (cluster_id). preview (the default) shows the merged memory; apply
        writes it with consolidated_from relations to each source and deletes the sources (or
        archives them: archive_sources) in one commit (consolidate_memories: ...). gist: your
        own summary of the merged memory (else memvault makes one). auto_detect: the most
        cohesive cluster at or above cohesion_threshold (0.75), one a call."""
        if sum((memory_ids is not None, cluster_id is not None, auto_detect)) != 1:
            raise ToolRefusal("refused: give memory_ids or cluster_id (one of them), or "
                              "auto_detect=true")
        fate: SourceFate = "archive" if archive_sources else "delete"

        def members(vault: Vault) -> list[str]:
            if memory_ids is not None:
                return resolve_many(vault, memory_ids)
            if auto_detect:  # the most cohesive cluster at or above the threshold
                found = next(iter(find_clusters(vault, threshold=cohesion_threshold)), None)
                if found is None:
                    raise ToolRefusal(f"refused: no cluster with a cohesion of at least "
                                      f"{cohesion_threshold} now; nothing to consolidate")
                return [m.id for m in found.members]
            found = next((c for c in find_clusters(vault) if c.id == cluster_id), None)
            if found is None:
                raise ToolRefusal(f"refused: no cluster {cluster_id!r} now (cluster ids follow "
                                  "their members: ask cluster_memories again)")
            return [m.id for m in found.members]

        def planned(vault: Vault) -> ConsolidationPreview:
            preview = plan_consolidation(vault, members(vault), sources=fate, gist=gist)
            preview.message = "consolidate_memories: " + preview.message.removeprefix(
                "consolidate: ")
            if preview.plan is not None:
                preview.plan.message = preview.message
            return preview

        def consolidate(vault: Vault) -> dict[str, Any]:
            if mode == "preview":
                plan = planned(vault)
            else:
                made: list[ConsolidationPreview] = []

                def build(v: Vault) -> Plan:  # under the lock, on the up-to-date vault
                    made.append(planned(v))
                    assert made[-1].plan is not None
                    return made[-1].plan

                commit = vault.apply(build).commit
                plan = made[-1]
                plan.commit = commit
            answer: dict[str, Any] = {
                "success": True, "mode": mode, "cluster_id": plan.cluster_id,
                "num_memories": len(plan.sources), "cohesion": round(plan.cohesion, 4),
                "merged_memory": _merged_memory(plan),
                "original_memories": [{"id": m.id,
                                       "content_preview": shapes.truncate(m.content, 100),
                                       "tags": m.meta.tags, "use_count": m.use_count,
                                       "strength": m.strength} for m in plan.sources],
                "sources": fate, "message": plan.message}
            if plan.commit is not None:
                answer.update({"new_memory_id": plan.merged.id,
                               "consolidated_ids": [m.id for m in plan.sources],
                               "space_saved": len(plan.sources) - 1 if fate == "delete" else 0})
            return answer

        if mode == "preview":
            return access.read(consolidate)
        return access.write("consolidate_memories", consolidate)

    @server.tool(**hints.destructive("Split a memory"))
    def split_memory(
        memory_id: str,
        parts: Annotated[list[str | SplitPart], Field(min_length=2, max_length=50)],
        preview: bool = False,
        delete_original: bool = False,
    ) -> dict[str, Any]:
        """Split a memory that holds several ideas into one memory a part (each inherits its
        source and uses, takes the tags and entities its own words name, with a split_from
        relation to the original), archiving
        the original (or deleting it: delete_original). A part is its text, or {content, gist}
        with your own gist for it. preview shows the result and writes nothing. Each part's
        likely_duplicates names the memories it likely repeats (nothing is refused). One commit
        (split_memory: ...)."""
        from core.ops.split import OriginalFate, plan_split
        from core.ops.split_repeats import split_repeats

        original: OriginalFate = "delete" if delete_original else "archive"
        texts = [p if isinstance(p, str) else p.content for p in parts]
        gists = [None if isinstance(p, str) else p.gist for p in parts]

        def plan(vault: Vault) -> Plan:
            change = plan_split(vault, resolve(vault, memory_id), texts, original=original,
                                gists=gists)
            change.message = "split_memory: " + change.message.removeprefix("split: ")
            return change

        def answer(vault: Vault, change: Plan, committed: bool) -> dict[str, Any]:
            made = change.put_memories[:len(change.put_relations)]
            original_id = change.put_relations[0].to_memory_id
            repeats = split_repeats(vault, original_id,
                                    [(m.content, m.meta.tags, m.entities) for m in made],
                                    also_exclude=[m.id for m in made])
            return {"success": True, "preview": not committed,
                    "original_id": original_id, "original": original,
                    "new_memory_ids": [m.id for m in made] if committed else [],
                    "parts": [{"id": m.id if committed else None, "content": m.content,
                               "gist": m.gist, "tags": m.meta.tags, "entities": m.entities,
                               "likely_duplicates": [{"id": other.id,
                                                      "similarity": round(score, 4)}
                                                     for other, score in found]}
                              for m, found in zip(made, repeats)],
                    "message": change.message, "commit": change.commit}

        if preview:
            return access.read(lambda vault: answer(vault, plan(vault), False))
        return access.write("split_memory",
                            lambda vault: answer(vault, vault.apply(plan), True))
