"""Help: every key of the screen it was opened from (as remapped by the keymap, with the binding
ids a keymap uses), the filter language, and the group modes."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

FILTER_HELP = [
    ("pytest ci", "both words appear (content, gist, tags, entities or id)"),
    ('"on call"', "the phrase appears"),
    ("tag:python  tag:proj-*", "a tag (wildcards * and ?)"),
    ("status:archived", "a status (a prefix will do: status:arch)"),
    ("id:1a2b", "the id starts with it"),
    ("entity:Alice", "an entity"),
    ("has:gist", "has a gist (also has:relations, has:tags, has:entities, has:pin)"),
    ("score<0.1  score>=0.5", "the decay score now"),
    ("uses>3  strength>=1.5", "use count, strength"),
    ("age>30  idle>7", "days since created, days since last used"),
    ("-tag:done  -word", "negate any term"),
]

MODES_HELP = [
    ("status → tag", "active / promoted / archived / superseded, then tags"),
    ("tag", "every tag (a memory with two tags is under both)"),
    ("decay band", "fresh ≥ 0.65 · fading 0.35–0.65 · danger zone 0.15–0.35 · critical "
                   "0.05–0.15 · below the forget threshold"),
    ("lineage", "provenance roots with their split parts and merges beneath"),
    ("possible duplicates", "active memories that look alike (the consolidate wizard's "
                            "clusters), found in the background; a suggestion: space marks, "
                            "M merges"),
]

VIEWS_HELP = [
    ("f", "the grouped tree or a flat list of every memory the filter keeps; in the list s "
          "sorts by the next column, o reverses, a click on a header sorts by it"),
    ("H H · p p", "the history / provenance pane, then into it (j/k, enter, esc back)"),
    ("history: space · D · r", "mark a version · word diff with the marked (or the previous) "
                               "one · restore"),
    ("< · >", "the left pane narrower · wider"),
    ("settings", "theme, sort, grouping, gist or content, tree or list, pane widths: saved in "
                 "~/.config/memvault/settings.json (or $MEMVAULT_CONFIG_DIR)"),
]


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark", "close", "Close", id="memvault.help.close")]

    def __init__(self, bindings: dict[str, ActiveBinding], key_display) -> None:  # type: ignore[no-untyped-def]
        super().__init__()
        self.bindings = bindings
        self.key_display = key_display

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="dialog wide"):
            yield Static(Text("memvault keys", style="bold"), classes="dialog-title")
            with VerticalScroll(id="help-body"):
                yield Static(self._keys())
                yield Static(self._table("the filter box", FILTER_HELP))
                yield Static(self._table("group modes (m)", MODES_HELP))
                yield Static(self._table("views", VIEWS_HELP))
                yield Static(Text(
                    "Keys can be remapped: MEMVAULT_KEYMAP='memvault.archive=A;memvault.delete=D' "
                    "(binding id = keys). The command palette (ctrl+p) finds memories by id or "
                    "words and runs every action. The mouse works everywhere: click a group to "
                    "open it, a tab to switch, a node of the provenance graph to go to it.",
                    style="dim"))

    def _keys(self) -> Table:
        """memvault's own keys first (with the binding ids a keymap uses), then the keys of
        the focused widget for moving around."""
        table = Table(title="keys", title_justify="left", title_style="bold", box=None,
                      padding=(0, 2), show_header=False)
        table.add_column(no_wrap=True, style="bold cyan")
        table.add_column()
        table.add_column(style="dim", no_wrap=True)
        by_action: dict[tuple[str, str], list[str]] = {}
        ids: dict[tuple[str, str], str] = {}
        for _key, active in self.bindings.items():
            b = active.binding
            if not b.description or b.system:
                continue
            k = (b.id or b.action, b.description)  # one row a binding id (a widget may share it)
            by_action.setdefault(k, []).append(self.key_display(b))
            ids[k] = b.id or ""
        ours = [k for k in by_action if ids[k].startswith("memvault.")]
        others = [k for k in by_action if not ids[k].startswith("memvault.")]
        for index, k in enumerate(ours + others):
            if index == len(ours) and others:
                table.add_row("", "")
                table.add_row(Text("moving around", style="bold"), "")
            table.add_row(" ".join(dict.fromkeys(by_action[k])), k[1], ids[k])
        return table

    @staticmethod
    def _table(title: str, rows: list[tuple[str, str]]) -> Table:
        table = Table(title=title, title_justify="left", title_style="bold", box=None,
                      padding=(0, 2), show_header=False)
        table.add_column(no_wrap=True, style="bold")
        table.add_column()
        for a, b in rows:
            table.add_row(a, b)
        return table

    def action_close(self) -> None:
        self.dismiss(None)
