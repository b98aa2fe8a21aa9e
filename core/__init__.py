"""memvault core: a per-file memory vault with a git journal. Imports neither textual nor rich."""

import gc as _gc

# Importing core builds tens of thousands of long-lived objects (pydantic's validators and
# schemas) and next to no garbage: the cyclic collector would only rescan them, ~10% of the
# import's time. It is paused while core is imported, then left as it was.
_collecting = _gc.isenabled()
_gc.disable()
try:
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
finally:
    if _collecting:
        _gc.enable()
    del _gc, _collecting

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
