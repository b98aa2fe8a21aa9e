"""Search quality and speed: recall@5 of bm25 and of hybrid (bm25 + wordllama, when installed) on
the labelled queries of ``bench/search_labels.py``, and query latency at 10k memories.

    python bench/search.py                    # ~1 minute; hybrid columns need wordllama
    python bench/search.py --size 100000 --queries 300 --json search.json

Recall@5 of a query is |top 5 ∩ relevant| / min(5, |relevant|) (the fixture repeats each memory
many times, so a perfect top 5 can hold at most 5 of them), averaged over the queries; every
status is searched. The vaults: the demo (``tui.demo.build_demo`` at a fixed clock and seed) and
the CortexGraph fixture saved into a vault of its own. Latency: ``bench/run.py``'s deterministic
memories written as files in a git repository, opened read-only; a cold index build (no index
file), the first query of a new Searcher on the index on disk (what every ``memvault search``
pays: fingerprint every memory, compare), then p50/p95 of ``--queries`` queries in one Searcher
(one- to three-word queries, prefixes and phrases from the data's vocabulary). Nothing asserts;
the bench only reports.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the source tree

from core import Vault  # noqa: E402
from core.search import Searcher  # noqa: E402
from core.search.semantic import semantic_available  # noqa: E402
from core.store.layout import Layout  # noqa: E402

ALL_STATUSES = ["active", "promoted", "archived", "superseded"]
DEMO_NOW = 1_760_000_000
FIXTURE_DIR = HERE.parent / "tests" / "fixtures" / "cortexgraph-v1"


def _load(name: str) -> Any:
    """A module of bench/ by file (bench/ is not on the path)."""
    spec = importlib.util.spec_from_file_location(f"memvault_bench_{name}", HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_labels = _load("search_labels")
DEMO, FIXTURE = _labels.DEMO, _labels.FIXTURE


# -- recall ---------------------------------------------------------------------------------------
def demo_vault(root: Path) -> Vault:
    from tui.demo import build_demo

    build_demo(root, now=DEMO_NOW, seed=7)
    return Vault.open(root, readonly=True)


def fixture_vault(root: Path) -> Vault:
    from core.io.migrate import migrate_jsonl

    with Vault.open(root) as vault:  # replayed as CortexGraph would: later lines, tombstones
        migrate_jsonl(vault, FIXTURE_DIR)
    return Vault.open(root, readonly=True)


def relevant(vault: Vault, keys: list[str]) -> set[str]:
    return {m.id for m in vault.memories.values() if any(k in m.content for k in keys)}


def recall_at_5(vault: Vault, labels: list[tuple[str, list[str]]], mode: str, now: int
                ) -> tuple[float, list[dict[str, Any]]]:
    rows = []
    with Searcher(vault, mode=mode) as searcher:
        for query, keys in labels:
            wanted = relevant(vault, keys)
            if not wanted:
                raise SystemExit(f"bench: no memory holds {keys!r} (query {query!r}): fix the labels")
            hits = searcher.search(query, statuses=ALL_STATUSES, limit=5, now=now).hits
            got = len({h.memory.id for h in hits} & wanted) / min(5, len(wanted))
            rows.append({"query": query, "relevant": len(wanted), "recall": got})
    return statistics.fmean(r["recall"] for r in rows), rows


# -- latency --------------------------------------------------------------------------------------
def big_vault(root: Path, size: int, seed: int) -> tuple[Vault, list[str]]:
    bench_run = _load("run")
    now = int(time.time())
    memories, _relations, _stale = bench_run.make_dataset(size, seed, now)
    layout = Layout(root)
    layout.ensure_dirs()
    for m in memories:
        path = layout.memory_path(m.id)
        path.write_bytes(layout.encode(m))
        os.chmod(path, 0o600)
    layout.meta_path.write_bytes(layout.encode(layout.new_meta()))
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, check=True)
    vault = Vault.open(root, readonly=True)
    assert len(vault.memories) == size
    return vault, list(bench_run.WORDS)


def make_queries(words: list[str], vault: Vault, n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    contents = [m.content for m in vault.memories.values()]
    queries = []
    for i in range(n):
        kind = i % 5
        if kind == 3:  # a phrase out of a memory
            tokens = rng.choice(contents).split()
            start = rng.randrange(max(1, len(tokens) - 2))
            queries.append('"' + " ".join(tokens[start:start + 2]).strip('.,!?"') + '"')
        elif kind == 4:
            queries.append(rng.choice(words)[:4] + "*")
        else:
            queries.append(" ".join(rng.choice(words) for _ in range(kind + 1)))
    return queries


def latency(vault: Vault, queries: list[str], mode: str) -> dict[str, Any]:
    from core.search import index_path

    path = index_path(vault.root)
    for suffix in ("", "-wal", "-shm"):
        if path is not None and os.path.exists(f"{path}{suffix}"):
            os.unlink(f"{path}{suffix}")
    t = time.perf_counter()
    with Searcher(vault, mode=mode) as searcher:
        searcher.search(queries[0], limit=10)
        cold = time.perf_counter() - t
    t = time.perf_counter()
    with Searcher(vault, mode=mode) as searcher:  # a new process's first query, index on disk
        loaded = time.perf_counter() - t
        t = time.perf_counter()
        searcher.search(queries[1], limit=10)
        first = time.perf_counter() - t
        samples = []
        for q in queries:
            t = time.perf_counter()
            searcher.search(q, limit=10)
            samples.append(time.perf_counter() - t)
    samples.sort()
    return {"cold_build_s": cold, "load_s": loaded, "first_query_s": first,
            "p50_s": samples[len(samples) // 2],
            "p95_s": samples[min(len(samples) - 1, int(len(samples) * 0.95))],
            "queries": len(samples)}


# -- output ---------------------------------------------------------------------------------------
def ms(x: float | None) -> str:
    return "-" if x is None else f"{x * 1000:.1f} ms" if x < 1 else f"{x:.2f} s"


def render(r: dict[str, Any]) -> str:
    modes = r["modes"]
    lines = [f"memvault search bench · {r['machine']} · load average {r['load'][0]:.1f} at "
             f"start, {r['load'][1]:.1f} at end (above half the CPU count the latencies are "
             "noisy) · modes: " + ", ".join(modes)
             + ("" if "hybrid" in modes else " (hybrid needs wordllama: "
                "pip install 'memvault[semantic]')"), ""]
    lines.append(f"{'recall@5':<38}" + "".join(f"{m:>12}" for m in modes))
    for name in ("demo", "fixture", "all"):
        n = r["recall"]["bm25"][name]["queries"]
        lines.append(f"  {name + f' ({n} queries)':<36}"
                     + "".join(f"{r['recall'][m][name]['mean']:>12.3f}" for m in modes))
    lines.append("")
    lines.append(f"{'latency at ' + format(r['size'], ',') + ' memories':<38}"
                 + "".join(f"{m:>12}" for m in modes))
    for key, label in (("cold_build_s", "index build, no index file"),
                       ("first_query_s", "first query, index on disk"),
                       ("p50_s", "query p50"), ("p95_s", "query p95")):
        lines.append(f"  {label:<36}" + "".join(f"{ms(r['latency'][m][key]):>12}" for m in modes))
    misses = [row for row in r["recall"]["bm25"]["rows"] if row["recall"] < 1]
    if misses:
        lines.append("")
        lines.append("bm25 misses (recall@5 < 1): " + "; ".join(
            f"{row['query']} ({row['recall']:.2f})" for row in misses))
    if "hybrid" in modes:
        hmiss = [row for row in r["recall"]["hybrid"]["rows"] if row["recall"] < 1]
        lines.append("hybrid misses: " + "; ".join(
            f"{row['query']} ({row['recall']:.2f})" for row in hmiss))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=10_000, help="memories for the latency "
                        "figures (default 10000)")
    parser.add_argument("--queries", type=int, default=200, help="timed queries (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", dest="json_file", help="also write every figure here")
    parser.add_argument("--keep", action="store_true", help="keep the temporary vaults")
    args = parser.parse_args(argv)
    modes = ["bm25", "hybrid"] if semantic_available() else ["bm25"]
    tmp = Path(tempfile.mkdtemp(prefix="memvault-search-bench-"))

    def log(msg: str) -> None:
        print(f"[bench] {msg}", file=sys.stderr, flush=True)

    try:
        log("building the demo vault and the fixture vault")
        demo = demo_vault(tmp / "demo")
        fixture = fixture_vault(tmp / "fixture")
        results: dict[str, Any] = {"machine": f"{os.cpu_count()} cpus, Python "
                                   f"{sys.version.split()[0]}", "modes": modes,
                                   "size": args.size, "recall": {}, "latency": {},
                                   "load": [os.getloadavg()[0], 0.0]}
        for mode in modes:
            log(f"recall@5, {mode}")
            d, drows = recall_at_5(demo, DEMO, mode, DEMO_NOW)
            f, frows = recall_at_5(fixture, FIXTURE, mode, int(time.time()))
            rows = drows + frows
            results["recall"][mode] = {
                "demo": {"mean": d, "queries": len(drows)},
                "fixture": {"mean": f, "queries": len(frows)},
                "all": {"mean": statistics.fmean(r["recall"] for r in rows),
                        "queries": len(rows)},
                "rows": rows}
        log(f"building {args.size:,} memories for the latency figures")
        vault, words = big_vault(tmp / "big", args.size, args.seed)
        queries = make_queries(words, vault, args.queries, args.seed)
        for mode in modes:
            log(f"latency, {mode}")
            results["latency"][mode] = latency(vault, queries, mode)
        results["load"][1] = os.getloadavg()[0]
        print(render(results))
        if args.json_file:
            Path(args.json_file).write_text(json.dumps(results, indent=2))
    finally:
        if args.keep:
            log(f"vaults kept in {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
