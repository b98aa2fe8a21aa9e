"""memvault's own rules for reading a conversation, behind CortexGraph's ``analyze_message``,
``analyze_for_recall`` and ``auto_recall_process_message``: deterministic, offline, a few phrase
lists and counts, no model. Pure functions of the message; the tools add what the vault knows
(its tags, likely duplicates, the memories a recall finds).

What looks worth saving (:func:`save_signals`): an explicit request ("remember that", "note
that", "keep in mind"...), a preference or decision ("I prefer", "prefers", "preferred", "likes", "favourite",
"we decided", "from now on"...),
an importance marker ("important", "critical", "always"...) and concrete things (names, numbers,
paths) raise the score; a question, a request for an explanation, hedging ("maybe", "I think")
and a message of a few words lower it. The score goes through a logistic curve, as CortexGraph's
does, into a confidence in [0, 1]; at :data:`SAVE_FROM` and above, save.

What calls for a recall (:func:`recall_signals`): an explicit request ("do you remember", "what
did I say about", "remind me", "what's my"...) is 0.9; a message naming two things or more (its
topics: names, and words that are not stop words) is 0.5, for a search on those topics.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from core.textutil import guess_entities

SAVE_FROM = 0.7
BIAS = -2.0

SAVE_PHRASES = ("remember this", "remember that", "please remember", "don't forget",
                "do not forget", "keep in mind", "make a note", "note that", "save this",
                "for future reference", "for the record")
PREFERENCE_PHRASES = ("i prefer", "my preference", "i always", "i never", "i like to",
                      "i don't like", "i do not like", "i decided", "i've decided", "we decided",
                      "we've decided", "we agreed", "my decision", "from now on", "going forward",
                      "we use", "i use", "my favourite", "my favorite",
                      # the words themselves, whoever prefers ("the user prefers", "Prefers X"):
                      "prefer", "prefers", "preferred", "preferring", "preference", "preferences",
                      "likes", "liked", "dislike", "dislikes", "disliked", "loves", "hates",
                      "favourite", "favorite", "favourites", "favorites", "rather than")
IMPORTANCE_WORDS = ("important", "critical", "crucial", "essential", "must", "vital", "urgent",
                    "always", "never")
HEDGES = ("maybe", "perhaps", "not sure", "i think", "might", "possibly", "probably")
QUESTION_OPENERS = ("what is", "what are", "who is", "how do", "how to", "how can", "can you",
                    "could you", "tell me about", "explain", "why does", "why is")
RECALL_PHRASES = ("do you remember", "what did i say", "what did we discuss", "what did we decide",
                  "did i tell you", "have i mentioned", "what have i said", "remind me",
                  "what do you remember", "recall", "last time", "as i mentioned",
                  "what's my", "what is my", "what was my", "my preference")
STOP_WORDS = frozenset(
    "the a an and or but in on at to for of with by from about as is are was were be been being "
    "have has had do does did will would should could may might can this that these those i you "
    "he she it we they me my your our their what which who when where why how not no yes so if "
    "then than there here just also very too please its it's i'm i've don't".split())

WEIGHTS = {"save_request": 5.0, "preference": 4.0, "importance": 2.0, "entities": 0.8,
           "number_or_path": 0.8, "question": -4.0, "hedge": -3.0, "short": -2.0}
_NUMBER_OR_PATH = re.compile(r"\d|[/\\][\w.-]+|\w+\.\w{2,4}\b")
_WORD = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*")


@dataclass
class Signals:
    """What a rule found: each signal's contribution, the phrases matched, and the confidence."""

    scores: dict[str, float] = field(default_factory=dict)
    phrases: list[str] = field(default_factory=list)
    entities: list[str] = field(default_factory=list)

    @property
    def raw(self) -> float:
        return sum(self.scores.values()) + BIAS

    @property
    def confidence(self) -> float:
        return round(1.0 / (1.0 + math.exp(-self.raw)), 4)

    def reasoning(self) -> str:
        parts = ", ".join(f"{name.replace('_', ' ')}: {value:+.1f}"
                          for name, value in self.scores.items()) or "no signal"
        return f"Signals: {parts} | Raw score: {self.raw:.1f} -> Confidence: {self.confidence:.3f}"


def _found(text: str, phrases: tuple[str, ...]) -> list[str]:
    return [p for p in phrases if re.search(r"(?<!\w)" + re.escape(p) + r"(?!\w)", text)]


def is_question(message: str) -> bool:
    lowered = message.strip().lower()
    return lowered.endswith("?") or lowered.startswith(QUESTION_OPENERS)


def save_signals(message: str) -> Signals:
    """What in ``message`` says it is worth keeping (see the module docstring)."""
    text = message.lower()
    found = Signals(entities=guess_entities(message))
    for name, phrases in (("save_request", SAVE_PHRASES), ("preference", PREFERENCE_PHRASES)):
        matched = _found(text, phrases)
        if matched:
            found.scores[name] = WEIGHTS[name]
            found.phrases += matched
    important = _found(text, IMPORTANCE_WORDS)
    if important:
        found.scores["importance"] = WEIGHTS["importance"]
        found.phrases += important
    if found.entities:
        found.scores["entities"] = min(4, len(found.entities)) * WEIGHTS["entities"]
    if _NUMBER_OR_PATH.search(message):
        found.scores["number_or_path"] = WEIGHTS["number_or_path"]
    if is_question(message) and "save_request" not in found.scores:
        found.scores["question"] = WEIGHTS["question"]
    hedges = _found(text, HEDGES)
    if hedges:
        found.scores["hedge"] = WEIGHTS["hedge"]
        found.phrases += hedges
    if len(_WORD.findall(message)) < 4:
        found.scores["short"] = WEIGHTS["short"]
    return found


def suggested_strength(confidence: float) -> float:
    """CortexGraph's steps: 2.0 from 0.9, 1.5 from 0.7, else 1.0."""
    return 2.0 if confidence >= 0.9 else 1.5 if confidence >= SAVE_FROM else 1.0


def topics(message: str) -> list[str]:
    """The things a message is about: its names, then its words that are not stop words (three
    letters or more), lower case, each once, in the order they come."""
    out: dict[str, None] = {}
    for name in guess_entities(message):
        out.setdefault(name.lower(), None)
    for word in _WORD.findall(message.lower()):
        if len(word) >= 3 and word not in STOP_WORDS:
            out.setdefault(word, None)
    return list(out)


@dataclass
class RecallIntent:
    should_search: bool
    confidence: float
    query: str
    phrases: list[str]
    entities: list[str]
    reasoning: str


def recall_signals(message: str) -> RecallIntent:
    """Whether ``message`` calls for a search of the vault, and for what (see the docstring)."""
    text = message.lower()
    matched = _found(text, RECALL_PHRASES)
    entities = guess_entities(message)
    if matched:
        rest = text
        for phrase in sorted(matched, key=len, reverse=True):
            rest = rest.replace(phrase, " ")
        query = " ".join(topics(rest)) or " ".join(topics(message))
        why = f"Explicit recall request: {matched}"
        return RecallIntent(True, 0.9, query, matched, entities, why)
    about = topics(message)
    if len(entities) >= 2 or (len(about) >= 2 and not is_question(message)):
        query = " ".join(entities[:3]) if len(entities) >= 2 else " ".join(about[:5])
        why = f"Names {len(entities)} things, {len(about)} topics: they may be in the vault"
        return RecallIntent(True, 0.5, query, [], entities, why)
    return RecallIntent(False, 0.2, " ".join(about[:5]), [], entities, "No recall signal")
