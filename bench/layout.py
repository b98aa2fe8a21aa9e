"""The sharded layout at size: ``migrate_layout`` (flat -> sharded and back, one commit each), open
in both layouts, and a memory's history across the move, on ``bench/run.py``'s deterministic
memories written as files in a git repository.

    python bench/layout.py                # 10,000 memories
    python bench/layout.py --size 60000   # building the vault takes most of the time

Prints one line a step (seconds). Nothing asserts; the bench only reports.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import run as bench  # noqa: E402

from core import Vault  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--dir", type=Path, help="where to build the vault (default: a temp dir)")
    args = parser.parse_args(argv)
    root = args.dir or Path(tempfile.mkdtemp(prefix="memvault-layout-")) / "vault"
    shutil.rmtree(root, ignore_errors=True)

    def timed(label: str, step):
        start = time.perf_counter()
        result = step()
        print(f"{label}: {time.perf_counter() - start:.2f} s", flush=True)
        return result

    memories, relations, _ = bench.make_dataset(args.size, 7, 1_760_000_000)
    timed(f"build {args.size:,} memories (git CLI)", lambda: bench.build_vault(root, memories,
                                                                             relations))
    vault = timed("open flat, writable (first open)", lambda: Vault.open(root))
    timed("open flat, read-only", lambda: Vault.open(root, readonly=True))
    report = timed("migrate_layout flat -> sharded", lambda: vault.migrate_layout("sharded"))
    shown = subprocess.run(["git", "-C", str(root), "show", "-M", "--name-status", "--format=",
                            "HEAD"], capture_output=True, text=True, check=True).stdout
    renames = sum(1 for line in shown.splitlines() if line.startswith("R100"))
    print(f"  {report.moved:,} moved; git sees {renames:,} pure renames (R100)")
    sharded = timed("open sharded, read-only", lambda: Vault.open(root, readonly=True))
    timed("open sharded, writable", lambda: Vault.open(root))
    first = sorted(sharded.memories)[0]
    entries = timed("history of one memory", lambda: sharded.history(first))
    print(f"  {[e.action for e in entries]}")
    timed("migrate_layout sharded -> flat", lambda: Vault.open(root).migrate_layout("flat"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
