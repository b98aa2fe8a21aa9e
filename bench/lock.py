"""Is the write lock fair? ``python bench/lock.py [--writers 4] [--seconds 8] [--hold-ms 10]``

Several processes take one vault's write lock in a tight loop (hold it a few milliseconds,
release, take it again at once, as a busy writer would) for a few seconds. A fair lock gives
each about the same number of turns and keeps every wait short; an unfair one lets the
process that just released take it again while the others wait (once measured: one of four
writers waiting 21.9 s of 30 s). Prints each writer's turns and its longest wait. Nothing
here asserts.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

WRITER = r"""
import json, sys, time
from core import Vault
vault = Vault.open(sys.argv[1], lock_timeout=120)
hold, end, waits = float(sys.argv[3]), time.monotonic() + float(sys.argv[2]), []
while time.monotonic() < end:
    asked = time.monotonic()
    with vault.journal.lock():
        waits.append(time.monotonic() - asked)
        time.sleep(hold)
print(json.dumps({"turns": len(waits), "longest": max(waits), "total": sum(waits)}))
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--hold-ms", type=float, default=10.0)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from core import Vault

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "vault"
        Vault.open(root).add("one memory")
        procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(root), str(args.seconds),
                                   str(args.hold_ms / 1000)], stdout=subprocess.PIPE, text=True)
                 for _ in range(args.writers)]
        results = [json.loads(p.communicate()[0]) for p in procs]
    print(f"{args.writers} writers, {args.seconds:g} s, lock held {args.hold_ms:g} ms a turn")
    print(f"{'writer':>8} {'turns':>7} {'longest wait':>13} {'total wait':>11}")
    for i, r in enumerate(results, 1):
        print(f"{i:>8} {r['turns']:>7} {r['longest']:>12.2f}s {r['total']:>10.2f}s")
    turns = [r["turns"] for r in results]
    print(f"fewest/most turns: {min(turns)}/{max(turns)} = {min(turns) / max(turns):.2f} "
          "(1.00 is perfectly even)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
