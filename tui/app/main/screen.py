"""The main screen: filter box and tree on the left; detail, provenance and history on the right.

The screen holds the layout and the messages that cross its widgets; the work is done by its
parts (each a plain class of this folder, given the parts it uses in its constructor), and the
action of each key by the part that owns it (:meth:`MainScreen.__getattr__`). What the person
chose of the tree (grouping, sort, filter, marks) is the tree's own, as reactive attributes the
screen watches (:mod:`.tree`). Every core call goes through the app's
:class:`~tui.app.service.VaultService` in a worker; results come back as messages
(:mod:`tui.app.messages`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Header, Input, Static, TabbedContent, TabPane
from textual.widgets import Tree

from ..first_frame import FILTER_PLACEHOLDER, OPENING
from ..keys import bindings_of, key_for
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
from ..service import VaultService
from ..view import VaultView
from ..widgets.detail import DetailPane
from ..widgets.filter_input import FilterInput
from ..widgets.history import HistoryPane
from ..widgets.index_progress import IndexProgress
from ..widgets.keys_footer import KeysFooter
from ..widgets.memory_list import MemoryList
from ..widgets.tree_nodes import NodeData
from ..widgets.provenance import ProvenancePane
from .bulk import BulkOperations
from .edit import Edits
from .filtering import TreeFilter
from .follow import Jumps, VaultFollower
from .keys import MAIN_BINDINGS
from .mark_ranges import MarkRanges
from .marks import Marks
from .opening import VaultOpening
from .operations import ChangeRunner, Operations
from .panes import TABS, CursorPanes, GitPanes
from .pending import PendingWrite
from .settings import SavedChoices
from .titles import Titles, short_path
from .tree import MainTree
from .vault_screen import VaultScreen
from .views import Views

#: The main screen's widgets whose keys are the screen's too (help and the palette read them).
MAIN_WIDGETS: tuple[type, ...] = (MainTree,)


class MainScreen(VaultScreen):
    AUTO_FOCUS = "#tree"  # keys typed while the vault opens are the tree's, not the filter's
    BINDINGS: ClassVar[list[BindingType]] = [*MAIN_BINDINGS]

    def __init__(self, service: VaultService, *, poll_interval: float = 2.0,
                 rescore_interval: float = 60.0, glance: VaultView | None = None) -> None:
        super().__init__()
        self.service = service
        #: the vault's glance, read before the screen was made (in the first frame's place:
        #: drawn at once, :meth:`VaultOpening.open_vault`)
        self.glance = glance
        self.poll_interval = poll_interval
        self.rescore_interval = rescore_interval
        # the parts, each given the parts it uses (built before it)
        key_for = self.key_for
        self.pending = PendingWrite(self, self.retitle)
        self.runner = ChangeRunner(self, key_for, self.pending)
        self.ranges = MarkRanges(self)
        self.titles = Titles(self, self.ranges, key_for, short_path(service.root))
        self.marks = Marks(self, self.runner, self.ranges, self.titles, key_for)
        self.git_panes = GitPanes(self)
        self.panes = CursorPanes(self, self.git_panes)
        self.choices = SavedChoices(self)
        self.views = Views(self, self.panes, self.choices)
        self.filtering = TreeFilter(self, service, self.titles, self.panes, self.views)
        self.follower = VaultFollower(self, service, key_for)
        self.jumps = Jumps(self, service, self.filtering, self.panes, self.git_panes)
        self.operations = Operations(self, service, self.runner, self.filtering, self.panes,
                                     self.git_panes, self.jumps, self.follower, key_for)
        self.bulk = BulkOperations(self, service, self.runner)
        self.edits = Edits(self, service, self.runner, self.operations, key_for)
        self.opening = VaultOpening(self, service, self.filtering, self.titles, self.git_panes,
                                    self.follower, self.operations, self.views)
        #: the parts that own the screen's actions (Textual runs a key's action by name on the
        #: screen: :meth:`__getattr__` finds the part whose ``action_*`` method it is)
        self.actors: tuple[object, ...] = (self.operations, self.bulk, self.edits, self.marks,
                                           self.views, self.choices, self.filtering, self.jumps)

    # -- layout -----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield FilterInput(placeholder=FILTER_PLACEHOLDER, id="filter")
                yield Static("", id="filter-error")
                yield MainTree(id="tree")
                yield MemoryList(id="list")
                yield IndexProgress(id="index-progress")
            with TabbedContent(id="right", initial=TABS["detail"]):
                with TabPane("Detail", id=TABS["detail"]):
                    yield DetailPane(id="detail")
                with TabPane("Provenance", id=TABS["provenance"]):
                    yield ProvenancePane(read=self.service.lineage, id="provenance")
                with TabPane("History", id=TABS["history"]):
                    yield HistoryPane(read=self.service.history, id="history")
        yield KeysFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one("#filter-error").display = False
        # not Textual's animated loading indicator: at 100k memories its frames take the
        # interpreter from the worker reading the first look, and the first paint comes ~0.4 s later
        self.memory_tree.border_title = OPENING
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
            self.opening.open_vault(self.glance)
        if self.poll_interval > 0:
            self.set_interval(self.poll_interval, self.follower.poll)
        if self.rescore_interval > 0:
            self.set_interval(self.rescore_interval, self.follower.rescore)
        # what the person chose of the tree, changed by its keys, the palette or the settings
        tree = self.memory_tree
        self.watch(tree, "filter", self.filtering.rebuild, init=False)
        self.watch(tree, "mode", self.filtering.regroup, init=False)
        self.watch(tree, "sort", self.filtering.rebuild, init=False)
        self.watch(tree, "marks", self.titles.tree_title, init=False)
        # and of the flat list (its keys, a header's click, the settings)
        self.watch(self.memory_list, "order", self.views.list_sort_changed, init=False)

    def __getattr__(self, name: str) -> Callable[..., object]:
        """An action of the screen's keys (``action_archive``...): the method of the part that
        owns it (one part an action; the keys are in keys.py). Any other name: not here."""
        if name.startswith("action_"):
            for actor in self.__dict__.get("actors", ()):
                method = getattr(actor, name, None)
                if callable(method):
                    return method
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # -- the widgets, by what they are (the parts, tests and the bench read them) ---------------
    @property
    def memory_tree(self) -> MainTree:
        return self.query_one(MainTree)

    @property
    def memory_list(self) -> MemoryList:
        return self.query_one(MemoryList)

    @property
    def showing_list(self) -> bool:
        return self.views.showing_list

    @property
    def detail(self) -> DetailPane:
        return self.query_one(DetailPane)

    def retitle(self) -> None:
        """The tree's and the flat list's titles said again (after a write core refused)."""
        self.titles.tree_title()
        self.views.list_title()

    def key_for(self, action: str) -> str:
        """The first key bound to ``action`` on this screen or its tree, as the keymap has it
        now."""
        for part in (type(self), *MAIN_WIDGETS):
            if any(b.action == action for b in bindings_of(part, own=True)):
                return key_for(self.app, part, action)
        return action

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.opening.allows(action)

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
    @on(events.DescendantFocus)
    def _focused(self, event: events.DescendantFocus) -> None:
        self.views.redirect_focus(event.widget)
    @on(DuplicatesFound)
    def _duplicates_found(self, message: DuplicatesFound) -> None:
        self.filtering.duplicates_found(message.found)

    @on(TabbedContent.TabActivated, "#right")
    def _tab_changed(self) -> None:
        self.git_panes.load()
    @on(HistoryPane.ViewVersion)
    def _view_version(self, message: HistoryPane.ViewVersion) -> None:
        self.operations.view_version(message.memory_id, message.entry)
    @on(HistoryPane.DiffVersions)
    def _diff_versions(self, message: HistoryPane.DiffVersions) -> None:
        self.operations.open_diff(message.memory_id, message.old, message.new)
    @on(HistoryPane.RestoreVersion)
    def _restore_version(self, message: HistoryPane.RestoreVersion) -> None:
        self.operations.restore(message.memory_id, message.entry)

    @on(MemoriesChanged)
    def _changed(self, message: MemoriesChanged) -> None:
        self.pending.landed()
        self.operations.apply_change(message.change)
        self.operations.count_inbox()
    @on(OperationFailed)
    def _failed(self, message: OperationFailed) -> None:
        if self.view is None:
            self.memory_tree.border_title = "memories"
        self.notify(message.message, title=message.title or "refused", severity="error",
                    markup=False)
    @on(ProvenancePane.WizardRequested)
    def _wizard_from_pane(self, message: ProvenancePane.WizardRequested) -> None:
        if message.wizard == "split":
            self.operations.action_split(message.memory_id)
        else:
            self.operations.action_consolidate(message.memory_id)
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
