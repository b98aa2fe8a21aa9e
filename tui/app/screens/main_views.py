"""The main screen's ways of looking: the history and provenance panes reached from
the keyboard (``H`` / ``p`` once shows the pane, twice moves into it, esc comes back to the
tree), the word diff of two versions opened from the history pane, the flat list beside the
tree (``f``), the left pane's width (``<`` / ``>``) and the settings that persist them."""

from __future__ import annotations

from functools import partial

from textual.screen import Screen
from textual.widgets import TabbedContent

from core import HistoryEntry

from .. import duplicates
from ..messages import DuplicatesFound, OperationFailed
from ..service import VaultService
from ..settings import LEFT_MAX, LEFT_MIN, Settings
from ..view import VaultView
from ..widgets.history import HistoryTable
from ..widgets.memory_list import MemoryList
from ..widgets.memory_tree import NodeData
from ..widgets.provenance import ProvenanceGraph
from .main_panes import TABS


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
        self.memory_tree.focus()

    def open_diff(self, memory_id: str, old: HistoryEntry | None, new: HistoryEntry) -> None:
        from .version_diff import VersionDiffScreen

        def done(restore: HistoryEntry | None) -> None:
            if restore is not None:
                self._restore(memory_id, restore)

        now = self.view.now if self.view is not None else None
        self.app.push_screen(VersionDiffScreen(self.service, memory_id, old, new, now), done)

    # -- the flat list beside the tree (widgets/memory_list.py) -------------------------------
    @property
    def memory_list(self) -> MemoryList:
        return self.query_one(MemoryList)

    @property
    def showing_list(self) -> bool:
        return self.memory_list.display

    def action_toggle_view(self) -> None:
        """``f``: the grouped tree or the flat list (the cursor stays on its memory)."""
        show_list = not self.showing_list
        self.memory_list.display = show_list
        self.memory_tree.display = not show_list
        self._left_width()
        if show_list:
            self.refresh_list()
            self.memory_list.focus()
        else:
            if self.current is not None and self.view is not None and self.current in self.view.rows:
                node = self.memory_tree.find_memory(self.current)
                if node is not None:
                    self.memory_tree.move_cursor(node)
                    self.memory_tree.scroll_to_node(node, animate=False)
            self.memory_tree.focus()
        self.remember()

    def after_refilter(self) -> None:
        """What the views need after the tree was rebuilt (the end of ``refilter``, which a
        new mode or sort runs too: saved here, written only when something changed)."""
        self.refresh_list()
        self.look_for_duplicates()
        self.remember()

    def refresh_list(self) -> None:
        """Show what the filter kept in the list (when it is showing), the cursor on the
        memory the panes show."""
        if not self.showing_list or self.view is None:
            return
        memory_list = self.memory_list
        memory_list.terms = self.filter.parsed.text_terms
        memory_list.gist_first = not self.detail.show_content
        memory_list.show(self.view, self.matched, focus=self.current)
        self._list_title()
        self._show_list_row()

    def _show_list_row(self) -> None:
        memory_id = self.memory_list.current_id
        self._show_node(NodeData("memory", memory_id, memory_id=memory_id)
                        if memory_id is not None else None)

    def _list_title(self) -> None:
        view, memory_list = self.view, self.memory_list
        if view is None:
            return
        total, shown = len(view.rows), len(self.matched)
        count = f"memories {total}" if shown == total else f"memories {shown} of {total}"
        memory_list.border_title = f"{count} · {memory_list.sort_title}"

    def list_sort_changed(self) -> None:
        self._list_title()
        self._show_list_row()
        self.remember()

    def redirect_focus(self, widget: object) -> None:
        """The tree was focused (esc, a jump, an operation) while the list shows: the list
        takes the focus, its cursor on the memory the panes show."""
        if widget is self.memory_tree and self.showing_list:
            if self.current is not None:
                self.memory_list.go_to(self.current)
            self.memory_list.focus()

    # -- the "possible duplicates" grouping (tui/app/duplicates.py) ----------------------------
    def look_for_duplicates(self) -> None:
        view = self.view
        if self.mode == "duplicates" and view is not None:
            self.duplicate_search.start(view)

    def duplicates_found(self, found: duplicates.Duplicates) -> None:
        duplicates.remember(found)
        if found.view is not self.view or self.mode != "duplicates":
            return
        self.refilter(focus=self.current)
        first = self.memory_tree.root.children[0] if self.memory_tree.root.children else None
        if first is not None and first.data is not None and first.data.key == "dupes:found":
            self.memory_tree.expand_node(first)

    # -- settings (tui/app/settings.py) --------------------------------------------------------
    def apply_settings(self, settings: Settings) -> None:
        """Show what the saved settings say (at mount, before the vault is open)."""
        self.mode, self.sort = settings.mode, settings.sort
        self.detail.show_content = settings.show_content
        memory_list = self.memory_list
        memory_list.sort, memory_list.descending = settings.list_sort, settings.list_descending
        memory_list.display = settings.view == "list"
        self.memory_tree.display = settings.view != "list"
        self._left_width()

    def _left_width(self) -> None:
        settings = getattr(self.app, "settings", None)
        if settings is not None:
            width = settings.list_width if self.showing_list else settings.left_width
            self.query_one("#left").styles.width = f"{width}%"

    def remember(self) -> None:
        """Save what the person chose (the app writes it when it changed)."""
        settings = getattr(self.app, "settings", None)
        if settings is None:
            return
        memory_list = self.memory_list
        settings.mode, settings.sort = self.mode, self.sort
        settings.show_content = self.detail.show_content
        settings.view = "list" if self.showing_list else "tree"
        settings.list_sort, settings.list_descending = memory_list.sort, memory_list.descending
        self.app.save_settings()

    def action_resize_left(self, step: int) -> None:
        """``<`` / ``>``: the left pane narrower or wider (by 4% of the screen); the tree and
        the list each keep their own width."""
        settings = getattr(self.app, "settings", None)
        if settings is None:
            return
        name = "list_width" if self.showing_list else "left_width"
        setattr(settings, name, max(LEFT_MIN, min(LEFT_MAX, getattr(settings, name) + step)))
        self._left_width()
        self.app.save_settings()
