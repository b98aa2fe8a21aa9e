"""Units (sentences, list items, code blocks) of a note: building, scoring, assembling.

A unit is what the extractive pass keeps or drops whole. Its value is the facts it carries
(:mod:`core.gist.facts`: numbers, identifiers, names, negations), the memory's tags and
caller's entities it mentions, the words it shares with other units (topic centrality) and with
the topic sentence (what the note is about), never its position; the first unit (the topic
sentence) and a personal fact (:mod:`core.gist.personal`: a preference, an allergy, a diet, a
name) weigh most, a circumstance (*Said while ...*, :mod:`core.gist.asides`) or an
example least. Kept units are assembled in their original order: sentences joined by a
space, code and list items on their own lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .asides import is_circumstance
from .facts import FACT_WEIGHT, unit_facts
from .personal import PERSONAL_BONUS, is_personal_fact
from .sentences import normalise_ws, parse_blocks, split_sentences

_STOP = frozenset(
    """a an and are as at be been being but by can could did do does for from had has have he
    her hers him his how i if in into is it its itself just may me might more most must my no
    nor not of off on once one only or other our ours out over own same she should so some such
    than that the their theirs them then there these they this those through to too under until
    up very was we were what when where which while who whom why will with would you your
    also about after again against all am any because before below between both during each
    few further here above down ll re ve don doesn didn isn aren wasn weren won wouldn shouldn
    use used using via per within without upon onto toward towards among including can't
    der die das und ist ein eine nicht mit von zu den dem des sich auf für im auch es als
    le la les des et est un une du en que qui pas pour dans sur au""".split()
)


_TAG_BONUS = 2.0  # per tag of the memory that a unit mentions


class Unit:
    __slots__ = (
        "kind",
        "order",
        "para",
        "text",
        "masked",
        "tokens",
        "facts",
        "base",
        "first",
        "personal",
        "kept_whole",
    )

    def __init__(self, kind: str, order: int, para: int, text: str) -> None:
        self.kind = kind  # "sent" | "item" | "code"
        self.order = order
        self.para = para
        self.text = text  # original text of the unit (whitespace-normalised for prose)
        self.masked = text  # masked (and later edited) text; code units: == text
        self.tokens = 0
        self.facts: dict[str, float] = {}
        self.base = 0.0
        self.first = False
        self.personal = False  # a personal fact (:mod:`.personal`)
        self.kept_whole = False  # never dropped whole by the extractive pass

def build_units(content: str) -> list[Unit]:
    units: list[Unit] = []
    order = 0
    for para, (kind, lines) in enumerate(parse_blocks(content)):
        if kind == "code":
            text = "\n".join(lines).rstrip()
            if text.strip():
                units.append(Unit("code", order, para, text))
                order += 1
        elif kind == "item":
            text = normalise_ws("\n".join(lines))
            if text:
                units.append(Unit("item", order, para, text))
                order += 1
        else:
            for sent in split_sentences("\n".join(lines)):
                text = normalise_ws(sent)
                if text:
                    units.append(Unit("sent", order, para, text))
                    order += 1
    return units


def bind_intros(units: list[Unit]) -> list[Unit]:
    """Merge a sentence ending in ':' into the code unit right after it (kept or dropped together)."""
    out: list[Unit] = []
    for u in units:
        if (
            u.kind == "code"
            and out
            and out[-1].kind != "code"
            and not out[-1].text.rstrip().endswith((".", "!", "?", "…", "。", "！", "？"))
        ):
            intro = out.pop()
            u.text = intro.text + "\n" + u.text
            u.masked = u.text
            u.first = intro.order == 0
        u.order = len(out)
        out.append(u)
    return out


def dedupe(units: list[Unit]) -> list[Unit]:
    """Drop exact repeats of an earlier unit (same words, any spacing/case): pure redundancy."""
    seen: set[str] = set()
    out: list[Unit] = []
    for u in units:
        key = " ".join(u.text.lower().split())
        if key in seen:
            continue
        seen.add(key)
        u.order = len(out)
        out.append(u)
    return out


def score_units(units: list[Unit], tags: Sequence[str], entities: Sequence[str]) -> None:
    n = len(units)
    tag_list = [t.lower().strip() for t in tags if isinstance(t, str) and t.strip()]
    ent_list = [e.lower().strip() for e in entities if isinstance(e, str) and e.strip()]
    word_sets: list[set[str]] = []
    df: dict[str, int] = {}
    for u in units:
        u.facts = unit_facts(u.text, u.kind == "code")
        if u.kind == "code":
            words: set[str] = set()
        else:
            words = {
                w
                for w in (x.lower() for x in re.findall(r"[^\W\d_]{3,}", u.text[:2000]))
                if w not in _STOP
            }
        word_sets.append(words)
        for w in words:
            df[w] = df.get(w, 0) + 1
    # the topic sentence: the first unit, unless the note opens with bare code
    first_prose = next((u for u in units if u.kind != "code" or u.first), None)
    if first_prose is not None:
        first_prose.first = True
    # what the note is about: the topic sentence's words (and the next unit's after a title)
    topic_words: set[str] = set()
    if first_prose is not None:
        topic_words = set(word_sets[first_prose.order])
        if len(first_prose.text.split()) < 6 and first_prose.order + 1 < n:
            topic_words |= word_sets[first_prose.order + 1]
    for u, words in zip(units, word_sets):
        low = u.text.lower()
        if ent_list or tag_list:
            for e in ent_list:
                if e in low:
                    u.facts["\x00" + e] = FACT_WEIGHT["given"]
            for t in tag_list:
                if t in low or (
                    (parts := [p for p in re.split(r"[\W_]+", t) if len(p) >= 3])
                    and all(p in words for p in parts)
                ):
                    u.base += _TAG_BONUS
        central = sum(min(df[w] - 1, 3) for w in words) / 3.0 if n > 1 else 0.0
        u.base += 0.05 * len(words) + 0.15 * central
        if u.first:
            u.base += 4.0
        elif u.kind != "code" and topic_words:
            # what the note is about: the words it shares with the topic sentence
            u.base += 0.6 * len(words & topic_words) / max(len(topic_words), 1)
        if u.kind != "code" and is_personal_fact(u.text):
            u.base += PERSONAL_BONUS  # a preference, an allergy, a diet, a name: kept first
            u.personal = True
        if u.kind != "code" and (
            low.startswith(("for example", "for instance", "e.g.", "see also"))
            or (not u.first and is_circumstance(u.text))
        ):
            u.base *= 0.5
    # Kept whole: the personal facts among asides, before the topic sentence; the topic
    # sentence when there are none, or when they are most of the note (then they are weighed
    # against each other as any units are).
    personal = sum(u.personal for u in units)
    for u in units:
        u.kept_whole = u.personal if 0 < 2 * personal <= n else u.first


def assemble(units: list[Unit], keep: list[bool], texts: list[str]) -> str:
    parts: list[str] = []
    prev: Unit | None = None
    for u, k, t in zip(units, keep, texts):
        if not k or not t:
            continue
        if prev is not None:
            if u.kind != "sent" or prev.kind != "sent":
                parts.append("\n")
            else:
                parts.append(" ")
        parts.append(t)
        prev = u
    return "".join(parts)


def sep_cost(units: list[Unit], keep: list[bool]) -> int:
    """Tokens spent on newlines between kept units (sentences are joined by free spaces)."""
    cost = 0
    prev: Unit | None = None
    for u, k in zip(units, keep):
        if not k:
            continue
        if prev is not None and (u.kind != "sent" or prev.kind != "sent"):
            cost += 1
        prev = u
    return cost
