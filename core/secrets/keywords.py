"""Cheap keyword search for the secrets scanner: where its expensive patterns could match.

A huge note (megabytes of prose) has few spots a secret pattern could match. Each pattern
needs some literal text (``AKIA``, ``secret``, ``-us``, a ``:``...): :func:`required_literals`
reads it from the pattern itself (its parsed form), and :class:`FoldedText` finds literals in
a lower-cased copy of the text with ``str.find``, far faster than running a regular
expression (with ``re.IGNORECASE`` above all) over every position.

Both only ever rule a spot out when no match can be there: a literal is looked for
case-insensitively (a superset of a case-sensitive pattern's matches), and a text holding a
character that ``re.IGNORECASE`` equates to an ASCII letter while ``str.lower`` does not
(``ſ``, ``ı``, ``İ``) gets no folded copy at all (:attr:`FoldedText.fold` is None): the
scanner then runs every pattern everywhere, as it did before this module."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

# (re._parser is the parser re itself uses; sre_parse, its old name, warns when imported)
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]

#: characters ``re.IGNORECASE`` matches to an ASCII letter that ``str.lower`` leaves alone
#: (or turns into two characters): a text holding one is scanned without the shortcut
_UNFOLDABLE = ("\u017f", "\u0131", "\u0130")
_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", sre.MAX_REPEAT))


class FoldedText:
    """``text`` and its lower-cased copy (``fold``, same offsets; None when it cannot be made
    safely), with the places of keywords found in it, each keyword looked for once."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.fold: str | None = None
        if not any(c in text for c in _UNFOLDABLE):
            fold = text.lower()
            self.fold = fold if len(fold) == len(text) else None
        self._places: dict[str, list[int]] = {}

    def places(self, keyword: str) -> list[int]:
        """Every offset where ``keyword`` (lower case) starts in the text, any case, overlapping
        ones included. Only when :attr:`fold` is not None."""
        found = self._places.get(keyword)
        if found is None:
            assert self.fold is not None
            found, at = [], self.fold.find(keyword)
            while at >= 0:
                found.append(at)
                at = self.fold.find(keyword, at + 1)
            self._places[keyword] = found
        return found

    def places_of_any(self, keywords: Iterable[str]) -> list[int]:
        """The sorted offsets where any of ``keywords`` starts."""
        return sorted({at for keyword in keywords for at in self.places(keyword)})


def required_literals(pattern: re.Pattern[str]) -> frozenset[str] | None:
    """Lower-case strings, one of which every match of ``pattern`` contains (in any case), or
    None when no such set is seen in the pattern (a pattern made only of character classes)."""
    try:
        parsed = _parser.parse(pattern.pattern, pattern.flags)
    except Exception:  # (a pattern re compiled always parses; never lose a finding over it)
        return None
    return _of_sequence(list(parsed))


def _of_sequence(items: list[tuple[Any, Any]]) -> frozenset[str] | None:
    """The best literal set of a sequence: the one whose shortest literal is longest."""
    choices: list[frozenset[str]] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            choices.append(frozenset({"".join(run).lower()}))
            run.clear()

    for op, arg in items:
        if op is sre.LITERAL and arg < 128:
            run.append(chr(arg))
            continue
        flush()
        found = _of_item(op, arg)
        if found:
            choices.append(found)
    flush()
    if not choices:
        return None
    return max(choices, key=lambda lits: (min(len(lit) for lit in lits), -len(lits)))


def _of_item(op: Any, arg: Any) -> frozenset[str] | None:
    if op is sre.SUBPATTERN:
        return _of_sequence(list(arg[-1]))
    if op is sre.BRANCH:
        union: set[str] = set()
        for alternative in arg[1]:
            found = _of_sequence(list(alternative))
            if not found:
                return None
            union |= found
        return frozenset(union)
    if op in _REPEATS and arg[0] >= 1:
        return _of_sequence(list(arg[2]))
    return None
