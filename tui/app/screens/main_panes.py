"""The main screen's right side: what the cursor is on (detail at once; provenance and history, which read git, once the cursor rests), switching panes, and showing the view an operation left (:meth:`MainPanes.apply_change`)."""

from __future__ import annotations

from textual import work
from textual.widgets import Input, TabbedContent

from core import VaultError

from ..messages import (
    HistoryLoaded,
    LineageLoaded,
    OperationFailed,
)
from ..query import parse
from ..service import Change
from ..widgets.history import HistoryPane
from ..widgets.memory_tree import NodeData
from ..widgets.provenance import ProvenancePane

TABS = {"detail": "tab-detail", "provenance": "tab-provenance", "history": "tab-history"}
PANE_DELAY = 0.12  # seconds the cursor rests on a memory before git-backed panes load


class MainPanes:
    """A part of :class:`~tui.app.screens.main.MainScreen` (its widgets, service and view); plain
    methods, actions and workers only: the message handlers stay on the screen."""

    def _show_cursor(self) -> None:
        node = self.memory_tree.cursor_node
        self._show_node(node.data if node is not None else None)

    def _show_node(self, data: NodeData | None) -> None:
        view = self.view
        if view is None:
            return
        detail = self.detail
        if data is None:
            self.current = None
            detail.clear_detail("No memory matches." if not self.matched else
                                "Highlight a memory to see it here.")
            return
        if view.partial and data.kind in ("group", "memory", "loading"):  # a first look, a glance
            self.current = None
            detail.clear_detail("Opening the vault: what is highlighted shows here when it is "
                                "open.")
            return
        if data.kind == "group" and data.group is not None:
            self.current = None
            detail.show_group(view, data.group)
            self._schedule_panes()
            return
        if data.kind == "more" or data.memory_id is None:
            # a "… more" row: nothing to show but what it holds (never the row shown before)
            self.current = None
            n = len(data.remaining)
            detail.clear_detail(f"{n} more memor{'y' if n == 1 else 'ies'} in this group: "
                                "enter shows them.")
            self._schedule_panes()
            return
        self.current = data.memory_id
        detail.terms = self.filter.parsed.text_terms  # highlighted there too
        row = view.get(data.memory_id)
        if row is None:
            detail.show_gone(data.memory_id)
        else:
            detail.show_row(view, row)
        self._schedule_panes()

    def _schedule_panes(self) -> None:
        if self._pane_timer is not None:
            self._pane_timer.stop()
        delay = getattr(self.app, "pane_delay", PANE_DELAY)
        if delay <= 0:
            self._load_panes()
        else:
            self._pane_timer = self.set_timer(delay, self._load_panes)

    def _active_tab(self) -> str:
        active = self.query_one(TabbedContent).active
        return next((k for k, v in TABS.items() if v == active), "detail")

    def _load_panes(self) -> None:
        tab = self._active_tab()
        memory_id = self.current
        if tab == "provenance":
            pane = self.query_one(ProvenancePane)
            if memory_id is None:
                pane.show_message("Highlight a memory to see where it came from.")
            elif pane.memory_id != memory_id:
                pane.show_loading(memory_id)
                self.load_lineage(memory_id)
        elif tab == "history":
            pane = self.query_one(HistoryPane)
            if memory_id is None:
                pane.show_message("Highlight a memory to see its history.")
            elif pane.memory_id != memory_id:
                pane.show_loading(memory_id)
                self.load_history(memory_id)

    def action_tab(self, name: str) -> None:
        self.query_one(TabbedContent).active = TABS[name]

    def action_toggle_body(self) -> None:
        self.detail.toggle_body()
        self.refresh_list()  # its text column follows: gist or content first
        self.remember()

    @work(thread=True, group="lineage", exclusive=True, exit_on_error=False)
    def load_lineage(self, memory_id: str) -> None:
        try:
            found = self.service.lineage(memory_id)
        except VaultError as exc:
            self.post_message(LineageLoaded(memory_id, None, str(exc)))
            return
        self.post_message(LineageLoaded(memory_id, found))

    @work(thread=True, group="history", exclusive=True, exit_on_error=False)
    def load_history(self, memory_id: str) -> None:
        try:
            info = self.service.history(memory_id)
        except VaultError as exc:
            self.post_message(OperationFailed(str(exc), "history"))
            return
        self.post_message(HistoryLoaded(info))

    def _restore(self, memory_id: str, entry: object) -> None:
        self.run_change(lambda: self.service.restore_version(memory_id, entry))  # type: ignore[arg-type]

    def apply_change(self, change: Change, tab: str | None = None) -> None:
        """Show the view an operation left (the cursor where it says), notify, and reload the
        panes (switching to ``tab`` first, if given)."""
        self.view = change.view
        focus = change.focus if change.focus in change.view.rows else None
        self.memory_tree.stay_key = change.stay_key
        if (tab is not None and focus is not None and not self.filter.empty
                and not self.filter.matches(change.view.rows[focus], change.view.now)):
            # a wizard's new memory is where the person wants to look: show it
            with self.prevent(Input.Changed):
                self.query_one("#filter", Input).value = ""
            self.query_text, self.filter = "", parse("")
            self.query_one("#filter-error").display = False
        self.refilter(focus=focus)
        if focus is not None:
            self.memory_tree.focus()
        note = change.note
        if change.undoable:
            note += f"  ({self.key_for('undo')} undoes)"
        self.notify(note, title=change.title, markup=False)
        if tab is not None:
            self.action_tab(tab)
        self._reload_panes()

    def _reload_panes(self) -> None:
        """The vault changed: provenance and history of the current memory may have too."""
        self.query_one(ProvenancePane).memory_id = None
        self.query_one(HistoryPane).memory_id = None
        self._schedule_panes()
