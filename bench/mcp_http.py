"""``memvault mcp --http`` beside stdio, and the change watch: ``python bench/mcp_http.py
[--memories 10000] [--calls 100]``

Builds the vault of ``bench/mcp_server.py`` (same builder, same seed), then:

1. **start-up over HTTP**: from spawning ``memvault mcp --http 127.0.0.1:0`` to the line saying
   where it listens, then to an initialized session of the ``mcp`` package's own Streamable HTTP
   client (with the bearer token);
2. **search_memory and save_memory over HTTP and over stdio**, the same calls through the SDK's
   own clients, side by side (p50, p95, wall time at the client);
3. **the watch**: one look at the refs (what the server does every 0.5 s, in process) and the
   diff of a one-memory commit, at this size and at 100 memories: the look must not grow with
   the vault; and the time from a commit made by another process to the subscriber's
   ``notifications/resources/updated``, from the start of that ``update()`` (its own time
   included; interval 0.05 s here).

Nothing here asserts.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio
import anyio.to_thread

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from mcp_server import WORDS, build_vault, line  # noqa: E402  (bench/ on the path)


def _spawn_http(vault: Path, env: dict[str, str]) -> tuple[subprocess.Popen[str], str, float]:
    began = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "tui.cli", "mcp", "--vault", str(vault),
                             "--http", "127.0.0.1:0"], env=env, cwd=str(ROOT), text=True,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    assert proc.stderr is not None
    for text in proc.stderr:
        found = re.search(r"listening on (http://\S+)", text)
        if found:
            return proc, found.group(1), time.perf_counter() - began
    raise RuntimeError("the server did not start")


async def _calls(session, args, rng) -> tuple[list[float], list[float]]:
    searches, saves = [], []
    for _ in range(args.calls):
        began = time.perf_counter()
        await session.call_tool("search_memory", {"query": " ".join(rng.sample(WORDS, 2))})
        searches.append(time.perf_counter() - began)
    for i in range(args.calls):
        began = time.perf_counter()
        await session.call_tool("save_memory", {"content": f"Bench {i}: " +
                                                " ".join(rng.choices(WORDS, k=30))})
        saves.append(time.perf_counter() - began)
    return searches, saves


async def over_http(vault: Path, env: dict[str, str], args) -> dict:
    import httpx2
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from mcp.types import (EmptyResult, Implementation, SubscribeRequest,
                           SubscribeRequestParams)

    from core import Vault

    proc, url, listening = _spawn_http(vault, env)
    token = (Path(env["XDG_CONFIG_HOME"]) / "memvault" / "mcp-token").read_text().strip()
    heard: list[float] = []

    async def on_message(message) -> None:
        if getattr(getattr(message, "params", None), "uri", None) == "memvault://stats":
            heard.append(time.perf_counter())

    def commit_elsewhere(i: int) -> float:  # in a worker thread: the loop hears meanwhile
        with Vault.open(vault) as other:  # another process than the server
            began = time.perf_counter()
            other.update("bench-000001", content=f"Bench edit {i} from elsewhere.")
            return began

    try:
        began = time.perf_counter()
        headers = {"Authorization": f"Bearer {token}"}
        async with httpx2.AsyncClient(headers=headers, timeout=60) as http, \
                streamable_http_client(url, http_client=http) as (read, write), \
                ClientSession(read, write, message_handler=on_message,
                              client_info=Implementation(name="bench", version="1")) as session:
            await session.initialize()
            session_ready = time.perf_counter() - began
            searches, saves = await _calls(session, args, random.Random(args.seed + 1))
            await session.send_request(SubscribeRequest(
                params=SubscribeRequestParams(uri="memvault://stats")), EmptyResult)
            notified = []
            for i in range(5):
                count = len(heard)
                committed = await anyio.to_thread.run_sync(commit_elsewhere, i)
                with anyio.fail_after(30):
                    while len(heard) == count:
                        await anyio.sleep(0.001)
                notified.append(heard[count] - committed)
    finally:
        proc.terminate()
        proc.wait(60)
    return {"listening": listening, "session": session_ready, "searches": searches,
            "saves": saves, "notified": notified}


async def over_stdio(vault: Path, env: dict[str, str], args) -> dict:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable, env=env, cwd=str(ROOT),
                                   args=["-m", "tui.cli", "mcp", "--vault", str(vault)])
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            searches, saves = await _calls(session, args, random.Random(args.seed + 1))
    return {"searches": searches, "saves": saves}


def watch_costs(vault: Path, rounds: int = 2000) -> tuple[float, float]:
    """(one look at the refs, the diff of a one-memory commit), in seconds."""
    from core import Vault
    from tui.mcp.notifications import VaultRefs

    refs = VaultRefs(vault)
    refs.look()
    began = time.perf_counter()
    for _ in range(rounds):
        refs.look()
    look = (time.perf_counter() - began) / rounds
    before = refs.look()
    with Vault.open(vault) as v:
        v.update(next(iter(v.memories)), content="One change to diff.")
    after = refs.look()
    began = time.perf_counter()
    changes = refs.changes(before.head, after.head)
    diff = time.perf_counter() - began
    assert len(changes.memories) == 1
    return look, diff


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        home.mkdir()
        (home / "gitconfig").write_text("")
        env = {**os.environ, "HOME": str(home), "GIT_CONFIG_GLOBAL": str(home / "gitconfig"),
               "GIT_CONFIG_NOSYSTEM": "1", "XDG_CONFIG_HOME": str(home / "config"),
               "MEMVAULT_MCP_WATCH_INTERVAL": "0.05", "MEMVAULT_MCP_USE_INTERVAL": "3600"}
        os.environ.update(env)
        small, vault = Path(tmp) / "small", Path(tmp) / "vault"
        build_vault(small, 100, args.seed)
        build_vault(vault, args.memories, args.seed)
        small_look, small_diff = watch_costs(small)
        look, diff = watch_costs(vault)
        http = anyio.run(over_http, vault, env, args)
        stdio = anyio.run(over_stdio, vault, env, args)
    size = f"{args.memories // 1000}k" if args.memories >= 1000 else str(args.memories)
    print(f"vault: {args.memories} memories")
    print(line("http: spawn->listening", [http["listening"]]))
    print(line("http: connect+initialize", [http["session"]]))
    for name in ("searches", "saves"):
        tool = "search_memory" if name == "searches" else "save_memory"
        print(line(f"{tool} {size} over http", http[name]))
        print(line(f"{tool} {size} over stdio", stdio[name]))
    print(f"watch: one look at the refs {look * 1e6:7.1f} us at {size}, "
          f"{small_look * 1e6:7.1f} us at 100 (every 0.5 s by default)")
    print(f"watch: diff of a one-memory commit {diff * 1000:6.1f} ms at {size}, "
          f"{small_diff * 1000:6.1f} ms at 100")
    print(line("update() elsewhere->notified", http["notified"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
