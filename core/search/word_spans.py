"""Where a query's words are in a text, for highlighting: the character spans its text terms
match (FTS5 decides what matches; this finds the same words again to mark them)."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable

from .query import TOKEN, Term

_SUFFIXES = ("ations", "ation", "ments", "ment", "ings", "ing", "ies", "ied", "ers", "es", "ed",
             "er", "ly", "s")


def fold(text: str) -> str:
    """Lowercase without diacritics (what FTS5's unicode61 remove_diacritics compares)."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def stem(token: str) -> str:
    """A rough English stem for highlighting (FTS5's porter stemmer decides what matches; this
    only finds the same words again in the text): a common suffix off, at least 3 letters left."""
    for suffix in _SUFFIXES:
        if token.endswith(suffix) and len(token) - len(suffix) >= 3:
            return token[: -len(suffix)]
    return token


def match_spans(text: str, terms: Iterable[Term]) -> list[tuple[int, int]]:
    """(start, end) character offsets in ``text`` of what the text terms match, sorted and not
    overlapping: a word matches tokens with its stem as a prefix, a prefix term tokens starting
    with it, a phrase the run of tokens in order."""
    tokens = [(m.start(), m.end(), fold(m.group())) for m in TOKEN.finditer(text)]
    spans: list[tuple[int, int]] = []
    for term in terms:
        wanted = [fold(t) for t in term.tokens()]
        if not wanted:
            continue
        last = len(wanted) - 1
        tests = [_token_test(w, term.kind == "prefix" and i == last) for i, w in enumerate(wanted)]
        width = len(tests)
        if width == 1:
            test = tests[0]
            spans += [(start, end) for start, end, token in tokens if test(token)]
            continue
        for i in range(len(tokens) - width + 1):
            if all(tests[k](tokens[i + k][2]) for k in range(width)):
                spans.append((tokens[i][0], tokens[i + width - 1][1]))
    return _merged(spans)


def _token_test(wanted: str, prefix: bool) -> Callable[[str], bool]:
    if prefix:
        return lambda token: token.startswith(wanted)
    root = stem(wanted)
    if len(root) < 3:  # "ci", "is": the word itself, not every word starting with it
        return lambda token: token == wanted
    return lambda token: token.startswith(root)


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(end, out[-1][1]))
        else:
            out.append((start, end))
    return out
