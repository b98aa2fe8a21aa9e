"""The app's first frame, probed in a fresh process: the one probe of every bench that times it
(``bench/scale.py``'s first painted tree at 10k-100k, ``bench/demo_frame.py``'s demo).

The app, headless, is launched on the vault's path as ``memvault`` launches it, and timed from
process start (the parent's clock, passed in) to the first time a screen is drawn with the
tree's groups in it (the first frame, painted before the vault and the main screen are
imported: tui/app/first_frame.py; or the main screen's tree), and, when asked, to the first
time the main screen's tree is drawn with the vault open (every action ready); the vault is
opened by the app's own worker. With ``demo`` the process first builds the demo vault there, as
``memvault demo DIR`` does. Imports of the app's modules are the measured process's own:
nothing is imported before the clock but textual's pieces the hook needs. The loop that waits
sleeps 20 ms at a time: a tighter loop would take the interpreter from the app it measures.
Beside each wall time, the CPU time of the process and of its children (git) then: what a
loaded machine does not inflate. The settings are the defaults, saved to a folder of the run's
own (never the person's: a saved flat list would hide the tree it waits for).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

SOURCE = Path(__file__).resolve().parent.parent  # the source tree: core, tui

# The peak RSS of the process running it: Linux's VmHWM, the high-water mark of this program's
# own memory. (``getrusage``'s ``ru_maxrss`` is not that: it survives ``exec``, so a child
# started by a big bench process reports the bench's own size, 422 MB at 100k for every column
# alike.) Elsewhere, ``ru_maxrss``.
PEAK_RSS = textwrap.dedent("""
    def peak_rss_mb():
        try:
            with open("/proc/self/status") as fh:
                for line in fh:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1]) / 1024
        except OSError:
            pass
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
""")

#: argv: the vault, the parent's clock, the size (``120x40``), ``frame`` or ``ready``, and
#: ``demo`` to build the demo vault there first
PROBE = PEAK_RSS + textwrap.dedent("""
    import asyncio, json, os, resource, sys, tempfile, time
    spawned = float(sys.argv[2])
    size = tuple(int(n) for n in sys.argv[3].split("x"))
    wait_ready = sys.argv[4] == "ready"
    os.environ["MEMVAULT_CONFIG_DIR"] = tempfile.mkdtemp(prefix="memvault-bench-config-")
    from textual.widgets import Tree
    built = None
    if sys.argv[5:] == ["demo"]:
        from tui.demo import build_demo
        build_demo(sys.argv[1])
        built = time.time() - spawned
    from tui.app import MemvaultApp
    from tui.app.settings import Loaded, Settings
    def now():
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.time() - spawned, time.process_time(), kids.ru_utime + kids.ru_stime
    painted, ready, clean = [], [], []
    original = Tree.render_lines
    def render_lines(self, crop):
        if self.root.children and not painted:
            painted.append(now())
            clean.append("core.vault" not in sys.modules and "pydantic" not in sys.modules)
        main = getattr(self.app, "main_screen", None)
        view = getattr(self, "view", None)
        if not ready and main is not None and view is not None and self.root.children \\
                and not view.partial:
            ready.append(now())
        return original(self, crop)
    Tree.render_lines = render_lines
    async def main():
        app = MemvaultApp(sys.argv[1], poll_interval=0, rescore_interval=0,
                          settings=Loaded(Settings()))
        async with app.run_test(size=size):
            while not (ready if wait_ready else painted):
                await asyncio.sleep(0.02)
    asyncio.run(main())
    found = {"built": built, "seconds": painted[0][0], "cpu": painted[0][1],
             "git_cpu": painted[0][2], "before_vault": clean[0], "rss_mb": peak_rss_mb()}
    if ready:
        found |= {"ready": ready[0][0], "ready_cpu": ready[0][1]}
    print(json.dumps(found), flush=True)
    os._exit(0)  # (not waiting for the search index's first build a clone's open started)
""")


def probe(vault: Path, *, size: tuple[int, int] = (120, 40), ready: bool = True,
          demo: bool = False) -> dict[str, Any]:
    """One fresh process on ``vault`` (``demo``: built there first): ``seconds`` and ``cpu`` to
    the first frame, ``git_cpu`` (its children's), ``before_vault`` (the first frame came before
    the vault and pydantic were imported), ``rss_mb``; with ``ready``, ``ready`` and
    ``ready_cpu`` too; with ``demo``, ``built`` (the vault built, wall)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(SOURCE) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH")
                                       else "")
    argv = [sys.executable, "-c", PROBE, str(vault), repr(time.time()), f"{size[0]}x{size[1]}",
            "ready" if ready else "frame", *(["demo"] if demo else [])]
    out = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=SOURCE)
    if out.returncode != 0:
        raise RuntimeError(f"the app's probe failed: {out.stderr.strip()[-2000:]}")
    found: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return found
