"""The main screen's right side: what the cursor is on (detail at once; provenance and history,
which read git, once the cursor rests: :class:`GitPanes`), switching panes, and showing the view
an operation left (:meth:`CursorPanes.apply_change`)."""

from __future__ import annotations

from collections.abc import Callable

from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Input, TabbedContent

from core import HistoryEntry

from ..query import parse
from ..service import Change, VaultService
from ..widgets.detail import DetailPane
from ..widgets.history import HistoryPane
from ..widgets.memory_tree import MemoryTree
from ..widgets.tree_nodes import NodeData
from ..widgets.provenance import ProvenancePane
from .changes import ChangeRunner
from .filtering import TreeFilter
from .state import MainState

TABS = {"detail": "tab-detail", "provenance": "tab-provenance", "history": "tab-history"}
PANE_DELAY = 0.12  # seconds the cursor rests on a memory before git-backed panes load


class GitPanes:
    """Provenance and history, which read git (each pane reads in its own worker, through the
    service it was made with): told the memory ``state`` shows once the cursor rests on it,
    and to read again after the vault changed. Owns the resting timer."""

    def __init__(self, screen: Screen[object], state: MainState) -> None:
        self.screen = screen
        self.state = state
        self.timer: Timer | None = None

    def active_tab(self) -> str:
        active = self.screen.query_one(TabbedContent).active
        return next((k for k, v in TABS.items() if v == active), "detail")

    def schedule(self) -> None:
        """Load the panes once the cursor rests (the app's ``pane_delay``; 0: at once)."""
        if self.timer is not None:
            self.timer.stop()
        delay = getattr(self.screen.app, "pane_delay", PANE_DELAY)
        if delay <= 0:
            self.load()
        else:
            self.timer = self.screen.set_timer(delay, self.load)

    def load(self) -> None:
        """The active pane, for the current memory: the pane reads it itself (in its worker)
        unless it shows that one already."""
        tab = self.active_tab()
        pane: ProvenancePane | HistoryPane
        if tab == "provenance":
            pane = self.screen.query_one(ProvenancePane)
        elif tab == "history":
            pane = self.screen.query_one(HistoryPane)
        else:
            return
        pane.view = self.state.view
        pane.want(self.state.current)

    def reload(self) -> None:
        """The vault changed: provenance and history of the current memory may have too."""
        self.screen.query_one(ProvenancePane).reading.stale = True
        self.screen.query_one(HistoryPane).reading.stale = True
        self.schedule()


class CursorPanes:
    """What ``screen``'s panes show: the memory (or group) the cursor is on, written to
    ``state.current``; the git-backed panes (``git_panes``) once it rests; the view an
    operation left (``filtering`` shows it, ``runner`` runs a restore, ``key_for`` names the
    undo key; a restore goes through ``service``)."""

    def __init__(self, screen: Screen[object], state: MainState, service: VaultService,
                 git_panes: GitPanes, filtering: TreeFilter, runner: ChangeRunner,
                 key_for: Callable[[str], str]) -> None:
        self.screen = screen
        self.state = state
        self.service = service
        self.git_panes = git_panes
        self.filtering = filtering
        self.runner = runner
        self.key_for = key_for

    def show_cursor(self) -> None:
        node = self.screen.query_one(MemoryTree).cursor_node
        self.show_node(node.data if node is not None else None)

    def show_node(self, data: NodeData | None) -> None:
        state = self.state
        view = state.view
        if view is None:
            return
        detail = self.screen.query_one(DetailPane)
        if data is None:
            state.current = None
            detail.clear_detail("No memory matches." if not state.matched else
                                "Highlight a memory to see it here.")
            return
        if view.partial and data.kind in ("group", "memory", "loading"):  # a first look, a glance
            state.current = None
            detail.clear_detail("Opening the vault: what is highlighted shows here when it is "
                                "open.")
            return
        if data.kind == "group" and data.group is not None:
            state.current = None
            node = self.screen.query_one(MemoryTree).cursor_node
            detail.show_group(view, data.group,
                              expanded=node is not None and node.data is data and node.is_expanded)
            self.git_panes.schedule()
            return
        if data.kind == "more" or data.memory_id is None:
            # a "… more" row: nothing to show but what it holds (never the row shown before)
            state.current = None
            n = len(data.remaining)
            detail.clear_detail(f"{n} more memor{'y' if n == 1 else 'ies'} in this group: "
                                "enter shows them.")
            self.git_panes.schedule()
            return
        state.current = data.memory_id
        detail.terms = state.filter.parsed.text_terms  # highlighted there too
        row = view.get(data.memory_id)
        if row is None:
            detail.show_gone(data.memory_id)
        else:
            detail.show_row(view, row)
        self.git_panes.schedule()

    def show_tab(self, name: str) -> None:
        self.screen.query_one(TabbedContent).active = TABS[name]

    def restore(self, memory_id: str, entry: HistoryEntry) -> None:
        """A version of the memory back (one commit)."""
        self.runner.run(lambda: self.service.restore_version(memory_id, entry))

    def apply_change(self, change: Change, tab: str | None = None) -> None:
        """Show the view an operation left (the cursor where it says), notify, and reload the
        panes (switching to ``tab`` first, if given)."""
        state = self.state
        state.view = change.view
        focus = change.focus if change.focus in change.view.rows else None
        tree = self.screen.query_one(MemoryTree)
        tree.stay_key = change.stay_key
        if (tab is not None and focus is not None and not state.filter.empty
                and not state.filter.matches(change.view.rows[focus], change.view.now)):
            # a wizard's new memory is where the person wants to look: show it
            with self.screen.prevent(Input.Changed):
                self.screen.query_one("#filter", Input).value = ""
            state.query_text, state.filter = "", parse("")
            self.screen.query_one("#filter-error").display = False
        self.filtering.refilter(focus=focus)
        if focus is not None:
            tree.focus()
        note = change.note
        if change.undoable:
            note += f"  ({self.key_for('undo')} undoes)"
        self.screen.notify(note, title=change.title, markup=False)
        if tab is not None:
            self.show_tab(tab)
        self.git_panes.reload()
