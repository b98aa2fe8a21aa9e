"""The rule for files a person changed outside memvault: which are committed as they are, and
what becomes of a file memvault cannot read and is about to write over (a copy in the
quarantine, said in the notices). The write path (:mod:`core.vault.writing`) applies them."""

from __future__ import annotations

import os
from pathlib import Path

from ..store.layout import LoadProblem
from ..store.quarantine import quarantine
from .state import VaultState


def sort_outside_edits(state: VaultState, rels: list[str]) -> tuple[list[str], list[LoadProblem]]:
    """The rule for a person's edits (vault-relative paths): a file is committed as they left
    it only when it loads as a valid record (or metadata), or when it was deleted. Anything
    else (unreadable, a symbolic link, hard-linked, not JSON, a bad id...) is never
    committed: returned as a problem with the reason."""
    adopt: list[str] = []
    refused: list[LoadProblem] = []
    layout = state.layout
    for rel in rels:
        what = layout.classify(rel)
        path = state.root / rel
        if what is None or not os.path.lexists(path):
            adopt.append(rel)
            continue
        if what[0] == "meta":
            _, reason = layout.load_meta()
        else:
            _, reason = layout.load_file(path, what[0])
        if reason is None:
            adopt.append(rel)
        else:
            refused.append(LoadProblem(path, reason))
    return adopt, refused


def set_aside(state: VaultState, path: Path, reason: str) -> None:
    """Copy a file memvault cannot read, and is about to write over or remove, into the
    quarantine (``core.store.quarantine``), and say so in the notices."""
    copy = quarantine(state.journal.state_dir, state.root, path, reason)
    rel = path.relative_to(state.root).as_posix()
    state.notices.append(f"{rel} could not be read ({reason}); set it aside as {copy} "
                         "before writing over it")
