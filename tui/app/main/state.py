"""What the main screen's parts share: the vault as the screen shows it, the filter with its
grouping and sort, the memories the filter kept, and the memory the panes show. One object,
handed to each part in its constructor; each value has one part that writes it (named below)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..grouping import MODES, SORTS
from ..query import Query, parse
from ..view import VaultView


@dataclass
class MainState:
    """The main screen's shared values (the screen shows them as read-only attributes)."""

    #: the vault as shown: a glance, a first look, then the open vault (opening, operations)
    view: VaultView | None = None
    #: the tree's grouping and sort (:class:`~.filtering.TreeFilter`)
    mode: str = MODES[0]
    sort: str = SORTS[0]
    #: the filter box's text and what it parses to (:class:`~.filtering.TreeFilter`)
    query_text: str = ""
    filter: Query = field(default_factory=lambda: parse(""))
    #: the ids the filter kept, in the view's order (:class:`~.filtering.TreeFilter`)
    matched: list[str] = field(default_factory=list)
    #: the filter text whose words' search the tree's ranking holds, and its hits
    #: (:class:`~.filtering.TreeFilter`): kept by a refilter of the same text
    searched_text: str | None = None
    #: the memory the panes show (:class:`~.panes.CursorPanes`)
    current: str | None = None
    #: for the bench: how long the last tree rebuild took, etc.
    timings: dict[str, float] = field(default_factory=dict)
