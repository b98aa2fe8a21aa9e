"""Gist-first recall in a token budget on LoCoMo: how much evidence ``recall`` puts before an
assistant per 1,000 tokens, gists against content. ``bench/recall.py`` runs it after its
ranking table (``--budget N`` tokens, default 1,000; ``--budget 0`` leaves it out).

The data and questions are ``bench/recall.py``'s (the same half), at three granularities: the
dialog turns and the facts as memories, as there, and the *sessions* (each session's dialog one
memory, a turn a line, naming all its turns): a turn or a fact is mostly too short for a gist
(under 30 words), a session is not. Each vault gets its gists as ``memvault backfill-gists``
makes them. Each question is recalled as asked (``core.ops.recall.recall``: bm25, active
memories, best first, as many lines as fit the budget) in both forms: gist-first (a memory's
gist, its content when it has none) and ``full`` (the content). An evidence turn is *found*
when a recalled line names it and still says it: a content line says every turn its memory
names; a gist line, a turn of which it holds at least :data:`HELD` (2/3) of the content terms
(:func:`core.wording.terms`: a gist keeps whole sentences, or cuts clauses out of them).

Per granularity and form: ``evidence`` (the share of a question's evidence turns found,
averaged), ``tokens`` (the mean tokens recalled), ``per_1k`` (evidence turns found per 1,000
tokens recalled, over all the questions) and ``gists`` (the share of recalled lines that were
a gist).
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core import Vault
from core.ops.recall import Recall, recall
from core.wording import terms

#: The share of a turn's content terms (its speaker's name aside) a gist line must hold to say
#: the turn: most of them, as a kept sentence does whatever clause a cut took out.
HELD = 2 / 3
FORMS = ("gist", "content")
GRANULARITIES = ("turns", "facts", "sessions")
_SESSION = re.compile(r"D(\d+):")


def session_items(turns: Sequence[Any], make: Callable[..., Any]) -> list[Any]:
    """One item a session (``make``: the Item class of ``bench/recall_data.py``): its turns'
    texts a line each, in order, naming every one of them, dated by its first turn."""
    by_session: dict[int, list[Any]] = {}
    for turn in turns:
        match = _SESSION.match(min(turn.turns))
        by_session.setdefault(int(match.group(1)) if match else 0, []).append(turn)
    return [make(f"s-{n:03d}", "\n".join(t.text for t in members),
                 frozenset().union(*(t.turns for t in members)), min(t.at for t in members))
            for n, members in sorted(by_session.items())]


def says(line: str, turn: str) -> bool:
    """A recalled line still says ``turn`` ("Speaker: text"): it holds :data:`HELD` of the
    content terms of the turn's text (a text of stopwords alone: verbatim)."""
    turn = turn.split(": ", 1)[-1]
    wanted = terms(turn)
    if not wanted:
        return turn in line
    return len(wanted & terms(line)) >= HELD * len(wanted)


def found_in(recalled: Recall, names: dict[str, frozenset[str]], texts: dict[str, str],
             evidence: frozenset[str], gist_first: bool) -> set[str]:
    """The evidence turns the recalled lines name and still say (a gist line: :func:`says`)."""
    found: set[str] = set()
    for line in recalled.lines:
        named = names.get(line.memory.id, frozenset()) & evidence
        if not gist_first or not line.memory.gist:  # the content
            found |= named
        else:
            found |= {t for t in named if says(line.text, texts[t])}
    return found


@dataclass
class Tally:
    """What one granularity and form recalled over the questions."""

    questions: int = 0
    share: float = 0.0  # sum over the questions of the share of evidence found
    found: int = 0
    tokens: int = 0
    lines: int = 0
    gists: int = 0

    def add(self, recalled: Recall, found: set[str], evidence: frozenset[str],
            gist_first: bool) -> None:
        self.questions += 1
        self.share += len(found) / len(evidence)
        self.found += len(found)
        self.tokens += recalled.tokens
        self.lines += len(recalled.lines)
        self.gists += sum(1 for line in recalled.lines if gist_first and line.memory.gist)

    def row(self) -> dict[str, float]:
        n = self.questions or 1
        return {"evidence": self.share / n, "tokens": self.tokens / n,
                "per_1k": 1000 * self.found / (self.tokens or 1),
                "gists": self.gists / (self.lines or 1), "n": float(self.questions)}


def with_gists(root: Path, build: Callable[[Path, Sequence[Any]], Vault],
               items: Sequence[Any]) -> Vault:
    """The vault of ``items`` (``bench/recall.py``'s ``build_vault``) with its gists made, open
    read-only."""
    build(root, items).close()
    with Vault.open(root) as vault:
        vault.backfill_gists()
    return Vault.open(root, readonly=True)


def measure(conversations: Sequence[Any], wanted: Callable[[Any], bool], budget: int,
            folder: Path, build: Callable[[Path, Sequence[Any]], Vault],
            make: Callable[..., Any], asked_after: int) -> dict[str, dict[str, dict[str, float]]]:
    """Per granularity and form, the :meth:`Tally.row` of recalling the questions ``wanted``
    keeps within ``budget`` tokens."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for grain in GRANULARITIES:
        tallies = {form: Tally() for form in FORMS}
        for conv in conversations:
            items = conv.turns if grain == "turns" else conv.facts if grain == "facts" else \
                session_items(conv.turns, make)
            names = {i.key: i.turns for i in items}
            texts = {min(t.turns): t.text for t in conv.turns}
            now = max(i.at for i in items) + asked_after
            vault = with_gists(folder / f"budget-{grain}-{conv.sample_id}", build, items)
            try:
                for q in (q for q in conv.questions if wanted(q)):
                    for form, tally in tallies.items():
                        gist_first = form == "gist"
                        got = recall(vault, q.text, budget=budget, full=not gist_first,
                                     now=now)
                        tally.add(got, found_in(got, names, texts, q.evidence, gist_first),
                                  q.evidence, gist_first)
            finally:
                vault.close()
        out[grain] = {form: tally.row() for form, tally in tallies.items()}
    return out


def table(results: dict[str, dict[str, dict[str, float]]], budget: int) -> str:
    """The figures as lines of text."""
    lines = [f"recall in a budget of {budget:,} tokens, gist-first against the content "
             f"(evidence turns found per 1,000 tokens recalled)"]
    lines.append(f"  {'memories':<9} {'form':<8} {'evidence':>8} {'tokens':>7} {'per 1k':>7} "
                 f"{'gists':>6}")
    for grain, by_form in results.items():
        for form, r in by_form.items():
            lines.append(f"  {grain:<9} {form:<8} {r['evidence']:>8.3f} {r['tokens']:>7.0f} "
                         f"{r['per_1k']:>7.2f} {r['gists']:>6.2f}")
    return "\n".join(lines)


def report(conversations: Sequence[Any], half: str, budget: int, vaults: Path | None,
           build: Callable[[Path, Sequence[Any]], Vault], data: Any, asked_after: int) -> str:
    """:func:`measure` over the questions of ``half`` (``data``: ``bench/recall_data.py``),
    its vaults in ``vaults`` (kept for the next run) or in a temporary folder; as text."""
    def wanted(question: Any) -> bool:
        return half == "all" or bool(data.half_of(question.qid) == half)

    if vaults is not None:
        results = measure(conversations, wanted, budget, vaults, build, data.Item, asked_after)
    else:
        with tempfile.TemporaryDirectory(prefix="memvault-recall-budget-") as tmp:
            results = measure(conversations, wanted, budget, Path(tmp), build, data.Item,
                              asked_after)
    return table(results, budget)
