"""The main screen's ways of looking: the history and provenance panes reached from
the keyboard (``H`` / ``p`` once shows the pane, twice moves into it, esc comes back to the
tree), the flat list beside the tree (``f``), gist or content first (``c``) (the settings
that persist them: settings.py)."""

from __future__ import annotations

from textual.widgets import TabbedContent

from ..widgets.detail import DetailPane
from ..widgets.history import HistoryTable
from ..widgets.memory_list import MemoryList
from ..widgets.tree_nodes import NodeData
from ..widgets.provenance import ProvenanceGraph
from .panes import TABS, CursorPanes
from .settings import SavedChoices
from .tree import MainTree
from .vault_screen import VaultScreen


class Views:
    """``screen``'s ways of looking at its vault: the panes from the keyboard, the flat list
    or the tree (``panes`` shows what their cursor is on), gist or content first; ``choices``
    saves what the person chose."""

    def __init__(self, screen: VaultScreen, panes: CursorPanes, choices: SavedChoices) -> None:
        self.screen = screen
        self.panes = panes
        self.choices = choices

    @property
    def tree(self) -> MainTree:
        return self.screen.query_one(MainTree)

    @property
    def memory_list(self) -> MemoryList:
        return self.screen.query_one(MemoryList)

    @property
    def showing_list(self) -> bool:
        return self.memory_list.display

    # -- the panes from the keyboard -----------------------------------------------------------
    def action_tab(self, name: str) -> None:
        self.panes.show_tab(name)

    def action_pane(self, name: str) -> None:
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

    def action_toggle_body(self) -> None:
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
    def action_toggle_view(self) -> None:
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
            current, view = self.screen.current, self.screen.view
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
        self.choices.remember()

    def refresh_list(self) -> None:
        """Show what the filter kept in the list (when it is showing), the cursor on the
        memory the panes show."""
        view = self.screen.view
        if not self.showing_list or view is None:
            return
        memory_list, tree = self.memory_list, self.tree
        memory_list.terms = tree.filter.parsed.text_terms
        memory_list.gist_first = not self.screen.query_one(DetailPane).show_content
        memory_list.show(view, tree.matched, focus=self.screen.current)
        self.list_title()
        self.show_list_row()

    def show_list_row(self) -> None:
        memory_id = self.memory_list.current_id
        self.panes.show_node(NodeData("memory", memory_id, memory_id=memory_id)
                             if memory_id is not None else None)

    def list_title(self) -> None:
        view, memory_list = self.screen.view, self.memory_list
        if view is None:
            return
        total, shown = len(view.rows), len(self.tree.matched)
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
            if self.screen.current is not None:
                memory_list.go_to(self.screen.current)
            memory_list.focus()
