"""Where a query's words are in a text, for highlighting: the character spans its text terms
match (FTS5 decides what matches; this finds the same words again to mark them)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable

from .query import TOKEN, Term

#: A run of letters or digits beyond ASCII; a token holding one (:func:`_mostly_ascii`) is
#: found from it: its letters before (:data:`_TOKEN_TAIL`, within :data:`_REACH`) and after.
_BEYOND_ASCII = re.compile(r"(?:(?![\x00-\x7f])[^\W_])+")
_NOT_ASCII = re.compile(r"[^\x00-\x7f]+")
_TOKEN_TAIL = re.compile(r"[^\W_]*\Z")
_REACH = 1024
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
    with it, a phrase the run of tokens in order. Linear in the text: an ASCII text (lowercase
    at the same offsets) is searched by one regular expression a term; any other is read a
    token at a time."""
    terms = list(terms)
    patterns = [_pattern(term) for term in terms]
    if all(p is not False for p in patterns):
        if text.isascii():
            return _merged(_regex_spans(text.lower(), terms, patterns))
        if all(len(term.tokens()) <= 1 for term in terms):
            mixed = _mostly_ascii(text, terms, patterns)
            if mixed is not None:
                return mixed
    return _token_spans(text, terms)


def _regex_spans(lowered: str, terms: list[Term], patterns: list[re.Pattern[str] | None | bool]
                 ) -> list[tuple[int, int]]:
    """Where each term's expression matches the lowercased ``lowered`` (ASCII, or its tokens
    holding another character blanked out: :func:`_mostly_ascii`)."""
    return [span for p, term in zip(patterns, terms) if isinstance(p, re.Pattern)
            for span in _found(p, lowered, len(term.tokens()) > 1)]


def _mostly_ascii(text: str, terms: list[Term], patterns: list[re.Pattern[str] | None | bool]
                  ) -> list[tuple[int, int]] | None:
    """:func:`match_spans` of words and prefixes (no phrase) in a text that is not all ASCII:
    the tokens holding a letter or digit beyond ASCII (found by a regular expression, not a
    token at a time) are folded one by one (:func:`_token_spans`' test), and every other token
    is searched by the terms' expressions in the lowercased text with those tokens blanked out
    (the same offsets: a text whose lowercase is longer is left to :func:`_token_spans`). A
    2.6 MB text with a few thousand such characters: milliseconds, where reading every token
    took most of a second. None when it cannot be done so (a token too long to find whole)."""
    lowered = text.lower()
    if len(lowered) != len(text):
        return None
    odd: list[tuple[int, int]] = []
    for beyond in _NOT_ASCII.finditer(text):  # (a plain class: scanned fast, few runs)
        for run in _BEYOND_ASCII.finditer(text, *beyond.span()):
            start, end = run.span()
            if odd and start < odd[-1][1]:
                continue  # (another run of the same token)
            before = _TOKEN_TAIL.search(text, max(0, start - _REACH), start)
            after = TOKEN.match(text, end)
            if before is None or (before.start() == start - _REACH and start - _REACH > 0):
                return None
            odd.append((before.start(), after.end() if after else end))
    pieces, at = [], 0
    for start, end in odd:
        pieces += [lowered[at:start], "\x00" * (end - start)]
        at = end
    pieces.append(lowered[at:])
    spans = _regex_spans("".join(pieces), terms, patterns)
    tokens = [(start, end, fold(text[start:end])) for start, end in odd]
    for term in terms:
        wanted = [fold(t) for t in term.tokens()]
        if wanted:
            test = _token_test(wanted[0], term.kind == "prefix")
            spans += [(start, end) for start, end, token in tokens if test(token)]
    return _merged(spans)


def _found(pattern: re.Pattern[str], text: str, overlapping: bool) -> list[tuple[int, int]]:
    """Where ``pattern`` matches the ASCII ``text`` from the start of a token; ``overlapping``
    (a run of several tokens): runs that overlap too, each search starting one character after
    the last match's start. A match of one token runs to the token's end, so the next token
    starts after it."""
    if not overlapping:
        return [m.span() for m in pattern.finditer(text)
                if not m.start() or not text[m.start() - 1].isalnum()]
    out = []
    at = 0
    while (m := pattern.search(text, at)) is not None:
        start = m.start()
        if not start or not text[start - 1].isalnum():
            out.append((start, m.end()))
        at = start + 1
    return out


def _pattern(term: Term) -> re.Pattern[str] | None | bool:
    """The expression finding, in lowercased ASCII, the runs of tokens ``term`` matches as
    :func:`_token_spans` decides, when they start at a token (:func:`_found` checks; a pattern
    that starts with its letters is searched for fast); None for a term with no token, False
    when a token of it is not one token once folded (then only :func:`_token_spans` can say)."""
    wanted = [fold(t) for t in term.tokens()]
    if not wanted:
        return None
    pieces = []
    for i, w in enumerate(wanted):
        if not TOKEN.fullmatch(w):
            return False
        if term.kind == "prefix" and i == len(wanted) - 1:
            pieces.append(re.escape(w) + r"[^\W_]*")
            continue
        root = stem(w)
        pieces.append(re.escape(w) + r"(?![^\W_])" if len(root) < 3 else
                      re.escape(root) + r"[^\W_]*")
    return re.compile(r"[\W_]+".join(pieces))


def _token_spans(text: str, terms: list[Term]) -> list[tuple[int, int]]:
    """:func:`match_spans` a token at a time (each folded as FTS5 folds it)."""
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
