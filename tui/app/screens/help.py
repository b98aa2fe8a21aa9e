"""Help: every action of the screen it was opened from with its keys now (as the keymap remaps
them, with the binding ids a keymap uses; an action whose keys the keymap gave to another says
so), the widgets' own moving keys, the filter language, and the group modes."""

from __future__ import annotations

from rich.cells import cell_len
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from ..keys import KeyedAction
from .backdrop import SeeThroughModal

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
    (", settings", "theme, sort, grouping, gist or content, tree or list, pane widths, the "
                   "keys, the decay model and thresholds: shown and changed on the settings "
                   "screen (the environment's variables override the last two), saved in "
                   "~/.config/memvault/settings.json (or $MEMVAULT_CONFIG_DIR)"),
]


def key_columns(rows: list[tuple[Text | str, str, str]]) -> Text:
    """``rows`` of (keys, what they do, binding id) as aligned columns, two spaces apart,
    under the title "keys": the keys bold cyan, the ids dim."""
    text = Text("keys", style="bold")
    width_keys = max((cell_len(k) if isinstance(k, str) else k.cell_len for k, _, _ in rows),
                     default=0)
    width_what = max((cell_len(w) for _, w, _ in rows), default=0)
    for keys, what, binding_id in rows:
        shown = keys if isinstance(keys, Text) else Text(keys)
        text.append("\n")
        text.append_text(Text(shown.plain, style=shown.style or "bold cyan",
                              spans=shown.spans))
        text.append(" " * (width_keys - shown.cell_len + 2))
        text.append(what)
        if binding_id:
            text.append(" " * (width_what - cell_len(what) + 2))
            text.append(binding_id, style="dim")
    return text


class HelpScreen(SeeThroughModal[None]):
    BINDINGS = [Binding("escape,q,question_mark", "close", "Close", id="memvault.help.close")]

    def __init__(self, actions: list[KeyedAction], bindings: dict[str, ActiveBinding],
                 key_display, unknown: list[str] | None = None) -> None:  # type: ignore[no-untyped-def]
        """``actions``: memvault's own (every binding id of the focused widget, the screen and
        the app, as :func:`tui.app.keys.actions` has them); ``bindings``: the screen's active
        bindings, for the widgets' own keys; ``unknown``: keymap ids nothing declares."""
        super().__init__()
        self.actions = actions
        self.bindings = bindings
        self.key_display = key_display
        self.unknown = unknown or []

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="dialog wide"):
            yield Static(Text("memvault keys", style="bold"), classes="dialog-title")
            with VerticalScroll(id="help-body"):
                notice = self._keymap_notice()
                if notice is not None:
                    yield Static(notice, id="help-keymap")
                yield Static(self._keys())
                yield Static(self._table("the filter box", FILTER_HELP))
                yield Static(self._table("group modes (m)", MODES_HELP))
                yield Static(self._table("views", VIEWS_HELP))
                yield Static(Text(
                    "Keys can be remapped: MEMVAULT_KEYMAP='memvault.archive=A;memvault.delete=D' "
                    "(binding id = keys). The command palette (ctrl+p) finds memories by id or "
                    "words and runs every action. The mouse works everywhere: click a group to "
                    "open it, a tab to switch, a node of the provenance graph to go to it. "
                    "docs/app.md lists the keys of every screen.",
                    style="dim"))

    def _display(self, key: str) -> str:
        return self.key_display(Binding(key, ""))

    def _keymap_notice(self) -> Text | None:
        """What the keymap took away (and what it names that does not exist)."""
        names = {a.binding_id: a.description for a in self.actions}
        text = Text()
        for action in self.actions:
            if not action.taken_by:
                continue
            takers = ", ".join(names.get(t, t) for t in action.taken_by)
            old = " ".join(self._display(k) for k in action.default if k not in action.keys)
            text.append(f"{action.description}", style="bold")
            if action.lost:
                text.append(" has no key now", style="bold red")
            text.append(f": MEMVAULT_KEYMAP gave {old} to {takers}"
                        f" (give it another: {action.binding_id}=KEY)\n")
        for binding_id in self.unknown:
            text.append(f"MEMVAULT_KEYMAP names {binding_id}, which no key here has (a typo?)\n",
                        style="yellow")
        text.rstrip()
        return text if text.plain else None

    def _keys(self) -> Text:
        """memvault's own actions first (every one, with its keys now and its binding id),
        then the keys of the focused widget for moving around: columns of one Text (a rich
        Table of a hundred rows cost the first ``?`` some 150 ms to measure and draw, twice)."""
        rows: list[tuple[Text | str, str, str]] = []
        ours = [a for a in self.actions if a.binding_id.startswith("memvault.")]
        for action in ours:
            keys = Text(" ".join(dict.fromkeys(self._display(k) for k in action.keys)))
            if action.lost:
                keys = Text("(none)", style="bold red")
            rows.append((keys, action.description, action.binding_id))
        # the widgets' own keys (Textual's), for moving around
        ids = {a.binding_id for a in ours}
        others: dict[tuple[str, str, str], list[str]] = {}
        for _key, active in self.bindings.items():
            b = active.binding
            if not b.description or b.system or (b.id or "") in ids \
                    or (b.id or "").startswith("memvault."):
                continue
            others.setdefault((b.id or b.action, b.description, b.id or ""), []).append(
                self.key_display(b))
        if others:
            rows.append(("", "", ""))
            rows.append((Text("moving around", style="bold"), "", ""))
            for (_, description, binding_id), shown in others.items():
                rows.append((" ".join(dict.fromkeys(shown)), description, binding_id))
        return key_columns(rows)

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
