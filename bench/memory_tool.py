"""The memory tool's cost per command: ``python bench/memory_tool.py [--memories N] [--repeat R]``.

Builds a vault of N memories added without a path (one commit: each shows at its first words),
opens the memory tool on it (``tui.memory_tool.VaultMemoryTool``; needs ``memvault[anthropic]``)
and times, median of R runs in-process, each through the SDK's ``call`` as the runner calls it:
the first command (every memory's file name made), ``view`` of a missing file, ``view`` of
``/memories`` (every file listed), ``create``, ``str_replace`` and ``rename`` (one commit each).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from anthropic.lib.tools import ToolError  # noqa: E402

from core import Memory, Vault  # noqa: E402
from tui.memory_tool import VaultMemoryTool  # noqa: E402
from git_setup import isolate_git  # noqa: E402

WORDS = ("coffee tea pytest deploy server client memory vault note user prefers likes monday "
         "meeting project alpha beta release plan the a of").split()


def timed(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def view_missing(tool: VaultMemoryTool) -> None:
    try:
        tool.call({"command": "view", "path": "/memories/none.md"})
    except ToolError:
        return
    raise AssertionError("/memories/none.md was found")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--memories", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    isolate_git()
    rng = random.Random(7)
    with tempfile.TemporaryDirectory(prefix="memvault-memory-tool-bench-") as tmp:
        vault = Vault.open(Path(tmp) / "vault")
        vault.save_many([Memory(id=f"m{n:06d}", content=" ".join(rng.choices(WORDS, k=30)))
                         for n in range(args.memories)], make_gists=False)
        vault.add("warm up the write path")  # (GitPython's first command is not the tool's)
        tool = VaultMemoryTool(vault)
        print(f"vault: {args.memories} memories without a path")
        t = timed(lambda: view_missing(tool), 1)
        print(f"first command (every file name made): {t * 1000:.0f} ms")
        t = timed(lambda: view_missing(tool), args.repeat)
        print(f"view of a missing file: {t * 1000:.0f} ms")
        t = timed(lambda: tool.call({"command": "view", "path": "/memories"}), args.repeat)
        print(f"view of /memories ({args.memories} files): {t * 1000:.0f} ms")
        names = iter(range(10**6))
        t = timed(lambda: tool.call({"command": "create", "path": f"/memories/n/{next(names)}.md",
                                     "file_text": "Takes coffee black\n"}), args.repeat)
        print(f"create (one commit): {t * 1000:.0f} ms")
        edits = iter(range(10**6))
        t = timed(lambda: tool.call({"command": "str_replace", "path": f"/memories/n/{next(edits)}.md",
                                     "old_str": "black", "new_str": "white"}), args.repeat)
        print(f"str_replace (one commit): {t * 1000:.0f} ms")
        moves = iter(range(10**6))
        t = timed(lambda: tool.call({"command": "rename", "old_path": f"/memories/n/{next(moves)}.md",
                                     "new_path": "/memories/m/" + str(next(names)) + ".md"}),
                  args.repeat)
        print(f"rename (one commit): {t * 1000:.0f} ms")
        vault.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
