"""The main screen's titles: the tree's border title (how many memories the filter shows, how many
are marked) and subtitle (the grouping and the order), and the header's subtitle (the vault's
path, "opening…" on a first look, the marks, the review inbox's count)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.screen import Screen

from ..grouping import MODE_NAMES, SORT_NAMES
from ..widgets.memory_tree import MemoryTree
from .state import MainState


class Titles:
    """The titles of ``screen``, from ``state``, the marks' note (``marks_note``) and the keys
    (``key_for``). Owns the vault's path as the header says it and the review inbox's count."""

    def __init__(self, screen: Screen[object], state: MainState, key_for: Callable[[str], str],
                 marks_note: Callable[[], str], title_path: str) -> None:
        self.screen = screen
        self.state = state
        self.key_for = key_for
        self.marks_note = marks_note
        self.title_path = title_path
        self.inbox_count = 0

    def tree_title(self) -> None:
        """``memories 12 of 40 · 3 marked``; the header too (it counts the marks)."""
        view = self.state.view
        if view is None:
            return
        total = view.total
        shown = total if view.glance is not None else len(self.state.matched)  # (a glance: no ids)
        title = f"memories {total}" if shown == total else f"memories {shown} of {total}"
        marked = self.marks_note()
        if marked:
            title += f" · {marked}"
        self.screen.query_one(MemoryTree).border_title = title
        self.show_subtitle()

    def tree_subtitle(self) -> None:
        tree = self.screen.query_one(MemoryTree)
        order = "rank" if tree.rank else SORT_NAMES[self.state.sort]
        tree.border_subtitle = f"group: {MODE_NAMES[self.state.mode]} · sort: {order}"

    def inbox_counted(self, count: int) -> None:
        self.inbox_count = count
        self.show_subtitle()

    def show_subtitle(self) -> None:
        """The header: the vault's path, "opening…" while the tree is a first look from the
        index, how many are marked, the review inbox's count."""
        parts = [self.title_path]
        view = self.state.view
        if view is not None and view.partial:
            parts.append("opening…")
        marks = self.screen.query_one(MemoryTree).marks
        if marks:
            parts.append(f"{len(marks)} marked")
        if self.inbox_count:
            parts.append(f"inbox: {self.inbox_count} to review ({self.key_for('inbox')})")
        self.screen.app.sub_title = " · ".join(parts)


def short_path(path: object) -> str:
    """The vault's path as the header says it: under the home folder, from ``~``."""
    p = Path(str(path))
    try:
        return "~/" + str(p.relative_to(Path.home()))
    except ValueError:
        return str(p)
