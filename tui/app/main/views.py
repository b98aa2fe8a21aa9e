"""The main screen's ways of looking: the history and provenance panes reached from
the keyboard (``H`` / ``p`` once shows the pane, twice moves into it, esc comes back to the
tree), the word diff of two versions opened from the history pane, the flat list beside the
tree (``f``), gist or content first (``c``) and the "possible duplicates" grouping's search
(the settings that persist them: settings.py)."""

from __future__ import annotations

from functools import partial

from textual.screen import Screen
from textual.widgets import TabbedContent

from core import HistoryEntry

from .. import duplicates
from ..messages import DuplicatesFound, OperationFailed
from ..service import VaultService
from ..view import VaultView
from ..widgets.detail import DetailPane
from ..widgets.history import HistoryPane, HistoryTable
from ..widgets.memory_list import MemoryList
from ..widgets.memory_tree import MemoryTree
from ..widgets.tree_nodes import NodeData
from ..widgets.provenance import ProvenanceGraph
from .filtering import TreeFilter
from .panes import TABS, CursorPanes
from .settings import SavedChoices
from .state import MainState


class DuplicateSearch:
    """The search the "possible duplicates" grouping shows, in a worker of ``screen``: once a
    view (its answer is kept by :mod:`tui.app.duplicates`). Owns which view it last searched."""

    def __init__(self, screen: Screen[object], service: VaultService) -> None:
        self.screen = screen
        self.service = service
        self.searched: VaultView | None = None

    def start(self, view: VaultView) -> None:
        if duplicates.known(view) is not None or self.searched is view:
            return
        self.searched = view
        self.screen.run_worker(partial(self.find, view), thread=True, group="duplicates",
                               exclusive=True, exit_on_error=False)

    def find(self, view: VaultView) -> None:
        """(In a worker.) Posts :class:`DuplicatesFound`, or says why it could not look."""
        try:
            found = duplicates.find_duplicates(view, self.service.wizards.clusters)
        except Exception as exc:  # a suggestion: its failure is said, never fatal
            self.screen.post_message(OperationFailed(f"cannot look for duplicates: {exc}",
                                                     "duplicates"))
            return
        self.screen.post_message(DuplicatesFound(found))


class Views:
    """``screen``'s ways of looking at ``state``: the panes from the keyboard, a diff of two
    versions (through ``service``), the flat list or the tree (``panes`` shows what their
    cursor is on, ``filtering`` rebuilds the tree), gist or content first, the duplicates'
    search (``duplicate_search``); ``choices`` saves what the person chose."""

    def __init__(self, screen: Screen[object], state: MainState, service: VaultService,
                 panes: CursorPanes, filtering: TreeFilter, choices: SavedChoices,
                 duplicate_search: DuplicateSearch) -> None:
        self.screen = screen
        self.state = state
        self.service = service
        self.panes = panes
        self.filtering = filtering
        self.choices = choices
        self.duplicate_search = duplicate_search

    @property
    def tree(self) -> MemoryTree:
        return self.screen.query_one(MemoryTree)

    @property
    def memory_list(self) -> MemoryList:
        return self.screen.query_one(MemoryList)

    @property
    def showing_list(self) -> bool:
        return self.memory_list.display

    # -- the panes from the keyboard -----------------------------------------------------------
    def pane(self, name: str) -> None:
        """Show the pane ``name``; when it shows already, move the focus into it."""
        tabs = self.screen.query_one(TabbedContent)
        if tabs.active == TABS[name]:
            self.focus_pane(name)
        else:
            tabs.active = TABS[name]

    def focus_pane(self, name: str) -> None:
        if name == "history":
            self.screen.query_one(HistoryTable).focus()
        elif name == "provenance":
            self.screen.query_one(ProvenanceGraph).focus()

    def open_diff(self, memory_id: str, old: HistoryEntry | None, new: HistoryEntry) -> None:
        from ..screens.version_diff import VersionDiffScreen

        def done(restore: HistoryEntry | None) -> None:
            if restore is not None:
                self.panes.restore(memory_id, restore)

        view = self.state.view
        now = view.now if view is not None else None
        self.screen.app.push_screen(VersionDiffScreen(self.service, memory_id, old, new, now),
                                    done)

    def view_version(self, message: HistoryPane.ViewVersion) -> None:
        """A version from the history pane, whole; the person may restore it from there."""
        from ..screens.version import VersionScreen

        def done(restore: bool | None) -> None:
            if restore:
                self.panes.restore(message.memory_id, message.entry)

        self.screen.app.push_screen(VersionScreen(self.service, message.memory_id,
                                                  message.entry), done)

    def toggle_body(self) -> None:
        """``c``: the detail pane's gist or content first (the list's text column follows). On a
        memory with no gist nothing would change where the person looks: a note says why."""
        detail = self.screen.query_one(DetailPane)
        showing_content = detail.toggle_body()
        self.refresh_list()
        self.choices.remember()
        if detail.row is not None and not detail.row.memory.gist:
            then = "content" if showing_content else "gist"
            self.screen.notify(f"This memory has no gist, so its content shows either way "
                               f"(others now show their {then}; `memvault gist "
                               f"{detail.row.memory.id[:8]}` makes one)", timeout=4, markup=False)

    # -- the flat list beside the tree (widgets/memory_list.py) -------------------------------
    def toggle_view(self) -> None:
        """``f``: the grouped tree or the flat list (the cursor stays on its memory)."""
        show_list = not self.showing_list
        tree, memory_list = self.tree, self.memory_list
        memory_list.display = show_list
        tree.display = not show_list
        self.choices.left_width()
        if show_list:
            self.refresh_list()
            memory_list.focus()
        else:
            current, view = self.state.current, self.state.view
            if current is not None and view is not None and current in view.rows:
                node = tree.find_memory(current)
                if node is not None:
                    tree.move_cursor(node)
                    tree.scroll_to_node(node, animate=False)
            tree.focus()
        self.choices.remember()

    def after_refilter(self) -> None:
        """What the views need after the tree was rebuilt (the end of a refilter, which a new
        mode or sort runs too: saved here, written only when something changed)."""
        self.refresh_list()
        self.look_for_duplicates()
        self.choices.remember()

    def refresh_list(self) -> None:
        """Show what the filter kept in the list (when it is showing), the cursor on the
        memory the panes show."""
        view = self.state.view
        if not self.showing_list or view is None:
            return
        memory_list = self.memory_list
        memory_list.terms = self.state.filter.parsed.text_terms
        memory_list.gist_first = not self.screen.query_one(DetailPane).show_content
        memory_list.show(view, self.state.matched, focus=self.state.current)
        self.list_title()
        self.show_list_row()

    def show_list_row(self) -> None:
        memory_id = self.memory_list.current_id
        self.panes.show_node(NodeData("memory", memory_id, memory_id=memory_id)
                             if memory_id is not None else None)

    def list_title(self) -> None:
        view, memory_list = self.state.view, self.memory_list
        if view is None:
            return
        total, shown = len(view.rows), len(self.state.matched)
        count = f"memories {total}" if shown == total else f"memories {shown} of {total}"
        memory_list.border_title = f"{count} · {memory_list.sort_title}"

    def list_sort_changed(self) -> None:
        self.list_title()
        self.show_list_row()
        self.choices.remember()

    def redirect_focus(self, widget: object) -> None:
        """The tree was focused (esc, a jump, an operation) while the list shows: the list
        takes the focus, its cursor on the memory the panes show."""
        if widget is self.tree and self.showing_list:
            memory_list = self.memory_list
            if self.state.current is not None:
                memory_list.go_to(self.state.current)
            memory_list.focus()

    # -- the "possible duplicates" grouping (tui/app/duplicates.py) ----------------------------
    def look_for_duplicates(self) -> None:
        view = self.state.view
        if self.state.mode == "duplicates" and view is not None:
            self.duplicate_search.start(view)

    def duplicates_found(self, found: duplicates.Duplicates) -> None:
        duplicates.remember(found)
        if found.view is not self.state.view or self.state.mode != "duplicates":
            return
        self.filtering.refilter(focus=self.state.current)
        tree = self.tree
        first = tree.root.children[0] if tree.root.children else None
        if first is not None and first.data is not None and first.data.key == "dupes:found":
            tree.expand_node(first)
