"""The names of a vault's own folders and files, in a module that imports nothing: what finds a
vault (:mod:`core.vault.finding`) and the app's first frame read them without loading the
record models (:mod:`core.store.layout`, which re-exports them)."""

from __future__ import annotations

MEMORIES_DIR = "memories"
RELATIONS_DIR = "relations"
META_FILE = ".meta.json"
