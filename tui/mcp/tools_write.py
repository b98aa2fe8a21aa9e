"""The tools that change memories one by one: CortexGraph's ``save_memory``, ``touch_memory``,
``create_relation`` and ``observe_memory_usage``, memvault's ``archive_memory``,
``delete_memory``, ``restore_memory`` and ``undo_last``. Each is one commit through core
(``Vault.save``, ``touch``, ``save_relations``, ``apply``, ``archive``, ``delete``, ``restore``,
``undo``); bad input writes nothing."""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from pydantic import Field

from core import KNOWN_RELATION_TYPES, Memory, MemoryMetadata, Relation, Vault
from core.model.records import now_epoch
from core.textutil import given_gist
from core.ops.duplicates import possible_duplicates
from core.vault import Plan, first_words
from core.ops.revert import undo as undo_newest

from . import hints
from .access import ToolRefusal, VaultAccess
from .ids import resolve, resolve_many

MAX_STRENGTH = 2.0
CROSS_DOMAIN_BOOST = 0.05
CROSS_DOMAIN_JACCARD = 0.3  # CortexGraph: tag overlap below this is another domain

Tags = Annotated[list[str] | None, Field(max_length=50)]


def _memory_message(tool: str, memory: Memory) -> str:
    return f"{tool}: {memory.id[:8]} {first_words(memory.text)}"


def _unique(items: list[str] | None) -> list[str]:
    return list(dict.fromkeys(items or []))


def cross_domain(memory: Memory, context_tags: list[str]) -> bool:
    """CortexGraph's rule: the memory is used with tags it shares little with (Jaccard < 0.3)."""
    mine, theirs = set(memory.meta.tags), set(context_tags)
    if not mine or not theirs:
        return False
    return len(mine & theirs) / len(mine | theirs) < CROSS_DOMAIN_JACCARD


def register(server: MCPServer, access: VaultAccess) -> None:
    @server.tool(**hints.writes("Save a memory"))
    def save_memory(
        content: str,
        tags: Tags = None,
        entities: Annotated[list[str] | None, Field(max_length=100)] = None,
        source: str | None = None,
        context: str | None = None,
        meta: dict[str, Any] | None = None,
        strength: Annotated[float | None, Field(ge=1.0, le=2.0)] = None,
        gist: Annotated[str | None, Field(max_length=20_000)] = None,
    ) -> dict[str, Any]:
        """Save a memory (one git commit). Returns success, memory_id, message. gist: your own
        one-line summary of a long note (shorter than the content; recall shows it instead of
        the content); without one, memvault makes one for longer content."""
        if not content.strip():
            raise ToolRefusal("refused: a memory needs non-empty content; nothing was written")

        def save(vault: Vault) -> tuple[Memory, list[dict[str, object]]]:
            now = now_epoch()
            memory = Memory(
                id=str(uuid.uuid4()), content=content, created_at=now, last_used=now,
                gist=given_gist(gist, content) if gist is not None else None,
                strength=1.0 if strength is None else strength, entities=_unique(entities),
                meta=MemoryMetadata(tags=_unique(tags), source=source, context=context,
                                    extra=dict(meta or {})))
            saved = vault.save(memory, message=_memory_message("save_memory", memory))
            return saved, possible_duplicates(vault, saved.id, access.finder.index(vault))

        memory, duplicates = access.write("save_memory", save)
        message = f"Memory saved with ID: {memory.id}"
        if duplicates:  # a suggestion: nothing is merged here
            ids = [memory.id, *(d["id"] for d in duplicates)]
            message += (f". It likely duplicates {len(duplicates)} existing "
                        f"memor{'y' if len(duplicates) == 1 else 'ies'}; nothing was "
                        f"merged. To merge: consolidate_memories(memory_ids={ids}) "
                        "(mode preview first, then apply)")
        answer: dict[str, Any] = {
            "success": True,
            "memory_id": memory.id,
            "message": message,
            "has_embedding": False,
            "enrichment_applied": False,
            "auto_entities": 0,
            "calculated_strength": memory.strength,
            "gist": memory.gist,
        }
        if duplicates:
            answer["possible_duplicates"] = duplicates
        return answer

    @server.tool(**hints.writes("Reinforce a memory"))
    def touch_memory(memory_id: str, boost_strength: bool = False) -> dict[str, Any]:
        """Reinforce a memory: use count + 1, last used now; boost_strength adds 0.1 to its
        strength (at most 2.0). One commit."""

        def touch(vault: Vault) -> dict[str, Any]:
            now = now_epoch()
            old = vault.get(resolve(vault, memory_id))
            new = vault.touch(old.id, boost=boost_strength)[0]
            old_score, new_score = vault.score(old, now), vault.score(new, now)
            return {
                "success": True,
                "memory_id": new.id,
                "old_score": round(old_score, 4),
                "new_score": round(new_score, 4),
                "use_count": new.use_count,
                "strength": round(new.strength, 4),
                "message": f"Memory reinforced. Score: {old_score:.2f} -> {new_score:.2f}",
            }

        return access.write("touch_memory", touch)

    @server.tool(**hints.writes("Relate two memories", idempotent=True))
    def create_relation(
        from_memory_id: str,
        to_memory_id: str,
        relation_type: str,
        strength: Annotated[float, Field(ge=0.0, le=1.0)] = 1.0,
        metadata: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Link two memories with a typed relation (related, causes, supports, contradicts,
        has_decision, ...). One commit."""
        if relation_type not in KNOWN_RELATION_TYPES:
            raise ToolRefusal(f"refused: unknown relation type {relation_type!r} (known: "
                              f"{', '.join(sorted(KNOWN_RELATION_TYPES))}); nothing was written")

        def relate(vault: Vault) -> dict[str, Any]:
            a, b = resolve(vault, from_memory_id), resolve(vault, to_memory_id)
            existing = [r for r in vault.store.relations_of(a) if r.from_memory_id == a
                        and r.to_memory_id == b and r.relation_type == relation_type]
            if existing:
                return {"success": False, "message": f"Relation already exists: {existing[0].id}",
                        "existing_relation_id": existing[0].id}
            relation = Relation(id=str(uuid.uuid4()), from_memory_id=a, to_memory_id=b,
                                relation_type=relation_type, strength=strength,
                                metadata=dict(metadata or {}))
            vault.save_relations([relation], message=(
                f"create_relation: {a[:8]} -{relation_type}-> {b[:8]}"))
            return {"success": True, "relation_id": relation.id, "from": a, "to": b,
                    "type": relation_type, "strength": strength,
                    "message": f"Relation created: {a} --[{relation_type}]--> {b}"}

        return access.write("create_relation", relate)

    @server.tool(**hints.writes("Record memories used"))
    def observe_memory_usage(
        memory_ids: Annotated[list[str], Field(min_length=1, max_length=100)],
        context_tags: Tags = None,
    ) -> dict[str, Any]:
        """Record that memories were used in the conversation (not just retrieved): use count
        and review count + 1, last used now; used outside their usual tags, strength + 0.05.
        One commit (a use record: undo passes over it, as over touches)."""
        tags = list(context_tags or [])
        results: list[dict[str, Any]] = []

        def build(vault: Vault) -> Plan:
            results.clear()
            now = now_epoch()
            changed = []
            for mid in resolve_many(vault, memory_ids):
                m = vault.memories[mid]
                other = cross_domain(m, tags)
                new = m.model_copy(update={
                    "last_used": now, "use_count": m.use_count + 1, "last_review_at": now,
                    "review_count": m.review_count + 1, "review_priority": 0.0,
                    "cross_domain_count": m.cross_domain_count + (1 if other else 0),
                    "strength": min(MAX_STRENGTH, m.strength + CROSS_DOMAIN_BOOST) if other
                    else m.strength})
                changed.append(new)
                results.append({"id": mid, "status": "reinforced", "cross_domain": other,
                                "new_use_count": new.use_count,
                                "new_review_count": new.review_count, "strength": new.strength})
            shown = ", ".join(m.id[:8] for m in changed[:8])
            more = f", +{len(changed) - 8}" if len(changed) > 8 else ""
            # "touch:" keeps it a use record for undo; the tool is named after it.
            return Plan(f"touch: {len(changed)} used ({shown}{more}) by observe_memory_usage",
                             put_memories=changed)

        access.write("observe_memory_usage", lambda vault: vault.apply(build))
        return {"reinforced": True, "count": len(results),
                "cross_domain_count": sum(1 for r in results if r["cross_domain"]),
                "results": results}

    @server.tool(**hints.writes("Archive a memory", idempotent=True))
    def archive_memory(memory_id: str) -> dict[str, Any]:
        """Archive a memory (memvault): it stays in the vault, out of search and recall. One
        commit; undo_last takes it back."""

        def archive(vault: Vault) -> dict[str, Any]:
            m = vault.archive(resolve(vault, memory_id))[0]
            return {"success": True, "memory_id": m.id, "status": m.status.value,
                    "message": f"Memory archived: {m.id}"}

        return access.write("archive_memory", archive)

    @server.tool(**hints.destructive("Delete a memory", idempotent=True))
    def delete_memory(memory_id: str) -> dict[str, Any]:
        """Delete a memory and the relations that touch it, except lineage relations
        (consolidated_from, split_from), which outlive it (memvault). One commit; it stays in
        git history: restore_memory or undo_last brings it back."""

        def delete(vault: Vault) -> dict[str, Any]:
            report = vault.delete(resolve(vault, memory_id))
            m = report.memories[0]
            return {"success": True, "memory_id": m.id,
                    "relations_removed": [r.id for r in report.relations],
                    "relations_kept": [r.id for r in report.kept_relations],
                    "message": f"Memory deleted: {m.id} (restore_memory brings it back)"}

        return access.write("delete_memory", delete)

    @server.tool(**hints.destructive("Restore a memory", idempotent=True))
    def restore_memory(memory_id: str, commit: str | None = None) -> dict[str, Any]:
        """Bring back a deleted memory (with the relations its deletion removed), or an earlier
        version of a living one; commit: the version to restore (from memory_history; default:
        the one before its last change, restores not counted, so a second call changes nothing).
        One commit, or none when it already is that version (unchanged: true)."""

        def restore(vault: Vault) -> dict[str, Any]:
            report = vault.restore(vault.resolve_any(memory_id), at=commit)
            if report.unchanged:
                message = (f"Memory {report.memory.id} already is the version from "
                           f"{report.source_commit[:8]}: nothing written")
            else:
                message = f"Memory restored from {report.source_commit[:8]}: {report.memory.id}"
            return {"success": True, "memory_id": report.memory.id,
                    "from_commit": report.source_commit, "unchanged": report.unchanged,
                    "relations_restored": [r.id for r in report.relations],
                    "message": message}

        return access.write("restore_memory", restore)

    @server.tool(**hints.destructive("Undo the last change"))
    def undo_last() -> dict[str, Any]:
        """Undo the newest operation on the vault not undone yet (whoever made it; touches and
        use records are kept), as a new commit. Refused, writing nothing, when a later change
        touched the same memories."""

        def undo(vault: Vault) -> dict[str, Any]:
            report = undo_newest(vault)
            return {"success": True, **report.as_dict(),
                    "message": f"Undid {report.reverted[:8]} {report.subject}"}

        return access.write("undo_last", undo)
