"""What ``bench/run.py`` measures for big vaults, beside its open/archive/gc figures:
a fast build with the git CLI, open with no index (cold) and with a warm index, peak RSS, search
latency against CortexGraph's own search tool on the same memories, and the TUI from process
start to the first painted tree. Every measure runs in fresh subprocesses, interleaved with the
peer's where there is one; nothing asserts.
"""

from __future__ import annotations

import json
import os
import random
import re
import statistics
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

from tui_probe import PEAK_RSS, probe  # bench/tui_probe.py, beside this file

SOURCE = Path(__file__).resolve().parent.parent  # the source tree: core, tui


def git(cwd: Path, *args: str, check: bool = True) -> str:
    out = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if check and out.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed: {out.stderr.strip()}")
    return out.stdout.strip()


def build_vault_fast(root: Path, layout: Any, memories: list[Any], relations: list[Any],
                     meta: dict[str, Any]) -> dict[str, Any]:
    """Write every file as memvault would (pretty JSON, 0600) and commit them with the git CLI
    in one commit (``git add -A`` walks the folder itself: no path list anywhere), pack the
    repository as a long-lived one would be, and let git's index settle."""
    t = time.perf_counter()
    layout.ensure_dirs()
    folders: set[Path] = set()
    for m in memories:
        path = layout.memory_path(m.id)
        if path.parent not in folders:  # a shard folder in the sharded layout
            path.parent.mkdir(exist_ok=True)
            folders.add(path.parent)
        path.write_bytes(layout.encode(m))
        os.chmod(path, 0o600)
    for r in relations:
        path = layout.relation_path(r.id)
        path.write_bytes(layout.encode(r))
        os.chmod(path, 0o600)
    layout.meta_path.write_bytes(layout.encode(meta))
    written = time.perf_counter() - t
    git(root, "init", "-q", "-b", "main", "--shared=0600")
    git(root, "-c", "gc.auto=0", "add", "-A")  # no automatic gc in the background: one below
    git(root, "-c", "gc.auto=0", "commit", "-q", "-m", f"bench: {len(memories)} memories")
    git(root, "gc", "-q")
    os.sync()
    time.sleep(1.1)  # files and index written in the same second are racily clean for git
    git(root, "update-index", "-q", "--really-refresh")
    git(root, "status", "--porcelain")
    return {"write_files_seconds": written, "build_seconds": time.perf_counter() - t,
            "commits": int(git(root, "rev-list", "--count", "HEAD"))}


def drop_index(vault: Path) -> None:
    for leftover in (vault / ".git" / "memvault").glob("index.sqlite*"):
        leftover.unlink()



# Run in a fresh interpreter: open, then print the time and the peak RSS.
OURS_OPEN = PEAK_RSS + textwrap.dedent("""
    import json, os, sys, time
    import core, git
    from core import Vault
    path, mode = sys.argv[1], sys.argv[2]
    if mode == "cold":
        for p in __import__("pathlib").Path(path, ".git", "memvault").glob("index.sqlite*"):
            p.unlink()
    t = start = time.perf_counter()
    vault = Vault.open(path, readonly=mode == "readonly")
    dt = time.perf_counter() - t
    # then every record read: an open from the index parses each record when it is first read,
    # and the peak RSS is taken after all of them are (CortexGraph's connect parses them all)
    t = time.perf_counter()
    list(vault.memories.values()), list(vault.relations.values())
    read_all = time.perf_counter() - t
    # a first open writes the open index in a thread of its own (the vault usable meanwhile):
    # how long after the open's start it is written
    vault.wait_for_open_index()
    written = time.perf_counter() - start
    print(json.dumps({"seconds": dt, "read_all": read_all, "index_written": written,
                      "memories": len(vault.memories),
                      "relations": len(vault.relations), "problems": len(vault.problems),
                      "external_commit": vault.report.external_commit,
                      "rss_mb": peak_rss_mb()}))
""")
PEER_OPEN = PEAK_RSS + textwrap.dedent("""
    import json, sys, time
    from pathlib import Path
    from cortexgraph.config import get_config
    from cortexgraph.storage.jsonl_storage import JSONLStorage
    get_config()
    t = time.perf_counter()
    storage = JSONLStorage(storage_path=Path(sys.argv[1]))
    storage.connect()
    dt = time.perf_counter() - t
    print(json.dumps({"seconds": dt, "memories": len(storage.memories),
                      "relations": len(storage.relations),
                      "rss_mb": peak_rss_mb()}))
""")

# Search: open once, one query not timed (each side builds what it keeps between queries),
# then every query timed; both sides rank and return their top 10.
OURS_SEARCH = textwrap.dedent("""
    import json, sys, time
    from core import Vault
    from core.search import Searcher
    vault = Vault.open(sys.argv[1])
    queries = json.loads(sys.argv[2])
    searcher = Searcher(vault, mode="bm25")
    def cpu():  # this process and its children (a fill may hand rows to a child)
        import resource
        own, kids = (resource.getrusage(w) for w in (resource.RUSAGE_SELF,
                                                      resource.RUSAGE_CHILDREN))
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime
    c, t = cpu(), time.perf_counter()
    searcher.search(queries[0], limit=10)  # fills the index's search rows when they are new
    first, first_cpu = time.perf_counter() - t, cpu() - c
    times, hits = [], 0
    for q in queries:
        t = time.perf_counter()
        result = searcher.search(q, limit=10)
        times.append(time.perf_counter() - t)
        hits += len(result.hits)
    print(json.dumps({"times": times, "hits": hits, "first": first, "first_cpu": first_cpu}))
""")
PEER_SEARCH = textwrap.dedent("""
    import json, sys, time
    from pathlib import Path
    from cortexgraph.config import get_config
    from cortexgraph.storage.jsonl_storage import JSONLStorage
    import cortexgraph.tools.search as tool
    get_config()
    storage = JSONLStorage(storage_path=Path(sys.argv[1]))
    storage.connect()
    tool.db = storage
    queries = json.loads(sys.argv[2])
    search = getattr(tool.search_memory, "fn", tool.search_memory)
    search(query=queries[0], top_k=10)
    times, hits = [], 0
    for q in queries:
        t = time.perf_counter()
        result = search(query=q, top_k=10)
        times.append(time.perf_counter() - t)
        hits += len(result.get("results", []))
    print(json.dumps({"times": times, "hits": hits}))
""")



def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(SOURCE) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH")
                                       else "")
    return env


def run_json(argv: list[str], cwd: Path | None = None) -> dict[str, Any]:
    out = subprocess.run(argv, capture_output=True, text=True, env=_env(), cwd=cwd or SOURCE)
    if out.returncode != 0:
        raise RuntimeError(f"{argv[0]} failed: {out.stderr.strip()[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def series(samples: list[float]) -> dict[str, Any]:
    """Median, p95, min, max of timings (seconds), with every sample."""
    ordered = sorted(samples)
    return {"median": statistics.median(ordered),
            "p95": ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))],
            "min": ordered[0], "max": ordered[-1], "n": len(ordered), "samples": samples}


def measure_opens(vault: Path, peer_dir: Path, peer: str | None, n: int) -> dict[str, Any]:
    """Open after imports: cold (no index: every file read, the index written), warm (the
    index from the previous open), read-only (every file read, no git), and CortexGraph."""
    py = sys.executable
    runs: dict[str, list[str]] = {
        "cold": [py, "-c", OURS_OPEN, str(vault), "cold"],
        "warm": [py, "-c", OURS_OPEN, str(vault), "warm"],
        "readonly": [py, "-c", OURS_OPEN, str(vault), "readonly"],
    }
    if peer:
        runs["peer"] = [peer, "-c", PEER_OPEN, str(peer_dir)]
    found: dict[str, list[dict[str, Any]]] = {k: [] for k in runs}
    for key, argv in runs.items():  # warm-up (and the warm column's index)
        run_json(argv)
    for _ in range(n):
        for key, argv in runs.items():
            result = run_json(argv)
            if result.get("external_commit"):
                raise RuntimeError("opening the committed vault made a commit: it was not clean")
            found[key].append(result)
    out: dict[str, Any] = {}
    for key, results in found.items():
        out[key] = series([r["seconds"] for r in results])
        if "read_all" in results[0]:
            out[key]["with_read_all"] = series([r["seconds"] + r["read_all"] for r in results])
            out[key]["index_written"] = series([r["index_written"] for r in results])
        out[key]["rss_mb"] = max(r["rss_mb"] for r in results)
        out[key]["loaded"] = {"memories": results[-1]["memories"],
                              "relations": results[-1]["relations"]}
    return out


def make_queries(memories: list[Any], n: int, seed: int) -> list[str]:
    """One- and two-word queries made of words that occur in the memories (so both sides have
    hits to rank), drawn from their contents."""
    rng = random.Random(seed)
    words = [w.strip(".,;:") for m in rng.sample(memories, min(200, len(memories)))
             for w in m.content.split() if len(w) > 4]
    words = sorted(set(words))
    return [" ".join(rng.sample(words, rng.choice([1, 1, 2]))) for _ in range(n)]


def _without_search_rows(vault: Path) -> None:
    """The index as a clone's first open leaves it: no file, then one open (not timed) that
    writes its open index and waits for it; no search rows yet."""
    drop_index(vault)
    run_json([sys.executable, "-c", "import json, sys; from core import Vault; "
              "v = Vault.open(sys.argv[1]); v.wait_for_open_index(); print(json.dumps({}))",
              str(vault)])


def _p(times: list[float], q: float) -> float:
    return series(times)["median"] if q == 0.5 else series(times)["p95"]


def measure_search(vault: Path, peer_dir: Path, peer: str | None, queries: list[str],
                   runs: int = 3) -> dict[str, Any]:
    """``runs`` processes of each side, interleaved. Ours starts each from an index without
    search rows (:func:`_without_search_rows`), so its first search fills them: timed, wall
    and CPU (its process and children). Per side: every query's time pooled (``median``,
    ``p95``), and the per-run p50 and p95 (``p50_runs``, ``p95_runs``) for their spread."""
    text = json.dumps(queries)
    ours_runs: list[dict[str, Any]] = []
    peer_runs: list[dict[str, Any]] = []
    for _ in range(runs):
        _without_search_rows(vault)
        ours_runs.append(run_json([sys.executable, "-c", OURS_SEARCH, str(vault), text]))
        if peer:
            peer_runs.append(run_json([peer, "-c", PEER_SEARCH, str(peer_dir), text]))
    out: dict[str, Any] = {"queries": len(queries), "runs": runs}
    for key, found in (("ours", ours_runs), ("peer", peer_runs)):
        if not found:
            continue
        pooled = [t for r in found for t in r["times"]]
        out[key] = series(pooled) | {
            "hits": found[-1]["hits"],
            "p50_runs": series([_p(r["times"], 0.5) for r in found]),
            "p95_runs": series([_p(r["times"], 0.95) for r in found])}
    out["ours"]["first"] = series([r["first"] for r in ours_runs])
    out["ours"]["first_cpu"] = series([r["first_cpu"] for r in ours_runs])
    return out


#: Questions as a person asks them (bench/search_questions.txt), timed beside two-word queries
#: made of the same questions' words, alternately in one process (the same searcher, the same
#: moment of a busy machine), both as an assistant asks: top 10, no snippets.
QUESTIONS = Path(__file__).resolve().parent / "search_questions.txt"
#: The words of a question that say what it asks about are those of the vocabulary but these.
FUNCTION_WORDS = frozenset("""the a of to and in for on with is that this it as by from at be are
was we use not when if then so but or our their its after before under over into out about via
per each new old""".split())
OURS_QUESTIONS = textwrap.dedent("""
    import json, sys, time
    from core import Vault
    from core.search import Searcher
    vault = Vault.open(sys.argv[1])
    pairs = json.loads(sys.argv[2])
    searcher = Searcher(vault, mode="bm25")
    searcher.search(pairs[0][0], limit=10, snippets=False)  # fills new search rows, not timed
    times = {"questions": [], "two_words": []}
    hits = 0
    for question, two in pairs:
        for key, q in (("questions", question), ("two_words", two)):
            t = time.perf_counter()
            result = searcher.search(q, limit=10, snippets=False)
            times[key].append(time.perf_counter() - t)
            hits += len(result.hits)
    print(json.dumps({"times": times, "hits": hits}))
""")


def load_questions(path: Path = QUESTIONS) -> list[str]:
    return [line.strip() for line in path.read_text().splitlines()
            if line.strip() and not line.startswith("#")]


def two_word_queries(questions: list[str], vocabulary: set[str]) -> list[str]:
    """For each question, a query of the first two of its words the memories use that are not
    function words (what a person types for the same thing)."""
    out = []
    for question in questions:
        words = [w for w in re.findall(r"[a-z]+", question.lower())
                 if w in vocabulary and w not in FUNCTION_WORDS]
        out.append(" ".join(words[:2]) or question)
    return out


def measure_questions(vault: Path, peer_dir: Path, peer: str | None, questions: list[str],
                      vocabulary: set[str], runs: int = 3) -> dict[str, Any]:
    """Questions against two-word queries of the same words (ours, one process, alternately);
    CortexGraph's ``search_memory`` on the questions when it is there. ``runs`` processes of
    each: every time pooled (``median``, ``p95``) and each run's p95 (``p95_runs``)."""
    pairs = list(zip(questions, two_word_queries(questions, vocabulary)))
    ours, theirs = [], []
    for _ in range(runs):
        ours.append(run_json([sys.executable, "-c", OURS_QUESTIONS, str(vault),
                              json.dumps(pairs)]))
        if peer:
            theirs.append(run_json([peer, "-c", PEER_SEARCH, str(peer_dir),
                                    json.dumps(questions)]))
    out: dict[str, Any] = {"queries": len(pairs), "hits": ours[-1]["hits"], "runs": runs}
    for key in ("questions", "two_words"):
        out[key] = series([t for r in ours for t in r["times"][key]]) | {
            "p50_runs": series([_p(r["times"][key], 0.5) for r in ours]),
            "p95_runs": series([_p(r["times"][key], 0.95) for r in ours])}
    out["p95_ratio_runs"] = series([_p(r["times"]["questions"], 0.95)
                                    / _p(r["times"]["two_words"], 0.95) for r in ours])
    if theirs:
        out["peer"] = series([t for r in theirs for t in r["times"]]) | {
            "hits": theirs[-1]["hits"],
            "p50_runs": series([_p(r["times"], 0.5) for r in theirs]),
            "p95_runs": series([_p(r["times"], 0.95) for r in theirs])}
    return out


def measure_first_search(vault: Path, query: str, n: int) -> dict[str, Any]:
    """``memvault search QUERY --limit 10 --json`` as a person runs it, from process start to
    its end: right after a clone (no derived index: every file read, the answer from the
    memories in memory, the search index's first build handed to a process of its own), and
    warm (the index that build left). Alternated, ``n`` of each, after one warm-up of each;
    after each first search, the time until its background build ended (``built``: from the
    search's start), waited for before the warm one."""
    from core.search import background_build

    argv = [sys.executable, "-m", "tui.cli", "search", *query.split(), "--limit", "10",
            "--json", "--vault", str(vault)]
    found: dict[str, list[float]] = {"first": [], "warm": [], "built": []}

    def run(kind: str) -> float:
        if kind == "first":
            background_build.wait(vault)
            drop_index(vault)
        t = time.perf_counter()
        out = subprocess.run(argv, capture_output=True, text=True, env=_env(), cwd=SOURCE)
        dt = time.perf_counter() - t
        if out.returncode != 0:
            raise RuntimeError(f"memvault search failed: {out.stderr.strip()[-2000:]}")
        if not json.loads(out.stdout)["hits"]:
            raise RuntimeError(f"memvault search {query!r} found nothing")
        if kind == "first":
            background_build.wait(vault)
            found["built"].append(time.perf_counter() - t)
        return dt

    run("first"), run("warm")
    found["built"].clear()
    for _ in range(n):
        for kind in ("first", "warm"):
            found[kind].append(run(kind))
    return {kind: series(samples) for kind, samples in found.items()}


def measure_tui_paint(vault: Path, n: int, cold: bool = False) -> dict[str, Any]:
    """The app from process start to the first painted tree and to every action ready, ``n``
    times: on the vault as it is (warm: its derived index there), or, ``cold``, each time
    with the derived index removed first (as after a clone). A cold run's process ends once
    it is ready (the index its open writes, and the search index's first build, unfinished):
    an open afterwards (not timed) leaves the index whole again. Beside each wall time, the
    process's CPU time then (``cpu``, ``ready_cpu``: what a loaded machine does not inflate),
    and whether every first paint came before the vault and pydantic were imported."""
    samples, ready, cpu, ready_cpu, rss, before_vault = [], [], [], [], 0.0, True
    for _ in range(n):
        if cold:
            drop_index(vault)
        result = probe(vault)  # (bench/tui_probe.py: the demo's bench probes with it too)
        samples.append(result["seconds"])
        ready.append(result["ready"])
        cpu.append(result["cpu"])
        ready_cpu.append(result["ready_cpu"])
        before_vault = before_vault and result["before_vault"]
        rss = max(rss, result["rss_mb"])
    if cold:
        run_json([sys.executable, "-c", "import json, sys; from core import Vault; "
                  "v = Vault.open(sys.argv[1]); v.wait_for_open_index(); print(json.dumps({}))",
                  str(vault)])
    return series(samples) | {"rss_mb": rss, "ready": series(ready), "cpu": series(cpu),
                              "ready_cpu": series(ready_cpu), "before_vault": before_vault}
