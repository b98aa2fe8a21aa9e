"""Benchmark adding a huge note, as a new user would: ``memvault add - < huge.txt``.

    python bench/huge_note.py [--sizes 30000,360000,2600000] [--repeat 3]

The text is Python's own documentation topics (``pydoc_data.topics``, in the stdlib: offline,
prose with code), repeated to each size. For each size, a fresh vault holding one small note,
then the wall time of ``memvault add -`` from a new process (process start to exit: the gist,
the secrets scan of content and gist, the likely-duplicate check and the commit), the median
of ``--repeat`` runs, each into a fresh vault; beside it, in this process, the gist alone
(``core.gist.generate_gist``) and its length; and a ``memvault search`` then, a question whose
words are in the note (its index row made first). Target: linear in the size, about 1-2 s at 2.6 MB
on a quiet machine (the gist reads at most ``core.gist.levels.READ_CHARS`` characters).
"""

from __future__ import annotations

import argparse
import os
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
    """The command that runs this checkout's ``memvault``."""
    return [sys.executable, "-c", "import sys; from tui.cli import main; sys.exit(main())"]


def timed_add(text: str, folder: Path) -> tuple[float, float]:
    """Seconds for ``memvault add -`` of ``text`` into a fresh vault in ``folder``, and for a
    ``memvault search`` of a word in it then (the index brought level with it first)."""
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1")
    vault = folder / "vault"
    subprocess.run([*memvault(), "--vault", str(vault), "init"], check=True, env=env,
                   capture_output=True)
    subprocess.run([*memvault(), "--vault", str(vault), "add", "a small note about coffee"],
                   check=True, env=env, capture_output=True)
    started = time.perf_counter()
    subprocess.run([*memvault(), "--vault", str(vault), "add", "-"], input=text.encode(),
                   check=True, env=env, capture_output=True)
    added = time.perf_counter() - started
    started = time.perf_counter()
    subprocess.run([*memvault(), "--vault", str(vault), "search", "which statement raises?"],
                   check=True, env=env, capture_output=True)
    return added, time.perf_counter() - started


def timed_gist(text: str) -> tuple[float, int]:
    """Seconds for the gist of ``text`` in this process, and the gist's length."""
    from core.gist import generate_gist

    started = time.perf_counter()
    gist = generate_gist(text)
    return time.perf_counter() - started, len(gist or "")


def main(argv: list[str] | None = None) -> int:
    """Print one row a size: the add's median wall time and the gist's time and length."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)),
                        help="note sizes in characters, comma-separated")
    parser.add_argument("--repeat", type=int, default=3, help="runs a size (median)")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    timed_gist("warm up: " * 40)
    print(f"{'size':>10}  {'add (median s)':>14}  {'per MB':>8}  {'gist s':>7}  "
          f"{'gist chars':>10}  {'search s':>8}")
    for size in sizes:
        text = huge_text(size)
        runs = []
        for _ in range(args.repeat):
            with tempfile.TemporaryDirectory(prefix="memvault-huge-") as tmp:
                runs.append(timed_add(text, Path(tmp)))
        add = statistics.median(r[0] for r in runs)
        search = statistics.median(r[1] for r in runs)
        gist_s, gist_chars = timed_gist(text)
        print(f"{size:>10,}  {add:>14.2f}  {add / (size / 1e6):>8.2f}  {gist_s:>7.3f}  "
              f"{gist_chars:>10,}  {search:>8.2f}")
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
