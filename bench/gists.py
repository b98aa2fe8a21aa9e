"""How many short notes get a moderate gist, and how much it cuts: on a fixed corpus, one command.

    python bench/gists.py            # the figures, on tests/fixtures/gist-corpus (~1 minute)
    python bench/gists.py --freeze   # rebuild that corpus from this machine (changes the figures)

The corpus, ``tests/fixtures/gist-corpus/paragraph_notes.jsonl``, is the "paragraph notes" of
``bench/gist.py`` frozen once (so the figures and the regression test in
``tests/core/gist/test_gist_corpus.py`` do not depend on the machine): every paragraph of over
30 and at most 300 words of the long descriptions of the Debian packages installed here
(``/var/lib/dpkg/status``) and of Python's documentation topics (``pydoc_data``), 1,194 notes,
841 of them 31-60 words, in the order ``bench/gist.py`` produces them (repeats included).

Printed, for moderate and for the notes over 30 words and the 31-60-word ones: the share that
gets a gist, the mean and median cut (1 - gist tokens / content tokens), the names kept (mean
per note of the capitalised words, acronyms and numbers of the content found verbatim in the
gist), and the numbers and negations a gist dropped from a sentence it kept (must be 0), each
for four configurations: as shipped (clause cutter on, token-reducer step off); without the
clause cutter (the pipeline before it); and both again with the token-reducer step switched on
(``tokenizer="character"``; its default tokenizer downloads a file).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from core.gist import generate_gist  # noqa: E402
from core.model.tokens import estimate_tokens  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "tests"))

from gist_corpus_support import CORPUS, dropped_facts, load_corpus, names_kept  # noqa: E402


def freeze(path: str = CORPUS) -> int:
    """Write the paragraph notes of bench/gist.py's sources on this machine to ``path``."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import gist as gist_bench  # bench/gist.py

    _, deb = gist_bench.debian_descriptions()
    py = gist_bench.python_topics()
    rows = [("debian", n) for n in gist_bench.paragraph_notes(deb)]
    rows += [("pydoc", n) for n in gist_bench.paragraph_notes(py)]
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        for source, text in rows:
            fh.write(json.dumps({"source": source, "text": text}, ensure_ascii=False) + "\n")
    os.replace(tmp, path)
    return len(rows)


def measure(notes: list[str], make: Callable[[str], str | None]) -> dict[str, dict[str, float]]:
    gists = [make(n) for n in notes]
    out: dict[str, dict[str, float]] = {}
    for band, (lo, hi) in (("over 30 words", (31, 10**9)), ("31-60 words", (31, 60))):
        idx = [i for i, n in enumerate(notes) if lo <= len(n.split()) <= hi]
        got = [i for i in idx if gists[i] is not None]
        cuts = [1 - estimate_tokens(gists[i]) / estimate_tokens(notes[i]) for i in got]
        kept = [k for i in got if (k := names_kept(gists[i], notes[i])) is not None]
        dropped = sum(len(dropped_facts(gists[i], notes[i])) for i in got)
        out[band] = {
            "notes": len(idx),
            "gisted": len(got),
            "share": len(got) / len(idx) if idx else 0.0,
            "mean_cut": statistics.fmean(cuts) if cuts else 0.0,
            "median_cut": statistics.median(cuts) if cuts else 0.0,
            "names_kept": statistics.fmean(kept) if kept else 0.0,
            "dropped": dropped,
        }
    out["gists"] = gists  # type: ignore[assignment]
    return out


def table_row(label: str, run: dict[str, dict[str, float]]) -> str:
    """One row of the figures table of docs/gists.md: the share with a gist, the mean cut and the
    names kept, each for the notes over 30 words / the 31-60-word ones, and the numbers and
    negations dropped."""
    over, short = run["over 30 words"], run["31-60 words"]
    dropped = int(over["dropped"])
    return (f"| {label} | {100 * over['share']:.1f}% ({int(over['gisted'])}) "
            f"| {100 * short['share']:.1f}% ({int(short['gisted'])}) "
            f"| {100 * over['mean_cut']:.1f}% / {100 * short['mean_cut']:.1f}% "
            f"| {100 * over['names_kept']:.1f}% / {100 * short['names_kept']:.1f}% "
            f"| {dropped} |")


#: The rows of docs/gists.md's table this script measures: (label, clause cutter on).
DOC_ROWS = (("as shipped", True), ("as shipped, clause cutter off", False))


def doc_rows(notes: list[str]) -> list[str]:
    """The rows :data:`DOC_ROWS` of docs/gists.md's table, measured now (token-reducer off)."""
    import core.gist.clause_cutter as cutter

    rows = []
    for label, cut_on in DOC_ROWS:
        saved = cutter.ENABLED
        cutter.ENABLED = cut_on
        try:
            rows.append(table_row(label, measure(notes, lambda n: generate_gist(n, "moderate"))))
        finally:
            cutter.ENABLED = saved
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--freeze", action="store_true", help="rebuild the corpus from this machine")
    ap.add_argument("--corpus", default=CORPUS)
    args = ap.parse_args()
    if args.freeze:
        print(f"wrote {freeze(args.corpus)} notes to {args.corpus}")
        return 0

    import core.gist.clause_cutter as cutter
    import core.gist.token_reducer_step as tr_step

    notes = load_corpus(args.corpus)
    print(f"corpus: {args.corpus} ({len(notes)} notes), level moderate")
    runs: dict[str, dict[str, dict[str, float]]] = {}
    for label, cut_on, tr_on in (
        ("as shipped (clause cutter on, token-reducer off)", True, False),
        ("without the clause cutter", False, False),
        ("clause cutter on + token-reducer step", True, True),
        ("without the clause cutter + token-reducer step", False, True),
    ):
        saved = cutter.ENABLED, tr_step.ENABLED
        cutter.ENABLED, tr_step.ENABLED = cut_on, tr_on
        stats: dict[str, int] = {}
        t0 = time.perf_counter()
        try:
            runs[label] = measure(notes, lambda n: generate_gist(n, "moderate", _stats=stats))
        finally:
            cutter.ENABLED, tr_step.ENABLED = saved
        took = time.perf_counter() - t0
        print(f"\n{label}  ({took:.1f} s)")
        if tr_on:
            print(
                f"  token-reducer: offered {stats.get('tr_calls', 0)} sentences, edits accepted for "
                f"{stats.get('tr_accepted', 0)}, output rejected for {stats.get('tr_rejected', 0)}, "
                f"tokens saved {stats.get('tr_saved', 0)}"
            )
        for band in ("over 30 words", "31-60 words"):
            r = runs[label][band]
            print(
                f"  {band:<14} gist for {100 * r['share']:5.1f}% ({r['gisted']}/{r['notes']}), "
                f"mean cut {100 * r['mean_cut']:4.1f}%, median {100 * r['median_cut']:4.1f}%, "
                f"names kept {100 * r['names_kept']:4.1f}%, numbers/negations dropped {r['dropped']}"
            )
    base = runs["as shipped (clause cutter on, token-reducer off)"]["gists"]
    for label in ("clause cutter on + token-reducer step", "without the clause cutter"):
        other = runs[label]["gists"]
        same = sum(a == b for a, b in zip(base, other))  # type: ignore[arg-type]
        print(f"\nidentical gists, as shipped vs {label}: {same}/{len(notes)}")
    print("\ndocs/gists.md, its rows of the figures table:")
    for (label, _), key in zip(DOC_ROWS, ("as shipped (clause cutter on, token-reducer off)",
                                          "without the clause cutter")):
        print(table_row(label, runs[key]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
