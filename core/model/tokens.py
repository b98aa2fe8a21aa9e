"""One offline token estimate, used everywhere memvault counts tokens.

Every count memvault shows (gist savings, recall budgets, backfill totals) comes from
:func:`estimate_tokens`. It is an *approximation* of what a BPE tokenizer of the cl100k family
(GPT-4 class models; Claude's tokenizer behaves similarly on English) would count, computed with
one regular expression and no vocabulary file, so it runs offline, deterministically and in
linear time. Show it to people as approximate ("~120 tokens").

How each piece of a text is counted, and how far the estimate may be off: ``docs/tokens.md``.
"""

from __future__ import annotations

import re

__all__ = ["estimate_tokens", "format_tokens"]

_CJK = (
    "\u1100-\u11ff"  # hangul jamo
    "\u2e80-\u2fdf"  # CJK radicals
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3100-\u31ff"  # bopomofo, hangul compat, katakana ext
    "\u3400-\u4dbf"  # CJK ext A
    "\u4e00-\u9fff"  # CJK unified
    "\uac00-\ud7af"  # hangul syllables
    "\uf900-\ufaff"  # CJK compat
    "\uff66-\uff9f"  # half-width katakana
)

_LATIN = "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f"
_ASCII_PUNCT = "!-/:-@\\[-^`{-~"  # ASCII punctuation except "_"

# One regex per kind of piece. The chunking ones ({1,3}, {1,2}) make len(findall(...)) equal
# the sum over runs of ceil(run length / chunk), so all counting happens inside the regex engine.
_CJK_RE = re.compile(f"[{_CJK}]")
_LATIN_RUN = re.compile(f"[{_LATIN}]+")
_LATIN_LONG = re.compile(f"[{_LATIN}]{{9,}}")
_OTHER_LETTERS = re.compile(f"[^\\W\\d_{_LATIN}{_CJK}]{{1,2}}")
_DIGITS = re.compile(r"\d{1,3}")
_UNDERSCORES = re.compile(r"_+")
_NEWLINES = re.compile(r"\n(?:[ \t\r]*\n)*")
_INDENTS = re.compile(r"(?<![ \t\r\n])[ \t]{2,}(?![ \t]*\r?\n)")
_PUNCT = re.compile(f"[{_ASCII_PUNCT}]{{1,2}}")
_SYMBOL = re.compile(r"[^\w\s\x00-\x7f]")
_ASTRAL = re.compile(r"[^\w\s\x00-\uffff]")


def estimate_tokens(text: str) -> int:
    """Approximate number of LLM tokens in ``text`` (offline, deterministic, O(len(text))).

    See the module docstring for the rules. The empty string counts 0, any other non-blank
    text at least 1. Counts are additive over pieces joined by one space:
    ``estimate_tokens(a + " " + b) == estimate_tokens(a) + estimate_tokens(b)`` for ordinary text.
    """
    if not text:
        return 0
    total = len(_LATIN_RUN.findall(text))  # one token per Latin word...
    for word in _LATIN_LONG.findall(text):  # ...and long ones ceil(len / 6) instead of 1
        total += -(-len(word) // 6) - 1
    total += len(_DIGITS.findall(text))
    total += len(_PUNCT.findall(text))
    if "_" in text:
        total += len(_UNDERSCORES.findall(text))
    if "\n" in text:
        total += len(_NEWLINES.findall(text))
    if "  " in text or "\t" in text:
        total += len(_INDENTS.findall(text))
    if not text.isascii():
        total += len(_CJK_RE.findall(text))
        total += len(_OTHER_LETTERS.findall(text))
        total += len(_SYMBOL.findall(text)) + len(_ASTRAL.findall(text))
    if total == 0 and text.strip():
        return 1
    return total


def format_tokens(n: int) -> str:
    """How to show a count from :func:`estimate_tokens` to a person: ``~1,234 tokens``."""
    return f"~{n:,} token" + ("" if n == 1 else "s")
