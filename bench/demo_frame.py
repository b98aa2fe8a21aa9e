"""The demo's first frame: ``memvault demo`` from process start to the app's first frame on the
demo vault it built, against the README's "a few seconds" (issue 42).

    python bench/demo_frame.py [--repeat 3]

Each run is a fresh process that does what ``memvault demo DIR`` does (``build_demo`` into a new
folder, then the app launched on it, headless, at 80x24) and reports, from its own start:
the vault built, the first frame drawn with the tree's groups in it, and the CPU time of the
process and of its children (git) to that frame (``bench/tui_probe.py``, the probe
``bench/scale.py`` times the app with). The CPU time is the figure to compare on a shared
machine: the wall clock grows with the load (``uptime`` is printed beside it). The settings are
the defaults, saved to a folder of the run's own (never the person's).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

from tui_probe import probe  # bench/tui_probe.py, beside this file: the one probe of the app

#: the README's "offline, a few seconds": the target, in CPU seconds to the first frame
TARGET = 5.0


def one_run(work: Path) -> dict[str, float]:
    """One fresh process: the demo built in a new folder, then the app on it at 80x24."""
    folder = Path(tempfile.mkdtemp(prefix="demo-", dir=work))
    folder.rmdir()  # (build_demo makes it, as ``memvault demo DIR`` does for a new DIR)
    found = probe(folder, size=(80, 24), ready=False, demo=True)
    return {key: found[key] for key in ("built", "seconds", "cpu", "git_cpu")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="memvault-demo-frame-"))
    runs = [one_run(work) for _ in range(args.repeat)]
    load = os.getloadavg()
    print(f"the demo's first frame, {args.repeat} runs (load {load[0]:.1f} {load[1]:.1f} "
          f"{load[2]:.1f} on {os.cpu_count()} cores); target: the README's 'a few seconds', "
          f"<= {TARGET:g} s CPU")
    for name, key in (("vault built (wall)", "built"), ("first frame (wall)", "seconds"),
                      ("CPU to the frame, this process", "cpu"),
                      ("CPU to the frame, git (children)", "git_cpu")):
        values = [r[key] for r in runs]
        print(f"  {name:<34} median {statistics.median(values):6.2f} s   "
              f"({', '.join(f'{v:.2f}' for v in values)})")
    cpu = statistics.median(r["cpu"] + r["git_cpu"] for r in runs)
    print(f"  {'CPU to the frame, in all':<34} median {cpu:6.2f} s   "
          f"{'met' if cpu <= TARGET else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
