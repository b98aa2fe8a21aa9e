"""``PerFileStorage``: a drop-in for CortexGraph 1.2.1's ``JSONLStorage``.

Same constructor, public methods, argument names, return values and errors (a ``RuntimeError``
"Storage not connected" before :meth:`~PerFileStorage.connect`), backed by a
:class:`~core.vault.Vault`: each memory and relation is a file and every write is one git commit.
Where the per-file spec differs from the JSONL store it follows the spec: deleting a memory also
deletes the relations that touch it, in the same commit, except the lineage ones, which outlive
it (the one rule of :mod:`core.model.relation_rule`), so CortexGraph's consolidation keeps its
provenance.

Without a ``storage_path`` it opens ``MEMVAULT_PATH``, else the storage path configured for
CortexGraph (read as CortexGraph reads it, without importing it:
:mod:`core.model.cortexgraph_config`), else memvault's per-user folder. It takes memvault's
records or any object with CortexGraph's field names, and answers in the caller's classes
(``models``: ``"auto"``, ``"cortexgraph"`` or ``"memvault"``; what each takes and returns:
:mod:`core.cortexgraph_storage.classes`, and ``docs/python-api.md``).
"""

from .backend import PerFileStorage
from .classes import MODEL_CHOICES, as_record

__all__ = ["MODEL_CHOICES", "PerFileStorage", "as_record"]
