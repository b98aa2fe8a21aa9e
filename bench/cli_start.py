"""How long a ``memvault`` command takes from the shell, beside the floor every click program
pays (``python -c "import click"``): ``--version``, ``-h``, and reading verbs on a small vault.
Each row runs ``--runs`` times (default 9) and prints the median wall time with its range, the
median CPU time of the process (user + system, steadier on a loaded machine) and the ratio of
CPU medians to the floor's, with the target beside it (issue 42: ``--version`` <= 1.5x the
floor; a reading verb on a small vault, ``list``, ``show``, ``search``, ``stats``, <= 2x the
floor).

    python bench/cli_start.py [--runs 9]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) of one run; the run must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    program = shutil.which("memvault", path=str(Path(sys.executable).parent)) or "memvault"
    with tempfile.TemporaryDirectory(prefix="memvault-cli-bench-") as tmp:
        vault = str(Path(tmp) / "vault")
        env = {**os.environ, "HOME": tmp, "XDG_DATA_HOME": tmp, "MEMVAULT_PATH": vault,
               "NO_COLOR": "1"}
        subprocess.run([program, "init"], env=env, check=True, capture_output=True)
        for text in ("Prefers dark mode in every editor", "Uses pytest with plain assert",
                     "The staging server rebuilds nightly", "Allergic to shellfish",
                     "Moved billing to Postgres in March", "Reads the news at 7am"):
            subprocess.run([program, "add", text], env=env, check=True, capture_output=True)
        listed = subprocess.run([program, "list", "--json"], env=env, check=True,
                                capture_output=True, text=True).stdout
        first = json.loads(listed)[0]["id"][:8]
        rows: list[tuple[str, list[str], str]] = [
            ("python -c 'import click' (floor)", [sys.executable, "-c", "import click"], ""),
            ("memvault --version", [program, "--version"], "<= 1.5x floor"),
            ("memvault -h", [program, "-h"], ""),
            ("memvault list (6 memories)", [program, "list"], "<= 2x floor"),
            ("memvault show ID", [program, "show", first], "<= 2x floor"),
            ("memvault stats", [program, "stats"], "<= 2x floor"),
            ("memvault search 'which editor'", [program, "search", "which editor"],
             "<= 2x floor"),
        ]
        medians: dict[str, float] = {}
        print(f"{'command':<34} {'wall median (range)':>24} {'CPU median':>11} "
              f"{'x floor':>8}  target   (load {os.getloadavg()[0]:.1f})")
        for name, argv, target in rows:
            samples = [timed(argv, env) for _ in range(args.runs)]
            walls = sorted(w for w, _ in samples)
            cpu = statistics.median(c for _, c in samples)
            medians[name] = cpu
            floor = medians[rows[0][0]]
            print(f"{name:<34} {statistics.median(walls) * 1000:>8.0f} ms "
                  f"({walls[0] * 1000:.0f}-{walls[-1] * 1000:.0f}) {cpu * 1000:>8.0f} ms "
                  f"{cpu / floor:>7.2f}x  {target}")
        floor = medians[rows[0][0]]
        reading = max(medians[r[0]] for r in rows[3:])
        print(f"slowest reading verb: {reading / floor:.2f}x the floor's CPU (target <= 2x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
