"""Shared pieces of the fault-injection tests (split, consolidate, gc): a ``Journal.fault_hook``
that raises at the n-th occurrence of a step, and a snapshot of everything a failed operation
must leave as it was."""

from __future__ import annotations

import subprocess
from pathlib import Path

from core import Vault


def fault_hook(step: str, occurrence: int = 1, calls: list | None = None):
    """A hook raising RuntimeError the ``occurrence``-th time ``step`` is reached; every step
    reached is appended to ``calls`` when given."""
    seen = {"n": 0}

    def hook(name: str) -> None:
        if calls is not None:
            calls.append(name)
        if name == step:
            seen["n"] += 1
            if seen["n"] == occurrence:
                raise RuntimeError(f"injected fault at {name} #{occurrence}")
    return hook


def vault_files(root: Path) -> dict[str, bytes]:
    """Every file of the work tree (outside .git), byte for byte."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".git" not in p.relative_to(root).parts}


def _git(vault: Vault, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=vault.root, capture_output=True, text=True,
                          check=True).stdout.strip()


def vault_snapshot(vault: Vault) -> dict:
    """Files on disk, HEAD, the cache, .meta.json and git status."""
    return {
        "files": vault_files(vault.root),
        "head": _git(vault, "rev-parse", "HEAD"),
        "memories": {k: m.model_dump() for k, m in vault.memories.items()},
        "relations": {k: r.model_dump() for k, r in vault.relations.items()},
        "meta": dict(vault.meta),
        "status": _git(vault, "status", "--porcelain", "--untracked-files=all"),
    }
