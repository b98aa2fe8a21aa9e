"""Benchmark adding a huge note, as a new user would: ``memvault add - < huge.txt``.

    python bench/huge_note.py [--sizes 30000,360000,2600000] [--repeat 3] [--old PATH]

The text is Python's own documentation topics (``pydoc_data.topics``, in the stdlib: offline,
prose with code), repeated to each size. For each size, a fresh vault holding one small note,
then the wall time of ``memvault add -`` from a new process (process start to exit: the gist,
the secrets scan of content and gist, the likely-duplicate check and the commit), the median
of ``--repeat`` runs, each into a fresh vault; beside it, in this process, the gist alone
(``core.gist.generate_gist``) and its length; and a ``memvault search`` then, a question whose
words are in the note (its index row made first). Target: linear in the size, about 1-2 s at 2.6 MB
on a quiet machine (the gist reads at most ``core.gist.levels.READ_CHARS`` characters).

Beside each wall time, the CPU time (user + system) of the process and the git it ran: on a
loaded machine the wall time says more of the others' work than of this one. ``--old PATH``
(another checkout of memvault, e.g. ``git worktree add /tmp/old main``) runs the same adds with
that checkout's code, each run of it right after one of this checkout's, into its own fresh
vault, and prints its row under this one's.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SIZES = (30_000, 360_000, 2_600_000)


def huge_text(size: int) -> str:
    """``size`` characters of Python's documentation topics, repeated as needed."""
    from pydoc_data.topics import topics

    text = "\n\n".join(topics[k] for k in sorted(topics))
    return (text * (size // len(text) + 1))[:size]


def memvault() -> list[str]:
    """The command that runs a checkout's ``memvault`` (the one it is run from: ``cwd``)."""
    return [sys.executable, "-c", "import sys; from tui.cli import main; sys.exit(main())"]


def _cpu() -> float:
    """User + system seconds of the finished child processes so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed_add(text: str, folder: Path, checkout: Path | None = None
              ) -> tuple[float, float, float]:
    """Seconds (wall, then CPU) for ``memvault add -`` of ``text`` into a fresh vault in
    ``folder``, and wall seconds for a ``memvault search`` of a word in it then (the index
    brought level with it first); with the code of ``checkout`` (default: this one)."""
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1")
    cwd = str(checkout or Path(__file__).resolve().parent.parent)
    vault = folder / "vault"
    subprocess.run([*memvault(), "--vault", str(vault), "init"], check=True, env=env,
                   capture_output=True, cwd=cwd)
    subprocess.run([*memvault(), "--vault", str(vault), "add", "a small note about coffee"],
                   check=True, env=env, capture_output=True, cwd=cwd)
    started, cpu = time.perf_counter(), _cpu()
    subprocess.run([*memvault(), "--vault", str(vault), "add", "-"], input=text.encode(),
                   check=True, env=env, capture_output=True, cwd=cwd)
    added, cpu = time.perf_counter() - started, _cpu() - cpu
    started = time.perf_counter()
    subprocess.run([*memvault(), "--vault", str(vault), "search", "which statement raises?"],
                   check=True, env=env, capture_output=True, cwd=cwd)
    return added, cpu, time.perf_counter() - started


def timed_gist(text: str) -> tuple[float, int]:
    """Seconds for the gist of ``text`` in this process, and the gist's length."""
    from core.gist import generate_gist

    started = time.perf_counter()
    gist = generate_gist(text)
    return time.perf_counter() - started, len(gist or "")


def main(argv: list[str] | None = None) -> int:
    """Print one row a size (and one for ``--old``): the add's median wall and CPU time, the
    gist's time and length, the search's median wall time."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)),
                        help="note sizes in characters, comma-separated")
    parser.add_argument("--repeat", type=int, default=3, help="runs a size (median)")
    parser.add_argument("--old", type=Path, default=None,
                        help="another memvault checkout to time the same way, run for run")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    timed_gist("warm up: " * 40)
    print(f"{'size':>10}  {'code':>4}  {'add (median s)':>14}  {'cpu s':>6}  {'per MB':>8}  "
          f"{'gist s':>7}  {'gist chars':>10}  {'search s':>8}")
    checkouts: list[tuple[str, Path | None]] = [("new", None)]
    if args.old is not None:
        checkouts.append(("old", args.old.resolve()))
    for size in sizes:
        text = huge_text(size)
        runs: dict[str, list[tuple[float, float, float]]] = {name: [] for name, _ in checkouts}
        for _ in range(args.repeat):
            for name, checkout in checkouts:
                with tempfile.TemporaryDirectory(prefix="memvault-huge-") as tmp:
                    runs[name].append(timed_add(text, Path(tmp), checkout))
        gist_s, gist_chars = timed_gist(text)
        for name, _checkout in checkouts:
            add = statistics.median(r[0] for r in runs[name])
            cpu = statistics.median(r[1] for r in runs[name])
            search = statistics.median(r[2] for r in runs[name])
            print(f"{size:>10,}  {name:>4}  {add:>14.2f}  {cpu:>6.2f}  {add / (size / 1e6):>8.2f}  "
                  f"{gist_s:>7.3f}  {gist_chars:>10,}  {search:>8.2f}")
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
