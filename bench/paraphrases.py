"""Paraphrase duplicates against related-but-distinct pairs: precision and recall of the doors'
duplicate check and of the clusters, on a labelled set (bench/data/paraphrase_pairs.tsv: 64
pairs of own text, 32 rewordings of one memory, 32 pairs that differ by a value, a negation or
an object).

    python bench/paraphrases.py [--tree PATH] [--tune]

``--tree``: the source tree whose ``core`` is measured (default this one): run it once with a
worktree of main for the figures before. The pairs are cut in two halves (lines 1-2, 5-6... tuning;
3-4, 7-8... held out); the figures of both are printed, the held-out ones are the result.
``--tune``: sweep :data:`core.wording.SWAPPED_WEIGHT` and :data:`core.wording.ADDED_WEIGHT` on
the tuning half only (this tree's code). Nothing asserts.

For each pair, as the doors ask it: is the first memory named when the second is added
(``likely_duplicates`` at ``DUPLICATE_HINT``: ``memvault add``, MCP ``save_memory``, the app,
the inbox), and do the two link at the clusters' default threshold (``similarity`` >=
``DEFAULT_THRESHOLD``).
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PAIRS = HERE / "data" / "paraphrase_pairs.tsv"


def load() -> list[tuple[bool, str, str]]:
    """The labelled pairs, in file order."""
    rows = []
    for line in PAIRS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            label, first, second = line.split("\t")
            rows.append((label == "1", first, second))
    return rows


def scores(pairs, flagged) -> tuple[float, float, int, int, int]:
    """Precision, recall, true positives, false positives, false negatives."""
    tp = sum(1 for (dup, *_), f in zip(pairs, flagged) if dup and f)
    fp = sum(1 for (dup, *_), f in zip(pairs, flagged) if not dup and f)
    fn = sum(1 for (dup, *_), f in zip(pairs, flagged) if dup and not f)
    return (tp / (tp + fp) if tp + fp else 1.0), (tp / (tp + fn) if tp + fn else 1.0), tp, fp, fn


def measure(pairs):
    """(door flags, cluster flags) of each pair."""
    from core import Memory
    from core.ops.consolidate import DEFAULT_THRESHOLD
    from core.ops.duplicates import DUPLICATE_HINT, likely_duplicates
    from core.ops.similarity import similarity

    door, clusters = [], []
    for k, (_dup, first, second) in enumerate(pairs):
        a = Memory(id=f"a{k}", content=first)
        door.append(bool(likely_duplicates([a], second, threshold=DUPLICATE_HINT)))
        clusters.append(similarity(a, Memory(id=f"b{k}", content=second)) >= DEFAULT_THRESHOLD)
    return door, clusters


def report(name: str, pairs, show_misses: bool) -> None:
    """Print the precision and recall of both checks on ``pairs`` (and the pairs judged wrong)."""
    door, clusters = measure(pairs)
    for what, flags in (("add/save_memory/app/inbox check", door), ("clusters link", clusters)):
        p, r, tp, fp, fn = scores(pairs, flags)
        print(f"  {name:9} {what:32} precision {p:.3f}  recall {r:.3f}  "
              f"(tp {tp}, fp {fp}, fn {fn}, of {len(pairs)})")
        if show_misses:
            for (dup, a, b), f in zip(pairs, flags):
                if dup != f:
                    print(f"      {'missed' if dup else 'false'}: {a!r} / {b!r}")


def tune(pairs) -> None:
    """Print the best weights of a small grid on ``pairs`` (the tuning half)."""
    import core.wording as wording

    best = []
    for swapped, added in itertools.product((1.0, 1.5, 2.0, 2.5, 3.0), (0.1, 0.2, 0.25, 0.35, 0.5)):
        wording.SWAPPED_WEIGHT, wording.ADDED_WEIGHT = swapped, added
        door, clusters = measure(pairs)
        (p1, r1, *_), (p2, r2, *_) = scores(pairs, door), scores(pairs, clusters)
        f = 2 * p1 * r1 / (p1 + r1 or 1) + 2 * p2 * r2 / (p2 + r2 or 1)
        best.append((round(f, 4), swapped, added, p1, r1, p2, r2))
    for f, swapped, added, p1, r1, p2, r2 in sorted(best, reverse=True)[:8]:
        print(f"  swapped {swapped:.2f} added {added:.2f}: door P {p1:.3f} R {r1:.3f}, "
              f"clusters P {p2:.3f} R {r2:.3f} (sum of F1 {f})")


def main() -> None:
    """Run the bench (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=HERE.parent)
    parser.add_argument("--tune", action="store_true")
    parser.add_argument("--misses", action="store_true", help="print the pairs judged wrong")
    args = parser.parse_args()
    sys.path.insert(0, str(args.tree.resolve()))
    pairs = load()
    # (the file holds a duplicate and a distinct pair in turn: a half takes every other two)
    tuning = [p for k, p in enumerate(pairs) if k // 2 % 2 == 0]
    held_out = [p for k, p in enumerate(pairs) if k // 2 % 2 == 1]
    print(f"core from {args.tree.resolve()}: {len(pairs)} pairs "
          f"({sum(d for d, *_ in pairs)} duplicates)")
    if args.tune:
        tune(tuning)
        return
    report("tuning", tuning, args.misses)
    report("held-out", held_out, args.misses)


if __name__ == "__main__":
    main()
