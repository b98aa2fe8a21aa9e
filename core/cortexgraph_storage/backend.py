"""``PerFileStorage``: CortexGraph 1.2.1's ``JSONLStorage`` interface over a
:class:`~core.vault.Vault` (the rules: :mod:`core.cortexgraph_storage`)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from ..decay import score_at
from ..errors import InvalidIdError, UnknownIdError
from ..model.config import default_vault_path
from ..model.records import KnowledgeGraph, Memory, MemoryStatus, Relation, now_epoch
from ..vault import Vault
from .classes import Boundary, as_record, record_data

_NOT_CONNECTED = "Storage not connected"


class PerFileStorage:
    """Per-memory-file storage with an in-memory cache and tag index."""

    def __init__(self, storage_path: Path | str | None = None, *, models: str = "auto") -> None:
        """``storage_path``, else ``MEMVAULT_PATH``, else CortexGraph's configured storage path,
        else memvault's per-user folder (:func:`core.default_vault_path`). ``models``: the
        classes it answers in, "auto" (the default), "memvault" or "cortexgraph"."""
        path = Path(storage_path) if storage_path is not None else default_vault_path()
        self.storage_dir = path.expanduser()
        self._vault: Vault | None = None
        self._out = Boundary(models)

    # -- the same properties JSONLStorage exposes -------------------------------------------
    @property
    def storage_path(self) -> Path:
        return self.storage_dir

    @storage_path.setter
    def storage_path(self, value: Path | str) -> None:
        """Point the storage at another folder, as JSONLStorage lets a caller do on a live
        object: a connected storage is closed (every write is committed already) and opened
        again at the new place; an unconnected one is only moved."""
        path = Path(value).expanduser()
        connected = self._vault is not None
        if connected:
            self.close()
        self.storage_dir = path
        if connected:
            self.connect()

    @property
    def vault(self) -> Vault:
        if self._vault is None:
            raise RuntimeError(_NOT_CONNECTED)
        # Callers read, change and write back absolute values (CortexGraph's touch does
        # use_count + 1): every call answers from what HEAD says now, never a stale cache.
        self._vault.refresh()
        return self._vault

    @property
    def memories(self) -> dict[str, Memory]:
        """Every memory by id (a copy: change records through the methods, which commit)."""
        return self._out.memory_map(dict(self.vault.memories))

    @property
    def relations(self) -> dict[str, Relation]:
        return self._out.relation_map(dict(self.vault.relations))

    def _incoming(self, memory: Any) -> Memory:
        """A caller's memory as ours, completed from the stored one (see :mod:`.classes`)."""
        if isinstance(memory, Memory):
            return memory
        data = record_data(memory, Memory)
        stored = self.vault.find(data["id"]) if isinstance(data.get("id"), str) else None
        return as_record(data, Memory, stored)

    def _incoming_relation(self, relation: Any) -> Relation:
        if isinstance(relation, Relation):
            return relation
        data = record_data(relation, Relation)
        rid = data.get("id")
        stored = self.vault.relations.get(rid) if isinstance(rid, str) else None
        return as_record(data, Relation, stored)

    # -- lifecycle --------------------------------------------------------------------------
    def connect(self) -> None:
        if self._vault is None:
            self._vault = Vault.open(self.storage_dir)

    def close(self) -> None:
        if self._vault is not None:
            self._vault.close()
        self._vault = None
        self._out.forget()

    def __enter__(self) -> PerFileStorage:
        self.connect()
        return self

    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> None:
        self.close()

    # -- memories ---------------------------------------------------------------------------
    def save_memory(self, memory: Memory) -> None:
        self.vault.save(self._incoming(memory))

    def save_memories_batch(self, memories: list[Memory]) -> None:
        if memories:
            self.vault.save_many([self._incoming(m) for m in memories])

    async def save_memory_async(self, memory: Memory) -> None:
        vault = self.vault
        ours = self._incoming(memory)
        import asyncio  # (here: importing asyncio costs every command ~30 ms at start-up)

        await asyncio.to_thread(vault.save, ours)

    def get_memory(self, memory_id: str) -> Memory | None:
        return self._out.memory(self.vault.find(memory_id))

    def update_memory(
        self,
        memory_id: str,
        last_used: int | None = None,
        use_count: int | None = None,
        strength: float | None = None,
        status: MemoryStatus | None = None,
        promoted_at: int | None = None,
        promoted_to: str | None = None,
        review_priority: float | None = None,
        last_review_at: int | None = None,
        review_count: int | None = None,
        cross_domain_count: int | None = None,
    ) -> bool:
        vault = self.vault
        if vault.find(memory_id) is None:
            return False
        given = {
            "last_used": last_used, "use_count": use_count, "strength": strength,
            "status": status, "promoted_at": promoted_at, "promoted_to": promoted_to,
            "review_priority": review_priority, "last_review_at": last_review_at,
            "review_count": review_count, "cross_domain_count": cross_domain_count,
        }
        changes = {k: v for k, v in given.items() if v is not None}
        if changes:
            vault.update(memory_id, **changes)
        return True

    def delete_memory(self, memory_id: str) -> bool:
        vault = self.vault
        if vault.find(memory_id) is None:
            return False
        vault.delete(memory_id)
        return True

    def delete_memories_batch(self, memory_ids: list[str]) -> int:
        vault = self.vault
        existing = [i for i in dict.fromkeys(memory_ids) if vault.find(i) is not None]
        if existing:
            vault.delete(*existing)
        return len(existing)

    def list_memories(
        self, status: MemoryStatus | None = None, limit: int | None = None, offset: int = 0
    ) -> list[Memory]:
        return self._out.memories(
            self.vault.search(status=status, limit=limit, offset=offset, sort="last_used"))

    def count_memories(self, status: MemoryStatus | None = None) -> int:
        memories = self.vault.memories
        if status is None:
            return len(memories)
        return sum(1 for m in memories.values() if m.status == status)

    def search_memories(
        self,
        query: str | None = None,
        tags: list[str] | None = None,
        status: MemoryStatus | list[MemoryStatus] | None = MemoryStatus.ACTIVE,
        window_days: int | None = None,
        limit: int = 10,
    ) -> list[Memory]:
        """Like JSONLStorage: ``query`` is one case-insensitive substring of the content."""
        found = self.vault.search(tags=tags, status=status, window_days=window_days,
                                  sort="last_used")
        if query:
            needle = query.lower()
            found = [m for m in found if needle in m.content.lower()]
        return self._out.memories(found if limit is None else found[:limit])

    def get_all_embeddings(self) -> dict[str, list[float]]:
        return {m.id: m.embed for m in self.vault.memories.values()
                if m.embed is not None and m.status == MemoryStatus.ACTIVE}

    # -- relations --------------------------------------------------------------------------
    def create_relation(self, relation: Relation) -> None:
        self.create_relations_batch([relation])

    def create_relations_batch(self, relations: list[Relation]) -> None:
        vault = self.vault
        if not relations:
            return
        relations = [self._incoming_relation(r) for r in relations]
        for r in relations:
            if vault.find(r.from_memory_id) is None:
                raise ValueError(f"Source memory {r.from_memory_id} does not exist")
            if vault.find(r.to_memory_id) is None:
                raise ValueError(f"Target memory {r.to_memory_id} does not exist")
        vault.save_relations(list(relations))

    def get_relations(
        self,
        from_memory_id: str | None = None,
        to_memory_id: str | None = None,
        relation_type: str | None = None,
    ) -> list[Relation]:
        found = list(self.vault.relations.values())
        if from_memory_id:
            found = [r for r in found if r.from_memory_id == from_memory_id]
        if to_memory_id:
            found = [r for r in found if r.to_memory_id == to_memory_id]
        if relation_type:
            found = [r for r in found if r.relation_type == relation_type]
        return self._out.relations(found)

    def get_all_relations(self) -> list[Relation]:
        return self._out.relations(list(self.vault.relations.values()))

    def delete_relation(self, relation_id: str) -> bool:
        vault = self.vault
        if relation_id not in vault.relations:
            return False
        try:
            vault.unrelate(relation_id)
        except (UnknownIdError, InvalidIdError):
            return False
        return True

    def get_knowledge_graph(
        self, status: MemoryStatus | None = MemoryStatus.ACTIVE
    ) -> KnowledgeGraph:
        vault = self.vault
        memories = vault.search(status=status, sort="last_used")
        relations = list(vault.relations.values())
        now = now_epoch()
        # JSONLStorage's figure: CortexGraph 1.2.1's calculate_score, which scores exponentially
        # (decay_lambda, decay_beta) whatever the configured model (see core.decay)
        as_cortexgraph = replace(vault.config, decay_model="exponential")
        scores = [score_at(m.use_count, m.last_used, m.strength, now, as_cortexgraph)
                  for m in memories]
        stats = {
            "total_memories": len(memories),
            "total_relations": len(relations),
            "avg_score": sum(scores) / len(scores) if scores else 0,
            "avg_use_count": (sum(m.use_count for m in memories) / len(memories)
                              if memories else 0),
            "status_filter": status.value if status else "all",
        }
        return self._out.graph(KnowledgeGraph(memories=memories, relations=relations, stats=stats))

    def get_storage_stats(self) -> dict[str, Any]:
        """JSONLStorage's shape; a per-file vault never needs compaction."""
        vault = self.vault
        layout = vault.layout

        def folder_bytes(folder: Path) -> int:  # memories: in both layouts (flat and shards)
            found = [*folder.glob("*.json"), *folder.glob("*/*.json")]
            return sum(p.lstat().st_size for p in found
                       if p.is_file() and not p.is_symlink()
                       and layout.classify(p.relative_to(layout.root).as_posix()) is not None)

        return {
            "memories": {
                "active": len(vault.memories),
                "total_lines": len(vault.memories),
                "file_size_bytes": folder_bytes(layout.memories_dir),
                "compaction_savings": 0,
            },
            "relations": {
                "active": len(vault.relations),
                "total_lines": len(vault.relations),
                "file_size_bytes": folder_bytes(layout.relations_dir),
                "compaction_savings": 0,
            },
            "should_compact": False,
        }

    def compact(self) -> dict[str, int]:
        """Nothing to compact: the set of files is always exactly the living records."""
        vault = self.vault
        n_mem, n_rel = len(vault.memories), len(vault.relations)
        return {"memories_before": n_mem, "memories_after": n_mem,
                "relations_before": n_rel, "relations_after": n_rel}
