"""Password assignments (``password: x``, ``api_key = x``, ``{"password": ...}``): the
config-file patterns of ``detect-secrets`` (no quotes needed), run only on the part of a line
around a keyword (64 characters either side) and only when that part has the punctuation the
pattern needs; the value cut at the first space, templates (``{x}``, ``<x>``, ``${x}``),
``$variables`` and indirect references (``f(x)``, ``a[b]``) left out.

The keywords are found with ``str.find`` in the text's lower-cased copy when it has one
(:class:`~core.secrets.keywords.FoldedText`), and each keyword's line from the last keyword's:
linear in the text's length, however long its lines."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from .keywords import FoldedText

PASSWORD = "password-assignment"
_AROUND_KEYWORD = 64
#: keyword pattern -> the characters it cannot match without (filled with the patterns)
NEEDS: dict[str, str] = {}
_KEYWORD_HINT = re.compile(r"key|pass|pwd|secret|contrase", re.IGNORECASE)
_KEYWORD_WORDS = ("key", "pass", "pwd", "secret", "contrase")  # its words, in its order


def keyword_matches(text: str, folded: FoldedText | None) -> list[tuple[int, int]]:
    """The spans ``_KEYWORD_HINT.finditer(text)`` gives, found with ``str.find`` when the
    text has a folded copy (at each place the first of its words that is there, then on
    from its end, as the regex goes)."""
    if folded is None:
        return [match.span() for match in _KEYWORD_HINT.finditer(text)]
    first: dict[int, str] = {}
    for word in _KEYWORD_WORDS:
        for at in folded.places(word):
            first.setdefault(at, word)
    spans, end = [], 0
    for at in sorted(first):
        if at >= end:
            end = at + len(first[at])
            spans.append((at, end))
    return spans


def passwords(text: str, keywords: list[tuple[int, int]], patterns: dict[Any, int],
               heuristic: Any) -> Iterator[tuple[str, int, int]]:
    """Password assignments: detect-secrets' config-file patterns, each run only on the part of
    a line around a keyword (64 characters either side) and only when that part has the
    punctuation the pattern needs (``:``, ``=``, ``;``): on long prose lines some of them
    backtrack for milliseconds. ``keywords`` are the keywords' spans, in order; each line is
    found from the last (a newline is looked at once, however long the line)."""
    line_start, line_end = 0, -1
    segments: list[tuple[int, int]] = []
    for at, _end in keywords:
        if at > line_end:  # a keyword on a later line: the last line's segments are done
            yield from _segments(text, line_start, line_end, segments, patterns, heuristic)
            line_start = text.rfind("\n", max(0, line_end), at) + 1
            found = text.find("\n", at)
            line_end, segments = (len(text) if found < 0 else found), []
        start = at - line_start  # (offsets in the line, as before)
        low = max(0, start - _AROUND_KEYWORD)
        if segments and low < segments[-1][1]:
            segments[-1] = (segments[-1][0], start + _AROUND_KEYWORD)
        else:
            segments.append((low, start + _AROUND_KEYWORD))
    yield from _segments(text, line_start, line_end, segments, patterns, heuristic)


def _segments(text: str, line_start: int, line_end: int, segments: list[tuple[int, int]],
              patterns: dict[Any, int], heuristic: Any) -> Iterator[tuple[str, int, int]]:
    for low, high in segments:
        part = text[line_start + low: min(line_start + high, line_end)]
        yield from _passwords_in(part, line_start + low, patterns, heuristic)


def _passwords_in(line: str, offset: int, patterns: dict[Any, int], heuristic: Any
                  ) -> Iterator[tuple[str, int, int]]:
    for pattern, group in patterns.items():
        needs = NEEDS.get(pattern.pattern, "")
        if needs and not any(c in line for c in needs):
            continue
        for match in pattern.finditer(line):
            s, e = match.span(group)
            value = line[s:e]
            cut = re.search(r"\s", value)
            if cut:
                value, e = value[:cut.start()], s + cut.start()
            value = value.rstrip(".;:!?)")
            e = s + len(value)
            if _plausible_password(value, heuristic) and not heuristic.is_indirect_reference(
                    line[max(0, s - _AROUND_KEYWORD): e + 1]):  # (slow on long lines: last)
                yield PASSWORD, offset + s, offset + e


def _plausible_password(value: str, heuristic: Any) -> bool:
    if len(value) < 6 or heuristic.is_templated_secret(value) \
            or heuristic.is_prefixed_with_dollar_sign(value):
        return False
    has_digit = any(c.isdigit() for c in value)
    has_symbol = any(not c.isalnum() for c in value)
    mixed = any(c.islower() for c in value) and any(c.isupper() for c in value[1:])
    return has_digit or has_symbol or mixed
