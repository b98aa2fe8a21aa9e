"""What killed writers leave in the vault's folders: the temp files of atomic writes (removed)
and those of checked replaces that may hold a displaced file (kept in the quarantine)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from ..store.checked_replace import SWAP_PREFIX
from ..store.files import TEMP_PREFIX
from ..store.shards import is_shard_name
from .state import VaultState


def clear_temp_files(state: VaultState) -> None:
    """Remove the temp files killed writers left (the lock is held). One of a checked replace
    (:mod:`core.store.checked_replace`) that is not empty may hold the file the replace
    displaced, a person's save: it is copied into the quarantine first, and said so."""
    layout = state.layout
    folders = [layout.memories_dir, layout.relations_dir, state.root]
    with contextlib.suppress(OSError):  # and the shard folders of a sharded vault
        folders += [Path(e.path) for e in os.scandir(layout.memories_dir)
                    if is_shard_name(e.name) and e.is_dir(follow_symlinks=False)]
    for folder in folders:
        for leftover in folder.glob(TEMP_PREFIX + "*"):
            with contextlib.suppress(OSError):
                if leftover.name.startswith(SWAP_PREFIX) and leftover.stat().st_size:
                    _keep_displaced(state, leftover)
                leftover.unlink()


def _keep_displaced(state: VaultState, leftover: Path) -> None:
    from ..store.quarantine import quarantine

    copy = quarantine(state.journal.state_dir, state.root, leftover,
                      "left by a memvault process killed while replacing a file: it may be a "
                      "person's save that the replace displaced")
    state.notices.append(f"kept a file a killed memvault process left ({copy}): it may be a "
                         "save of yours made while it wrote")
