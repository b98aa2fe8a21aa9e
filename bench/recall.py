"""Recall on LoCoMo: does a search for a question find the dialog turns that answer it?

    python bench/recall.py                          # held-out half, ~1-2 minutes
    python bench/recall.py --half tune              # the half rankings are tuned on
    python bench/recall.py --half all --json recall.json
    python bench/recall.py PATH/TO/locomo10.json    # or the older data/locomo10.zip

The data is not in this repository (CC BY-NC 4.0: research only, never in the wheel or in git).
``--fetch`` prints where it comes from; the default path ``bench/.cache/locomo/`` is gitignored.

Each of LoCoMo's 10 conversations becomes one vault, written as CortexGraph JSONL and migrated
(``core.io.migrate``) into a temporary folder, at two granularities: every dialog turn a memory
("speaker: text", dated by its session; searched a day after the last session, so that the
first sessions have faded), or every ``observation`` fact a memory (naming its
turns). Each question (categories 1-4; adversarial 5 left out) is searched as asked, top 10.
R@k is the share of a question's evidence turns named by the top k, averaged over the
questions; MRR the mean of 1 / the rank of the first hit naming one. Every mode memvault offers
(``bm25``; ``hybrid`` when wordllama is installed, and ``cosine``, its semantic part alone) is
reported beside plain SQLite FTS5 (the question's words OR'ed, ``ORDER BY bm25``: the floor). The questions are split once, by a hash
of their id, into a ``tune`` half and a ``held-out`` half (``bench/recall_data.py``); change
the ranking looking at ``--half tune`` only, and report ``held-out``. Then gist-first recall in
a token budget (``--budget``, ``bench/recall_budget.py``): evidence found per 1,000 tokens,
gists against content.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the source tree

from core import Vault  # noqa: E402
from core.io.migrate import migrate_jsonl  # noqa: E402
from core.search import Searcher  # noqa: E402
from core.search.query import TOKEN, parse  # noqa: E402
from core.search.semantic import cosines, semantic_available  # noqa: E402

DEFAULT_DATA = HERE / ".cache" / "locomo" / "locomo10.json"
SOURCE = "https://github.com/snap-research/locomo"
LICENCE = "CC BY-NC 4.0 (LICENSE.txt of snap-research/locomo; research use, not redistributed)"
FETCH_HINT = f"""LoCoMo is not shipped with memvault. To fetch it:
    mkdir -p {DEFAULT_DATA.parent}
    curl -L -o {DEFAULT_DATA} {SOURCE}/raw/main/data/locomo10.json
(older revisions, e.g. e76cdff, ship data/locomo10.zip instead: pass its path; it reads the same.)
Licence: {LICENCE}."""
GRANULARITIES = ("turns", "facts")
TOP = 10
#: The questions are asked a day after the conversation's last session: its first sessions
#: are then months old, and decay has to leave them findable.
ASKED_AFTER = 86400


def _load(name: str) -> Any:
    """A module of bench/ by file (bench/ is not on the path)."""
    spec = importlib.util.spec_from_file_location(f"memvault_bench_{name}", HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


data = _load("recall_data")


# -- vaults -------------------------------------------------------------------------------------
def jsonl_line(item: Any) -> str:
    """One CortexGraph 1.2.1 memory record for ``item`` (a turn or a fact)."""
    return json.dumps({
        "id": item.key, "content": item.text,
        "meta": {"tags": [], "source": "locomo", "context": None, "extra": {}},
        "created_at": item.at, "last_used": item.at, "use_count": 0, "strength": 1.0,
        "status": "active", "entities": [item.speaker] if item.speaker else []})


def build_vault(root: Path, items: Sequence[Any]) -> Vault:
    """A vault in ``root`` holding ``items``, migrated from CortexGraph JSONL as a user would
    (kept if ``root`` holds one already: ``--vaults``)."""
    if (root / ".git").is_dir():
        return Vault.open(root, readonly=True)
    source = root.parent / f"{root.name}-jsonl"
    source.mkdir(parents=True)
    (source / "memories.jsonl").write_text("".join(jsonl_line(i) + "\n" for i in items))
    (source / "relations.jsonl").write_text("")
    with Vault.open(root) as vault:
        migrate_jsonl(vault, source)
    return Vault.open(root, readonly=True)


# -- searchers: each returns, for a question, the keys of its top hits -------------------------
Search = Callable[[str], list[str]]


def memvault_search(vault: Vault, mode: str, now: int) -> tuple[Search, Callable[[], None]]:
    """``memvault search`` at ``now`` (decay counts: the sessions long past have faded)."""
    searcher = Searcher(vault, mode=mode)

    def search(question: str) -> list[str]:
        result = searcher.search(question, limit=TOP, snippets=False, now=now)
        return [h.memory.id for h in result.hits]

    return search, searcher.close


def cosine_search(vault: Vault) -> tuple[Search, Callable[[], None]]:
    """The semantic part of ``hybrid`` alone: the 10 memories most similar to the question's
    ranked words (wordllama), for "hybrid ranks no worse than either part"."""
    searcher = Searcher(vault, mode="hybrid")
    assert searcher.embedder is not None
    embedder, index = searcher.embedder, searcher.index
    index.sync(vault.memories)
    ids = sorted(vault.memories)

    def search(question: str) -> list[str]:
        query = parse(question)  # (before ranked_terms: every word, as ranking used them)
        text = " ".join(t.value for t in getattr(query, "ranked_terms", query.text_terms))
        found = cosines(index, embedder, vault.memories, ids, text, top=TOP)
        return sorted(found, key=lambda i: (-found[i], i))

    return search, searcher.close


def fts5_search(items: Sequence[Any]) -> tuple[Search, Callable[[], None]]:
    """Plain SQLite FTS5 (unicode61, no stemming): the words OR'ed, best bm25 first."""
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(key UNINDEXED, content)")
    conn.executemany("INSERT INTO t VALUES (?, ?)", [(i.key, i.text) for i in items])

    def search(question: str) -> list[str]:
        words = " OR ".join(f'"{w}"' for w in TOKEN.findall(question.lower()))
        if not words:
            return []
        rows = conn.execute("SELECT key FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT ?",
                            (words, TOP))
        return [r[0] for r in rows]

    return search, conn.close


def modes() -> list[str]:
    return ["fts5", "bm25"] + (["hybrid", "cosine"] if semantic_available() else [])


def run(conversations: list[Any], half: str, tmp: Path, wanted: Sequence[str]
        ) -> dict[str, Any]:
    """R@1/5/10 and MRR of the ``wanted`` modes at both granularities over the questions of
    ``half``."""
    out: dict[str, Any] = {}
    for grain in GRANULARITIES:
        pairs: dict[str, list[tuple[list[frozenset[str]], frozenset[str]]]] = \
            {m: [] for m in wanted}
        seconds = dict.fromkeys(pairs, 0.0)
        for conv in conversations:
            items = conv.turns if grain == "turns" else conv.facts
            names = {i.key: i.turns for i in items}
            questions = [q for q in conv.questions if half == "all" or data.half_of(q.qid) == half]
            vault = build_vault(tmp / f"{grain}-{conv.sample_id}", items)
            now = max(i.at for i in items) + ASKED_AFTER
            for mode in pairs:
                search, close = fts5_search(items) if mode == "fts5" else \
                    cosine_search(vault) if mode == "cosine" else memvault_search(vault, mode, now)
                start = time.perf_counter()
                for q in questions:
                    pairs[mode].append(([names.get(k, frozenset()) for k in search(q.text)],
                                        q.evidence))
                seconds[mode] += time.perf_counter() - start
                close()
            vault.close()
        out[grain] = {m: dict(data.scores(p), seconds=seconds[m]) for m, p in pairs.items()}
    return out


def revision(path: Path) -> str:
    """The data file's SHA-256 (its first 16 hex digits): which revision it is, README says."""
    return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def table(results: dict[str, Any]) -> str:
    lines = []
    for grain, by_mode in results.items():
        lines.append(f"{grain} as memories ({int(next(iter(by_mode.values()))['n'])} questions)")
        lines.append(f"  {'mode':<8} {'R@1':>6} {'R@5':>6} {'R@10':>6} {'MRR':>6} {'s':>6}")
        for mode, s in by_mode.items():
            lines.append(f"  {mode:<8} {s['R@1']:>6.3f} {s['R@5']:>6.3f} {s['R@10']:>6.3f} "
                         f"{s['MRR']:>6.3f} {s['seconds']:>6.1f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=FETCH_HINT,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", nargs="?", type=Path, default=DEFAULT_DATA,
                        help="locomo10.json (or the older locomo10.zip)")
    parser.add_argument("--half", choices=[*data.HALVES, "all"], default="held-out")
    parser.add_argument("--json", type=Path, help="write every figure to this file")
    parser.add_argument("--modes", default=",".join(modes()),
                        help=f"comma-separated, of {','.join(modes())} (default: all)")
    parser.add_argument("--vaults", type=Path,
                        help="build the vaults here and reuse them on the next run (tuning)")
    parser.add_argument("--fetch", action="store_true", help="say where the data comes from")
    parser.add_argument("--budget", type=int, default=1000, help="then recall gist-first "
                        "against content in this many tokens (bench/recall_budget.py); 0: skip")
    args = parser.parse_args(argv)
    path: Path = args.data
    if not path.exists() and path == DEFAULT_DATA and path.with_suffix(".zip").exists():
        path = path.with_suffix(".zip")
    if args.fetch or not path.exists():
        print(FETCH_HINT, file=sys.stderr if not args.fetch else sys.stdout)
        return 0 if args.fetch else 2
    conversations = data.load(path)
    os.environ.setdefault("GIT_CONFIG_NOSYSTEM", "1")
    wanted = [m for m in args.modes.split(",") if m]
    unknown = sorted(set(wanted) - set(modes()))
    if unknown:
        parser.error(f"unknown or unavailable mode(s) {', '.join(unknown)}: "
                     f"choose among {', '.join(modes())}")
    if args.vaults:
        results = run(conversations, args.half, args.vaults, wanted)
    else:
        with tempfile.TemporaryDirectory(prefix="memvault-recall-") as tmp:
            results = run(conversations, args.half, Path(tmp), wanted)
    header = (f"LoCoMo {path.name} revision {revision(path)}; {LICENCE}\n"
              f"half: {args.half}; {len(conversations)} conversations; top {TOP}; peer "
              "CortexGraph not run (its decay-ranked search_memory scored R@5 0.014 / 0.028 in "
              "issue 41)")
    print(header)
    print(table(results))
    if args.budget:  # (a module of its own: bench/recall_budget.py)
        print(_load("recall_budget").report(conversations, args.half, args.budget, args.vaults,
                                            build_vault, data, ASKED_AFTER))
    if args.json:
        args.json.write_text(json.dumps({"data": str(path), "revision": revision(path),
                                         "half": args.half, "results": results}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
