"""LoCoMo read into conversations, the fixed tune/held-out split of its questions, and the
scores of a ranking (R@k, MRR): the parts of ``bench/recall.py`` that need no vault, so that
``tests/bench/test_recall_data.py`` checks them on a tiny fixture of LoCoMo's shape.

LoCoMo (snap-research/locomo, CC BY-NC 4.0) comes either as ``data/locomo10.json`` (a list of
``{"sample_id", "conversation", "observation", "qa", ...}``) or as the older
``data/locomo10.zip`` (one file per conversation, the same fields side by side); both read the
same. A *turn* is one dialog line (``dia_id`` like ``D1:3``); a *fact* is one of the
``observation`` lines written from the turns, each naming its turn(s). A question's evidence is
the turn ids it cites; questions of category 5 (adversarial: no answer in the conversation) and
questions citing no turn of the conversation are left out.
"""

from __future__ import annotations

import hashlib
import json
import re
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

DIA_ID = re.compile(r"D\d+:\d+")
SESSION = re.compile(r"session_(\d+)")
HALVES = ("tune", "held-out")
KS = (1, 5, 10)


@dataclass(frozen=True)
class Item:
    """One memory to write: its text, the turns it names, when it was said (epoch seconds)."""

    key: str  # a safe memory id
    text: str
    turns: frozenset[str]
    at: int
    speaker: str = ""


@dataclass(frozen=True)
class Question:
    qid: str  # sample id and index in its qa list: "conv-26:0"
    text: str
    evidence: frozenset[str]
    category: int


@dataclass
class Conversation:
    sample_id: str
    turns: list[Item] = field(default_factory=list)
    facts: list[Item] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)


def load(path: Path) -> list[Conversation]:
    """The conversations of ``locomo10.json`` or of the older ``locomo10.zip``."""
    if path.suffix == ".zip":
        with zipfile.ZipFile(path) as z:
            raw = [dict(json.loads(z.read(name)), sample_id=f"conv-{Path(name).stem}")
                   for name in sorted(z.namelist()) if name.endswith(".json")]
    else:
        data = json.loads(path.read_text(encoding="utf-8"))
        raw = data if isinstance(data, list) else [data]
    return [conversation(r) for r in raw]


def _flat(sample: dict[str, Any]) -> dict[str, Any]:
    """One dict of every session, date and observation (locomo10.json nests them)."""
    out = dict(sample)
    for part in ("conversation", "observation"):
        if isinstance(sample.get(part), dict):
            out.update(sample[part])
    return out


def when(text: str) -> int:
    """A session's ``1:56 pm on 8 May, 2023`` as epoch seconds (UTC); 0 if unreadable."""
    for fmt in ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y"):
        try:
            return int(datetime.strptime(text.strip(), fmt).replace(tzinfo=timezone.utc)
                       .timestamp())
        except ValueError:
            continue
    return 0


def _key(prefix: str, dia: str) -> str:
    return f"{prefix}-" + re.sub(r"[^a-z0-9]+", "-", dia.lower()).strip("-")


def conversation(sample: dict[str, Any]) -> Conversation:
    """One LoCoMo sample as turns, facts and questions (see the module doc)."""
    flat = _flat(sample)
    conv = Conversation(str(sample.get("sample_id", "conv")))
    sessions = sorted({int(m.group(1)) for k in flat if (m := SESSION.fullmatch(k))})
    for n in sessions:
        at = when(str(flat.get(f"session_{n}_date_time", "")))
        for k, turn in enumerate(flat.get(f"session_{n}") or []):
            dia = str(turn.get("dia_id", ""))
            text = str(turn.get("text", ""))
            if turn.get("blip_caption"):
                text += f" [shares a photo of {turn['blip_caption']}]"
            conv.turns.append(Item(_key("t", dia), f"{turn.get('speaker', '')}: {text}",
                                   frozenset([dia]), at + k, str(turn.get("speaker", ""))))
        observed = flat.get(f"session_{n}_observation") or {}
        said = [(speaker, line) for speaker, lines in observed.items() for line in lines]
        for k, (speaker, line) in enumerate(said):
            text, names = (line[0], line[1]) if isinstance(line, list) else (line, "")
            turns = frozenset(DIA_ID.findall(json.dumps(names)))
            conv.facts.append(Item(f"f-{len(conv.facts) + 1:05d}", str(text), turns, at + k,
                                   str(speaker)))
    known = {t for item in conv.turns for t in item.turns}
    for i, qa in enumerate(sample.get("qa") or []):
        evidence = frozenset(DIA_ID.findall(json.dumps(qa.get("evidence", [])))) & known
        category = int(qa.get("category", 0))
        if category != 5 and evidence:
            conv.questions.append(Question(f"{conv.sample_id}:{i}", str(qa.get("question", "")),
                                           evidence, category))
    return conv


def half_of(qid: str) -> str:
    """``tune`` or ``held-out``: a fixed split by the first byte of the id's SHA-256."""
    return HALVES[hashlib.sha256(qid.encode()).digest()[0] & 1]


def recall_at(found: Sequence[frozenset[str]], evidence: frozenset[str], k: int) -> float:
    """The share of ``evidence`` turns named by the first ``k`` hits (each hit: the turns it
    names)."""
    named: set[str] = set()
    for turns in found[:k]:
        named |= turns
    return len(named & evidence) / len(evidence)


def reciprocal_rank(found: Sequence[frozenset[str]], evidence: frozenset[str]) -> float:
    """1 / the rank of the first hit naming an evidence turn; 0 if none does."""
    for n, turns in enumerate(found, 1):
        if turns & evidence:
            return 1 / n
    return 0.0


def scores(results: Iterable[tuple[Sequence[frozenset[str]], frozenset[str]]]
           ) -> dict[str, float]:
    """R@1/5/10 and MRR averaged over ``(hits, evidence)`` pairs, and how many there were."""
    rows = list(results)
    n = len(rows) or 1
    out = {f"R@{k}": sum(recall_at(f, e, k) for f, e in rows) / n for k in KS}
    out["MRR"] = sum(reciprocal_rank(f, e) for f, e in rows) / n
    out["n"] = float(len(rows))
    return out
