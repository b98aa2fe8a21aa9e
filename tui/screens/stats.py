"""Stats: counts per status, a histogram of scores, relation types and the decay settings."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from core import VaultError

from ..render import relative_time
from ..service import VaultService
from ..view import BAND_STYLE, STATUS_STYLE, band_of

BAR = 40


class StatsScreen(Screen[None]):
    BINDINGS = [Binding("escape,q", "back", "Back", id="memvault.stats.back")]

    def __init__(self, service: VaultService) -> None:
        super().__init__()
        self.service = service

    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        with VerticalScroll(id="stats-body"):
            yield Static(Text("reading…", style="dim"), id="stats-summary")
            yield Static("", id="stats-status")
            yield Static("", id="stats-histogram")
            yield Static("", id="stats-relations")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "stats"
        self.load()

    @work(thread=True, exit_on_error=False)
    def load(self) -> None:
        try:
            stats = self.service.stats()
        except VaultError as exc:
            self.app.call_from_thread(self.notify, str(exc), severity="error", markup=False)
            return
        self.app.call_from_thread(self._show, stats)

    def _show(self, stats: dict[str, Any]) -> None:
        view = self.service.view
        now = view.now
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column()
        grid.add_row("memories", str(stats["memories"]))
        grid.add_row("relations", str(stats["relations"]))
        grid.add_row("tags", str(stats["tags"]))
        grid.add_row("decay model", stats["decay_model"])
        grid.add_row("average score", f"{stats['avg_score']:.3f}")
        grid.add_row("below forget threshold",
                     f"{stats['below_forget_threshold']} active (threshold "
                     f"{stats['forget_threshold']:g}; G previews gc)")
        last_gc = stats.get("last_gc_at")
        grid.add_row("last gc", relative_time(last_gc, now) if last_gc else "never")
        last_cons = stats.get("last_consolidation_at")
        grid.add_row("last consolidation", relative_time(last_cons, now) if last_cons else "never")
        if stats["problems"]:
            grid.add_row("unreadable files", Text(str(len(stats["problems"])), style="red"))
        self.query_one("#stats-summary", Static).update(grid)

        by_status = stats["by_status"]
        peak = max(by_status.values(), default=0) or 1
        table = Table(title="memories by status", title_justify="left", box=None,
                      padding=(0, 1), show_header=False, title_style="bold")
        table.add_column(no_wrap=True)
        table.add_column(justify="right", no_wrap=True)
        table.add_column(no_wrap=True)
        for status, count in by_status.items():
            style = next((v for k, v in STATUS_STYLE.items() if k.value == status), "")
            table.add_row(Text(status, style=style), str(count),
                          Text("█" * round(BAR * count / peak), style=style))
        self.query_one("#stats-status", Static).update(table)

        hist = stats["score_histogram"]
        peak = max((b["count"] for b in hist), default=0) or 1
        table = Table(title="scores", title_justify="left", box=None, padding=(0, 1),
                      show_header=False, title_style="bold")
        table.add_column(no_wrap=True)
        table.add_column(justify="right", no_wrap=True)
        table.add_column(no_wrap=True)
        for b in hist:
            upper = f"{b['to']:g}" if b["to"] is not None else "…"
            band = band_of(b["from"], view.band_table)
            table.add_row(f"{b['from']:g} – {upper}", str(b["count"]),
                          Text("█" * round(BAR * b["count"] / peak),
                               style=BAND_STYLE.get(band.key, "")))
        self.query_one("#stats-histogram", Static).update(table)

        types = stats["relation_types"]
        if types:
            table = Table(title="relation types", title_justify="left", box=None,
                          padding=(0, 1), show_header=False, title_style="bold")
            table.add_column(no_wrap=True)
            table.add_column(justify="right", no_wrap=True)
            for name, count in types.items():
                table.add_row(Text(name, style="cyan"), str(count))
            self.query_one("#stats-relations", Static).update(table)

    def action_back(self) -> None:
        self.dismiss(None)
