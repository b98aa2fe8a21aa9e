"""The review inbox's cost: ``python bench/inbox.py [--memories N] [--assistant K] [--person P]``.

Builds a vault of N memories (one commit), then K assistant commits (each an update of one
memory, through a vault opened with ``via="mcp/bench"``) interleaved with P person commits,
packs the repository (``git gc``, as a long-lived vault is), and times (median of --repeat runs, in-process, the vault already open):

* ``review`` with no mark (the whole history is read: the first use);
* ``accept`` of one memory (the accepted set) and ``review`` after it;
* ``accept --all``, then ``review`` with 20 newer assistant commits past the mark;
* ``reject`` of one entry (one commit).
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

from core import Memory, MemoryMetadata, Vault  # noqa: E402
from core.ops.inbox import accept, reject, review  # noqa: E402
from git_setup import isolate_git  # noqa: E402


def timed(fn, repeat: int) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    samples, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = fn()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples), result


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--memories", type=int, default=10000)
    parser.add_argument("--assistant", type=int, default=300)
    parser.add_argument("--person", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    isolate_git()
    rng = random.Random(7)
    with tempfile.TemporaryDirectory(prefix="memvault-inbox-bench-") as tmp:
        path = Path(tmp) / "vault"
        person = Vault.open(path)
        ids = [f"m{n:06d}" for n in range(args.memories)]
        person.save_many([Memory(id=i, content=f"memory {i}: " + "words " * rng.randint(30, 90),
                                 meta=MemoryMetadata(tags=[f"t{rng.randint(0, 20)}"]))
                          for i in ids])
        assistant = Vault.open(path, via="mcp/bench")
        started = time.perf_counter()
        every = max(1, args.assistant // max(1, args.person))
        for n in range(args.assistant):
            assistant.update(rng.choice(ids), content=f"changed by the assistant {n}")
            if n % every == 0 and n // every < args.person:
                person.update(rng.choice(ids), strength=1.5)
        build = time.perf_counter() - started
        import subprocess

        subprocess.run(["git", "-C", str(path), "gc", "-q"], check=True)  # a long-lived vault
        print(f"vault: {args.memories} memories, {args.assistant} assistant commits, "
              f"{args.person} person commits (built in {build:.1f} s)")
        t, view = timed(lambda: review(person), args.repeat)
        print(f"review, no mark (whole history): {t * 1000:.0f} ms, {len(view.entries)} entries")
        first = view.entries[0].memory_id
        t, _ = timed(lambda: accept(person, [first]), 1)
        print(f"accept one memory: {t * 1000:.0f} ms")
        t, view = timed(lambda: review(person), args.repeat)
        print(f"review with an accepted set: {t * 1000:.0f} ms, {len(view.entries)} entries")
        target = next(e.memory_id for e in view.entries if not e.blocked)
        t, _ = timed(lambda: reject(person, target), 1)
        print(f"reject one entry (one commit): {t * 1000:.0f} ms")
        t, _ = timed(lambda: accept(person), 1)
        print(f"accept --all: {t * 1000:.0f} ms")
        for n in range(20):
            assistant.update(rng.choice(ids), content=f"later change {n}")
        t, view = timed(lambda: review(person), args.repeat)
        print(f"review, 20 commits past the mark: {t * 1000:.0f} ms, {len(view.entries)} entries")
    return 0


if __name__ == "__main__":
    sys.exit(main())
