"""The boundary of :class:`~core.cortexgraph_storage.PerFileStorage`: what it takes in, and in which classes
it answers (the rule is in :mod:`core.cortexgraph_storage`'s docstring).

In: any object with CortexGraph's field names (memvault's records, CortexGraph's pydantic models,
dicts) becomes memvault's record through its JSON form; keys memvault does not know are kept.
What a caller's class cannot carry is taken from the record already stored, so handing back
what the storage gave does not lose it: the ``gist`` (while the content is unchanged), keys a
newer writer left in the file, and the ``superseded`` status (shown to CortexGraph as
``archived``, the status it knows for a kept memory out of the active set).

Out: memvault's records as they are, or CortexGraph's classes built from their JSON form,
remembered per record until the record changes.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from ..model.records import KnowledgeGraph, Memory, MemoryStatus, Relation

CORTEXGRAPH_MODELS = "cortexgraph.storage.models"
#: ``PerFileStorage(models=...)``
MODEL_CHOICES = ("auto", "memvault", "cortexgraph")
#: memvault's statuses CortexGraph 1.2.1 has no name for, as CortexGraph is shown them
_STATUS_FOR_CORTEXGRAPH = {MemoryStatus.SUPERSEDED.value: MemoryStatus.ARCHIVED.value}


def record_data(obj: Any, model: type[Memory] | type[Relation]) -> dict[str, Any]:
    """The JSON form of ``obj``: a dict as it is, a pydantic model's ``model_dump``; anything
    else is a TypeError."""
    if isinstance(obj, Mapping):
        return dict(obj)
    if callable(getattr(obj, "model_dump", None)):
        return obj.model_dump(mode="json")
    raise TypeError(f"expected a {model.__name__} (memvault's or CortexGraph's) or a dict, "
                    f"not {type(obj).__name__}")


def _kept_from(stored: Memory | Relation, data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with what its class could not carry taken from the stored record."""
    old = stored.model_dump(mode="json")
    merged = dict(data)
    for key, value in old.items():
        if key in data or (key == "gist" and data.get("content") != old.get("content")):
            continue
        merged[key] = value
    if isinstance(data.get("meta"), Mapping) and isinstance(old.get("meta"), Mapping):
        merged["meta"] = {**{k: v for k, v in old["meta"].items() if k not in data["meta"]},
                          **data["meta"]}
    status = data.get("status")
    shown_as = _STATUS_FOR_CORTEXGRAPH.get(str(old.get("status")))
    if shown_as is not None and getattr(status, "value", status) == shown_as:
        merged["status"] = old["status"]
    return merged


def as_record(obj: Any, model: type[Memory] | type[Relation],
              stored: Memory | Relation | None = None) -> Any:
    """``obj`` as memvault's ``model``: itself when it is one; else converted through its JSON
    form (fields memvault does not know are kept: the records allow extra keys), completed
    from ``stored`` (the record with that id now, if any) where its class could not carry a
    field. Bad values are a ValidationError, as CortexGraph's models would give."""
    if isinstance(obj, model):
        return obj
    data = record_data(obj, model)
    if stored is not None:
        data = _kept_from(stored, data)
    return model.model_validate(data)


def cortexgraph_installed() -> bool:
    return importlib.util.find_spec("cortexgraph") is not None


class Boundary:
    """Converts records on their way out, in the classes ``models`` names."""

    def __init__(self, models: str) -> None:
        if models not in MODEL_CHOICES:
            raise ValueError(f"models must be one of {', '.join(MODEL_CHOICES)}, not {models!r}")
        if models == "cortexgraph" and not cortexgraph_installed():
            raise ImportError("models='cortexgraph' needs CortexGraph installed "
                              "(pip install cortexgraph)")
        self.models = models
        self._made: dict[tuple[str, str], tuple[Any, Any]] = {}

    def foreign(self) -> ModuleType | None:
        """CortexGraph's models module when answers are to be in its classes, else None."""
        if self.models == "memvault":
            return None
        if self.models == "cortexgraph":
            return importlib.import_module(CORTEXGRAPH_MODELS)
        return sys.modules.get(CORTEXGRAPH_MODELS)  # "auto": only what the program imported

    def _theirs(self, kind: str, ours: Any, build: Any) -> Any:
        key = (kind, ours.id)
        made = self._made.get(key)
        if made is not None and made[0] is ours and type(made[1]) is build:
            return made[1]
        data = ours.model_dump(mode="json")
        if kind == "memory":
            data["status"] = _STATUS_FOR_CORTEXGRAPH.get(data["status"], data["status"])
        theirs = build.model_validate(data)
        self._made[key] = (ours, theirs)
        return theirs

    def memory(self, memory: Memory | None) -> Any:
        module = self.foreign()
        if memory is None or module is None:
            return memory
        return self._theirs("memory", memory, module.Memory)

    def memories(self, memories: list[Memory]) -> list[Any]:
        return [self.memory(m) for m in memories] if self.foreign() is not None else memories

    def memory_map(self, memories: dict[str, Memory]) -> dict[str, Any]:
        """Every memory (the whole set: conversions of records gone are forgotten)."""
        if self.foreign() is None:
            return memories
        self._forget_gone("memory", memories)
        return {mid: self.memory(m) for mid, m in memories.items()}

    def relation(self, relation: Relation) -> Any:
        module = self.foreign()
        if module is None:
            return relation
        return self._theirs("relation", relation, module.Relation)

    def relations(self, relations: list[Relation]) -> list[Any]:
        return [self.relation(r) for r in relations] if self.foreign() is not None else relations

    def relation_map(self, relations: dict[str, Relation]) -> dict[str, Any]:
        if self.foreign() is None:
            return relations
        self._forget_gone("relation", relations)
        return {rid: self.relation(r) for rid, r in relations.items()}

    def _forget_gone(self, kind: str, living: dict[str, Any]) -> None:
        self._made = {k: v for k, v in self._made.items() if k[0] != kind or k[1] in living}

    def graph(self, graph: KnowledgeGraph) -> Any:
        module = self.foreign()
        if module is None:
            return graph
        return module.KnowledgeGraph(memories=self.memories(graph.memories),
                                     relations=self.relations(graph.relations),
                                     stats=graph.stats)

    def forget(self) -> None:
        """Drop the remembered conversions (the storage was closed or moved)."""
        self._made.clear()
