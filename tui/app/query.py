"""The filter box's language, which is the one of ``memvault search`` and ``list --query``
(:mod:`core.search.query`: words, ``"phrases"``, ``prefix*``, ``tag:``, ``entity:``,
``status:``, ``id:``, ``has:``, ``score<0.1``-style comparisons, ``-`` to negate).

Pure Python (no textual): :func:`parse` turns the box's text into a :class:`Query`, whose
:meth:`Query.matches` is called for every memory on each keystroke, so it only does string and
number comparisons against what :class:`tui.app.view.Row` has precomputed (a Row is a
:class:`core.search.query.Candidate`). Words match as substrings of the row's text here (a word
being typed, a piece of an id); the same words also go through the ranked search of ``memvault
search`` (:mod:`tui.app.search_rank`: question words left out, any word finds), whose hits the
filter keeps too, so a question typed in the box finds what ``memvault search`` finds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from core.search import query as language

if TYPE_CHECKING:
    from .view import Row


@dataclass
class Query:
    parsed: language.Query = field(default_factory=language.Query)
    #: every term: the words as substrings, the fields (tag:, has:, score<...) as filters
    test: language.Test = field(default=lambda c, now: True)
    #: the fields and the negated words alone: what the ranked search of the words finds among
    fields: language.Test = field(default=lambda c, now: True)

    @property
    def text(self) -> str:
        return self.parsed.text

    @property
    def errors(self) -> list[str]:
        return self.parsed.errors

    @property
    def words(self) -> list[str]:
        """The wanted words, phrases and prefixes, lowercased (for highlighting)."""
        return self.parsed.words

    @property
    def ranked(self) -> bool:
        """The filter has words to rank by."""
        return self.parsed.has_text

    @property
    def empty(self) -> bool:
        return self.parsed.empty

    def matches(self, row: Row, now: int) -> bool:
        return self.test(row, now)

    def allows(self, row: Row, now: int) -> bool:
        """The query's fields and negated words (everything but the words wanted) keep
        ``row``."""
        return self.fields(row, now)


def parse(text: str) -> Query:
    """The query for the filter box's text. Terms it cannot read are reported in ``errors``
    and left out; the others still filter."""
    parsed = language.parse(text)
    fields = language.Query(text, [t for t in parsed.terms if not t.is_text or t.negated])
    return Query(parsed, language.compile_filter(parsed), language.compile_filter(fields))
