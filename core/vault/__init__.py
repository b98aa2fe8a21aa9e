"""The vault: memories and relations as files, every change one git commit.

:class:`Vault` (``api.py``) is the API the app, the CLI, sync, io and the MCP server use. It is
composed of one part per job: ``opening.py`` (load, recover, outside edits), ``writing.py`` (the
one write path: lock, catch up, one commit; :meth:`Vault.apply` for multi-file change sets;
use records), ``records.py`` (add, update, touch, archive, delete, relate), ``history.py``
(history, versions, restore), ``upkeep.py`` (gc, stats, gists), ``relayout.py``
(moving the memories into the other layout, :mod:`core.store.shards`).
``reports.py`` holds what operations return and the change set.
"""

from ..store.layout import META_FILE
from .api import Vault
from .relayout import LayoutReport, suggested_layout
from .reports import (
    Plan,
    DeleteReport,
    GcReport,
    GistBackfill,
    OpenReport,
    RestoreReport,
    StalePlanError,
    first_words,
)

__all__ = ["Plan", "DeleteReport", "GistBackfill", "GcReport", "OpenReport", "RestoreReport",
           "StalePlanError", "Vault", "META_FILE", "first_words", "LayoutReport", "suggested_layout"]
