"""``memvault mcp``'s start against the SDK's floor, over raw pipes:
``python bench/mcp_start.py [--rounds 15]``

Spawns ``memvault mcp`` (on a small vault) and an empty ``MCPServer`` of the same ``mcp`` 2.x
(the floor: the SDK's import and server, nothing of memvault's), one after the other, ``--rounds``
times, writes an ``initialize`` request on each one's stdin and reads its answer. For each start
it takes the wall time from the spawn to the answer and the CPU the server process used until
then (and the same at the answer to a ``tools/list`` sent at once after the handshake: memvault
registers its tools after it) (every thread's ``/proc/<pid>/task/*/schedstat``, in nanoseconds: far less sensitive to the
load of a shared machine than the wall time). memvault's own share is its figure minus the
floor's of the same round; the target (issue 44) is a share of at most 15% of the floor. The
load average is printed before and after. Nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from mcp_server import FLOOR_SERVER, percentile  # noqa: E402
from run import GIT_ENV  # noqa: E402

TARGET = 0.15
INITIALIZE = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {},
    "clientInfo": {"name": "bench", "version": "1"}}}) + "\n"
THEN_TOOLS = (json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n"
              + json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}) + "\n")


def cpu_seconds(pid: int) -> float:
    """CPU time every thread of ``pid`` has run so far."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            pass  # (a thread that ended meanwhile)
    return total / 1e9


def start(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, ...]:
    """(wall, CPU) seconds from spawning ``command`` to its initialize answer, then (wall, CPU)
    to its answer to a ``tools/list`` sent at once after the handshake."""
    began = time.perf_counter()
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=env, cwd=cwd)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(INITIALIZE.encode())
        proc.stdin.flush()
        answer = proc.stdout.readline()
        wall, cpu = time.perf_counter() - began, cpu_seconds(proc.pid)
        assert b'"serverInfo"' in answer, answer[:300]
        proc.stdin.write(THEN_TOOLS.encode())
        proc.stdin.flush()
        while b'"id":2' not in answer.replace(b" ", b""):  # (notifications may come first)
            answer = proc.stdout.readline()
            assert answer, "no answer to tools/list"
        tools_wall, tools_cpu = time.perf_counter() - began, cpu_seconds(proc.pid)
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return wall, cpu, tools_wall, tools_cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--before", type=Path, default=None,
                        help="another checkout of memvault (git worktree add DIR REV), its "
                             "server measured beside this one's, same rounds")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp_name:
        tmp = Path(tmp_name)
        home = tmp / "home"
        home.mkdir()
        env = {**GIT_ENV, "HOME": str(home), "PATH": os.environ.get("PATH", "")}
        os.environ.update(env)
        from core import Vault

        with Vault.open(tmp / "vault") as vault:
            vault.add("The bench's one memory.")
        ours = [sys.executable, "-m", "tui.cli", "mcp", "--vault", str(tmp / "vault")]
        servers = {"memvault": (ours, ROOT), "floor": ([sys.executable, "-c", FLOOR_SERVER], tmp)}
        if args.before is not None:  # (python -m runs the checkout's code: its folder first)
            servers[f"memvault at {args.before}"] = (ours, args.before.resolve())
        samples: dict[str, list[tuple[float, ...]]] = {name: [] for name in servers}
        for _ in range(args.rounds):
            for name, (command, cwd) in servers.items():
                samples[name].append(start(command, env, cwd))
    load_after = os.getloadavg()
    print(f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after "
          f"({os.cpu_count()} CPUs); {args.rounds} rounds; spawn -> initialize answer")
    print(f"{'':<30} {'wall p50':>10} {'wall min':>10} {'CPU p50':>10} {'CPU min':>10}   "
          f"(then tools/list answered: wall p50, CPU p50)")
    for name, got in samples.items():
        walls, cpus = [g[0] for g in got], [g[1] for g in got]
        print(f"{name:<30} {percentile(walls, 50) * 1000:8.1f}ms {min(walls) * 1000:8.1f}ms "
              f"{percentile(cpus, 50) * 1000:8.1f}ms {min(cpus) * 1000:8.1f}ms   "
              f"{percentile([g[2] for g in got], 50) * 1000:8.1f}ms "
              f"{percentile([g[3] for g in got], 50) * 1000:8.1f}ms")
    for name in (n for n in samples if n != "floor"):
        for i, what in ((0, "wall"), (1, "CPU"), (2, "wall to tools/list"),
                        (3, "CPU to tools/list")):
            shares = [a[i] - b[i] for a, b in zip(samples[name], samples["floor"])]
            floor = percentile([b[i] for b in samples["floor"]], 50)
            share = percentile(shares, 50)
            verdict = "" if i > 1 else (": met" if share / floor <= TARGET else ": NOT met")
            print(f"{name}: own share ({what}), p50 {share * 1000:7.1f}ms = {share / floor:6.1%} "
                  f"of the floor" + (f" (target <= {TARGET:.0%}){verdict}" if i <= 1 else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
