"""The gc preview: active memories below the forget threshold, lowest score first, with what
applying would do; apply (delete, or archive instead) after a confirmation. Single rows can be
kept out first: space keeps one out of this gc (again: back in), F pins it (one commit; gc never
takes a pinned memory). Dismissed with (how, the ids kept out) or None."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from core import VaultError, relations_of_gone
from core.vault import GcReport, first_words

from ...text import relative_time
from ..service import Change, VaultService
from ..bands import BAND_STYLE, band_of
from ..view import BAR_CELLS, score_bar
from ..widgets.columns import Column, fit_columns
from ..widgets.lists import RowTable
from .confirm import ConfirmScreen


KEEP_MARK = Text("keep", style="bold green")
#: the columns before the memory's text; at a narrow width the bar, then the uses, then the
#: tags give way to the text, which a decision to delete needs most (fit_columns)
GC_COLUMNS = [Column("keep", "", 4), Column("score", "score", 5),
              Column("bar", "", BAR_CELLS, gives_way=1), Column("id", "id", 8),
              Column("uses", "uses", 4, gives_way=2),
              Column("last_used", "last used", 13, gives_way=4),
              Column("tags", "tags", 16, gives_way=3)]


class GcScreen(Screen[tuple[str, list[str]] | None]):
    BINDINGS = [
        # (short labels: the footer holds them all at 80 columns; the title says the rest)
        Binding("x", "apply('delete')", "Delete all", id="memvault.gc.delete"),
        Binding("a", "apply('archive')", "Archive all", id="memvault.gc.archive"),
        Binding("space", "keep", "Keep one", id="memvault.gc.keep"),
        Binding("F", "pin", "Pin one", id="memvault.gc.pin"),
        Binding("escape,q", "back", "Back", id="memvault.gc.back"),
    ]

    def __init__(self, service: VaultService, on_change: Callable[[Change], None] | None = None
                 ) -> None:
        """``on_change``: told of a pin made here (the main screen shows it)."""
        super().__init__()
        self.service = service
        self.on_change = on_change
        self.report: GcReport | None = None
        self.kept: set[str] = set()  # candidates kept out of this gc
        self._drawn_width = 0  # the table's width its columns were fitted to

    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        with Vertical(id="gc-body"):
            yield Static(Text("gc preview: reading…", style="dim"), id="gc-title")
            yield RowTable(id="gc-table", cursor_type="row", zebra_stripes=True)
            yield Static("", id="gc-relations")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "gc preview"
        self.load()

    @work(thread=True, exit_on_error=False)
    def load(self) -> None:
        try:
            report = self.service.gc_preview()
        except VaultError as exc:
            self.app.call_from_thread(self.notify, str(exc), severity="error", markup=False)
            return
        self.app.call_from_thread(self._show, report)

    def _show(self, report: GcReport) -> None:
        self.report = report
        self.kept &= {m.id for m, _ in report.candidates}
        self._title()
        view = self.service.view
        table = self.query_one("#gc-table", DataTable)
        cursor = table.cursor_row
        table.clear(columns=True)
        self._drawn_width = table.size.width or self.size.width or 80
        # (two cells for the vertical scrollbar a long preview has)
        kept, text_width = fit_columns(GC_COLUMNS, self._drawn_width - 2)
        for column in kept:
            table.add_column(column.label, key=column.key, width=column.width)
        table.add_column("memory", key="memory", width=text_width)
        for m, score in report.candidates:
            band = band_of(score, view.band_table).key
            cells = {
                "keep": KEEP_MARK if m.id in self.kept else Text(""),
                "score": Text(f"{score:.3f}", style=BAND_STYLE.get(band, "")),
                "bar": score_bar(score, band),
                "id": Text(m.id[:8], style="bold"),
                "uses": str(m.use_count),
                "last_used": relative_time(m.last_used, view.now),
                "tags": Text(", ".join(m.meta.tags), no_wrap=True, overflow="ellipsis"),
            }
            table.add_row(*(cells[c.key] for c in kept),
                          Text(first_words(m.text, text_width), no_wrap=True,
                               overflow="ellipsis"),
                          key=m.id)
        if report.candidates:
            table.move_cursor(row=min(cursor, len(report.candidates) - 1))
            table.focus()

    def on_resize(self) -> None:
        """A wider or narrower terminal: the columns are fitted again, once laid out."""
        self.call_after_refresh(self._refit)

    def _refit(self) -> None:
        width = self.query_one("#gc-table", DataTable).size.width
        if self.report is not None and width and width != self._drawn_width:
            self._show(self.report)

    def _title(self) -> None:
        """What applying would do now (the rows kept out left out)."""
        report = self.report
        if report is None:
            return
        view = self.service.view
        n = len(report.candidates) - len(self.kept)
        title = self.query_one("#gc-title", Static)
        pinned = len(report.pinned_kept)
        kept = (f" {pinned} pinned memor{'y' if pinned == 1 else 'ies'} below it "
                f"{'is' if pinned == 1 else 'are'} kept out ({self._main_key('memvault.pin')} on "
                "the main screen unpins)." if pinned else "")
        if not report.candidates:
            title.update(Text(f"Nothing to collect: no active memory scores below "
                              f"{report.threshold:g}.{kept}", style="green"))
            return
        ids = {m.id for m, _ in report.candidates} - self.kept  # what goes: core's one rule
        relations = relations_of_gone((r for i in ids for r in view.relations_of(i)), ids).removed
        text = Text()
        text.append(f"{n} active memor{'y' if n == 1 else 'ies'}", style="bold")
        text.append(f" score below the forget threshold {report.threshold:g} "
                    f"({view.config.decay_model}).")
        if relations:
            text.append(f" {len(relations)} relation{'s' if len(relations) != 1 else ''} "
                        "go with them.")
        if kept:
            text.append(kept, style="bold")
        if self.kept:
            text.append(f" {len(self.kept)} kept out by you (keep).", style="bold green")
        text.append(f"\n{self._key('delete')} deletes them in one commit, {self._key('archive')} "
                    f"archives them instead (as on the main screen); {self._key('keep')} keeps "
                    f"the highlighted one out, {self._key('pin')} pins it; undo (u there) "
                    "restores them.", style="dim")
        note = self.service.maintenance_note()
        if note:
            text.append(f"\n{note}", style="yellow")
        title.update(text)

    def _highlighted(self) -> str | None:
        table = self.query_one("#gc-table", DataTable)
        if self.report is None or not self.report.candidates or table.row_count == 0:
            return None
        return str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)

    def action_keep(self) -> None:
        """Keep the highlighted memory out of this gc (again: put it back), then the next row."""
        memory_id = self._highlighted()
        if memory_id is None:
            return
        self.kept ^= {memory_id}
        table = self.query_one("#gc-table", DataTable)
        table.update_cell(memory_id, "keep", KEEP_MARK if memory_id in self.kept else Text(""))
        self._title()
        table.action_cursor_down()

    def action_pin(self) -> None:
        """Pin the highlighted memory (one commit): gc never takes it, now or later."""
        memory_id = self._highlighted()
        if memory_id is not None:
            self.pin(memory_id)

    @work(thread=True, group="gc-pin", exit_on_error=False)
    def pin(self, memory_id: str) -> None:
        try:
            change = self.service.edits.toggle_pin(memory_id)
            report = self.service.gc_preview()
        except VaultError as exc:
            self.app.call_from_thread(self.notify, str(exc), severity="error", markup=False)
            return
        if self.on_change is not None:
            self.app.call_from_thread(self.on_change, change)
        self.app.call_from_thread(self._show, report)

    def _key(self, how: str) -> str:
        """The key that applies gc this way, as the keymap has it now."""
        binding_id = f"memvault.gc.{how}"
        for binding in self.BINDINGS:
            if isinstance(binding, Binding) and binding.id == binding_id:
                keymap = getattr(self.app, "keymap", {}) or {}
                key = keymap.get(binding_id, binding.key).split(",")[0].strip()
                return self.app.get_key_display(Binding(key, binding.action))
        return how

    def _main_key(self, binding_id: str) -> str:
        """The main screen's key of ``binding_id`` now."""
        for action in getattr(self.app, "keyed_actions", lambda _s: [])(
                getattr(self.app, "main_screen", None)):
            if action.binding_id == binding_id and action.keys:
                return self.app.get_key_display(Binding(action.keys[0], ""))
        return binding_id

    def action_apply(self, how: str) -> None:
        if self.report is None or len(self.report.candidates) <= len(self.kept):
            self.notify("Nothing to collect" if self.report is None or not self.report.candidates
                        else "Every one is kept out: nothing to collect", timeout=2)
            return
        n = len(self.report.candidates) - len(self.kept)
        noun = f"{n} memor{'y' if n == 1 else 'ies'}"
        if how == "archive":
            question = f"Archive {noun} scoring below {self.report.threshold:g}?"
            message = "They stay in the vault with status archived (gc skips them from now on)."
        else:
            question = f"Delete {noun} scoring below {self.report.threshold:g}?"
            message = ("They and their relations are deleted in one commit; git history keeps "
                       "them and undo restores them.")

        def done(confirmed: bool | None) -> None:
            if confirmed:
                self.dismiss((how, sorted(self.kept)))

        self.app.push_screen(ConfirmScreen(question, message,
                                           "Archive" if how == "archive" else "Delete",
                                           danger=how != "archive"), done)

    def action_back(self) -> None:
        self.dismiss(None)
