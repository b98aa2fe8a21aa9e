"""The main screen: filter box and tree on the left; detail, provenance and history on the right.

Every core call goes through the app's :class:`~tui.app.service.VaultService` in a thread worker;
results come back as messages (:mod:`tui.app.messages`) handled here.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Header, Input, Static, TabbedContent, TabPane, Tree

from core import AmbiguousIdError, UnknownIdError, VaultError

from ..grouping import MODE_NAMES, MODES, SORT_NAMES, SORTS
from ..inbox_service import InboxService
from ..messages import (
    HistoryLoaded,
    InboxCounted,
    JumpTo,
    LineageLoaded,
    MemoriesChanged,
    OperationFailed,
    Ranked,
    SyncChecked,
    VaultOpened,
    VaultReloaded,
)
from ..query import Query, parse
from ...text import relative_time
from ..service import Change, VaultService, waiting_conflicts
from ..view import VaultView
from ..widgets.detail import DetailPane
from ..widgets.history import HistoryPane
from ..widgets.memory_tree import MemoryTree, NodeData
from ..widgets.provenance import ProvenancePane

TABS = {"detail": "tab-detail", "provenance": "tab-provenance", "history": "tab-history"}
PANE_DELAY = 0.12  # seconds the cursor rests on a memory before git-backed panes load


class MainScreen(Screen):
    BINDINGS = [
        Binding("slash", "focus_filter", "Filter", show=False, id="memvault.filter"),
        Binding("m", "cycle_mode", "Group", id="memvault.group"),
        Binding("s", "cycle_sort", "Sort", show=False, id="memvault.sort"),
        Binding("c", "toggle_body", "Gist/content", id="memvault.toggle_body"),
        Binding("a", "archive", "Archive", id="memvault.archive"),
        Binding("x,delete", "delete", "Delete", id="memvault.delete"),
        Binding("u,ctrl+z", "undo", "Undo", id="memvault.undo"),
        Binding("ctrl+y", "redo", "Redo", show=False, id="memvault.redo"),
        Binding("i", "goto", "Go to id", id="memvault.goto"),
        Binding("v", "split", "Split", id="memvault.split"),
        Binding("asterisk", "mark", "Mark", id="memvault.mark"),
        Binding("M", "consolidate", "Merge", id="memvault.consolidate"),
        Binding("d", "tab('detail')", "Detail", show=False, id="memvault.tab.detail"),
        Binding("p", "tab('provenance')", "Provenance", show=False, id="memvault.tab.provenance"),
        Binding("h", "tab('history')", "History", show=False, id="memvault.tab.history"),
        Binding("G", "gc", "gc", id="memvault.gc"),
        Binding("S", "stats", "Stats", id="memvault.stats"),
        Binding("I", "inbox", "Inbox", show=False, id="memvault.inbox"),
        Binding("ctrl+r", "reload", "Reload", show=False, id="memvault.reload"),
        Binding("escape", "leave_filter", "Back to tree", show=False, id="memvault.back"),
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
        self._pane_timer: Timer | None = None
        self.timings: dict[str, float] = {}  # for the bench: last tree rebuild, etc.
        self.inbox = InboxService(service.path, clock=service.clock, config=service.config,
                                  lock_timeout=service.lock_timeout)
        self.inbox_count = 0

    # -- layout -----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Input(placeholder="filter: words  tag:x  status:archived  score<0.1  (/)",
                            id="filter")
                yield Static("", id="filter-error")
                yield MemoryTree(id="tree")
            with TabbedContent(id="right", initial=TABS["detail"]):
                with TabPane("Detail", id=TABS["detail"]):
                    yield DetailPane(id="detail")
                with TabPane("Provenance", id=TABS["provenance"]):
                    yield ProvenancePane(id="provenance")
                with TabPane("History", id=TABS["history"]):
                    yield HistoryPane(id="history")
        yield Footer(compact=True)

    @property
    def tree(self) -> MemoryTree:
        return self.query_one(MemoryTree)

    @property
    def detail(self) -> DetailPane:
        return self.query_one(DetailPane)

    def on_mount(self) -> None:
        self.query_one("#filter-error").display = False
        self.tree.loading = True
        self.tree.border_title = "memories"
        self.detail.toggle_key = self._key_for("toggle_body")
        self.query_one(ProvenancePane).set_keys(self._key_for("split"),
                                                self._key_for("consolidate"))
        self._title_path = _short_path(self.service.root)
        self.app.sub_title = self._title_path
        if self.service.is_open:
            self._opened(self.service.view, self.service.open_notes)
        else:
            self.open_vault()
        if self.poll_interval > 0:
            self.set_interval(self.poll_interval, self.poll)
        if self.rescore_interval > 0:
            self.set_interval(self.rescore_interval, self.rescore)

    # -- opening ----------------------------------------------------------------------------
    @work(thread=True, group="open", exit_on_error=False)
    def open_vault(self) -> None:
        try:
            view = self.service.open()
        except VaultError as exc:
            self.post_message(OperationFailed(f"cannot open the vault: {exc}", "open"))
            return
        self.post_message(VaultOpened(view, self.service.open_notes))

    @on(VaultOpened)
    def _on_opened(self, message: VaultOpened) -> None:
        self._opened(message.view, message.notes)

    def _opened(self, view: VaultView, notes: list[str]) -> None:
        self.tree.loading = False
        self.view = view
        self.refilter()
        self.tree.focus()
        for note in notes:
            self.notify(note, title="vault", markup=False)
        self.check_sync()
        self.count_inbox()

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
                    "valid records, then run `memvault sync` again (S shows the details).",
                    title="sync", severity="warning", timeout=12, markup=False)

    # -- the tree ---------------------------------------------------------------------------
    def refilter(self, focus: str | None = None) -> None:
        """Apply the filter to the view and rebuild the tree (keeping its state)."""
        view = self.view
        if view is None:
            return
        started = time.perf_counter()
        query, now = self.filter, view.now
        if query.empty:
            self.matched = list(view.rows)
        else:
            self.matched = [i for i, row in view.rows.items() if query.matches(row, now)]
        tree = self.tree
        tree.terms = query.parsed.text_terms
        if not query.ranked:
            tree.rank = {}
        tree.show(view, self.matched, self.mode, self.sort, focus=focus)
        tree.prune_marks()
        self._tree_title()
        self._tree_subtitle()
        self.timings["refilter"] = time.perf_counter() - started
        self._show_cursor()
        if query.ranked:
            self._rank(view, query, list(self.matched))

    def _tree_subtitle(self) -> None:
        order = "rank" if self.tree.rank else SORT_NAMES[self.sort]
        self.tree.border_subtitle = f"group: {MODE_NAMES[self.mode]} · sort: {order}"

    @work(thread=True, group="rank", exclusive=True, exit_on_error=False)
    def _rank(self, view: VaultView, query: Query, ids: list[str]) -> None:
        """The filter has words: rank what it kept by search score (tui.app.search_rank)."""
        from ..search_rank import rank_ids

        try:
            scores = rank_ids(view, query.parsed, ids)
        except Exception as exc:  # the index cannot be used: the rows keep their sort
            self.post_message(OperationFailed(f"cannot rank the filter's results: {exc}", "search"))
            return
        self.post_message(Ranked(view, query.text, scores))

    @on(Ranked)
    def _ranked(self, message: Ranked) -> None:
        if message.view is not self.view or message.query_text != self.query_text:
            return  # a later keystroke or reload: its own ranking follows
        tree = self.tree
        tree.rank = message.scores
        tree.show(message.view, self.matched, self.mode, self.sort)
        self._tree_subtitle()

    def _tree_title(self) -> None:
        view = self.view
        if view is None:
            return
        tree = self.tree
        total = len(view.rows)
        shown = len(self.matched)
        title = f"memories {total}" if shown == total else f"memories {shown} of {total}"
        if tree.marks:
            title += f" · {len(tree.marks)} marked"
        tree.border_title = title

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
        self.tree.focus()

    def action_focus_filter(self) -> None:
        self.query_one("#filter", Input).focus()

    def action_leave_filter(self) -> None:
        if self.focused is self.query_one("#filter", Input):
            self.tree.focus()

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
        self._show_node(event.node.data)

    def _show_cursor(self) -> None:
        node = self.tree.cursor_node
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
        if data.kind == "group" and data.group is not None:
            self.current = None
            detail.show_group(view, data.group)
            self._schedule_panes()
            return
        if data.kind == "more" or data.memory_id is None:
            return
        self.current = data.memory_id
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

    @on(TabbedContent.TabActivated, "#right")
    def _tab_changed(self) -> None:
        self._load_panes()

    def action_tab(self, name: str) -> None:
        self.query_one(TabbedContent).active = TABS[name]

    def action_toggle_body(self) -> None:
        self.detail.toggle_body()

    @work(thread=True, group="lineage", exclusive=True, exit_on_error=False)
    def load_lineage(self, memory_id: str) -> None:
        try:
            found = self.service.lineage(memory_id)
        except VaultError as exc:
            self.post_message(LineageLoaded(memory_id, None, str(exc)))
            return
        self.post_message(LineageLoaded(memory_id, found))

    @on(LineageLoaded)
    def _lineage_loaded(self, message: LineageLoaded) -> None:
        pane = self.query_one(ProvenancePane)
        if message.memory_id != self.current or self.view is None:
            return
        if message.lineage is None:
            pane.show_message(message.error or "no lineage")
        else:
            pane.show_lineage(self.view, message.lineage)

    @work(thread=True, group="history", exclusive=True, exit_on_error=False)
    def load_history(self, memory_id: str) -> None:
        try:
            info = self.service.history(memory_id)
        except VaultError as exc:
            self.post_message(OperationFailed(str(exc), "history"))
            return
        self.post_message(HistoryLoaded(info))

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

    @on(HistoryPane.RestoreVersion)
    def _restore_version(self, message: HistoryPane.RestoreVersion) -> None:
        self._restore(message.memory_id, message.entry)

    def _restore(self, memory_id: str, entry: object) -> None:
        self.run_change(lambda: self.service.restore_version(memory_id, entry))  # type: ignore[arg-type]

    # -- operations -------------------------------------------------------------------------
    @work(thread=True, group="write", exit_on_error=False)
    def run_change(self, operation: Callable[[], Change]) -> None:
        try:
            change = operation()
        except VaultError as exc:
            self.post_message(OperationFailed(str(exc)))
            return
        self.post_message(MemoriesChanged(change))

    @on(MemoriesChanged)
    def _changed(self, message: MemoriesChanged) -> None:
        self.apply_change(message.change)
        self.count_inbox()

    def apply_change(self, change: Change, tab: str | None = None) -> None:
        """Show the view an operation left (the cursor where it says), notify, and reload the
        panes (switching to ``tab`` first, if given)."""
        self.view = change.view
        focus = change.focus if change.focus in change.view.rows else None
        if (tab is not None and focus is not None and not self.filter.empty
                and not self.filter.matches(change.view.rows[focus], change.view.now)):
            # a wizard's new memory is where the person wants to look: show it
            with self.prevent(Input.Changed):
                self.query_one("#filter", Input).value = ""
            self.query_text, self.filter = "", parse("")
            self.query_one("#filter-error").display = False
        self.refilter(focus=focus)
        if focus is not None:
            self.tree.focus()
        note = change.note
        if change.undoable:
            note += f"  ({self._key_for('undo')} undoes)"
        self.notify(note, title=change.title, markup=False)
        if tab is not None:
            self.action_tab(tab)
        self._reload_panes()

    def _reload_panes(self) -> None:
        """The vault changed: provenance and history of the current memory may have too."""
        self.query_one(ProvenancePane).memory_id = None
        self.query_one(HistoryPane).memory_id = None
        self._schedule_panes()

    @on(OperationFailed)
    def _failed(self, message: OperationFailed) -> None:
        self.tree.loading = False
        self.notify(message.message, title=message.title or "refused", severity="error",
                    markup=False)

    def _key_for(self, action: str) -> str:
        """The first key bound to ``action``, as the keymap has it now."""
        for binding in self.BINDINGS:
            if isinstance(binding, Binding) and binding.action == action:
                keymap = getattr(self.app, "keymap", {}) or {}
                key = keymap.get(binding.id or "", binding.key).split(",")[0].strip()
                return self.app.get_key_display(Binding(key, action))
        return action

    def _need_memory(self) -> str | None:
        memory_id = self.current
        if memory_id is None or self.view is None or memory_id not in self.view.rows:
            self.notify("Highlight a memory first", severity="warning", timeout=2)
            return None
        return memory_id

    def action_archive(self) -> None:
        memory_id = self._need_memory()
        if memory_id is not None:
            self.run_change(lambda: self.service.archive(memory_id))

    def action_delete(self) -> None:
        from .delete import DeleteScreen

        memory_id = self._need_memory()
        if memory_id is None:
            return
        preview = self.service.delete_preview(memory_id)

        def done(confirmed: bool | None) -> None:
            if confirmed:
                self.run_change(lambda: self.service.delete(memory_id))

        self.app.push_screen(DeleteScreen(preview), done)

    def action_undo(self) -> None:
        self.run_change(self.service.undo)

    def action_redo(self) -> None:
        self.run_change(self.service.redo)

    def action_goto(self) -> None:
        from .goto import GoToScreen

        def done(key: str | None) -> None:
            if key:
                self.jump(key)

        self.app.push_screen(GoToScreen(self.view), done)

    def action_gc(self) -> None:
        from .gc import GcScreen

        def done(how: str | None) -> None:
            if how in ("delete", "archive"):
                self.run_change(lambda: self.service.gc_apply(archive=how == "archive"))

        self.app.push_screen(GcScreen(self.service), done)

    # -- the wizards ------------------------------------------------------------------------
    def action_mark(self) -> None:
        """Mark or unmark the highlighted memory (marked ones are the consolidate wizard's
        first choice of members)."""
        memory_id = self._need_memory()
        if memory_id is None:
            return
        self.tree.toggle_mark(memory_id)
        self._tree_title()

    def action_clear_marks(self) -> None:
        self.tree.clear_marks()
        self._tree_title()

    def action_split(self, memory_id: str | None = None) -> None:
        """The split wizard, on the highlighted memory (or ``memory_id``)."""
        from .split_wizard import SplitWizard

        if self.view is None:
            return
        start = memory_id or self.current

        def done(change: Change | None) -> None:
            if change is not None:
                self.apply_change(change, tab="provenance")

        self.app.push_screen(SplitWizard(self.service, start), done)

    def action_consolidate(self, memory_id: str | None = None) -> None:
        """The consolidate wizard, on the marked memories (plus ``memory_id``, when it comes
        from the provenance pane) or a cluster core suggests."""
        from .consolidate_wizard import ConsolidateWizard

        if self.view is None:
            return
        marked = list(self.tree.marks)
        if memory_id is not None and memory_id not in marked:
            marked.append(memory_id)

        def done(change: Change | None) -> None:
            if change is not None:
                self.tree.clear_marks(change.ids)
                self.apply_change(change, tab="provenance")

        self.app.push_screen(ConsolidateWizard(self.service, marked,
                                               focus_id=memory_id or self.current), done)

    @on(ProvenancePane.WizardRequested)
    def _wizard_from_pane(self, message: ProvenancePane.WizardRequested) -> None:
        if message.wizard == "split":
            self.action_split(message.memory_id)
        else:
            self.action_consolidate(message.memory_id)

    def action_stats(self) -> None:
        from .stats import StatsScreen

        self.app.push_screen(StatsScreen(self.service))

    # -- the review inbox (tui/app/inbox_service.py) --------------------------------------------
    def action_inbox(self) -> None:
        """What the assistant wrote since the person last reviewed: accept or reject."""
        from .inbox import InboxScreen

        def changed() -> None:
            self.reload_vault("")

        self.app.push_screen(InboxScreen(self.inbox, on_change=changed),
                             lambda _: self.count_inbox())

    @work(thread=True, group="inbox-count", exclusive=True, exit_on_error=False)
    def count_inbox(self) -> None:
        try:
            count = self.inbox.count()
        except VaultError:
            return
        self.post_message(InboxCounted(count))

    @on(InboxCounted)
    def _inbox_counted(self, message: InboxCounted) -> None:
        self.inbox_count = message.count
        n = message.count
        self.app.sub_title = self._title_path + (
            f" · inbox: {n} to review ({self._key_for('inbox')})" if n else "")

    # -- jumping ----------------------------------------------------------------------------
    @on(JumpTo)
    def _jump_to(self, message: JumpTo) -> None:
        self.jump(message.memory_id)

    def jump(self, key: str) -> None:
        """Put the cursor on a living memory (clearing the filter if it hides it), or show a
        memory that exists only in history."""
        view = self.view
        if view is None:
            return
        try:
            memory_id = view.resolve(key)
        except AmbiguousIdError as exc:
            self.notify(str(exc), title="go to", severity="error", markup=False)
            return
        except UnknownIdError:
            self.find_in_history(key)
            return
        if memory_id not in set(self.matched):
            with self.prevent(Input.Changed):
                self.query_one("#filter", Input).value = ""
            self.set_filter("")
            self.notify("Filter cleared to show it", timeout=2)
        node = self.tree.find_memory(memory_id)
        if node is not None:
            self.tree.move_cursor(node)
            self.tree.scroll_to_node(node, animate=False)
            self.tree.focus()
            self._show_node(node.data)

    @work(thread=True, group="resolve", exclusive=True, exit_on_error=False)
    def find_in_history(self, key: str) -> None:
        try:
            memory_id = self.service.resolve_any(key)
        except VaultError as exc:
            self.post_message(OperationFailed(str(exc), "go to"))
            return
        self.app.call_from_thread(self._show_gone, memory_id)

    def _show_gone(self, memory_id: str) -> None:
        if self.view is not None and memory_id in self.view.rows:
            self.jump(memory_id)
            return
        self.current = memory_id
        self.detail.show_gone(memory_id)
        self.action_tab("history")
        self._load_panes()

    # -- following the vault ---------------------------------------------------------------
    def action_reload(self) -> None:
        self.reload_vault("reloaded")

    @work(thread=True, group="reload", exclusive=True, exit_on_error=False)
    def reload_vault(self, reason: str) -> None:
        try:
            view = self.service.reload()
        except VaultError as exc:
            self.post_message(OperationFailed(f"reload failed: {exc}", "reload"))
            return
        self.post_message(VaultReloaded(view, reason, self.service.open_notes))

    def poll(self) -> None:
        """Every few seconds: did the vault move on disk? (One look at a time.)"""
        if not self._polling:
            self._polling = True
            self._poll()

    _polling = False

    @work(thread=True, group="poll", exit_on_error=False)
    def _poll(self) -> None:
        try:
            if not self.service.is_open or not self.service.changed_on_disk():
                return
            view = self.service.reload()
        except VaultError as exc:
            self.post_message(OperationFailed(f"reload failed: {exc}", "reload"))
            return
        finally:
            self._polling = False
        self.post_message(VaultReloaded(view, "the vault changed on disk: reloaded",
                                        self.service.open_notes))

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
        self._reload_panes()
        self.count_inbox()
        if message.reason:
            self.check_sync()
            n = len(message.view)
            self.notify(f"{message.reason} ({n} memor{'y' if n == 1 else 'ies'})",
                        title="vault", timeout=3, markup=False)
            for note in message.notes:
                self.notify(note, title="vault", markup=False)


def _short_path(path: object) -> str:
    from pathlib import Path

    p = Path(str(path))
    try:
        return "~/" + str(p.relative_to(Path.home()))
    except ValueError:
        return str(p)
