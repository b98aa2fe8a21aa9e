"""``memvault mcp`` over a real stdio connection: ``python bench/mcp_server.py [--memories 10000]
[--calls 100] [--starts 5]``

Builds a vault of N memories (deterministic: ``random.Random(seed)``, 20-60 word contents from a
small vocabulary, 1-3 tags; one commit), then drives ``python -m tui.cli mcp --vault VAULT`` with
the ``mcp`` package's own client (``stdio_client`` + ``ClientSession``), as an assistant would:

1. **start-up**: from spawning the server to the initialize answer (the ``mcp`` import is most
   of it), and a tool call made right after it (the server opens the vault in the background
   once the handshake is over; a call made at once waits for that);
2. **save_memory**: ``--calls`` saves, one commit each (p50, p95);
3. **search_memory**: ``--calls`` searches for two random vocabulary words, ``top_k=10``
   (p50, p95); with use records in core each search also writes its results' use records.

Latency is wall time at the client, round trip included. Nothing here asserts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORDS = ("deploy pipeline cache python pytest docker kubernetes postgres index query latency "
         "backup replica token budget gist memory review schedule standup release branch merge "
         "rebase lint format typing async thread lock commit history restore archive vault "
         "config secret rotate certificate monitor alert dashboard metric trace span log").split()
TAGS = ("ops", "python", "db", "ci", "team", "security", "infra")


def build_vault(path: Path, n: int, seed: int) -> None:
    sys.path.insert(0, str(ROOT))
    from core import Memory, MemoryMetadata, Vault

    rng, now = random.Random(seed), int(time.time())
    memories = []
    for i in range(n):
        used = now - rng.randint(0, 30 * 86400)
        memories.append(Memory(
            id=f"bench-{i:06d}", content=" ".join(rng.choices(WORDS, k=rng.randint(20, 60))),
            meta=MemoryMetadata(tags=rng.sample(TAGS, rng.randint(1, 3))),
            created_at=used - rng.randint(0, 90 * 86400), last_used=used,
            use_count=rng.randint(0, 5)))
    with Vault.open(path) as vault:
        vault.save_many(memories, message=f"add: {n} bench memories", make_gists=False)


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def line(name: str, samples: list[float]) -> str:
    ms = [s * 1000 for s in samples]
    return (f"{name:<28} p50 {percentile(ms, 50):8.1f} ms   p95 {percentile(ms, 95):8.1f} ms   "
            f"(n={len(ms)}, min {min(ms):.1f}, max {max(ms):.1f})")


async def measure(vault: Path, env: dict[str, str], args: argparse.Namespace) -> dict:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client
    from mcp.types import Implementation

    params = StdioServerParameters(command=sys.executable, env=env, cwd=str(ROOT),
                                   args=["-m", "tui.cli", "mcp", "--vault", str(vault)])
    info = Implementation(name="bench", version="1")
    starts, first_calls, saves, searches = [], [], [], []
    rng = random.Random(args.seed + 1)
    errlog = open(os.devnull, "w")  # noqa: SIM115 - held for the whole run
    for round_ in range(args.starts):
        began = time.perf_counter()
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write, client_info=info) as session:
                await session.initialize()
                starts.append(time.perf_counter() - began)
                began = time.perf_counter()
                await session.call_tool("read_graph", {"limit": 1})
                first_calls.append(time.perf_counter() - began)
                if round_ < args.starts - 1:
                    continue
                for i in range(args.calls):
                    content = f"Bench note {i}: " + " ".join(rng.choices(WORDS, k=30))
                    began = time.perf_counter()
                    result = await session.call_tool("save_memory", {"content": content,
                                                                     "tags": ["bench"]})
                    saves.append(time.perf_counter() - began)
                    assert not result.is_error, result.content
                hits = 0
                for _ in range(args.calls):
                    query = " ".join(rng.sample(WORDS, 2))
                    began = time.perf_counter()
                    result = await session.call_tool("search_memory", {"query": query,
                                                                       "top_k": 10})
                    searches.append(time.perf_counter() - began)
                    hits += json.loads(result.content[0].text)["count"]
    errlog.close()
    return {"starts": starts, "first_calls": first_calls, "saves": saves,
            "searches": searches, "mean_hits": hits / max(1, args.calls)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        home.mkdir()
        (home / "gitconfig").write_text("")
        env = {"HOME": str(home), "GIT_CONFIG_GLOBAL": str(home / "gitconfig"),
               "GIT_CONFIG_NOSYSTEM": "1", "PYTHONDONTWRITEBYTECODE": ""}
        os.environ.update(env)
        vault = Path(tmp) / "vault"
        began = time.perf_counter()
        build_vault(vault, args.memories, args.seed)
        print(f"vault: {args.memories} memories, built in {time.perf_counter() - began:.1f} s")
        result = asyncio.run(measure(vault, env, args))
    print(line("start-up (spawn->initialize)", result["starts"]))
    print(line("first call, at once", result["first_calls"]))
    print(line(f"save_memory at {args.memories // 1000}k", result["saves"]))
    print(line(f"search_memory at {args.memories // 1000}k", result["searches"]))
    print(f"search_memory: {result['mean_hits']:.1f} results a query on average (top_k=10)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
