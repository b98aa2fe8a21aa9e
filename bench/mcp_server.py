"""``memvault mcp`` against CortexGraph 1.2.1's own server, the same memories, the same client:
``python bench/mcp_server.py [--memories 10000] [--calls 100] [--starts 5] [--peer-python PATH]``

Builds N memories (deterministic: ``random.Random(seed)``, 20-60 word contents from a small
vocabulary, 1-3 tags), commits them into a memvault vault (one commit; in the layout memvault
picks for that many memories, flat up to 50,000 and sharded above, unless ``--layout`` says
otherwise; the output names it) and writes them as
CortexGraph JSONL, then drives each server with the ``mcp`` package's own client
(``stdio_client`` + ``ClientSession``), as an assistant would. Every measure is interleaved (one
server, then the other, then what it is compared with, call by call), so the load of this shared
machine, which changes from one minute to the next, falls on both sides of each ratio alike:

1. **spawn -> initialize**: from spawning the server to the initialize answer, ``--starts``
   rounds of memvault, CortexGraph and an empty server on the same ``mcp`` 2.x (the SDK's
   floor); then a ``search_memory`` made at once (memvault opens the vault once the handshake is
   over; CortexGraph loads its JSONL before it answers initialize, so compare both rows);
2. **search_memory**: both servers running, ``--calls`` searches for two random vocabulary
   words, ``top_k=10``, each query to one then the other (memvault records the use of what each
   returns), and **core's in-process search** of the same query (``Searcher.search``, top 10,
   what the server calls) on a copy of the vault made before the servers started; then as many
   **questions** as an assistant asks them (the shapes of ``bench/search_questions.txt``, their
   subject words drawn from this vocabulary: :func:`make_questions`), the same way;
3. **save_memory**: ``--calls`` saves of the same contents to each (memvault: one git commit
   each), and beside each a **bare git add + commit of one file** in that copy
   (``git add F && git commit -q``, a new memory file each time).

The targets (issue "The assistant's door") are printed with their verdict: search p95 <= 0.5x
CortexGraph's and <= 3x core's in-process search; save p95 <= 0.5x the bare git add+commit;
spawn -> initialize <= 0.7x CortexGraph's (beside it, the same spawn of an empty server on the
same ``mcp`` 2.x: the SDK's import alone, under which no server built on it starts; and
memvault's own share on top of that floor, round by round, <= 15% of it). Latency is
wall time at the client, round trip included; the load average is printed before and after (the
figures are noisy above ~1 on a 2-core machine). Nothing here asserts. The peer needs ``cortexgraph==1.2.1`` with ``mcp<2``
(its server imports ``mcp.server.fastmcp``): ``bench/run.py`` installs it into
``bench/.cache/peer-venv`` on first use.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from run import GIT_ENV, find_peer, write_peer_jsonl  # noqa: E402  (reproducible git, the peer)
from run import WORDS as RUN_WORDS  # noqa: E402
from scale import FUNCTION_WORDS, load_questions  # noqa: E402

from core.vault.relayout import suggested_layout  # noqa: E402

WORDS = ("deploy pipeline cache python pytest docker kubernetes postgres index query latency "
         "backup replica token budget gist memory review schedule standup release branch merge "
         "rebase lint format typing async thread lock commit history restore archive vault "
         "config secret rotate certificate monitor alert dashboard metric trace span log").split()
TAGS = ("ops", "python", "db", "ci", "team", "security", "infra")
TARGETS = {"search_vs_peer": 0.5, "search_vs_core": 3.0, "save_vs_git": 0.5, "spawn_vs_peer": 0.7,
           "own_share_of_floor": 0.15}


def make_memories(n: int, seed: int) -> list[Any]:
    from core import Memory, MemoryMetadata

    rng, now = random.Random(seed), int(time.time())
    memories = []
    for i in range(n):
        used = now - rng.randint(0, 30 * 86400)
        memories.append(Memory(
            id=str(uuid.UUID(int=rng.getrandbits(128), version=4)),
            content=" ".join(rng.choices(WORDS, k=rng.randint(20, 60))),
            meta=MemoryMetadata(tags=rng.sample(TAGS, rng.randint(1, 3))),
            created_at=used - rng.randint(0, 90 * 86400), last_used=used,
            use_count=rng.randint(0, 5)))
    return memories


def make_questions(n: int, seed: int) -> list[str]:
    """``n`` questions as an assistant asks them: those of ``bench/search_questions.txt`` (20
    shapes: "what did we decide about the X Y?"), each subject word (a word of bench/run.py's
    vocabulary but the shapes' own: default, prefers, likes, note, fix) replaced by one of :data:`WORDS`, drawn with ``random.Random(seed)``."""
    subjects = set(RUN_WORDS) - FUNCTION_WORDS - {"default", "prefers", "likes", "note", "fix"}
    rng = random.Random(seed)
    asked = load_questions()
    return [re.sub(r"[a-z]+", lambda m: rng.choice(WORDS) if m.group(0) in subjects
                   else m.group(0), asked[i % len(asked)]) for i in range(n)]


def build_vault(path: Path, memories: list[Any], layout: str) -> None:
    from core import Vault

    with Vault.open(path, layout=layout) as vault:
        vault.save_many(memories, message=f"add: {len(memories)} bench memories",
                        make_gists=False)


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def client_params(command: list[str], env: dict[str, str], cwd: Path) -> Any:
    from mcp.client.stdio import StdioServerParameters

    return StdioServerParameters(command=command[0], args=command[1:], env=env, cwd=str(cwd))


async def spawns(servers: dict[str, Any], rounds: int, query: str) -> dict[str, dict[str, list]]:
    """Spawn -> initialize of each server in turn, ``rounds`` times (interleaved, so a change of
    the machine's load falls on all of them alike), and a ``search_memory`` made at once after
    it (not for the SDK's empty server, which has no tool)."""
    from mcp import ClientSession
    from mcp.client.stdio import stdio_client
    from mcp.types import Implementation

    info = Implementation(name="bench", version="1")
    out: dict[str, dict[str, list]] = {name: {"starts": [], "first_calls": []} for name in servers}
    with open(os.devnull, "w") as errlog:
        for _ in range(rounds):
            for name, params in servers.items():
                began = time.perf_counter()
                async with stdio_client(params, errlog=errlog) as (read, write):
                    async with ClientSession(read, write, client_info=info) as session:
                        await session.initialize()
                        out[name]["starts"].append(time.perf_counter() - began)
                        if name == FLOOR:
                            continue
                        began = time.perf_counter()
                        await session.call_tool("search_memory", {"query": query, "top_k": 10})
                        out[name]["first_calls"].append(time.perf_counter() - began)
    return out


async def calls(servers: dict[str, Any], queries: list[str], contents: list[str],
                in_process_search: Any, bare_commit: Any, questions: list[str] = ()
                ) -> dict[str, dict[str, list]]:
    """Both servers running at once through the same client, each call made to one then the
    other (interleaved): ``search_memory`` for each query, then for each question (under
    ``question_searches``), with core's in-process search of the same query beside them; then
    ``save_memory`` of each content, with a bare git add+commit of one file beside them."""
    from contextlib import AsyncExitStack

    from mcp import ClientSession
    from mcp.client.stdio import stdio_client
    from mcp.types import Implementation

    info = Implementation(name="bench", version="1")
    out: dict[str, dict[str, list]] = {
        name: {"searches": [], "question_searches": [], "saves": [], "hits": []}
        for name in servers}
    out["core"] = {"searches": [], "question_searches": []}
    out["git"] = {"saves": []}
    with open(os.devnull, "w") as errlog:
        async with AsyncExitStack() as stack:
            sessions = {}
            for name, params in servers.items():
                read, write = await stack.enter_async_context(stdio_client(params, errlog=errlog))
                session = await stack.enter_async_context(
                    ClientSession(read, write, client_info=info))
                await session.initialize()
                await session.call_tool("search_memory", {"query": queries[0], "top_k": 10})
                sessions[name] = session
            in_process_search(queries[0])
            asked = [("searches", q) for q in queries] + \
                [("question_searches", q) for q in questions]
            for key, query in asked:
                for name, session in sessions.items():
                    began = time.perf_counter()
                    result = await session.call_tool("search_memory",
                                                     {"query": query, "top_k": 10})
                    out[name][key].append(time.perf_counter() - began)
                    assert not result.is_error, result.content
                    if key == "searches":
                        out[name]["hits"].append(json.loads(result.content[0].text)["count"])
                began = time.perf_counter()
                in_process_search(query)
                out["core"][key].append(time.perf_counter() - began)
            for i, content in enumerate(contents):
                for name, session in sessions.items():
                    began = time.perf_counter()
                    result = await session.call_tool("save_memory", {"content": content,
                                                                     "tags": ["bench"]})
                    out[name]["saves"].append(time.perf_counter() - began)
                    assert not result.is_error, result.content
                out["git"]["saves"].append(bare_commit(i))
    return out


FLOOR = "floor"
FLOOR_SERVER = "from mcp.server.mcpserver import MCPServer; MCPServer('floor').run()"


class CoreSearch:
    """core's ranked search in this process (what the server calls), on a copy of the vault
    the server uses, made before the server started (the same memories)."""

    def __init__(self, vault: Path):
        from core import Vault
        from core.search import Searcher

        self.vault = Vault.open(vault)
        self.searcher = Searcher(self.vault)

    def __call__(self, query: str) -> None:
        self.searcher.search(query, statuses=["active", "promoted"], limit=10, snippets=False)

    def close(self) -> None:
        self.searcher.close()
        self.vault.close()


class BareCommit:
    """``git add F && git commit -q`` of one new memory file in the copy of the vault."""

    def __init__(self, vault: Path, memories: list[Any]):
        from core.store.layout import Layout

        self.vault = vault
        self.memories = memories
        self.layout = Layout(vault)

    def __call__(self, i: int) -> float:
        m = self.memories[i % len(self.memories)]
        record = m.model_copy(update={"id": str(uuid.UUID(int=i + 1, version=4))})
        path = self.layout.memory_path(record.id)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(record.model_dump_json(indent=2))
        began = time.perf_counter()
        subprocess.run(["git", "-C", str(self.vault), "add", "--", str(path)], check=True)
        subprocess.run(["git", "-C", str(self.vault), "-c", "gc.auto=0", "commit", "-q", "-m",
                        f"add {i}"], check=True)
        return time.perf_counter() - began


def peer_server_ok(python: str) -> str | None:
    """None when CortexGraph's server starts on this Python, else why not."""
    out = subprocess.run([python, "-c", "import cortexgraph.server"], capture_output=True,
                         text=True, timeout=120, cwd=tempfile.gettempdir(),
                         env={**os.environ, "HOME": tempfile.gettempdir()})
    if out.returncode == 0:
        return None
    last = (out.stderr.strip().splitlines() or ["?"])[-1]
    return f"cortexgraph's server does not import ({last[:160]}): install it with 'mcp<2'"


def row(name: str, ours: float | None, peer: float | None, target: str = "",
        verdict: str = "") -> str:
    def ms(x: float | None) -> str:
        return "-" if x is None else f"{x * 1000:9.1f} ms"
    ratio = f"{ours / peer:6.2f}x" if ours is not None and peer else "      -"
    return f"{name:<34} {ms(ours):>12} {ms(peer):>12} {ratio:>8}  {target:<22} {verdict}"


def verdict(ratio: float | None, limit: float) -> str:
    if ratio is None:
        return "not measured"
    return "met" if ratio <= limit else "NOT met"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--peer-python", default=None,
                        help="a Python with cortexgraph==1.2.1 and mcp<2 (default: "
                             "bench/.cache/peer-venv, created on first use)")
    parser.add_argument("--layout", choices=("flat", "sharded"), default=None,
                        help="the vault's layout (default: the one memvault picks for that many "
                             "memories: flat up to 50,000, sharded above)")
    parser.add_argument("--json", default=None, help="write every sample to this file")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    # (absolute, not resolved: a venv's python is a link to the base one)
    given = os.path.abspath(args.peer_python) if args.peer_python else None
    peer, note = find_peer(given, lambda s: print(s, file=sys.stderr))
    if peer is not None:
        why = peer_server_ok(peer)
        if why is not None:
            peer, note = None, why
    rng = random.Random(args.seed + 1)
    queries = [" ".join(rng.sample(WORDS, 2)) for _ in range(args.calls)]
    questions = make_questions(args.calls, args.seed + 2)
    contents = [f"Bench note {i}: " + " ".join(rng.choices(WORDS, k=30))
                for i in range(args.calls)]
    results: dict[str, Any] = {"memories": args.memories, "peer": note}
    # (ignore_cleanup_errors: a detached `git gc --auto` may still be writing when it ends)
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp_name:
        tmp = Path(tmp_name)
        home = tmp / "home"
        home.mkdir()
        env = {**GIT_ENV, "HOME": str(home), "PATH": os.environ.get("PATH", ""),
               "PYTHONDONTWRITEBYTECODE": ""}
        os.environ.update({"HOME": str(home)})
        vault, peer_dir = tmp / "vault", tmp / "cortexgraph"
        began = time.perf_counter()
        memories = make_memories(args.memories, args.seed)
        picked = suggested_layout(args.memories)
        layout = args.layout or picked
        results["layout"] = layout
        build_vault(vault, memories, layout)
        write_peer_jsonl(peer_dir, memories, [])
        chosen = ("the one memvault picks for this size" if layout == picked
                  else f"--layout; memvault picks {picked} for this size")
        print(f"{args.memories} memories: memvault vault ({layout} layout: {chosen}) and "
              f"CortexGraph JSONL built in {time.perf_counter() - began:.1f} s; peer: {note}")
        copy = tmp / "vault-copy"  # for core's search and the bare git commits
        shutil.copytree(vault, copy, symlinks=True)
        servers = {"ours": client_params([sys.executable, "-m", "tui.cli", "mcp", "--vault",
                                          str(vault)], env, ROOT)}
        if peer is not None:
            servers["peer"] = client_params([peer, "-m", "cortexgraph.server"],
                                            {**env, "CORTEXGRAPH_STORAGE_PATH": str(peer_dir)},
                                            tmp)
        started = asyncio.run(spawns({**servers, FLOOR: client_params(
            [sys.executable, "-c", FLOOR_SERVER], env, tmp)}, args.starts, queries[0]))
        in_process, bare = CoreSearch(copy), BareCommit(copy, memories)
        try:
            called = asyncio.run(calls(servers, queries, contents, in_process, bare, questions))
        finally:
            in_process.close()
        results["ours"] = {**started["ours"], **called["ours"]}
        if peer is not None:
            results["peer_samples"] = {**started["peer"], **called["peer"]}
        results["sdk_floor"] = started[FLOOR]["starts"]
        results["core_search"] = called["core"]["searches"]
        results["core_question_search"] = called["core"]["question_searches"]
        results["git_add_commit"] = called["git"]["saves"]
    load_after = os.getloadavg()
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    report(results, args, load_before, load_after)
    return 0


def report(results: dict[str, Any], args: argparse.Namespace, load_before: tuple,
           load_after: tuple) -> None:
    ours, theirs = results["ours"], results.get("peer_samples")

    def p(samples: dict | None, key: str, q: float) -> float | None:
        return percentile(samples[key], q) if samples and samples[key] else None

    size = f"{args.memories // 1000}k" if args.memories >= 1000 else str(args.memories)
    print(f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after "
          f"({os.cpu_count()} CPUs); {args.calls} calls, {args.starts} start-ups; "
          f"{results['layout']} layout")
    print(f"{'at ' + size + ' memories':<34} {'memvault':>12} {'cortexgraph':>12} {'ratio':>8}  "
          f"{'target':<22} verdict")
    spawn, spawn_peer = p(ours, "starts", 50), p(theirs, "starts", 50)
    spawn_ratio = spawn / spawn_peer if spawn_peer else None
    print(row("spawn -> initialize, p50", spawn, spawn_peer, "<= 0.7x cortexgraph",
              verdict(spawn_ratio, TARGETS["spawn_vs_peer"])))
    floor = percentile(results["sdk_floor"], 50)
    print(row("  the SDK's floor: empty server, p50", floor, spawn_peer,
              "(mcp 2.x import alone)"))
    shares = [a - b for a, b in zip(ours["starts"], results["sdk_floor"])]  # (round by round)
    share = percentile(shares, 50)
    print(f"{'  memvault own share over it, p50':<34} {share * 1000:9.1f} ms {'':>12} "
          f"{share / floor:6.1%}   {'<= 15% of the floor':<22} "
          f"{verdict(share / floor, TARGETS['own_share_of_floor'])}")
    print(row("first search_memory at once, p50", p(ours, "first_calls", 50),
              p(theirs, "first_calls", 50)))
    for q in (50, 95):
        print(row(f"search_memory p{q}", p(ours, "searches", q), p(theirs, "searches", q),
                  "<= 0.5x cortexgraph" if q == 95 else "",
                  verdict(p(ours, "searches", 95) / p(theirs, "searches", 95)
                          if theirs else None, TARGETS["search_vs_peer"]) if q == 95 else ""))
    core = results["core_search"]
    for q in (50, 95):
        ratio = p(ours, "searches", q) / percentile(core, q)
        print(f"{'  vs core in-process search p' + str(q):<34} {percentile(core, q) * 1000:9.1f} ms"
              f"{'':>13} {ratio:6.2f}x  {'<= 3x core' if q == 95 else '':<22} "
              f"{verdict(ratio, TARGETS['search_vs_core']) if q == 95 else ''}")
    for q in (50, 95):
        print(row(f"search_memory, questions p{q}", p(ours, "question_searches", q),
                  p(theirs, "question_searches", q), "<= 0.5x cortexgraph" if q == 95 else "",
                  verdict(p(ours, "question_searches", 95) / p(theirs, "question_searches", 95)
                          if theirs else None, TARGETS["search_vs_peer"]) if q == 95 else ""))
    asked = results["core_question_search"]
    print(f"{'  core in-process, questions p95':<34} {percentile(asked, 95) * 1000:9.1f} ms")
    for q in (50, 95):
        print(row(f"save_memory p{q}", p(ours, "saves", q), p(theirs, "saves", q)))
    git = results["git_add_commit"]
    for q in (50, 95):
        ratio = p(ours, "saves", q) / percentile(git, q)
        print(f"{'  vs bare git add+commit p' + str(q):<34} {percentile(git, q) * 1000:9.1f} ms"
              f"{'':>13} {ratio:6.2f}x  {'<= 0.5x git' if q == 95 else '':<22} "
              f"{verdict(ratio, TARGETS['save_vs_git']) if q == 95 else ''}")
    def mean_hits(samples: dict) -> str:
        return f"{sum(samples['hits']) / max(1, len(samples['hits'])):.1f}"

    peer_hits = f", {mean_hits(theirs)} (cortexgraph)" if theirs else ""
    print(f"search_memory: {mean_hits(ours)} results a query on average (memvault){peer_hits}")
    if not theirs:
        print(f"cortexgraph columns skipped: {results['peer']}")


if __name__ == "__main__":
    raise SystemExit(main())
