"""Near-duplicates at scale: today's pairwise pass against the derived near-duplicate index.

    python bench/duplicates.py [--sizes 10000,50000,100000] [--old-max 50000] [--seed 7]

Builds, at each size, a vault of notes whose words are drawn from a Zipf-like vocabulary (the
same few words in most notes, a long tail of rare ones), with 40 planted groups of paraphrases
(a base note and 2-4 rewordings: a word changed, a word added, a word dropped), written as
memvault writes them and committed with the git CLI (bench/scale.py). Then, in this process:

1. clusters at the default threshold: the pairwise pass (``find_clusters`` on the memories,
   prefix filtering; skipped above ``--old-max``, it takes minutes at 100k) and the indexed one
   (``find_clusters(vault)``, the index already built), with recall (planted pairs put in one
   cluster) and precision (pairs put in one cluster that were planted) and the planted groups
   found whole, for both; the ratio of the times at the largest size to the smallest;
2. the index built from nothing (the search rows and the near-duplicate rows, one sync);
3. at the largest size: the duplicate check after a save (``duplicates_of``, what MCP
   ``save_memory`` and ``memvault add`` do) against the save's own time (``vault.add``), the
   app's ``n`` check (``indexed_duplicates``); ``memvault add`` as a process (wall time), and
   in fresh processes the save and the check after it, as ``memvault add`` runs them;
4. a cold open (a fresh process: import core, ``Vault.open``) of the vault with its index, this
   tree's code against today's (``--base``, default this branch's merge-base with main),
   alternating.

Nothing asserts; targets are printed beside the figures. The precision and recall of the
similarity itself on paraphrases against related-but-distinct pairs: bench/paraphrases.py.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from itertools import combinations
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(SOURCE))
sys.path.insert(0, str(SOURCE / "bench"))

from core import Memory, Vault  # noqa: E402
from core.model.records import MemoryMetadata  # noqa: E402
from core.ops.consolidate import find_clusters  # noqa: E402
from core.ops.duplicates import duplicates_of, indexed_duplicates  # noqa: E402
from core.ops.near_duplicates import forget, synced_index  # noqa: E402
from core.store.layout import Layout  # noqa: E402
import scale  # noqa: E402

GROUPS = 40
VOCABULARY = 30_000


def vocabulary(rng: random.Random) -> tuple[list[str], list[float]]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    words: list[str] = []
    seen: set[str] = set()
    while len(words) < VOCABULARY:
        w = "".join(rng.choice(letters) for _ in range(rng.randint(3, 9)))
        if w not in seen:
            seen.add(w)
            words.append(w)
    weights = [1.0 / (rank + 1) ** 1.07 for rank in range(VOCABULARY)]
    return words, weights


def note(rng: random.Random, words: list[str], cum: list[float], length: int) -> list[str]:
    return rng.choices(words, cum_weights=cum, k=length)


def paraphrase(rng: random.Random, base: list[str], words: list[str], cum: list[float]
               ) -> list[str]:
    """The base reworded: 1 to 4 words changed, added or dropped (at 3 or 4 a pair may fall
    below the clusters' threshold, as real rewordings do)."""
    out = list(base)
    for _ in range(rng.choice((1, 1, 2, 2, 3, 4))):
        kind = rng.choice(("change", "change", "add", "drop"))
        if kind == "change":
            out[rng.randrange(len(out))] = note(rng, words, cum, 1)[0]
        elif kind == "add":
            out.insert(rng.randrange(len(out) + 1), note(rng, words, cum, 1)[0])
        else:
            del out[rng.randrange(len(out))]
    return out


def dataset(n: int, seed: int) -> tuple[list[Memory], list[list[str]]]:
    rng = random.Random(seed)
    words, weights = vocabulary(rng)
    cum, total = [], 0.0
    for w in weights:
        total += w
        cum.append(total)
    now = int(time.time())
    memories: list[Memory] = []
    groups: list[list[str]] = []

    def make(text: str) -> Memory:
        m = Memory(id=f"{rng.getrandbits(128):032x}", content=text, meta=MemoryMetadata(),
                   created_at=now - rng.randint(0, 90 * 86400))
        m.last_used = m.created_at
        memories.append(m)
        return m

    for _ in range(GROUPS):
        base = note(rng, words, cum, rng.randint(25, 45))
        members = [make(" ".join(base))]
        for _ in range(rng.randint(2, 4)):
            members.append(make(" ".join(paraphrase(rng, base, words, cum))))
        groups.append([m.id for m in members])
    while len(memories) < n:
        make(" ".join(note(rng, words, cum, rng.randint(12, 45))))
    return memories, groups


def quality(clusters: list, groups: list[list[str]]) -> tuple[float, float, int]:
    """Recall and precision over pairs, and the planted groups found whole (every member in
    one cluster)."""
    where = {m.id: c.id for c in clusters for m in c.members}
    planted = {frozenset(p) for g in groups for p in combinations(g, 2)}
    found = {frozenset(p) for c in clusters for p in combinations([m.id for m in c.members], 2)}
    recall = len(planted & found) / len(planted)
    precision = len(planted & found) / len(found) if found else 1.0
    whole = sum(1 for g in groups if where.get(g[0]) is not None
                and all(where.get(i) == where[g[0]] for i in g))
    return recall, precision, whole


def built(vault: Vault) -> None:
    with synced_index(vault.root, vault.memories, vault=vault):
        pass


def timed(fn):  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


OPEN = ("import sys, time; sys.path.insert(0, sys.argv[1]); t0 = time.perf_counter(); "
        "from core import Vault; v = Vault.open(sys.argv[2]); "
        "print(time.perf_counter() - t0)")


def cold_open(python: str, source: Path, vault: Path) -> float:
    out = subprocess.run([python, "-c", OPEN, str(source), str(vault)], capture_output=True,
                         text=True, check=True, cwd=tempfile.gettempdir())
    return float(out.stdout.strip().splitlines()[-1])


ADD_THEN_CHECK = (
    "import sys, time; sys.path.insert(0, sys.argv[1]); from core import Vault; "
    "from core.ops.duplicates import duplicates_of; v = Vault.open(sys.argv[2]); "
    "t0 = time.perf_counter(); m = v.add(sys.argv[3]); t1 = time.perf_counter(); "
    "found = duplicates_of(v, m.id); t2 = time.perf_counter(); "
    "print(t1 - t0, t2 - t1, len(found))")


def cli_add(vault: Path, text: str) -> tuple[float, str]:
    """``memvault add`` as a process: its wall time and the new id (stdout)."""
    t = time.perf_counter()
    out = subprocess.run([str(Path(sys.executable).with_name("memvault")), "--vault",
                          str(vault), "add", text], capture_output=True, text=True, check=True)
    return time.perf_counter() - t, out.stdout.strip()


def add_then_check(vault: Path, text: str) -> tuple[float, float, int]:
    """What ``memvault add`` does after opening, in a fresh process: the save (``vault.add``)
    and the duplicate check after it (``duplicates_of``), each timed, and how many it named."""
    out = subprocess.run([sys.executable, "-c", ADD_THEN_CHECK, str(SOURCE), str(vault), text],
                         capture_output=True, text=True, check=True, cwd=tempfile.gettempdir())
    save, check, found = out.stdout.strip().splitlines()[-1].split()
    return float(save), float(check), int(found)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10000,50000,100000")
    parser.add_argument("--old-max", type=int, default=50_000,
                        help="largest size the pairwise pass is timed at (it is quadratic)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--base", default=None,
                        help="today's source tree for the cold open (default: this branch's "
                             "merge-base with main, extracted with git archive)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--clusters-repeat", type=int, default=3,
                        help="indexed clusters are timed this many times, the least kept")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; python "
          f"{sys.version.split()[0]}")
    work = Path(tempfile.mkdtemp(prefix="memvault-dupes-bench-"))
    times: dict[int, tuple[float | None, float]] = {}
    try:
        for n in sizes:
            memories, groups = dataset(n, args.seed)
            root = work / f"v{n}"
            layout = Layout(root)
            scale.build_vault_fast(root, layout, memories, [], layout.new_meta())
            vault = Vault.open(root)
            build, _ = timed(lambda: built(vault))
            runs = [timed(lambda: find_clusters(vault)) for _ in range(args.clusters_repeat)]
            new_t, new = min(runs, key=lambda r: r[0])  # (the machine is shared: the least)
            r, p, w = quality(new, groups)
            old_t = None
            line_old = "skipped (--old-max)"
            if n <= args.old_max:
                old_t, old = timed(lambda: find_clusters(None, memories=list(
                    vault.memories.values())))
                ro, po, wo = quality(old, groups)
                line_old = (f"{old_t:7.2f} s  recall {ro:.3f} precision {po:.3f} "
                            f"groups whole {wo}/{GROUPS}")
            times[n] = (old_t, new_t)
            print(f"\n== {n:,} memories ==")
            print(f"index built from nothing (search + near-duplicate rows): {build:.2f} s")
            print(f"clusters, pairwise (today): {line_old}")
            print(f"clusters, indexed (least of {len(runs)}): {new_t:5.2f} s  recall {r:.3f} precision {p:.3f} "
                  f"groups whole {w}/{GROUPS}   (target: 100k < 10 s, whole >= today's)")
            if n == sizes[-1]:
                check_overheads(vault, memories, groups, args.repeat)
                opens(root, Path(args.base) if args.base else base_tree(work), args.repeat)
            forget(vault.root)
            shutil.rmtree(root)
        lo, hi = sizes[0], sizes[-1]
        mid = 50_000 if 50_000 in times else hi
        print(f"\nratio indexed clusters {mid:,}/{lo:,}: {times[mid][1] / times[lo][1]:.1f}x "
              f"for {mid / lo:.0f}x the memories (target <= 8)")
        if times[mid][0] and times[lo][0]:
            print(f"ratio pairwise clusters {mid:,}/{lo:,}: "
                  f"{times[mid][0] / times[lo][0]:.1f}x")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def check_overheads(vault: Vault, memories: list[Memory], groups: list[list[str]],
                    repeat: int) -> None:
    n = len(vault.memories)
    by_id = {m.id: m for m in memories}
    saves, checks, probes = [], [], []
    for k in range(repeat):
        base = by_id[groups[k][0]].content.split()
        base[len(base) // 2] = f"changed{k}"
        text = " ".join(base)
        t, m = timed(lambda: vault.add(text))
        saves.append(t)
        t, found = timed(lambda: duplicates_of(vault, m.id))
        checks.append(t)
        assert found, "a paraphrase of a planted note must find its group"
        t, _ = timed(lambda: indexed_duplicates(vault.root, vault.memories, text + " more"))
        probes.append(t)
    save, check = statistics.median(saves), statistics.median(checks)
    print(f"save (vault.add, in process) median {save * 1000:.1f} ms; duplicate check after it "
          f"median {check * 1000:.1f} ms = {check / save:.0%} of the save (target <= 20%)")
    print(f"app's n check (indexed_duplicates on the vault's memories) median "
          f"{statistics.median(probes) * 1000:.1f} ms at {n:,} (target < 100 ms)")
    app_n(vault, by_id, groups, repeat)
    wall, _ = cli_add(vault.root, by_id[groups[repeat][0]].content + " again")
    fresh = []
    for k in range(repeat):
        base = by_id[groups[repeat + 1 + k][0]].content.split()
        base[len(base) // 3] = f"fresh{k}"
        fresh.append(add_then_check(vault.root, " ".join(base)))
    save = statistics.median(f[0] for f in fresh)
    check = statistics.median(f[1] for f in fresh)
    print(f"memvault add (a process, the check included) {wall:.2f} s wall")
    print(f"in a fresh process as memvault add runs it ({repeat} runs): save median "
          f"{save * 1000:.0f} ms, duplicate check after it median {check * 1000:.0f} ms = "
          f"{check / save:.0%} of the save (target <= 20%); named "
          f"{min(f[2] for f in fresh)}-{max(f[2] for f in fresh)} likely duplicates")


def app_n(vault: Vault, by_id: dict[str, Memory], groups: list[list[str]], repeat: int) -> None:
    """The app's ``n`` as the app runs it (tui/app/service_edit.py): a copy of the vault's
    memories taken each time, then the check; with nothing changed since the last check, and
    right after an add."""

    def n_check(text: str) -> float:
        t = time.perf_counter()
        indexed_duplicates(vault.root, dict(vault.memories.items()), text)
        return time.perf_counter() - t

    texts = [by_id[groups[k][0]].content + " more" for k in range(repeat)]
    n_check(texts[0])  # (the first after the in-process checks above compares every memory)
    steady = [n_check(t) for t in texts]
    after = []
    for k, text in enumerate(texts):
        vault.add(text + f" added{k}")
        after.append(n_check(text))
    print(f"app's n as the app runs it (a copy of the memories, then the check): median "
          f"{statistics.median(steady) * 1000:.0f} ms with nothing changed, "
          f"{statistics.median(after) * 1000:.0f} ms right after an add (target < 100 ms)")


def base_tree(work: Path) -> Path:
    """Today's code: the merge-base of this branch and main, extracted."""
    base = subprocess.run(["git", "merge-base", "HEAD", "main"], cwd=SOURCE, capture_output=True,
                          text=True, check=True).stdout.strip()
    out = work / f"base-{base[:8]}"
    out.mkdir()
    archive = subprocess.run(["git", "archive", base, "core"], cwd=SOURCE, capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive, check=True)
    return out


def opens(root: Path, main: Path, repeat: int) -> None:
    if not (main / "core").is_dir():
        print(f"cold open: no source tree at {main} to compare with")
        return
    ours, theirs = [], []
    for _ in range(repeat):
        ours.append(cold_open(sys.executable, SOURCE, root))
        theirs.append(cold_open(sys.executable, main, root))
    print(f"cold open (fresh process, index present): this tree median "
          f"{statistics.median(ours):.2f} s, {main} median {statistics.median(theirs):.2f} s")


if __name__ == "__main__":
    raise SystemExit(main())
