"""The main screen: filter box and tree on the left; detail, provenance and history on the right.

Every core call goes through the app's :class:`~tui.app.service.VaultService` in a thread worker;
results come back as messages (:mod:`tui.app.messages`) handled here.
"""

from __future__ import annotations

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Input, Static, TabbedContent, TabPane
from textual.widgets import Tree

from core import VaultError

from ...text import relative_time
from ..grouping import MODES, SORTS
from ..inbox_service import InboxService
from ..messages import (
    DuplicatesFound,
    HistoryLoaded,
    InboxCounted,
    JumpTo,
    LineageLoaded,
    MemoriesChanged,
    OperationFailed,
    SyncChecked,
    VaultReloaded,
)
from ..query import Query, parse
from ..service import VaultService, waiting_conflicts
from ..settings import Settings
from ..view import VaultView
from ..widgets.detail import DetailPane
from ..widgets.filter_input import FilterInput
from ..widgets.history import HistoryPane
from ..widgets.index_progress import IndexProgress
from ..widgets.memory_list import MemoryList
from ..widgets.memory_tree import MemoryTree, NodeData
from ..widgets.provenance import ProvenancePane
from .main_actions import MainActions
from .main_bulk import BULK_BINDINGS, MainBulk
from .main_edit import EDIT_BINDINGS, MainEdit
from .main_filtering import MainFiltering
from .main_follow import MainFollowing, VaultFollower
from .main_keys import MOVING_BINDINGS, TreeMoves
from .main_marks import MARK_BINDINGS, MainMarks, MarkRanges
from .main_opening import MainOpening
from .main_panes import TABS, GitPanes, MainPanes
from .main_views import DuplicateSearch, MainViews




#: The main screen's widgets whose keys are the screen's too (help and the palette read them).
MAIN_WIDGETS: tuple[type, ...] = (MemoryTree,)


class MainScreen(MainOpening, MainFiltering, MainBulk, MainMarks, MainActions, MainEdit, MainFollowing,
                 MainPanes, MainViews, Screen):
    AUTO_FOCUS = "#tree"  # keys typed while the vault opens are the tree's, not the filter's
    BINDINGS = [
        Binding("slash", "focus_filter", "Filter", id="memvault.filter"),
        Binding("a", "archive", "Archive", id="memvault.archive"),
        Binding("x,delete", "delete", "Delete", id="memvault.delete"),
        Binding("ctrl+z", "undo", "Undo", id="memvault.undo"),
        Binding("ctrl+y", "redo", "Redo", show=False, id="memvault.redo"),
        Binding("v", "split", "Split", id="memvault.split"),
        Binding("M", "consolidate", "Merge", id="memvault.consolidate"),
        # (the tree binds space to the same action, over Tree's own space)
        Binding("space", "mark", "Mark", show=False, id="memvault.mark"),
        Binding("m", "cycle_mode", "Group", show=False, id="memvault.group"),
        Binding("s", "cycle_sort", "Sort", show=False, id="memvault.sort"),
        Binding("c", "toggle_body", "Gist/content", show=False, id="memvault.toggle_body"),
        Binding("i", "goto", "Go to id", show=False, id="memvault.goto"),
        Binding("d", "tab('detail')", "Detail", show=False, id="memvault.tab.detail"),
        Binding("p", "pane('provenance')", "Provenance", show=False, id="memvault.tab.provenance"),
        Binding("H", "pane('history')", "History", show=False, id="memvault.tab.history"),
        Binding("C", "gc", "gc", show=False, id="memvault.gc"),
        Binding("S", "stats", "Stats", show=False, id="memvault.stats"),
        Binding("I", "inbox", "Inbox", show=False, id="memvault.inbox"),
        Binding("ctrl+r", "reload", "Reload", show=False, id="memvault.reload"),
        Binding("E", "outside_edits", "Outside edits", show=False, id="memvault.outside_edits"),
        *MOVING_BINDINGS,
        *EDIT_BINDINGS,
        # views (main_views.py): the flat list, the left pane's width
        Binding("f", "toggle_view", "List/tree", show=False, id="memvault.toggle_view"),
        Binding("less_than_sign", "resize_left(-4)", "Narrower", show=False,
                id="memvault.left.narrower"),
        Binding("greater_than_sign", "resize_left(4)", "Wider", show=False,
                id="memvault.left.wider"),
        *BULK_BINDINGS,
        *MARK_BINDINGS,
    ]

    def __init__(self, service: VaultService, *, poll_interval: float = 2.0,
                 rescore_interval: float = 60.0) -> None:
        super().__init__()
        self.service = service
        self.view: VaultView | None = None
        self.mode = MODES[0]
        self.sort = SORTS[0]
        self.query_text = ""
        self.filter: Query = parse("")
        self.matched: list[str] = []
        self.current: str | None = None  # the memory the panes show
        self.poll_interval = poll_interval
        self.rescore_interval = rescore_interval
        self.timings: dict[str, float] = {}  # for the bench: last tree rebuild, etc.
        self.inbox = InboxService(service.path, clock=service.clock, config=service.config,
                                  lock_timeout=service.lock_timeout)
        self.inbox_count = 0
        self.moves = TreeMoves(lambda: self.memory_tree, self.set_timer)
        self.git_panes = GitPanes(self, service, lambda: self.current)
        self.follower = VaultFollower(self, service, self.key_for)
        self.duplicate_search = DuplicateSearch(self, service)
        self.ranges = MarkRanges(lambda: self.memory_tree)

    # -- layout -----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield FilterInput(placeholder="filter: words  tag:x  status:archived  "
                                  "score<0.1  (/)", id="filter")
                yield Static("", id="filter-error")
                yield MemoryTree(id="tree")
                yield MemoryList(id="list")
                yield IndexProgress(id="index-progress")
            with TabbedContent(id="right", initial=TABS["detail"]):
                with TabPane("Detail", id=TABS["detail"]):
                    yield DetailPane(id="detail")
                with TabPane("Provenance", id=TABS["provenance"]):
                    yield ProvenancePane(id="provenance")
                with TabPane("History", id=TABS["history"]):
                    yield HistoryPane(id="history")
        yield Footer(compact=True)

    @property
    def memory_tree(self) -> MemoryTree:
        return self.query_one(MemoryTree)

    @property
    def detail(self) -> DetailPane:
        return self.query_one(DetailPane)

    def on_mount(self) -> None:
        self.query_one("#filter-error").display = False
        # not Textual's animated loading indicator: at 100k memories its frames take the
        # interpreter from the worker reading the first look, and the first paint comes ~0.4 s later
        self.memory_tree.border_title = "memories · opening…"
        self.detail.toggle_key = self.key_for("toggle_body")
        self.query_one(ProvenancePane).set_keys(self.key_for("split"),
                                                self.key_for("consolidate"))
        self._title_path = _short_path(self.service.root)
        self.app.sub_title = self._title_path
        settings = getattr(self.app, "settings", None)  # (the app's: MemvaultApp.settings)
        if isinstance(settings, Settings):
            self.apply_settings(settings)
        if self.service.is_open:
            self._opened(self.service.view, self.service.open_notes)
        else:
            self.open_vault()
        if self.poll_interval > 0:
            self.set_interval(self.poll_interval, self.follower.poll)
        if self.rescore_interval > 0:
            self.set_interval(self.rescore_interval, self.rescore)

    # -- the last sync (core.sync.engine) ---------------------------------------------------
    @work(thread=True, group="sync", exclusive=True, exit_on_error=False)
    def check_sync(self) -> None:
        try:
            info = self.service.last_sync()
        except VaultError:
            return
        self.post_message(SyncChecked(info))

    @on(SyncChecked)
    def _sync_checked(self, message: SyncChecked) -> None:
        waiting = waiting_conflicts(message.info)
        if not waiting or message.info is None:
            return
        n = len(waiting)
        files = ", ".join(str(c.get("vault_path") or c.get("path")) for c in waiting[:3])
        more = f" and {n - 3} more" if n > 3 else ""
        when = message.info.get("time")
        ago = f" ({relative_time(when, self.view.now if self.view else None)})" if when else ""
        self.notify(f"The last sync{ago} stopped at {n} conflict{'s' if n != 1 else ''} "
                    f"waiting for you: {files}{more}. Edit the copies in sync-conflicts/ into "
                    f"valid records, then run `memvault sync` again ({self.key_for('stats')} "
                    "shows the details).",
                    title="sync", severity="warning", timeout=12, markup=False)

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.set_filter(event.value)

    def set_filter(self, text: str) -> None:
        self.query_text = text
        self.filter = parse(text)
        error = self.query_one("#filter-error", Static)
        if self.filter.errors:
            error.update(Text("; ".join(self.filter.errors), style="red"))
            error.display = True
        else:
            error.display = False
        self.refilter()

    @on(Input.Submitted, "#filter")
    def _filter_submitted(self) -> None:
        self.memory_tree.focus()

    # -- the moving keys (main_keys.py) ------------------------------------------------------
    def action_tree(self, action: str) -> None:
        self.moves.move(action)

    def action_top(self) -> None:
        self.moves.top()

    def action_bottom(self) -> None:
        self.moves.bottom()

    def action_open_node(self) -> None:
        self.moves.open_node()

    def action_close_node(self) -> None:
        self.moves.close_node()

    def action_expand_all(self) -> None:
        self.memory_tree.expand_all()

    def action_collapse_all(self) -> None:
        self.memory_tree.collapse_all()

    def action_copy_id(self) -> None:
        memory_id = self.current
        if memory_id is None:
            self.notify("Highlight a memory first", severity="warning", timeout=2)
            return
        self.app.copy_to_clipboard(memory_id)
        self.notify(f"copied {memory_id} (the terminal's clipboard, OSC 52)", title="id",
                    timeout=3, markup=False)

    def action_clear_filter(self) -> None:
        """esc: clear the filter (ctrl+z in the box brings it back) and go to the tree."""
        box = self.query_one("#filter", Input)
        if box.value:
            box.value = ""  # the box's Changed event refilters
        self.memory_tree.focus()

    def action_focus_filter(self) -> None:
        self.query_one("#filter", Input).focus()

    def action_cycle_mode(self) -> None:
        self.mode = MODES[(MODES.index(self.mode) + 1) % len(MODES)]
        self.refilter(focus=self.current)

    def action_cycle_sort(self) -> None:
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
        self.refilter()

    def set_mode(self, mode: str) -> None:
        self.mode = mode
        self.refilter(focus=self.current)

    def set_sort(self, sort: str) -> None:
        self.sort = sort
        self.refilter()

    # -- what the cursor is on -------------------------------------------------------------
    @on(Tree.NodeHighlighted, "#tree")
    def _highlighted(self, event: Tree.NodeHighlighted[NodeData]) -> None:
        if not self.showing_list:  # the list's cursor is what the panes show then
            self._show_node(event.node.data)
        self.follow_range()

    @on(DataTable.RowHighlighted, "#list")
    def _list_highlighted(self) -> None:
        self._show_list_row()

    @on(MemoryList.SortChanged)
    def _list_sorted(self) -> None:
        self.list_sort_changed()

    @on(DuplicatesFound)
    def _duplicates_found(self, message: DuplicatesFound) -> None:
        self.duplicates_found(message.found)

    @on(events.DescendantFocus)
    def _focused(self, event: events.DescendantFocus) -> None:
        self.redirect_focus(event.widget)

    @on(TabbedContent.TabActivated, "#right")
    def _tab_changed(self) -> None:
        self.git_panes.load()

    @on(LineageLoaded)
    def _lineage_loaded(self, message: LineageLoaded) -> None:
        pane = self.query_one(ProvenancePane)
        if message.memory_id != self.current or self.view is None:
            return
        if message.lineage is None:
            pane.show_message(message.error or "no lineage")
        else:
            pane.show_lineage(self.view, message.lineage)

    @on(HistoryLoaded)
    def _history_loaded(self, message: HistoryLoaded) -> None:
        if message.info.memory_id != self.current or self.view is None:
            return
        self.query_one(HistoryPane).show_history(message.info, self.view.now)

    @on(HistoryPane.ViewVersion)
    def _view_version(self, message: HistoryPane.ViewVersion) -> None:
        from .version import VersionScreen

        def done(restore: bool | None) -> None:
            if restore:
                self._restore(message.memory_id, message.entry)

        self.app.push_screen(VersionScreen(self.service, message.memory_id, message.entry), done)

    @on(HistoryPane.DiffVersions)
    def _diff_versions(self, message: HistoryPane.DiffVersions) -> None:
        self.open_diff(message.memory_id, message.old, message.new)

    @on(HistoryPane.RestoreVersion)
    def _restore_version(self, message: HistoryPane.RestoreVersion) -> None:
        self._restore(message.memory_id, message.entry)

    # -- operations -------------------------------------------------------------------------

    @on(MemoriesChanged)
    def _changed(self, message: MemoriesChanged) -> None:
        self.apply_change(message.change)
        self.count_inbox()

    @on(OperationFailed)
    def _failed(self, message: OperationFailed) -> None:
        if self.view is None:
            self.memory_tree.border_title = "memories"
        self.notify(message.message, title=message.title or "refused", severity="error",
                    markup=False)

    # -- the wizards ------------------------------------------------------------------------

    @on(ProvenancePane.WizardRequested)
    def _wizard_from_pane(self, message: ProvenancePane.WizardRequested) -> None:
        if message.wizard == "split":
            self.action_split(message.memory_id)
        else:
            self.action_consolidate(message.memory_id)

    # -- the review inbox (tui/app/inbox_service.py) --------------------------------------------

    @on(InboxCounted)
    def _inbox_counted(self, message: InboxCounted) -> None:
        self.inbox_count = message.count
        self.show_subtitle()

    # -- jumping ----------------------------------------------------------------------------
    @on(JumpTo)
    def _jump_to(self, message: JumpTo) -> None:
        self.jump(message.memory_id)

    # -- following the vault ---------------------------------------------------------------

    @work(thread=True, group="rescore", exclusive=True, exit_on_error=False)
    def rescore(self) -> None:
        if not self.service.is_open:
            return
        view = self.service.rescore()
        if view is not None:
            self.post_message(VaultReloaded(view, ""))

    @on(VaultReloaded)
    def _reloaded(self, message: VaultReloaded) -> None:
        self.view = message.view
        self.refilter()
        self.git_panes.reload()
        self.count_inbox()
        if message.reason:
            self.check_sync()
            n = len(message.view)
            self.notify(f"{message.reason} ({n} memor{'y' if n == 1 else 'ies'})",
                        title="vault", timeout=3, markup=False)
            for note in message.notes:
                self.notify(note, title="vault", markup=False)
        self.follower.tell_outside_edits()


def _short_path(path: object) -> str:
    from pathlib import Path

    p = Path(str(path))
    try:
        return "~/" + str(p.relative_to(Path.home()))
    except ValueError:
        return str(p)
