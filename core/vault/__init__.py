"""The vault: memories and relations as files, every change one git commit.

:class:`Vault` (``api.py``) is the API the app, the CLI, sync, io and the MCP server use: a front
door that owns one part per job, each given what it needs in its constructor. ``state.py`` (what
the parts share: the place, the settings, the cache), ``loading.py`` and ``indexed_open.py``
(files into the cache), ``writing.py`` (the one write path: lock, catch up, one commit),
``opening.py`` (load, recover, outside edits), ``plans.py`` (a multi-file change set as one
commit), ``records.py`` (add, update, touch, archive, delete, relate), ``history.py`` (history,
versions, restore), ``upkeep.py`` (gc, stats, gists), ``use.py`` and ``pending_use.py`` (use
records), ``relayout.py`` (moving the memories into the other layout, :mod:`core.store.shards`).
``reports.py`` holds what operations return and the change set.

The names below come from their modules on first use (:func:`__getattr__`), as :mod:`core`'s
do: ``import core.vault.finding`` (which folder holds a vault) loads nothing of the rest.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..store.names import META_FILE
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

#: name -> the module that defines it: imported when the name is first asked for
_WHERE = {
    "META_FILE": "..store.names",
    "Vault": ".api",
    **dict.fromkeys(("LayoutReport", "suggested_layout"), ".relayout"),
    **dict.fromkeys(("Plan", "DeleteReport", "GcReport", "GistBackfill", "OpenReport",
                     "RestoreReport", "StalePlanError", "first_words"), ".reports"),
}


def __getattr__(name: str) -> object:
    """A name of :data:`__all__`, from its module, imported on first use."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'core.vault' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value

__all__ = ["Plan", "DeleteReport", "GistBackfill", "GcReport", "OpenReport", "RestoreReport",
           "StalePlanError", "Vault", "META_FILE", "first_words", "LayoutReport", "suggested_layout"]
