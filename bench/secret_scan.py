"""Secrets: ``memvault scan`` over a 10k-memory vault's whole history, what the check costs a
save, and ``memvault purge`` of one memory from that history.

    python bench/secret_scan.py                       # ~1-2 minutes
    python bench/secret_scan.py --memories 10000 --updates 5000 --secrets 20 --json secrets.json

The history is made with ``git fast-import`` (deterministic: ``random.Random(seed)``): one commit
per memory added (20-60 word contents from a small vocabulary, 1-3 tags, written as memvault
writes them), then ``--updates`` commits each rewriting one memory's content, ``--secrets`` of
them planting a fake AWS key in an old version that a later update removes again. Figures:

1. **scan**: ``scan_history`` (each distinct blob read and scanned once), wall time, commits,
   blobs and findings (expected: the planted secrets, each found in its version);
2. **per save**: the check alone as ``_commit`` runs it for one new 40-word memory
   (``screen``, p50/p95); the scanner alone on one memory's record (``scan_record``), mean
   over the vault's memories; and whole ``Vault.add`` calls, p50/p95, with the check
   (``refuse``) and without it (``allow``), for scale (a commit costs far more than the check);
3. **purge**: one memory with a planted secret purged from that history (``plan_purge`` +
   ``purge``: git-filter-repo, reflog expiry, gc).

Nothing here asserts; the bench only reports.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
# the source tree, and not bench/: this file would shadow the standard library's ``secrets``
# (and a bench script named like a package would shadow it: tests/test_bench_names.py)
sys.path[:] = [str(HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != HERE]

from core import Memory, MemoryMetadata, Vault  # noqa: E402
from core.secrets.history import scan_history  # noqa: E402
from core.secrets.purge import plan_purge, purge  # noqa: E402
from core.secrets.scanner import scan_record  # noqa: E402
from core.store.layout import Layout  # noqa: E402

WORDS = ("deploy pipeline cache python pytest docker kubernetes postgres index query latency "
         "backup replica token budget gist memory review schedule standup release branch merge "
         "rebase lint format typing async thread lock commit history restore archive vault "
         "config secret rotate certificate monitor alert dashboard metric trace span log").split()
TAGS = ("ops", "python", "db", "ci", "team", "security", "infra")
SECRET = "AKIAIOSFODNN7EXAMPLE"


def text(rng: random.Random, n: int | None = None) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n or rng.randint(20, 60))).capitalize() + "."


def build_history(root: Path, memories: int, updates: int, secrets: int, seed: int
                  ) -> list[str]:
    """The vault's history through one ``git fast-import``; returns the ids given a secret."""
    rng = random.Random(seed)
    root.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    layout = Layout(root)
    ids: list[str] = []
    records: dict[str, Memory] = {}
    stream: list[bytes] = []
    when = 1_700_000_000

    def commit(message: str, path: str, data: bytes) -> None:
        nonlocal when
        when += 60
        msg = message.encode()
        stream.append(b"commit refs/heads/main\n")
        stream.append(b"committer bench <bench@example.com> %d +0000\n" % when)
        stream.append(b"data %d\n%s\n" % (len(msg), msg))
        stream.append(b"M 100644 inline %s\ndata %d\n%s\n" % (path.encode(), len(data), data))

    meta = json.dumps(layout.new_meta(), indent=2).encode() + b"\n"
    commit("init: create memvault vault", ".meta.json", meta)
    for i in range(memories):
        m = Memory(id=str(uuid.UUID(int=rng.getrandbits(128), version=4)), content=text(rng),
                   meta=MemoryMetadata(tags=rng.sample(TAGS, rng.randint(1, 3))),
                   created_at=when, last_used=when)
        ids.append(m.id)
        records[m.id] = m
        commit(f"add: {m.id[:8]} {m.content[:40]}", f"memories/{m.id}.json", layout.encode(m))
    planted = rng.sample(ids, min(secrets, len(ids)))
    plan = [(mid, True) for mid in planted] + [(mid, False) for mid in planted]
    plan += [(rng.choice(ids), False) for _ in range(max(0, updates - len(plan)))]
    for mid, with_secret in plan:
        content = text(rng) + (f" The key is {SECRET} for now." if with_secret else "")
        m = records[mid].model_copy(update={"content": content})
        records[mid] = m
        commit(f"update: {mid[:8]} (fields: content)", f"memories/{mid}.json", layout.encode(m))
    subprocess.run(["git", "fast-import", "--quiet"], cwd=root, input=b"".join(stream),
                   check=True)
    subprocess.run(["git", "checkout", "-q", "-f", "main"], cwd=root, check=True)
    return planted


def per_save(root: Path, policy: str, saves: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    vault = Vault.open(root, secrets=policy)
    vault.add("warm up the scanner and the git process")
    times = []
    for _ in range(saves):
        content = text(rng, 40)
        started = time.perf_counter()
        vault.add(content, tags=[rng.choice(TAGS)])
        times.append(time.perf_counter() - started)
    return times


def check_cost(root: Path, saves: int, seed: int) -> list[float]:
    """The check alone, as ``_commit`` runs it for a save of one new 40-word memory."""
    from core.secrets.policy import policy_in_force
    from core.secrets.write_check import check_commit

    rng = random.Random(seed)
    vault = Vault.open(root, readonly=True)
    times = []
    for _ in range(saves):
        m = Memory(id=str(uuid.UUID(int=rng.getrandbits(128), version=4)),
                   content=text(rng, 40), meta=MemoryMetadata(tags=[rng.choice(TAGS)]))
        writes = {vault.layout.memory_path(m.id): vault.layout.encode(m)}
        started = time.perf_counter()
        check_commit(f"add: {m.id[:8]} {m.content[:40]}", writes, [m], [], layout=vault.layout,
                     store=vault.store, policy=policy_in_force(vault.secret_policy, vault.meta))
        times.append(time.perf_counter() - started)
    return times


def ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--updates", type=int, default=5_000)
    parser.add_argument("--secrets", type=int, default=20)
    parser.add_argument("--saves", type=int, default=100, help="timed saves per policy")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", dest="json_file", help="also write every figure here")
    parser.add_argument("--vault", type=Path, help="keep the history here (built when missing; "
                                                    "reused as it is otherwise)")
    args = parser.parse_args(argv)
    figures: dict[str, object] = {"memories": args.memories, "updates": args.updates}
    with tempfile.TemporaryDirectory(prefix="memvault-bench-secrets-") as tmp:
        root = args.vault or Path(tmp) / "vault"
        started = time.perf_counter()
        planted = (build_history(root, args.memories, args.updates, args.secrets, args.seed)
                   if not root.exists() else None)
        figures["build_s"] = round(time.perf_counter() - started, 2)
        vault = Vault.open(root, readonly=True)
        cpu = time.process_time()
        report = scan_history(vault)
        cpu = time.process_time() - cpu  # this process only: git's own CPU is not in it
        found = {f.record_id for f in report.findings if f.record_kind == "memory"}
        if planted is None:  # a history built before: its planted secrets are what scan finds
            planted = sorted(found)
        figures["scan"] = {"seconds": round(report.seconds, 2), "python_cpu_s": round(cpu, 2),
                           "commits": report.commits,
                           "blobs": report.blobs, "findings": len(report.findings),
                           "planted_found": len(found & set(planted)), "planted": len(planted)}
        print(f"scan: {report.seconds:.2f} s wall ({cpu:.2f} s CPU in Python) over "
              f"{report.commits:,} commits, "
              f"{report.blobs:,} distinct versions; {len(report.findings)} findings, "
              f"{len(found & set(planted))}/{len(planted)} planted memories found")
        records = [m.model_dump(mode="json") for m in vault.memories.values()]
        started = time.perf_counter()
        for record in records:
            scan_record(record)
        mean_us = (time.perf_counter() - started) / max(1, len(records)) * 1e6
        figures["scan_record_us"] = round(mean_us, 1)
        print(f"scanner alone: {mean_us:.0f} µs per memory record (mean of {len(records):,})")
        times = check_cost(root, max(args.saves, 200), args.seed)
        figures["check_per_save_ms"] = {"p50": ms(times, 0.5), "p95": ms(times, 0.95)}
        print(f"the check per save: p50 {ms(times, 0.5)} ms, p95 {ms(times, 0.95)} ms "
              "(check_commit() on a new 40-word memory)")
        for policy in ("allow", "refuse"):
            times = per_save(root, policy, args.saves, args.seed)
            figures[f"save_{policy}_ms"] = {"p50": ms(times, 0.5), "p95": ms(times, 0.95)}
            print(f"save ({policy:<6}): p50 {ms(times, 0.5)} ms, p95 {ms(times, 0.95)} ms "
                  f"({args.saves} adds on the 10k vault)")
        vault = Vault.open(root)
        started = time.perf_counter()
        result = purge(vault, plan_purge(vault, [planted[0]]))
        figures["purge_s"] = round(time.perf_counter() - started, 2)
        print(f"purge of 1 memory: {figures['purge_s']} s "
              f"({len(result.rewritten_refs)} ref rewritten, {result.plan.commits} commits "
              "wrote it)")
    if args.json_file:
        Path(args.json_file).write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
