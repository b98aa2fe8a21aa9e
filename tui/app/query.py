"""The filter box's language, which is the one of ``memvault search`` and ``list --query``
(:mod:`core.search.query`: words, ``"phrases"``, ``prefix*``, ``tag:``, ``entity:``,
``status:``, ``id:``, ``has:``, ``score<0.1``-style comparisons, ``-`` to negate).

Pure Python (no textual): :func:`parse` turns the box's text into a :class:`Query`, whose
:meth:`Query.matches` is called for every memory on each keystroke, so it only does string and
number comparisons against what :class:`tui.app.view.Row` has precomputed (a Row is a
:class:`core.search.query.Candidate`). Words match as substrings of the row's text here; ranking
them is :mod:`tui.app.search_rank`'s job.
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
    test: language.Test = field(default=lambda c, now: True)

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


def parse(text: str) -> Query:
    """The query for the filter box's text. Terms it cannot read are reported in ``errors``
    and left out; the others still filter."""
    parsed = language.parse(text)
    return Query(parsed, language.compile_filter(parsed))
