"""Benchmark gist generation on real text nobody here wrote.

    python bench/gist.py [--samples N]

Corpus (offline, always on the machine):
  * the long descriptions of the installed Debian packages (``/var/lib/dpkg/status``; the apt
    ``*Packages*`` lists carry only one-line synopses on this machine, so they are used only if
    they have long descriptions), and
  * Python's own documentation topics (``pydoc_data.topics.topics``, in the stdlib).
Both are cut into memory-sized notes: consecutive paragraphs (code examples stay with their
paragraph) merged into notes of 40-300 words.

Figures, each with its target and MET/MISSED:
  * share of notes over 30 words that get a gist at moderate (>= 90%);
  * median token reduction per level (light 5-15%, moderate 20-40%, aggressive 50-75%),
    over the notes that got a gist, with the share that lands inside the band;
  * corruption: numbers/paths/identifiers in a gist that do not appear verbatim in the content
    (checked here with its own regexes, independent of core.gist; target 0);
  * retention of the content's named entities and numbers at moderate (>= 80%);
  * ms per memory at moderate (< 5 ms) and a 10k-memory backfill (< 60 s);
  * what the token-reducer step (off by default) contributes when switched on: its
    accepted/rejected sentences, tokens it saved, time, and whether any gist changes;
  * side by side, with and without the token-reducer step (``core.gist.token_reducer_step``),
    on the notes above and on *paragraph notes* (every paragraph of the same sources over 30
    words taken as a note of its own: where short notes come from): the share of notes over
    30 words that get a moderate gist, the median cut, the names kept (capitalised words,
    acronyms, identifiers and numbers of the content found verbatim in the gist), and the same
    for the 31-60-word band alone.
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from core.gist import BANDS, LEVELS, generate_gist  # noqa: E402
from core.model.tokens import estimate_tokens  # noqa: E402

MIN_NOTE_WORDS = 40
MAX_NOTE_WORDS = 300


# ---------------------------------------------------------------------------------------------
# corpus
# ---------------------------------------------------------------------------------------------


def _deb822_descriptions(text: str) -> list[str]:
    """Long descriptions (without the synopsis line) from a deb822 package list."""
    out: list[str] = []
    cur: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("Description:") or line.startswith("Description-en:"):
            cur = []
            continue
        if cur is not None:
            if line.startswith(" "):
                body = line[1:]
                cur.append("" if body.strip() == "." else body)
                continue
            if cur:
                out.append("\n".join(cur).strip("\n"))
            cur = None
    if cur:
        out.append("\n".join(cur).strip("\n"))
    return [d for d in out if d.strip()]


def debian_descriptions() -> tuple[str, list[str]]:
    for path in sorted(glob.glob("/var/lib/apt/lists/*Packages*")):
        try:
            if path.endswith(".lz4"):
                raw = subprocess.run(
                    ["lz4cat", path], capture_output=True, check=True, timeout=60
                ).stdout.decode("utf-8", "replace")
            elif path.endswith((".gz", ".xz", ".bz2", ".zst")):
                continue
            else:
                with open(path, encoding="utf-8", errors="replace") as fh:
                    raw = fh.read()
        except (OSError, subprocess.SubprocessError):
            continue
        descs = _deb822_descriptions(raw)
        if sum(len(d.split()) >= MIN_NOTE_WORDS for d in descs) >= 100:
            return path, descs
    try:
        with open("/var/lib/dpkg/status", encoding="utf-8", errors="replace") as fh:
            return "/var/lib/dpkg/status", _deb822_descriptions(fh.read())
    except OSError:
        return "(none)", []


def python_topics() -> list[str]:
    try:
        from pydoc_data.topics import topics
    except ImportError:
        return []
    out = []
    for key in sorted(topics):
        text = topics[key]
        # drop reST-style headings: a line followed by a line of *** / === / ---
        lines = text.splitlines()
        kept: list[str] = []
        i = 0
        while i < len(lines):
            if i + 1 < len(lines) and re.fullmatch(r"([*=\-~^])\1{2,}", lines[i + 1].strip()):
                i += 2
                continue
            kept.append(lines[i])
            i += 1
        out.append("\n".join(kept))
    return out


def _paragraphs(doc: str) -> list[str]:
    """Paragraphs; an indented block (code example) is glued to the paragraph before it."""
    paras: list[str] = []
    for block in re.split(r"\n[ \t]*\n", doc):
        if not block.strip():
            continue
        indented = all(not ln.strip() or ln[:1] in " \t" for ln in block.splitlines())
        if indented and paras and not block.lstrip().startswith(("-", "*", "+")):
            paras[-1] = paras[-1] + "\n\n" + block
        else:
            paras.append(block)
    return paras


def cut_notes(docs: list[str]) -> list[str]:
    notes: list[str] = []
    for doc in docs:
        cur: list[str] = []
        words = 0
        for para in _paragraphs(doc):
            w = len(para.split())
            if cur and words + w > MAX_NOTE_WORDS:
                if words >= MIN_NOTE_WORDS:
                    notes.append("\n\n".join(cur))
                cur, words = [], 0
            cur.append(para)
            words += w
            if words >= MIN_NOTE_WORDS * 2:  # a comfortable note; start the next one
                if words <= MAX_NOTE_WORDS:
                    notes.append("\n\n".join(cur))
                cur, words = [], 0
        if cur and MIN_NOTE_WORDS <= words <= MAX_NOTE_WORDS:
            notes.append("\n\n".join(cur))
    return notes


def paragraph_notes(docs: list[str]) -> list[str]:
    """Every paragraph over 30 words (and at most MAX_NOTE_WORDS) as a note of its own."""
    return [p for doc in docs for p in _paragraphs(doc) if 30 < len(p.split()) <= MAX_NOTE_WORDS]


# ---------------------------------------------------------------------------------------------
# independent checks (deliberately not using core.gist's own extractors)
# ---------------------------------------------------------------------------------------------

_STRIP = "\"'“”‘’«»()[]{}<>,;:!?.…*`"
_ATOM_SHAPE = re.compile(r"\d|[/_\\]|\w\.\w|^-{1,2}[A-Za-z]|[a-z][A-Z]")


def atoms(text: str) -> set[str]:
    """Whitespace tokens (surrounding punctuation stripped) shaped like a number, path,
    identifier, flag, dotted name or camelCase word."""
    out = set()
    for tok in text.split():
        a = tok.strip(_STRIP)
        if a and _ATOM_SHAPE.search(a):
            out.add(a)
    return out


def appears_verbatim(atom: str, content: str) -> bool:
    return re.search(r"(?<![\w])" + re.escape(atom) + r"(?!\w)", content) is not None


def corrupted_atoms(gist: str, content: str) -> list[str]:
    return sorted(a for a in atoms(gist) if not appears_verbatim(a, content))


_ENT = re.compile(r"(?<![.!?:\n]\s)(?<=\s)[A-Z][\w'-]*|\b[A-Z]{2,}\b|\b\d+(?:[.,]\d+)*\b")


def entities_and_numbers(text: str) -> set[str]:
    """Capitalised words not at a sentence/line start, acronyms and numbers."""
    out = set()
    for m in _ENT.finditer(text):
        w = m.group()
        if w in ("I", "A"):
            continue
        out.add(w)
    return out


def names(text: str) -> set[str]:
    """What a gist must keep verbatim: capitalised words, acronyms, numbers and identifiers."""
    return entities_and_numbers(text) | atoms(text)


def with_and_without_token_reducer(corpora: list[tuple[str, list[str]]]) -> list[str]:
    """Lines of a table: per corpus and word band, share gisted, median cut and names kept at
    moderate, with the token-reducer step on and off (one run, same notes)."""
    import core.gist.token_reducer_step as tr_step

    def run(notes: list[str], enabled: bool) -> list[str | None]:
        saved = tr_step.ENABLED
        tr_step.ENABLED = enabled
        try:
            return [generate_gist(n, "moderate") for n in notes]
        finally:
            tr_step.ENABLED = saved

    def figures(notes: list[str], gists: list[str | None]) -> str:
        if not notes:
            return "(no notes)"
        got = [(n, g) for n, g in zip(notes, gists) if g is not None]
        cuts = [1 - estimate_tokens(g) / estimate_tokens(n) for n, g in got]
        kept = [
            sum(1 for a in ns if appears_verbatim(a, g)) / len(ns)
            for n, g in got
            if (ns := names(n))
        ]
        return (
            f"{pct(len(got) / len(notes)):>6} gisted ({len(got)}/{len(notes)}), "
            f"median cut {pct(statistics.median(cuts)) if cuts else '-':>6}, "
            f"names kept {pct(statistics.fmean(kept)) if kept else '-':>6}"
        )

    out = ["with and without the token-reducer step (moderate; names: capitalised words, "
           "acronyms, identifiers, numbers kept verbatim, mean per note):"]
    for label, notes in corpora:
        notes = [n for n in notes if len(n.split()) > 30]
        on, off = run(notes, True), run(notes, False)
        same = sum(a == b for a, b in zip(on, off))
        for band, (lo, hi) in (("over 30 words", (31, 10**9)), ("31-60 words", (31, 60))):
            idx = [i for i, n in enumerate(notes) if lo <= len(n.split()) <= hi]
            sub = [notes[i] for i in idx]
            out.append(f"  {label}, {band}:")
            out.append(f"    with    {figures(sub, [on[i] for i in idx])}")
            out.append(f"    without {figures(sub, [off[i] for i in idx])}")
        out.append(f"  {label}: identical gists with and without {same}/{len(notes)}")
    return out


# ---------------------------------------------------------------------------------------------
# run
# ---------------------------------------------------------------------------------------------


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def verdict(ok: bool) -> str:
    return "MET" if ok else "MISSED"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=3, help="sample gists to print (moderate)")
    args = ap.parse_args()

    deb_src, deb_docs = debian_descriptions()
    py_docs = python_topics()
    deb_notes = cut_notes(deb_docs)
    py_notes = cut_notes(py_docs)
    notes = deb_notes + py_notes
    if not notes:
        print("no corpus found")
        return 1
    content_tokens = [estimate_tokens(n) for n in notes]
    print("Gist benchmark (token counts: core.model.tokens.estimate_tokens, approximate)")
    print(f"corpus: {len(deb_notes)} notes from Debian descriptions ({deb_src}),")
    print(f"        {len(py_notes)} notes from Python documentation topics (pydoc_data)")
    print(
        f"notes: {len(notes)}; words {min(len(n.split()) for n in notes)}-"
        f"{max(len(n.split()) for n in notes)} (median {statistics.median(len(n.split()) for n in notes):.0f}); "
        f"tokens median {statistics.median(content_tokens):.0f}"
    )
    print()

    # warm-up (imports, regex compilation)
    for n in notes[:20]:
        generate_gist(n)

    results: dict[str, list[str | None]] = {}
    for level in LEVELS:
        results[level] = [generate_gist(n, level) for n in notes]

    def per_memory_ms() -> float:
        """Fastest of 3 timed passes over the corpus at moderate (other processes on a shared
        machine only ever add time), in ms per memory."""
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            for n in notes:
                generate_gist(n)
            best = min(best, time.perf_counter() - t0)
        return 1000 * best / len(notes)

    lines: list[tuple[str, str, str, bool]] = []  # figure, value, target, ok
    whitespace_only: dict[str, float] = {}

    over30 = [i for i, n in enumerate(notes) if len(n.split()) > 30]
    gisted = [i for i in over30 if results["moderate"][i] is not None]
    share = len(gisted) / len(over30) if over30 else 0.0
    lines.append(("notes over 30 words with a gist (moderate)", f"{pct(share)} ({len(gisted)}/{len(over30)})", ">= 90%", share >= 0.90))

    flat_tokens = [estimate_tokens(" ".join(n.split())) for n in notes]
    for level in LEVELS:
        lo, hi = BANDS[level]
        reds = [
            1 - estimate_tokens(g) / content_tokens[i]
            for i, g in enumerate(results[level])
            if g is not None
        ]
        med = statistics.median(reds) if reds else 0.0
        inband = sum(lo <= r <= hi for r in reds) / len(reds) if reds else 0.0
        have = len(reds) / len(notes)
        lines.append(
            (
                f"median token reduction, {level}",
                f"{pct(med)} (gist for {pct(have)} of notes; {pct(inband)} of gists in band)",
                f"{int(lo * 100)}-{int(hi * 100)}%",
                lo <= med <= hi,
            )
        )
        flat = [
            1 - estimate_tokens(g) / flat_tokens[i]
            for i, g in enumerate(results[level])
            if g is not None
        ]
        whitespace_only[level] = statistics.median(flat) if flat else 0.0

    violations = 0
    examples: list[tuple[str, list[str]]] = []
    for level in LEVELS:
        for i, g in enumerate(results[level]):
            if g is None:
                continue
            bad = corrupted_atoms(g, notes[i])
            if bad:
                violations += len(bad)
                if len(examples) < 5:
                    examples.append((level, bad))
    lines.append(("corrupted numbers/paths/identifiers (all levels)", str(violations), "0", violations == 0))

    kept = total = 0
    per_note: list[float] = []
    for i, g in enumerate(results["moderate"]):
        if g is None:
            continue
        ents = entities_and_numbers(notes[i])
        if not ents:
            continue
        k = sum(1 for e in ents if appears_verbatim(e, g))
        kept += k
        total += len(ents)
        per_note.append(k / len(ents))
    mean_ret = statistics.fmean(per_note) if per_note else 0.0
    pooled = kept / total if total else 0.0
    lines.append(
        (
            "entities+numbers kept at moderate (mean per note)",
            f"{pct(mean_ret)} (pooled {pct(pooled)}, {total} in {len(per_note)} notes)",
            ">= 80%",
            mean_ret >= 0.80,
        )
    )

    ms = per_memory_ms()
    lines.append(("ms per memory (moderate, fastest of 3 passes)", f"{ms:.2f} ms", "< 5 ms", ms < 5))

    t0 = time.perf_counter()
    for k in range(10_000):
        generate_gist(notes[k % len(notes)])
    backfill = time.perf_counter() - t0
    lines.append(("backfill of 10k memories (moderate, one pass)", f"{backfill:.1f} s", "< 60 s", backfill < 60))

    width = max(len(f) for f, *_ in lines)
    for figure, value, target, ok in lines:
        print(f"{figure:<{width}}  {value:<58} target {target:<8} {verdict(ok)}")
    if examples:
        print("corruption examples:", examples)
    sizes = {
        lv: statistics.median(estimate_tokens(g) for g in results[lv] if g is not None)
        for lv in LEVELS
    }
    print(
        "(median gist size: "
        + ", ".join(f"{lv} {sizes[lv]:.0f}" for lv in LEVELS)
        + f" tokens, against {statistics.median(content_tokens):.0f} for the content)"
    )
    print(
        "(the same medians against the content with its whitespace collapsed to single spaces, "
        "i.e. without the newline tokens a gist saves by re-flowing lines: "
        + ", ".join(f"{lv} {pct(v)}" for lv, v in whitespace_only.items())
        + ")"
    )

    # ---- what token-reducer contributes --------------------------------------------------------
    # The step is off by default (core.gist.token_reducer_step.ENABLED): switched on here only.
    import core.gist.token_reducer_step as tr_step

    print()
    tr_stats: dict[str, int] = {}
    all_stats: dict[str, int] = {}
    tr_step.ENABLED = True
    try:
        with_tr = [generate_gist(n, _stats=tr_stats) for n in notes]
        tr_step.TR_PREFILTER = False
        try:
            offered_all = [generate_gist(n, _stats=all_stats) for n in notes]
        finally:
            tr_step.TR_PREFILTER = True
        ms_with = per_memory_ms()
    finally:
        tr_step.ENABLED = False
    calls = tr_stats.get("tr_calls", 0)
    acc = tr_stats.get("tr_accepted", 0)
    rej = tr_stats.get("tr_rejected", 0)
    saved = tr_stats.get("tr_saved", 0)
    print("token-reducer step switched on (moderate, per sentence, tokenizer='character'):")
    print(
        f"  sentences offered {calls}; edits accepted {acc} ({pct(acc / calls if calls else 0)}), "
        f"output rejected by the verifier {rej} ({pct(rej / calls if calls else 0)}), unchanged {calls - acc - rej}"
    )
    print(
        f"  tokens saved by its accepted edits: {saved} "
        f"({100 * saved / sum(content_tokens):.3f}% of all content tokens)"
    )
    ac = all_stats.get("tr_calls", 0)
    print(
        f"  offered every sentence (no pre-filter): {ac} sentences, accepted "
        f"{all_stats.get('tr_accepted', 0)}, rejected {all_stats.get('tr_rejected', 0)} "
        f"({pct(all_stats.get('tr_rejected', 0) / ac if ac else 0)}), gists identical to the "
        f"default's {sum(a == b for a, b in zip(offered_all, results['moderate']))}/{len(notes)}"
    )
    reds_with = [1 - estimate_tokens(g) / content_tokens[i] for i, g in enumerate(with_tr) if g]
    reds_default = [1 - estimate_tokens(g) / content_tokens[i] for i, g in enumerate(results["moderate"]) if g]
    same = sum(1 for a, b in zip(with_tr, results["moderate"]) if a == b)
    print(
        f"  with the step: median reduction {pct(statistics.median(reds_with))} "
        f"(default, without: {pct(statistics.median(reds_default))}), identical gists {same}/{len(notes)}, "
        f"{ms_with:.2f} ms per memory (default, without: {ms:.2f} ms)"
    )

    print()
    for line in with_and_without_token_reducer(
        [("notes", notes), ("paragraph notes", paragraph_notes(deb_docs) + paragraph_notes(py_docs))]
    ):
        print(line)

    if args.samples:
        print()
        step = max(1, len(notes) // args.samples)
        for i in range(0, len(notes), step)[: args.samples]:
            g = results["moderate"][i]
            print(f"--- note {i} ({content_tokens[i]} tokens) ---")
            print(notes[i])
            print(f"--- gist, moderate ({estimate_tokens(g) if g else 0} tokens) ---")
            print(g)
            print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
