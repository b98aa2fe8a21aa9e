"""Small text helpers: content tokens, entity guesses and a gist that never blocks a save (split,
consolidate), and the neutraliser of control characters for anything shown on a terminal or
written into a commit message (:func:`neutralise_controls`)."""

from __future__ import annotations

import re
from collections.abc import Sequence

#: Characters that can drive a terminal: C0 controls (U+0000-U+001F, ESC among them), DEL and the
#: C1 controls (U+0080-U+009F, CSI U+009B among them).
_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_CONTROLS_BUT_LINES = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # newline and tab kept
_NAMED_ESCAPES = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
_WORD = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*", re.UNICODE)
_PUNCT = re.compile(r"[^\w\s]", re.UNICODE)
_CAPITALISED = re.compile(r"(?<![\w.])([A-Z][A-Za-z0-9]+(?:[ -][A-Z][A-Za-z0-9]+)*)")
_SENTENCE_START = re.compile(r"(?:^|[.!?:]\s+|\n)[ \t]*(?:(?:[-*+•]|\d+[.)])\s+)?")
#: Dates, not entities: month and weekday names (and their usual abbreviations).
DATE_WORDS = frozenset(
    "January February March April May June July August September October November December "
    "Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec Monday Tuesday Wednesday Thursday Friday "
    "Saturday Sunday Mon Tue Tues Wed Thu Thur Thurs Fri Sat Sun Mondays Tuesdays Wednesdays "
    "Thursdays Fridays Saturdays Sundays".split()
)
#: Nationalities, languages and the like: adjectives English writes with a capital (*Italian
#: food*, *speaks Portuguese*), no name on their own; inside a longer name they stay (*Italian
#: Riviera*, *French Open*).
NATIONALITY_WORDS = frozenset(
    """English British American Canadian Mexican Brazilian Argentinian Argentine Chilean Peruvian
    Colombian Venezuelan Cuban French German Dutch Flemish Belgian Swiss Austrian Italian Spanish
    Portuguese Greek Turkish Irish Scottish Welsh Swedish Norwegian Danish Finnish Icelandic
    Polish Czech Slovak Hungarian Romanian Bulgarian Serbian Croatian Slovenian Bosnian Albanian
    Ukrainian Russian Belarusian Estonian Latvian Lithuanian Georgian Armenian Arabic Arab Persian
    Iranian Iraqi Syrian Lebanese Israeli Hebrew Egyptian Moroccan Tunisian Algerian Ethiopian
    Kenyan Nigerian Ghanaian Senegalese African Asian European Scandinavian Nordic Balkan
    Mediterranean Caribbean Jamaican Latin Chinese Mandarin Cantonese Japanese Korean Vietnamese
    Thai Indonesian Malaysian Filipino Indian Pakistani Bengali Hindi Urdu Tamil Nepali Tibetan
    Mongolian Australian Hawaiian Catalan Basque Galician Sicilian Tuscan Bavarian Yiddish
    Swahili""".split()
)
_START_WORDS = frozenset(
    "The A An This That These Those It We I You He She They Our My Your When If Then And But Or "
    "So Also In On At For To From With Without After Before Point Long Note".split()
)


def content_tokens(text: str) -> set[str]:
    """Lowercased words, punctuation removed, longer than 2 characters (CortexGraph's rule)."""
    return {w for w in _PUNCT.sub(" ", text.lower()).split() if len(w) > 2}


def jaccard(a: set[str], b: set[str]) -> float:
    if not a and not b:
        return 0.0
    shared = len(a & b)  # no union set: this runs for every candidate pair
    return shared / (len(a) + len(b) - shared)


def _no_name(words: list[str]) -> bool:
    """Whether capitalised ``words`` name nothing: one nationality or language (*Italian*), or
    one code of a single letter and digits (*vitamin B12*, *A4 paper*: a code, like a number)."""
    if len(words) != 1:
        return False
    word = words[0]
    return word in NATIONALITY_WORDS or sum(c.isalpha() for c in word) < 2


def guess_entities(text: str, limit: int = 8) -> list[str]:
    """Capitalised words and phrases that are not just the first word of a sentence (or of a
    line, or a list item), nor a month or weekday (*in May*, *on Tuesday 3 July*), nor a lone
    nationality or language (*Italian food*, *Speaks French*) or a letter with digits (*B12*):
    :func:`_no_name`."""
    found: dict[str, None] = {}
    starts = {m.end() for m in _SENTENCE_START.finditer(text)}
    for match in _CAPITALISED.finditer(text):
        phrase = match.group(1)
        kept = phrase.split(" ")
        while kept and kept[0] in _START_WORDS:  # "The Rhine" -> "Rhine"
            kept.pop(0)
        kept = [w for w in kept if w not in DATE_WORDS]  # "Tuesday 3 July" -> nothing
        at_start = match.start() in starts
        if not kept or (kept == [phrase] and at_start) or _no_name(kept):
            continue
        if at_start and kept == phrase.split(" ") and _no_name(kept[1:]):
            continue  # "Cooks Italian ...", "Takes B12 ...": a sentence's first word, then none

        found.setdefault(" ".join(kept), None)
        if len(found) >= limit:
            break
    return list(found)


def make_gist(content: str, tags: Sequence[str] = (), entities: Sequence[str] = (),
              level: str = "moderate") -> str | None:
    """A gist for new content (see :mod:`core.gist`); None when the content is short, and never
    an exception: a gist must not block a save."""
    try:
        from .gist import generate_gist
    except ImportError:
        return None
    try:
        gist: str | None = generate_gist(content, level=level, tags=tags, entities=entities)
        return gist
    except Exception:
        return None


def given_gist(gist: str, content: str) -> str:
    """A gist someone wrote (an assistant through ``save_memory``, a split's part, a merged
    memory), checked as every gist is: not empty, shorter than the content it sums up (in
    estimated tokens and in characters), no control character but line breaks and tabs. The
    gist, stripped; a VaultError saying what is wrong otherwise. (Secrets are refused, or
    redacted, by the commit's screen, in the gist as in every field.)"""
    from .errors import VaultError
    from .model.tokens import estimate_tokens

    text = gist.strip()
    if not text:
        raise VaultError("refused: the gist is empty (leave gist out and memvault makes one)")
    if has_controls(text):
        raise VaultError("refused: the gist holds a control character (only line breaks and "
                         "tabs are allowed)")
    mine, theirs = estimate_tokens(text), estimate_tokens(content)
    if mine >= theirs or len(text) >= len(content.strip()):
        raise VaultError(f"refused: a gist must be shorter than the content it sums up "
                         f"(gist {mine} tokens, {len(text)} characters; content {theirs} tokens, "
                         f"{len(content.strip())} characters)")
    return text


def words(text: str) -> list[str]:
    return _WORD.findall(text)


def _visible(match: re.Match[str]) -> str:
    char = match.group()
    return _NAMED_ESCAPES.get(char) or f"\\x{ord(char):02x}"


def neutralise_controls(text: str, single_line: bool = False) -> str:
    """``text`` with every character that could drive a terminal shown as a visible escape, as
    Python writes it: ESC -> ``\\x1b``, CSI (U+009B) -> ``\\x9b``, DEL -> ``\\x7f``, carriage
    return -> ``\\r``, NUL -> ``\\x00``. Newline and tab are kept, unless ``single_line`` (a
    commit subject, a table cell, an error message), where they become ``\\n`` and ``\\t`` too.

    For display and commit messages only: stored content stays byte-exact. Idempotent (the
    result holds no control character); text without control characters comes back as is."""
    pattern = _CONTROLS if single_line else _CONTROLS_BUT_LINES
    if pattern.search(text) is None:  # the common case: no copy
        return text
    return pattern.sub(_visible, text)


def has_controls(text: str, single_line: bool = False) -> bool:
    """Whether :func:`neutralise_controls` would change ``text`` (one regex search)."""
    return (_CONTROLS if single_line else _CONTROLS_BUT_LINES).search(text) is not None


def neutralise_line(text: str) -> str:
    """:func:`neutralise_controls` for one line: newline and tab shown as ``\\n`` and ``\\t``."""
    return neutralise_controls(text, single_line=True)
