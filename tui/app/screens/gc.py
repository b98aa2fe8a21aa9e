"""The gc preview: active memories below the forget threshold, lowest score first, with what
applying would do; apply (delete, or archive instead) after a confirmation."""

from __future__ import annotations

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
from ..service import VaultService
from ..view import BAND_STYLE, band_of, score_bar
from ..widgets.lists import RowTable
from .confirm import ConfirmScreen


class GcScreen(Screen[str | None]):
    BINDINGS = [
        Binding("x", "apply('delete')", "Delete them", id="memvault.gc.delete"),
        Binding("a", "apply('archive')", "Archive them instead", id="memvault.gc.archive"),
        Binding("escape,q", "back", "Back", id="memvault.gc.back"),
    ]

    def __init__(self, service: VaultService) -> None:
        super().__init__()
        self.service = service
        self.report: GcReport | None = None

    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        with Vertical(id="gc-body"):
            yield Static(Text("gc preview: reading…", style="dim"), id="gc-title")
            table = RowTable(id="gc-table", cursor_type="row", zebra_stripes=True)
            table.add_columns("score", "", "id", "uses", "last used", "tags", "memory")
            yield table
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
        view = self.service.view
        n = len(report.candidates)
        title = self.query_one("#gc-title", Static)
        pinned = len(report.pinned_kept)
        kept = (f" {pinned} pinned memor{'y' if pinned == 1 else 'ies'} below it "
                f"{'is' if pinned == 1 else 'are'} kept out (P unpins)." if pinned else "")
        if not n:
            title.update(Text(f"Nothing to collect: no active memory scores below "
                              f"{report.threshold:g}.{kept}", style="green"))
            return
        ids = {m.id for m, _ in report.candidates}  # what goes with them: core's one rule
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
        text.append(f"\n{self._key('delete')} deletes them in one commit, {self._key('archive')} "
                    "archives them instead (as on the main screen); undo (u there) restores "
                    "them.", style="dim")
        note = self.service.maintenance_note()
        if note:
            text.append(f"\n{note}", style="yellow")
        title.update(text)
        table = self.query_one("#gc-table", DataTable)
        table.clear()
        for m, score in report.candidates:
            band = band_of(score, view.band_table).key
            table.add_row(
                Text(f"{score:.3f}", style=BAND_STYLE.get(band, "")),
                score_bar(score, band),
                Text(m.id[:8], style="bold"),
                str(m.use_count),
                relative_time(m.last_used, view.now),
                Text(", ".join(m.meta.tags), no_wrap=True, overflow="ellipsis"),
                Text(first_words(m.text, 60), no_wrap=True, overflow="ellipsis"),
                key=m.id,
            )
        table.focus()

    def _key(self, how: str) -> str:
        """The key that applies gc this way, as the keymap has it now."""
        binding_id = f"memvault.gc.{how}"
        for binding in self.BINDINGS:
            if isinstance(binding, Binding) and binding.id == binding_id:
                keymap = getattr(self.app, "keymap", {}) or {}
                key = keymap.get(binding_id, binding.key).split(",")[0].strip()
                return self.app.get_key_display(Binding(key, binding.action))
        return how

    def action_apply(self, how: str) -> None:
        if self.report is None or not self.report.candidates:
            self.notify("Nothing to collect", timeout=2)
            return
        n = len(self.report.candidates)
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
                self.dismiss(how)

        self.app.push_screen(ConfirmScreen(question, message,
                                           "Archive" if how == "archive" else "Delete",
                                           danger=how != "archive"), done)

    def action_back(self) -> None:
        self.dismiss(None)
