"""The main screen's right side: what the cursor is on (the detail pane told at once and reading
it in its own worker; provenance and history, which read git, once the cursor rests:
:class:`GitPanes`) and switching panes. A new pane: its
widget in ``MainScreen.compose`` and its tab in :data:`TABS`."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from textual.timer import Timer
from textual.widgets import TabbedContent, TabPane

from ..view import VaultView
from ..widgets.detail import DetailPane
from ..widgets.git_reading import GitReading
from ..widgets.memory_tree import MemoryTree
from ..widgets.tree_nodes import NodeData
from .vault_screen import VaultScreen

#: The panes on the right, by name: the id of each one's tab (``MainScreen.compose``).
TABS = {"detail": "tab-detail", "provenance": "tab-provenance", "history": "tab-history"}
PANE_DELAY = 0.12  # seconds the cursor rests on a memory before git-backed panes load


@runtime_checkable
class GitPane(Protocol):
    """A pane that reads git (provenance, history: ``widgets/git_reading.py``): told the vault
    shown and the memory it should show, it reads that memory in its own worker."""

    view: VaultView | None
    reading: GitReading

    def want(self, memory_id: str | None) -> None: ...


class GitPanes:
    """Provenance and history, which read git (each pane reads in its own worker, through the
    service it was made with): told the memory ``screen`` shows once the cursor rests on it,
    and to read again after the vault changed. Owns the resting timer."""

    def __init__(self, screen: VaultScreen) -> None:
        self.screen = screen
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

    def reading_panes(self) -> dict[str, GitPane]:
        """The panes of :data:`TABS` that read git (built with a ``GitReading``), by tab."""
        found: dict[str, GitPane] = {}
        for name, tab_id in TABS.items():
            for child in self.screen.query_one(f"#{tab_id}", TabPane).children:
                if isinstance(child, GitPane) and isinstance(child.reading, GitReading):
                    found[name] = child
        return found

    def load(self) -> None:
        """The active pane, for the current memory: the pane reads it itself (in its worker)
        unless it shows that one already."""
        pane = self.reading_panes().get(self.active_tab())
        if pane is not None:
            pane.view = self.screen.view
            pane.want(self.screen.current)

    def reload(self) -> None:
        """The vault changed: what the git panes read of the current memory may have too."""
        for pane in self.reading_panes().values():
            pane.reading.stale = True
        self.schedule()


class CursorPanes:
    """What ``screen``'s panes show: the memory (or group) the cursor is on, written to
    ``screen.current``; the git-backed panes (``git_panes``) once it rests."""

    def __init__(self, screen: VaultScreen, git_panes: GitPanes) -> None:
        self.screen = screen
        self.git_panes = git_panes

    def show_cursor(self) -> None:
        node = self.screen.query_one(MemoryTree).cursor_node
        self.show_node(node.data if node is not None else None)

    def show_node(self, data: NodeData | None) -> None:
        screen = self.screen
        view = screen.view
        if view is None:
            return
        detail = screen.query_one(DetailPane)
        tree = screen.query_one(MemoryTree)
        if data is None:
            screen.current = None
            detail.clear_detail("No memory matches." if not tree.ids else
                                "Highlight a memory to see it here.")
            return
        if view.partial and data.kind in ("group", "memory", "loading"):  # a first look, a glance
            screen.current = None
            detail.clear_detail("Opening the vault: what is highlighted shows here when it is "
                                "open.")
            return
        if data.kind == "group" and data.group is not None:
            screen.current = None
            node = tree.cursor_node
            detail.show_group(view, data.group,
                              expanded=node is not None and node.data is data and node.is_expanded)
            self.git_panes.schedule()
            return
        if data.kind == "more" or data.memory_id is None:
            # a "… more" row: nothing to show but what it holds (never the row shown before)
            screen.current = None
            n = len(data.remaining)
            detail.clear_detail(f"{n} more memor{'y' if n == 1 else 'ies'} in this group: "
                                "enter shows them.")
            self.git_panes.schedule()
            return
        screen.current = data.memory_id
        # the pane reads it itself (the filter's words highlighted there too)
        detail.want(view, data.memory_id, tree.terms)
        self.git_panes.schedule()

    def show_tab(self, name: str) -> None:
        self.screen.query_one(TabbedContent).active = TABS[name]
