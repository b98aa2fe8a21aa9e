"""The main screen's ways of looking (issue 16): the history and provenance panes reached from
the keyboard (``H`` / ``p`` once shows the pane, twice moves into it, esc comes back to the
tree), and the word diff of two versions opened from the history pane."""

from __future__ import annotations

from textual.widgets import TabbedContent

from core import HistoryEntry

from ..widgets.history import HistoryTable
from ..widgets.provenance import ProvenanceGraph
from .main_panes import TABS


class MainViews:
    """A part of :class:`~tui.app.screens.main.MainScreen`; plain methods and actions only (the
    message handlers stay on the screen)."""

    def action_pane(self, name: str) -> None:
        """Show the pane ``name``; when it shows already, move the focus into it."""
        tabs = self.query_one(TabbedContent)
        if tabs.active == TABS[name]:
            self.focus_pane(name)
        else:
            tabs.active = TABS[name]

    def focus_pane(self, name: str) -> None:
        if name == "history":
            self.query_one(HistoryTable).focus()
        elif name == "provenance":
            self.query_one(ProvenanceGraph).focus()

    def action_focus_tree(self) -> None:
        self.tree.focus()

    def open_diff(self, memory_id: str, old: HistoryEntry | None, new: HistoryEntry) -> None:
        from .version_diff import VersionDiffScreen

        def done(restore: HistoryEntry | None) -> None:
            if restore is not None:
                self._restore(memory_id, restore)

        now = self.view.now if self.view is not None else None
        self.app.push_screen(VersionDiffScreen(self.service, memory_id, old, new, now), done)
