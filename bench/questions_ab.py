"""Questions, old code against new, on one kept vault: the same top 10 and the time each takes.

    python bench/questions_ab.py VAULT --old /tmp/old-tree [--new .] [--rounds 3]
                                 [--questions bench/search_questions.txt] [--now EPOCH]
                                 [--old-vault COPY]  # (a copy for the old side: schema changed)

Each round runs one process of each source tree in turn (old, new, old, new, ...; imported
through ``PYTHONPATH``, the same Python), both on the same vault (``bench/run.py --keep``), at
the same clock (``--now``, default the moment this script starts, so decay is equal on both
sides). A process asks every question of ``--questions`` and, after each, the two-word query
of its words (as ``bench/scale.py`` makes it), top 10 without snippets, through
``core.search.Searcher(vault, mode="bm25")``, and records each one's wall time, CPU time
(``time.process_time``) and top 10 (id, score, relevance, bm25, bm25 rank).

It prints, per side, p50 / p95 of the questions and the two-word queries (every round's times
pooled, and each round's p95 ratio), CPU per question and per two-word query, the load before and after, and whether
the old and new tops are identical on every question and query (each difference listed; the
exit status is 1 when there is one). Nothing here is a unit test: it is the check the levels'
rewrite is held to, on real vaults of 6k and 100k memories.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import scale  # noqa: E402  (bench/scale.py: the questions and their two-word queries)
from run import WORDS  # noqa: E402  (the memories' vocabulary)

ONE_SIDE = textwrap.dedent("""
    import json, sys, time
    from core import Vault
    from core.search import Searcher
    vault = Vault.open(sys.argv[1])
    pairs, now = json.loads(sys.argv[2]), int(sys.argv[3])
    searcher = Searcher(vault, mode="bm25")
    searcher.search(pairs[0][0], limit=10, snippets=False, now=now)  # fills new rows: not timed
    out = {"questions": [], "two_words": []}
    for question, two in pairs:
        for key, q in (("questions", question), ("two_words", two)):
            c, t = time.process_time(), time.perf_counter()
            result = searcher.search(q, limit=10, snippets=False, now=now)
            wall, cpu = time.perf_counter() - t, time.process_time() - c
            top = [(h.memory.id, h.score, h.relevance, h.bm25, h.bm25_rank) for h in result.hits]
            out[key].append({"wall": wall, "cpu": cpu, "top": top})
    print(json.dumps(out))
""")


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank)."""
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] if s else 0.0


def run_side(tree: Path, vault: Path, pairs: list[tuple[str, str]], now: int) -> dict:
    """One process of the source ``tree`` over every pair."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run([sys.executable, "-c", ONE_SIDE, str(vault), json.dumps(pairs),
                           str(now)], env=env, cwd=tree, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("vault", type=Path)
    parser.add_argument("--old", type=Path, required=True, help="the old source tree")
    parser.add_argument("--new", type=Path, default=HERE.parent, help="the new source tree")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--questions", type=Path, default=scale.QUESTIONS)
    parser.add_argument("--now", type=int, default=int(time.time()))
    parser.add_argument("--old-vault", type=Path, help="a copy of the vault for the old side, "
                        "when the index's schema changed (each side would otherwise rebuild it)")
    args = parser.parse_args()
    questions = scale.load_questions(args.questions)
    pairs = list(zip(questions, scale.two_word_queries(questions, set(WORDS))))
    sides = {"old": args.old.resolve(), "new": args.new.resolve()}
    vaults = {"old": args.old_vault or args.vault, "new": args.vault}
    load_before = os.getloadavg()
    runs: dict[str, list[dict]] = {k: [] for k in sides}
    for _ in range(args.rounds):
        for name, tree in sides.items():
            runs[name].append(run_side(tree, vaults[name], pairs, args.now))
    load_after = os.getloadavg()
    print(f"vault {args.vault}: {len(pairs)} questions, {args.rounds} rounds, now={args.now}")
    print(f"load before {load_before[0]:.1f} {load_before[1]:.1f}, "
          f"after {load_after[0]:.1f} {load_after[1]:.1f}")
    for name in sides:
        q = [r["wall"] * 1e3 for run in runs[name] for r in run["questions"]]
        two = [r["wall"] * 1e3 for run in runs[name] for r in run["two_words"]]
        cpu = [r["cpu"] * 1e3 for run in runs[name] for r in run["questions"]]
        cpu_two = [r["cpu"] * 1e3 for run in runs[name] for r in run["two_words"]]
        ratios = [pct([r["wall"] for r in run["questions"]], 0.95)
                  / pct([r["wall"] for r in run["two_words"]], 0.95) for run in runs[name]]
        print(f"{name}: questions p50 {pct(q, .5):.1f} ms p95 {pct(q, .95):.1f} ms | two words "
              f"p50 {pct(two, .5):.1f} ms p95 {pct(two, .95):.1f} ms | p95 ratio "
              f"{pct(q, .95) / pct(two, .95):.2f}x (rounds: "
              f"{', '.join(f'{r:.2f}' for r in ratios)}) | CPU a question p50 "
              f"{pct(cpu, .5):.1f} ms p95 {pct(cpu, .95):.1f} ms, a two-word query p50 "
              f"{pct(cpu_two, .5):.1f} ms p95 {pct(cpu_two, .95):.1f} ms (p95 ratio "
              f"{pct(cpu, .95) / pct(cpu_two, .95):.2f}x)")
    differ = 0
    for key in ("questions", "two_words"):
        for n, (question, _) in enumerate(pairs):
            tops = {json.dumps(run[key][n]["top"]) for name in sides for run in runs[name]}
            if len(tops) > 1:
                differ += 1
                print(f"DIFFERENT top ({key}) for {pairs[n][0 if key == 'questions' else 1]!r}")
    print("tops identical (ids, scores, relevance, bm25, bm25 rank) on every question and query"
          if not differ else f"{differ} tops differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
