"""memvault core: a per-file memory vault with a git journal. Imports neither textual nor rich.

The names below come from their modules on first use (:func:`__getattr__`): ``import core``,
and every ``import core.x``, loads nothing else, so a command that answers without a vault
(``memvault -h``) never pays for the record models, git or the store."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .model.config import DecayConfig, default_vault_path
    from .errors import (
        AmbiguousIdError,
        ConfigError,
        InvalidIdError,
        JournalError,
        LockTimeoutError,
        UnknownIdError,
        VaultError,
    )
    from .git.journal import HistoryEntry
    from .store.layout import LoadProblem, RecordTooLargeError, UnsafeFolderError, check_id
    from .model.records import (
        KNOWN_RELATION_TYPES,
        PROVENANCE_RELATION_TYPES,
        KnowledgeGraph,
        Memory,
        MemoryMetadata,
        MemoryStatus,
        Relation,
    )
    from .model.relation_rule import LINEAGE_RELATION_TYPES, is_lineage, relations_of_gone
    from .cortexgraph_storage import PerFileStorage
    from .vault import DeleteReport, GcReport, OpenReport, RestoreReport, Vault

#: name -> the module that defines it: imported when the name is first asked for
_WHERE = {
    **dict.fromkeys(("DecayConfig", "default_vault_path"), ".model.config"),
    **dict.fromkeys(("AmbiguousIdError", "ConfigError", "InvalidIdError", "JournalError",
                     "LockTimeoutError", "UnknownIdError", "VaultError"), ".errors"),
    "HistoryEntry": ".git.journal",
    **dict.fromkeys(("LoadProblem", "RecordTooLargeError", "UnsafeFolderError", "check_id"),
                    ".store.layout"),
    **dict.fromkeys(("KNOWN_RELATION_TYPES", "PROVENANCE_RELATION_TYPES", "KnowledgeGraph",
                     "Memory", "MemoryMetadata", "MemoryStatus", "Relation"), ".model.records"),
    **dict.fromkeys(("LINEAGE_RELATION_TYPES", "is_lineage", "relations_of_gone"),
                    ".model.relation_rule"),
    "PerFileStorage": ".cortexgraph_storage",
    **dict.fromkeys(("DeleteReport", "GcReport", "OpenReport", "RestoreReport", "Vault"),
                    ".vault"),
}


def __getattr__(name: str) -> object:
    """A name of :data:`__all__`, from its module, imported on first use: ``import core``
    (and every ``import core.x``) costs nothing until a name is asked for."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'core' has no attribute {name!r}")
    import gc
    import importlib

    # The models build tens of thousands of long-lived objects (pydantic's validators and
    # schemas) and next to no garbage: the cyclic collector would only rescan them, ~10% of
    # the import's time. It is paused while they are imported, then left as it was.
    collecting = gc.isenabled()
    gc.disable()
    try:
        value = getattr(importlib.import_module(module, __name__), name)
    finally:
        if collecting:
            gc.enable()
    globals()[name] = value
    return value


__all__ = [
    "KNOWN_RELATION_TYPES",
    "LINEAGE_RELATION_TYPES",
    "PROVENANCE_RELATION_TYPES",
    "is_lineage",
    "relations_of_gone",
    "AmbiguousIdError",
    "ConfigError",
    "DecayConfig",
    "DeleteReport",
    "GcReport",
    "HistoryEntry",
    "InvalidIdError",
    "JournalError",
    "KnowledgeGraph",
    "LoadProblem",
    "LockTimeoutError",
    "Memory",
    "MemoryMetadata",
    "MemoryStatus",
    "OpenReport",
    "PerFileStorage",
    "RecordTooLargeError",
    "Relation",
    "RestoreReport",
    "UnknownIdError",
    "UnsafeFolderError",
    "Vault",
    "VaultError",
    "check_id",
    "default_vault_path",
]
