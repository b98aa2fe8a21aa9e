"""What ``memvault`` alone prints off a terminal about an existing vault: its path and counts."""

from __future__ import annotations

from pathlib import Path

from core import MemoryStatus

from . import common


def print_overview(path: Path) -> None:
    vault = common.Vault.open(path, readonly=True)
    counts = {s.value: 0 for s in MemoryStatus}
    for m in vault.memories.values():
        counts[m.status.value] += 1
    print(f"vault: {vault.root}")
    print(f"memories: {len(vault.memories)} ("
          + ", ".join(f"{k} {v}" for k, v in counts.items()) + ")")
    print(f"relations: {len(vault.relations)}")
    if vault.problems:
        print(f"unreadable files: {len(vault.problems)} (see `memvault stats`)")
