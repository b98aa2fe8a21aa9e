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

from ...text import relative_time
from ..service import VaultService, waiting_conflicts
from ..bands import BAND_STYLE, band_of
from ..view import STATUS_STYLE

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
            sync = self.service.last_sync()
        except VaultError as exc:
            self.app.call_from_thread(self.notify, str(exc), severity="error", markup=False)
            return
        self.app.call_from_thread(self._show, stats, sync)

    def _show(self, stats: dict[str, Any], sync: dict[str, Any] | None = None) -> None:
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
                     f"{stats['forget_threshold']:g}; C previews gc)")
        last_gc = stats.get("last_gc_at")
        grid.add_row("last gc", relative_time(last_gc, now) if last_gc else "never")
        last_cons = stats.get("last_consolidation_at")
        grid.add_row("last consolidation", relative_time(last_cons, now) if last_cons else "never")
        grid.add_row("last sync", sync_line(sync, now))
        waiting = waiting_conflicts(sync)
        if waiting:
            lines = Text(style="red")
            for index, conflict in enumerate(waiting):
                if index:
                    lines.append("\n")
                lines.append(str(conflict.get("vault_path") or conflict.get("path")), style="bold")
                lines.append(f": {conflict.get('reason') or 'could not be merged'}")
                if conflict.get("file"):
                    lines.append(f"\n  edit {conflict['file']}, then run `memvault sync`",
                                 style="dim")
            grid.add_row(Text("sync conflicts", style="bold red"), lines)
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


OUTCOMES = {"up-to-date": "up to date", "pushed": "pushed", "fast-forward": "fast-forward",
            "merged": "merged", "conflict": "stopped at a conflict", "error": "failed"}


def sync_line(info: dict[str, Any] | None, now: int) -> Text:
    """``2 hours ago · merged · 3 commits in, 1 out`` (core.sync.engine's record), or ``never``."""
    if not info:
        return Text("never (memvault sync)", style="dim")
    outcome = str(info.get("outcome") or "")
    ok = outcome not in ("conflict", "error")
    line = Text()
    when = info.get("time")
    line.append(relative_time(when, now) if when else "at an unknown time")
    line.append(" · ")
    line.append(OUTCOMES.get(outcome, outcome), style="green" if ok else "bold red")
    remote = info.get("remote")
    if remote:
        line.append(f" with {remote}", style="dim")
    counts = [f"{info[k]} commit{'s' if info[k] != 1 else ''} {word}"
              for k, word in (("commits_in", "in"), ("commits_out", "out"))
              if isinstance(info.get(k), int) and info[k]]
    if counts:
        line.append(" · " + ", ".join(counts), style="dim")
    if not ok and info.get("message"):
        line.append(f"\n{info['message']}", style="dim")
    return line
