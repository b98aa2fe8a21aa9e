"""Gist levels and the thresholds every step reads: bands, guards, the short-note rule.

Bands (fewer tokens than the content): ``light`` 5-15%, ``moderate`` 20-40%, ``aggressive``
50-75%. ``bench/gist.py`` measures them on real text.

0. **No gist for short notes.** Under :data:`MIN_WORDS` words (CJK text counts one word per two
characters) the content is its own gist: ``None``. **A huge note's gist reads its start**: past
:data:`READ_CHARS` characters the pipeline reads only the part :func:`read_part` cuts (at the
last paragraph, sentence or word break before that many characters), so a gist costs the same
for a note of 2.6 MB as for one of 20 KB, and stays short: the gist of a note's opening pages.
"""

from __future__ import annotations

import re

__all__ = [
    "BANDS",
    "GUARD_RATIO",
    "LEVELS",
    "LIGHT_GUARD_RATIO",
    "MIN_WORDS",
    "OVERSHOOT",
    "READ_CHARS",
    "check_level",
    "read_part",
    "word_count",
]

LEVELS: tuple[str, ...] = ("light", "moderate", "aggressive")

#: Target reduction in tokens (fraction fewer than the content), per level.
BANDS: dict[str, tuple[float, float]] = {
    "light": (0.05, 0.15),
    "moderate": (0.20, 0.40),
    "aggressive": (0.50, 0.75),
}

#: How far beyond a band's upper edge the last-resort step may go when no combination of whole
#: units and clauses lands inside the band.
OVERSHOOT: dict[str, float] = {"light": 0.03, "moderate": 0.10, "aggressive": 0.10}
#: Content under this many words gets no gist.
MIN_WORDS = 30
#: A gist longer than this share of the content's tokens is not kept (moderate, aggressive).
GUARD_RATIO = 0.85
#: The same ceiling for ``light``, whose band (5-15% fewer tokens) lies above 0.85.
LIGHT_GUARD_RATIO = 0.95

#: The most of a note the gist pipeline reads (characters): about 3,000 words, far above an
#: ordinary note (the gist corpus's longest is ~2,000 characters), so only huge notes are cut.
READ_CHARS = 20_000
#: Where :func:`read_part` cuts, best first: a paragraph, a sentence's end, any whitespace.
_CUTS = (re.compile(r"\n[ \t]*\n"), re.compile(r"[.!?…。！？][\"'”’)\]]*\s"), re.compile(r"\s"))

_CJK = "\u1100-\u11ff\u2e80-\u2fdf\u3040-\u30ff\u3100-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f"
CJK_CHAR = re.compile(f"[{_CJK}]")
NON_CJK_WORD = re.compile(f"[^\\s{_CJK}]+")


def check_level(level: object) -> str:
    """``level`` if it is one of :data:`LEVELS`, else ValueError naming them."""
    if not isinstance(level, str) or level not in BANDS:
        raise ValueError(f"unknown gist level {level!r}; expected one of {', '.join(LEVELS)}")
    return level


def word_count(text: str) -> int:
    """Words in ``text`` for the :data:`MIN_WORDS` rule (CJK: one word per two characters)."""
    cjk = len(CJK_CHAR.findall(text))
    return len(NON_CJK_WORD.findall(text)) + cjk // 2


def read_part(content: str) -> str:
    """What the gist pipeline reads of ``content``: all of it up to :data:`READ_CHARS`
    characters, else its start, cut at the last paragraph break in the second half of the first
    :data:`READ_CHARS` characters, else at the last sentence end there, else at the last
    whitespace, else at the limit. One pass over at most :data:`READ_CHARS` characters."""
    if len(content) <= READ_CHARS:
        return content
    window = content[:READ_CHARS]
    half = READ_CHARS // 2
    for cut in _CUTS:
        end = -1
        for match in cut.finditer(window, half):
            end = match.end()
        if end > 0:
            return window[:end].rstrip()
    return window
