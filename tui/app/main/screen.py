"""The main screen: filter box and tree on the left; detail, provenance and history on the right.

The screen is built of parts (each a plain class in a ``main_*`` module, given what it needs):
the screen composes the widgets, routes each message to the part that handles it, and keeps the
actions Textual runs by name as one-line delegates. Every core call goes through the app's
:class:`~tui.app.service.VaultService` in a worker; results come back as messages
(:mod:`tui.app.messages`)."""

from __future__ import annotations

from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Input, Static, TabbedContent, TabPane
from textual.widgets import Tree

from ..keys import key_for
from ..messages import (
    DuplicatesFound,
    EditFinished,
    EditorReady,
    Filtered,
    InboxCounted,
    JumpTo,
    MemoriesChanged,
    OperationFailed,
    Ranked,
    SearchIndexBuilt,
    SearchIndexProgress,
    SyncChecked,
    VaultGlanced,
    VaultOpened,
    VaultPreviewed,
    VaultReloaded,
)
from ..service import EditSession, VaultService
from ..view import VaultView
from ..widgets.detail import DetailPane
from ..widgets.filter_input import FilterInput
from ..widgets.history import HistoryPane
from ..widgets.index_progress import IndexProgress
from ..widgets.memory_list import MemoryList
from ..widgets.memory_tree import MemoryTree
from ..widgets.tree_nodes import NodeData
from ..widgets.provenance import ProvenancePane
from .actions import Operations
from .bulk import BulkOperations
from .changes import ChangeRunner
from .edit import Edits
from .filtering import TreeFilter
from .follow import Jumps, VaultFollower
from .keys import MAIN_BINDINGS, TreeMoves
from .marks import MarkRanges, Marks
from .opening import VaultOpening
from .panes import TABS, CursorPanes, GitPanes
from .pending import PendingWrite
from .settings import SavedChoices
from .state import MainState
from .titles import Titles, short_path
from .views import DuplicateSearch, Views

#: The main screen's widgets whose keys are the screen's too (help and the palette read them).
MAIN_WIDGETS: tuple[type, ...] = (MemoryTree,)


class MainScreen(Screen[object]):
    AUTO_FOCUS = "#tree"  # keys typed while the vault opens are the tree's, not the filter's
    BINDINGS: ClassVar[list[BindingType]] = [*MAIN_BINDINGS]

    def __init__(self, service: VaultService, *, poll_interval: float = 2.0,
                 rescore_interval: float = 60.0) -> None:
        super().__init__()
        self.service = service
        self.poll_interval = poll_interval
        self.rescore_interval = rescore_interval
        self.state = state = MainState()
        # the parts, each given what it needs (a lambda: a part built after it)
        def retitle() -> None:  # (the tree's and the list's titles: parts built below)
            self.titles.tree_title()
            self.views.list_title()

        self.pending = PendingWrite(self, retitle)
        self.runner = ChangeRunner(self, state, self.key_for, self.pending)
        self.marks = Marks(self, state, self.runner.need_memory, self.key_for,
                           changed=lambda: self.titles.tree_title())
        self.ranges: MarkRanges = self.marks.ranges
        self.titles = Titles(self, state, self.key_for, self.marks.note, short_path(service.root))
        self.filtering = TreeFilter(self, state, self.titles,
                                    shown=lambda: self.panes.show_cursor(),
                                    after=lambda: self.views.after_refilter())
        self.git_panes = GitPanes(self, state)
        self.panes = CursorPanes(self, state, service, self.git_panes, self.filtering,
                                 self.runner, self.key_for)
        self.choices = SavedChoices(self, state)
        self.duplicate_search = DuplicateSearch(self, service)
        self.views = Views(self, state, service, self.panes, self.filtering, self.choices,
                           self.duplicate_search)
        self.follower = VaultFollower(self, state, service, self.key_for)
        self.jumps = Jumps(self, state, service, self.filtering.set_filter, self.panes.show_node,
                           self.panes.show_tab, self.git_panes)
        self.operations = Operations(self, state, service, self.runner,
                                     self.jumps.jump, self.panes.apply_change,
                                     self.follower.reload)
        self.bulk = BulkOperations(self, state, service, self.runner.need_memory,
                                   self.marks.unmark, self.pending)
        self.edits = Edits(self, state, service, self.runner, self.key_for,
                           self.panes.apply_change)
        self.opening = VaultOpening(self, state, service, self.filtering, self.titles,
                                    self.git_panes, self.follower, self.operations.count_inbox,
                                    lambda: self.views.showing_list)
        self.moves = TreeMoves(self, state)

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
                    yield ProvenancePane(read=self.service.lineage, id="provenance")
                with TabPane("History", id=TABS["history"]):
                    yield HistoryPane(read=self.service.history, id="history")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#filter-error").display = False
        # not Textual's animated loading indicator: at 100k memories its frames take the
        # interpreter from the worker reading the first look, and the first paint comes ~0.4 s later
        self.memory_tree.border_title = "memories · opening…"
        self.detail.toggle_key = self.key_for("toggle_body")
        self.query_one(ProvenancePane).set_keys(self.key_for("split"),
                                                self.key_for("consolidate"))
        self.app.sub_title = self.titles.title_path
        settings = self.choices.settings()
        if settings is not None:
            self.choices.apply(settings)
        if self.service.is_open:
            self.opening.opened(self.service.view, self.service.open_notes)
        else:
            self.opening.open_vault()
        if self.poll_interval > 0:
            self.set_interval(self.poll_interval, self.follower.poll)
        if self.rescore_interval > 0:
            self.set_interval(self.rescore_interval, self.follower.rescore)

    # -- what the parts share, read here (tests, the bench, the palette) ----------------------
    @property
    def view(self) -> VaultView | None:
        return self.state.view

    @property
    def current(self) -> str | None:
        return self.state.current

    @property
    def matched(self) -> list[str]:
        return self.state.matched

    @property
    def mode(self) -> str:
        return self.state.mode

    @property
    def sort(self) -> str:
        return self.state.sort

    @property
    def query_text(self) -> str:
        return self.state.query_text

    @property
    def timings(self) -> dict[str, float]:
        return self.state.timings

    @property
    def memory_tree(self) -> MemoryTree:
        return self.query_one(MemoryTree)

    @property
    def memory_list(self) -> MemoryList:
        return self.query_one(MemoryList)

    @property
    def showing_list(self) -> bool:
        return self.views.showing_list

    @property
    def detail(self) -> DetailPane:
        return self.query_one(DetailPane)

    def key_for(self, action: str) -> str:
        """The first key bound to ``action`` on this screen, as the keymap has it now."""
        return key_for(self.app, type(self), action)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.opening.allows(action)

    def set_filter(self, text: str) -> None:
        self.filtering.set_filter(text)

    def set_mode(self, mode: str) -> None:
        self.filtering.set_mode(mode)

    def set_sort(self, sort: str) -> None:
        self.filtering.set_sort(sort)

    def refilter(self, focus: str | None = None) -> None:
        self.filtering.refilter(focus)

    def jump(self, key: str) -> None:
        self.jumps.jump(key)

    def run_editor_on(self, session: EditSession) -> None:
        self.edits.run_editor_on(session)

    # -- messages, each to its part (a handler a message) -------------------------------------
    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.filtering.set_filter(event.value)
    @on(Input.Submitted, "#filter")
    def _filter_submitted(self) -> None:
        self.memory_tree.focus()
    @on(Filtered)
    def _filtered(self, message: Filtered) -> None:
        self.filtering.filtered(message)
    @on(Ranked)
    def _ranked(self, message: Ranked) -> None:
        self.filtering.ranked(message)

    @on(Tree.NodeHighlighted, "#tree")
    def _highlighted(self) -> None:
        # the node under the cursor now, not the message's: a rebuild since may have put
        # another row there (the pane described a row the tree no longer showed)
        if not self.views.showing_list:  # the list's cursor is what the panes show then
            self.panes.show_cursor()
        self.marks.follow_range()
    @on(Tree.NodeExpanded, "#tree")
    @on(Tree.NodeCollapsed, "#tree")
    def _folded(self, event: Tree.NodeExpanded[NodeData] | Tree.NodeCollapsed[NodeData]) -> None:
        if event.node is self.memory_tree.cursor_node and not self.views.showing_list:
            self.panes.show_cursor()  # a group's detail says whether it is open
    @on(DataTable.RowHighlighted, "#list")
    def _list_highlighted(self) -> None:
        self.views.show_list_row()
    @on(MemoryList.SortChanged)
    def _list_sorted(self) -> None:
        self.views.list_sort_changed()
    @on(events.DescendantFocus)
    def _focused(self, event: events.DescendantFocus) -> None:
        self.views.redirect_focus(event.widget)
    @on(DuplicatesFound)
    def _duplicates_found(self, message: DuplicatesFound) -> None:
        self.views.duplicates_found(message.found)

    @on(TabbedContent.TabActivated, "#right")
    def _tab_changed(self) -> None:
        self.git_panes.load()
    @on(HistoryPane.ViewVersion)
    def _view_version(self, message: HistoryPane.ViewVersion) -> None:
        self.views.view_version(message)
    @on(HistoryPane.DiffVersions)
    def _diff_versions(self, message: HistoryPane.DiffVersions) -> None:
        self.views.open_diff(message.memory_id, message.old, message.new)
    @on(HistoryPane.RestoreVersion)
    def _restore_version(self, message: HistoryPane.RestoreVersion) -> None:
        self.panes.restore(message.memory_id, message.entry)

    @on(MemoriesChanged)
    def _changed(self, message: MemoriesChanged) -> None:
        self.pending.landed()
        self.panes.apply_change(message.change)
        self.operations.count_inbox()
    @on(OperationFailed)
    def _failed(self, message: OperationFailed) -> None:
        if self.state.view is None:
            self.memory_tree.border_title = "memories"
        self.notify(message.message, title=message.title or "refused", severity="error",
                    markup=False)
    @on(ProvenancePane.WizardRequested)
    def _wizard_from_pane(self, message: ProvenancePane.WizardRequested) -> None:
        if message.wizard == "split":
            self.operations.split(message.memory_id)
        else:
            self.operations.consolidate(message.memory_id)
    @on(InboxCounted)
    def _inbox_counted(self, message: InboxCounted) -> None:
        self.titles.inbox_counted(message.count)
    @on(JumpTo)
    def _jump_to(self, message: JumpTo) -> None:
        self.jumps.jump(message.memory_id)
    @on(EditorReady)
    def _editor_ready(self, message: EditorReady) -> None:
        self.edits.editor_ready(message)
    @on(EditFinished)
    def _edit_finished(self, message: EditFinished) -> None:
        self.edits.edit_finished(message)

    @on(VaultGlanced)
    def _glanced(self, message: VaultGlanced) -> None:
        self.opening.glanced(message)
    @on(VaultPreviewed)
    def _previewed(self, message: VaultPreviewed) -> None:
        self.opening.previewed(message)
    @on(VaultOpened)
    def _opened(self, message: VaultOpened) -> None:
        self.opening.opened(message.view, message.notes)
    @on(VaultReloaded)
    def _reloaded(self, message: VaultReloaded) -> None:
        self.opening.reloaded(message)
    @on(SearchIndexProgress)
    def _index_progress(self, message: SearchIndexProgress) -> None:
        self.opening.index_progress(message)
    @on(SearchIndexBuilt)
    def _index_built(self, message: SearchIndexBuilt) -> None:
        self.opening.index_built(message)
    @on(SyncChecked)
    def _sync_checked(self, message: SyncChecked) -> None:
        self.follower.sync_checked(message)

    # -- the actions Textual runs by name (the keys: keys.py), each to its part ----------
    def action_tree(self, action: str) -> None: self.moves.move(action)
    def action_top(self) -> None: self.moves.top()
    def action_bottom(self) -> None: self.moves.bottom()
    def action_open_node(self) -> None: self.moves.open_node()
    def action_close_node(self) -> None: self.moves.close_node()
    def action_expand_all(self) -> None: self.memory_tree.expand_all()
    def action_collapse_all(self) -> None: self.memory_tree.collapse_all()
    def action_copy_id(self) -> None: self.moves.copy_id()
    def action_clear_filter(self) -> None: self.moves.clear_filter()
    def action_focus_filter(self) -> None: self.moves.focus_filter()
    def action_focus_tree(self) -> None: self.memory_tree.focus()
    def action_cycle_mode(self) -> None: self.filtering.cycle_mode()
    def action_cycle_sort(self) -> None: self.filtering.cycle_sort()
    def action_tab(self, name: str) -> None: self.panes.show_tab(name)
    def action_pane(self, name: str) -> None: self.views.pane(name)
    def action_toggle_body(self) -> None: self.views.toggle_body()
    def action_toggle_view(self) -> None: self.views.toggle_view()
    def action_resize_left(self, step: int) -> None: self.choices.resize_left(step)
    def action_mark(self) -> None: self.marks.mark()
    def action_mark_down(self) -> None: self.marks.extend("cursor_down")
    def action_mark_up(self) -> None: self.marks.extend("cursor_up")
    def action_visual(self) -> None: self.marks.visual()
    def action_mark_group(self) -> None: self.marks.mark_group()
    def action_invert_marks(self) -> None: self.marks.invert()
    def action_clear_marks(self) -> None: self.marks.clear()
    def action_archive(self) -> None: self.bulk.archive()
    def action_delete(self) -> None: self.bulk.delete()
    def action_touch(self) -> None: self.bulk.touch()
    def action_promote(self) -> None: self.bulk.promote()
    def action_tag(self) -> None: self.bulk.tag()
    def action_undo(self) -> None: self.operations.undo()
    def action_redo(self) -> None: self.operations.redo()
    def action_undo_list(self) -> None: self.operations.undo_list()
    def action_goto(self) -> None: self.operations.goto()
    def action_gc(self) -> None: self.operations.gc()
    def action_split(self) -> None: self.operations.split()
    def action_consolidate(self) -> None: self.operations.consolidate()
    def action_stats(self) -> None: self.operations.stats()
    def action_inbox(self) -> None: self.operations.inbox()
    def action_edit_form(self) -> None: self.edits.edit_form()
    def action_edit_text(self) -> None: self.edits.edit_text()
    def action_new_memory(self) -> None: self.edits.new_memory()
    def action_pin(self) -> None: self.edits.pin()
    def action_outside_edits(self) -> None: self.jumps.outside_edits()
    def action_reload(self) -> None: self.follower.reload("reloaded")

