"""``PerFileStorage``: a drop-in for CortexGraph 1.2.1's ``JSONLStorage``.

Same constructor, public methods, argument names, return values and errors (a ``RuntimeError``
"Storage not connected" before :meth:`connect`), backed by a :class:`~core.vault.Vault`: each
memory and relation is a file and every write is a git commit. Where the per-file spec differs
from the JSONL store it follows the spec: deleting a memory also deletes the relations that touch
it, so no relation file is left pointing at nothing.

What it takes: memvault's ``Memory`` and ``Relation``, or any object with CortexGraph's field
names (CortexGraph's own pydantic models, or a dict), converted at the boundary through its JSON
form (:func:`as_record`); fields memvault does not know are kept and round-trip to the file.
What it returns: memvault's classes (which carry every CortexGraph field, plus ``gist``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .model.config import default_vault_path
from .errors import InvalidIdError, UnknownIdError
from .model.records import KnowledgeGraph, Memory, MemoryStatus, Relation, now_epoch
from .vault import Vault

_NOT_CONNECTED = "Storage not connected"


def as_record(obj: Any, model: type[Memory] | type[Relation]) -> Any:
    """``obj`` as memvault's ``model``: itself when it is one; else any pydantic model with the
    same field names (CortexGraph's own ``Memory`` and ``Relation``) or a dict, converted
    through its JSON form, so fields memvault does not know are kept (the records allow extra
    keys) and round-trip to the file. Anything else is a TypeError; bad values a
    ValidationError, as CortexGraph's models would give."""
    if isinstance(obj, model):
        return obj
    if isinstance(obj, Mapping):
        data = dict(obj)
    elif callable(getattr(obj, "model_dump", None)):
        data = obj.model_dump(mode="json")
    else:
        raise TypeError(f"expected a {model.__name__} (memvault's or CortexGraph's) or a dict, "
                        f"not {type(obj).__name__}")
    return model.model_validate(data)


class PerFileStorage:
    """Per-memory-file storage with an in-memory cache and tag index."""

    def __init__(self, storage_path: Path | str | None = None) -> None:
        path = Path(storage_path) if storage_path is not None else default_vault_path()
        self.storage_dir = path.expanduser()
        self._vault: Vault | None = None

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
        return self.vault.memories

    @property
    def relations(self) -> dict[str, Relation]:
        return self.vault.relations

    # -- lifecycle --------------------------------------------------------------------------
    def connect(self) -> None:
        if self._vault is None:
            self._vault = Vault.open(self.storage_dir)

    def close(self) -> None:
        if self._vault is not None:
            self._vault.close()
        self._vault = None

    def __enter__(self) -> PerFileStorage:
        self.connect()
        return self

    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> None:
        self.close()

    # -- memories ---------------------------------------------------------------------------
    def save_memory(self, memory: Memory) -> None:
        self.vault.save(as_record(memory, Memory))

    def save_memories_batch(self, memories: list[Memory]) -> None:
        if memories:
            self.vault.save_many([as_record(m, Memory) for m in memories])

    async def save_memory_async(self, memory: Memory) -> None:
        vault = self.vault
        ours = as_record(memory, Memory)
        import asyncio  # (here: importing asyncio costs every command ~30 ms at start-up)

        await asyncio.to_thread(vault.save, ours)

    def get_memory(self, memory_id: str) -> Memory | None:
        return self.vault.find(memory_id)

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
        return self.vault.search(status=status, limit=limit, offset=offset, sort="last_used")

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
        return found if limit is None else found[:limit]

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
        relations = [as_record(r, Relation) for r in relations]
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
        return found

    def get_all_relations(self) -> list[Relation]:
        return list(self.vault.relations.values())

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
        memories = self.list_memories(status=status)
        relations = self.get_all_relations()
        now = now_epoch()
        scores = [vault.score(m, now) for m in memories]
        stats = {
            "total_memories": len(memories),
            "total_relations": len(relations),
            "avg_score": sum(scores) / len(scores) if scores else 0,
            "avg_use_count": (sum(m.use_count for m in memories) / len(memories)
                              if memories else 0),
            "status_filter": status.value if status else "all",
        }
        return KnowledgeGraph(memories=memories, relations=relations, stats=stats)

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
