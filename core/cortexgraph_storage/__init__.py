"""``PerFileStorage``: a drop-in for CortexGraph 1.2.1's ``JSONLStorage``.

Same constructor, public methods, argument names, return values and errors (a ``RuntimeError``
"Storage not connected" before :meth:`~PerFileStorage.connect`), backed by a
:class:`~core.vault.Vault`: each memory and relation is a file and every write is one git commit.
Where the per-file spec differs from the JSONL store it follows the spec: deleting a memory also
deletes the relations that touch it, in the same commit, except the lineage ones
(``consolidated_from``, ``split_from``), which outlive it, so CortexGraph's consolidation (save
the merged memory, relate it to the sources, delete the sources) keeps its provenance (the one
rule of :mod:`core.model.relation_rule`).

**Where it lives.** ``PerFileStorage(storage_path)``; without one, ``MEMVAULT_PATH``, else the
storage path configured for CortexGraph (its ``set_config``, ``CORTEXGRAPH_STORAGE_PATH``, or
that variable in CortexGraph's ``.env`` file, read as CortexGraph reads it without importing it:
:mod:`core.model.cortexgraph_config`), else memvault's per-user folder. Setting
``storage_path`` on a connected storage closes it and opens it again at the new place, as
``JSONLStorage`` allows.

**What it takes.** memvault's ``Memory`` and ``Relation``, or any object with CortexGraph's field
names (CortexGraph's own pydantic models, or a dict), converted at the boundary through its JSON
form; fields memvault does not know are kept and round-trip to the file. What the caller's class
cannot carry (the ``gist``, keys a newer writer left in the file, the ``superseded`` status) is
kept from the stored record when the caller hands a record back (:mod:`core.cortexgraph_storage.classes`).

**What it returns: the caller's classes.** One argument chooses, ``models``:

- ``"auto"`` (the default): CortexGraph's classes (``cortexgraph.storage.models``: ``Memory``,
  ``Relation``, ``KnowledgeGraph``) when the program has imported that module, which it has done
  whenever it hands in one of CortexGraph's objects and whenever CortexGraph's own tools call the
  storage, even for a first call that only reads; memvault's otherwise. In this mode the storage
  never imports CortexGraph itself, so a program that does not use it never pays for it.
- ``"cortexgraph"``: always CortexGraph's classes, imported lazily at the first answer (an
  ImportError at construction when CortexGraph is not installed).
- ``"memvault"``: always memvault's classes (which carry every CortexGraph field, plus
  ``gist``), even in a program that has imported CortexGraph.

In CortexGraph's classes a ``superseded`` memory (a status CortexGraph 1.2.1 does not have)
reads as ``archived``; saving it back as ``archived`` keeps it ``superseded``.
"""

from .backend import PerFileStorage
from .classes import MODEL_CHOICES, as_record

__all__ = ["MODEL_CHOICES", "PerFileStorage", "as_record"]
