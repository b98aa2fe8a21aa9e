"""LangGraph's store on the vault: ``python bench/langgraph_store.py [--items N] [--repeat R]``
(needs ``memvault[langgraph]``).

Puts N items in one namespace (batches of 1,000: one commit each), then times (median of R,
in-process, the store open) a get, a put that changes an item (one commit), a batch of 100 puts,
a search with a query (memvault's ranked search), without one (newest first), with a value
filter, and list_namespaces; the reads beside LangGraph's own InMemoryStore holding the same
items (no files, no commits: the floor).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from langgraph.store.base import BaseStore, PutOp  # noqa: E402
from langgraph.store.memory import InMemoryStore  # noqa: E402

from tui.langgraph_store import VaultStore  # noqa: E402
from git_setup import isolate_git  # noqa: E402

NS = ("users", "alice")


def timed(fn: Callable[[], Any], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples) * 1000


def fill(store: BaseStore, items: int) -> None:
    for start in range(0, items, 1000):
        store.batch([PutOp(NS, f"k{i}", {"content": f"note {i} about topic {i % 97}",
                                         "kind": f"kind{i % 7}"})
                     for i in range(start, min(items, start + 1000))])


def reads(store: BaseStore, items: int, repeat: int) -> dict[str, float]:
    return {
        "get": timed(lambda: store.get(NS, f"k{items // 2}"), repeat),
        "search, query": timed(lambda: store.search(NS, query="note about topic 42"), repeat),
        "search, no query": timed(lambda: store.search(NS), repeat),
        "search, filter": timed(lambda: store.search(NS, filter={"kind": "kind3"}), repeat),
        "list_namespaces": timed(lambda: store.list_namespaces(), repeat),
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    isolate_git()
    with tempfile.TemporaryDirectory(prefix="memvault-langgraph-bench-") as tmp:
        store = VaultStore(Path(tmp) / "vault")
        started = time.perf_counter()
        fill(store, args.items)
        print(f"{args.items} items put in batches of 1000: {time.perf_counter() - started:.1f} s")
        floor = InMemoryStore()
        fill(floor, args.items)
        ours, theirs = reads(store, args.items, args.repeat), reads(floor, args.items, args.repeat)
        print(f"{'median ms':<18}{'vault':>10}{'InMemoryStore':>15}")
        for name, ms in ours.items():
            print(f"{name:<18}{ms:>10.2f}{theirs[name]:>15.2f}")
        step = iter(range(10**9))
        put = timed(lambda: store.put(NS, "k1", {"content": f"changed {next(step)}"}), args.repeat)
        batch = timed(lambda: store.batch([PutOp(NS, f"b{i}", {"content": f"batch {next(step)}"})
                                           for i in range(100)]), args.repeat)
        print(f"{'put (one commit)':<18}{put:>10.2f}")
        print(f"{'100 puts, batch':<18}{batch:>10.2f}")
        store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
