"""Settings (``,``, or "Settings" in the command palette): every choice the app saves in
``settings.json`` (:mod:`tui.app.settings`), changed here and saved where the main screen's
keys save it; where that file is; the keymap; and the configuration from the environment.

Enter / right takes a choice's next value, left the one before, applied at once. The keymap and
the decay model and thresholds are typed (enter on their row): checked first (a bad value is
said, nothing saved), then saved in the same file and applied; an environment variable that is
set (``MEMVAULT_KEYMAP``, ``CORTEXGRAPH_*``) overrides the file, and the row says so
(:mod:`tui.app.configured`, ``docs/configuration.md``)."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Protocol

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, Static

from core import ConfigError
from core.model.config import ENV_VARS, DecayConfig
from core.search.first_build import DEFAULT_WAIT, WAIT_ENV
from core.secrets.policy import ENV as SECRETS_ENV

from ..configured import KEYMAP_ENV, keymap_text, overridden, typed_decay, typed_keymap
from ..grouping import MODE_NAMES, MODES, SORT_NAMES, SORTS
from ..settings import ENV as CONFIG_ENV
from ..service import VaultService
from ..settings import LEFT_MAX, LEFT_MIN, LIST_SORTS, VIEWS, Settings, settings_path
from ..widgets.lists import RowTable

WIDTH_STEP = 4  # as the main screen's < and > move the left pane


class SettingsHost(Protocol):
    """What the screen needs of the app (:class:`tui.app.app.MemvaultApp`)."""

    theme: str
    settings: Settings
    keymap: dict[str, str]
    service: VaultService

    @property
    def available_themes(self) -> dict[str, Any]: ...

    @property
    def settings_written(self) -> bool: ...

    def apply_setting(self, name: str, value: object) -> None: ...
    def apply_keymap(self, keymap: dict[str, str]) -> None: ...
    def apply_decay(self, values: dict[str, object]) -> None: ...


@dataclass(frozen=True)
class Choice:
    """One saved choice: its field of :class:`Settings`, how the screen names it, the key of
    the main screen that changes it too, its values and how each is shown."""

    name: str
    label: str
    key: str
    values: Callable[[SettingsHost], Sequence[Any]]
    shown: Callable[[Any], str] = str


def _widths(_app: SettingsHost) -> Sequence[int]:
    return range(LEFT_MIN, LEFT_MAX + 1)


CHOICES = [
    Choice("theme", "theme", "ctrl+p", lambda app: sorted(app.available_themes),
           lambda value: value or "textual-dark"),
    Choice("mode", "the tree groups by", "m", lambda _app: MODES, MODE_NAMES.__getitem__),
    Choice("sort", "the tree sorts by", "s", lambda _app: SORTS, SORT_NAMES.__getitem__),
    Choice("show_content", "the detail pane shows first", "c", lambda _app: (False, True),
           lambda value: "content" if value else "gist"),
    Choice("view", "the left pane shows", "f", lambda _app: VIEWS,
           lambda value: "the flat list" if value == "list" else "the tree"),
    Choice("list_sort", "the flat list sorts by", "s (list)", lambda _app: LIST_SORTS,
           lambda value: value.replace("_", " ")),
    Choice("list_descending", "the flat list's order", "o (list)", lambda _app: (True, False),
           lambda value: "descending ↓" if value else "ascending ↑"),
    Choice("left_width", "left pane width with the tree", "< >", _widths,
           lambda value: f"{value}%"),
    Choice("list_width", "left pane width with the list", "< >", _widths,
           lambda value: f"{value}%"),
]


@dataclass(frozen=True)
class Typed:
    """A setting typed on its row (enter): the keymap (``keymap``) or a decay setting
    (``decay.<its DecayConfig field>``), with what the row below the table says of its values."""

    name: str
    label: str
    values: str


TYPED = [Typed("keymap", "keys (MEMVAULT_KEYMAP)",
               "binding-id=keys;… as MEMVAULT_KEYMAP (? lists each key's id); empty: none"),
         Typed("decay.decay_model", "decay model", "power_law · exponential · two_component"),
         *(Typed(f"decay.{f.name}", f.name.replace("_", " "),
                 "a number in 0..1" if f.name in ("forget_threshold", "tc_weight_fast",
                                                   "promote_threshold")
                 else "a whole number > 0" if f.name.startswith("promote_")
                 else ">= 0" if f.name == "decay_beta" else "a number > 0")
           for f in fields(DecayConfig)[1:])]


class TypedInput(Input):
    """Where a typed setting is typed: enter checks and saves it, esc leaves it unsaved."""

    BINDINGS = [Binding("escape", "screen.stop_typing", "Cancel", show=False,
                        id="memvault.settings.cancel_typing")]


def home_short(path: object) -> str:
    """``path`` with the home folder as ``~`` (what a person reads and types)."""
    text, home = str(path), str(Path.home())
    return "~" + text[len(home):] if text == home or text.startswith(home + os.sep) else text


def stepped(choice: Choice, values: Sequence[Any], now: Any, step: int) -> Any:
    """The value ``step`` places from ``now`` (widths move by :data:`WIDTH_STEP` and stop at
    their ends; the others go round)."""
    if choice.name in ("left_width", "list_width"):
        return max(LEFT_MIN, min(LEFT_MAX, int(now) + step * WIDTH_STEP))
    index = list(values).index(now) if now in values else -step
    return values[(index + step) % len(values)]


def environment_rows(environ: dict[str, str] | os._Environ[str], config: DecayConfig | None,
                     vault: str, saved: dict[str, Any] | None = None
                     ) -> tuple[list[tuple[str, str, str]], str | None]:
    """The configuration in effect, one (name, value, from where) a row, and what is wrong
    with the decay variables, if anything (then the defaults are shown); ``saved``: the decay
    settings the settings file holds."""
    def source(var: str, name: str = "") -> str:
        if environ.get(var, "").strip():
            return f"${var}" + (" (over settings.json)" if name in (saved or {}) else "")
        return "settings.json" if name in (saved or {}) else "default"

    rows = [("vault", vault, "--vault, $MEMVAULT_PATH or CortexGraph's path")]
    problem = None
    if config is None:
        try:
            config = DecayConfig.from_env(environ)
        except ConfigError as exc:
            problem, config = str(exc), DecayConfig()
    for field in fields(DecayConfig):
        var = ENV_VARS[field.name]
        rows.append((field.name.replace("_", " "), str(getattr(config, field.name)),
                     source(var, field.name) if problem is None else "default (see above)"))
    wait = environ.get(WAIT_ENV, "").strip()
    rows.append(("search waits for a first index build", f"{wait or DEFAULT_WAIT} s",
                 source(WAIT_ENV)))
    secrets = environ.get(SECRETS_ENV, "").strip()
    rows.append(("a secret in a write", secrets or "the vault's policy (memvault "
                 "secrets-policy; refuse unless set)", source(SECRETS_ENV)))
    return rows, problem


class ChoiceTable(RowTable):
    """The saved choices, one a row: enter, right or ``l`` the highlighted one's next value,
    left or ``h`` the one before (over the table's own sideways keys: a row has nothing to
    scroll to)."""

    BINDINGS = [
        Binding("enter,right,l", "screen.step(1)", "Next value", id="memvault.settings.next"),
        Binding("left,h", "screen.step(-1)", "Value before",
                id="memvault.settings.previous"),
    ]


class SettingsScreen(Screen[None]):
    """The settings: the app's saved choices (changed here) and what the environment sets."""

    CSS_PATH = "settings_screen.tcss"
    BINDINGS = [
        Binding("escape,q", "back", "Back", id="memvault.settings.back"),
    ]

    def __init__(self, app: SettingsHost) -> None:
        super().__init__()
        self.memvault = app

    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        with VerticalScroll(id="settings-body"):
            yield Static(self._where(), id="settings-where")
            yield ChoiceTable(id="settings-choices", cursor_type="row")
            yield TypedInput(id="settings-typed")
            yield Static("", id="settings-values")
            yield Static("", id="settings-saved")
            yield Static(self._keys(), id="settings-keys")
            yield Static(self._environment(), id="settings-environment")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "settings"
        table = self.query_one(ChoiceTable)
        table.add_column("setting", key="label")
        table.add_column("value", key="value")
        table.add_column("key", key="key")
        for choice in CHOICES:
            table.add_row(*self._cells(choice), key=choice.name)
        for typed in TYPED:
            table.add_row(*self._typed_cells(typed), key=typed.name)
        self.query_one(TypedInput).display = False
        table.focus()

    # -- the saved choices --------------------------------------------------------------------
    def _now(self, choice: Choice) -> Any:
        if choice.name == "theme":
            return self.memvault.theme
        return getattr(self.memvault.settings, choice.name)

    def _cells(self, choice: Choice) -> tuple[Text, Text, Text]:
        return (Text(choice.label), Text(choice.shown(self._now(choice)), style="bold"),
                Text(choice.key, style="cyan"))

    def _values_of(self, choice: Choice) -> Text:
        """The values the highlighted choice can take (below the table: the table stays
        narrow enough for 80 columns)."""
        if choice.name in ("left_width", "list_width"):
            values = f"{LEFT_MIN}% to {LEFT_MAX}%, by {WIDTH_STEP}"
        else:
            values = " · ".join(choice.shown(v) for v in choice.values(self.memvault))
        return Text.assemble((f"{choice.label}: ", "bold"), (values, "dim"))

    def on_data_table_row_highlighted(self, event: ChoiceTable.RowHighlighted) -> None:
        if 0 <= event.cursor_row < len(CHOICES):
            self.query_one("#settings-values", Static).update(
                self._values_of(CHOICES[event.cursor_row]))
        elif 0 <= event.cursor_row - len(CHOICES) < len(TYPED):
            typed = TYPED[event.cursor_row - len(CHOICES)]
            var = KEYMAP_ENV if typed.name == "keymap" else ENV_VARS[typed.name[6:]]
            set_there = os.environ.get(var, "").strip()
            self.query_one("#settings-values", Static).update(Text.assemble(
                (f"{typed.label}: ", "bold"), (f"enter types it: {typed.values}", "dim"),
                (f" · ${var}={set_there} is set: it overrides the file", "yellow")
                if set_there else ""))

    def action_step(self, step: int) -> None:
        """The highlighted choice's next (or previous) value: applied, saved, said (a typed
        setting's row: where to type it)."""
        table = self.query_one(ChoiceTable)
        if table.row_count == 0:
            return
        if table.cursor_row >= len(CHOICES):
            self._start_typing(TYPED[table.cursor_row - len(CHOICES)])
            return
        choice = CHOICES[table.cursor_row]
        value = stepped(choice, choice.values(self.memvault), self._now(choice), step)
        self.memvault.apply_setting(choice.name, value)
        for column, cell in zip(("label", "value", "key"), self._cells(choice)):
            table.update_cell(choice.name, column, cell)
        if self.memvault.settings_written:
            said = Text.assemble((f"{choice.label}: {choice.shown(self._now(choice))}",
                                  "bold"), f" · saved in {home_short(settings_path())}")
        else:
            said = Text(f"{choice.label}: {choice.shown(self._now(choice))} · not saved: the "
                        f"folder of {home_short(settings_path())} cannot be written", style="bold red")
        self.query_one("#settings-saved", Static).update(said)

    def action_back(self) -> None:
        self.dismiss(None)

    # -- the typed settings: the keymap, the decay model and thresholds ----------------------
    def _saved_text(self, typed: Typed) -> str:
        """What the settings file holds for ``typed``, as it is typed."""
        settings = self.memvault.settings
        if typed.name == "keymap":
            return keymap_text(settings.keymap)
        value = settings.decay.get(typed.name.removeprefix("decay."))
        return "" if value is None else str(value)

    def _typed_cells(self, typed: Typed) -> tuple[Text, Text, Text]:
        """The row: the value in effect; the key column says what sets it."""
        if typed.name == "keymap":
            keymap = self.memvault.keymap
            value = f"{len(keymap)} remapped (below)" if keymap else "none"
            over = bool(os.environ.get(KEYMAP_ENV, "").strip())
        else:
            name = typed.name.removeprefix("decay.")
            config = getattr(self.memvault.service, "config", None) or DecayConfig()
            value, over = str(getattr(config, name)), name in overridden()
        where = Text("env over", style="yellow") if over else Text("⏎ type", style="cyan")
        return Text(typed.label), Text(value, style="bold"), where

    def _start_typing(self, typed: Typed) -> None:
        box = self.query_one(TypedInput)
        box.value = self._saved_text(typed)
        box.placeholder = typed.values
        box.border_title = f"{typed.label}: enter saves, esc leaves it"
        box.border_subtitle = None
        box.display = True
        box.focus()

    def action_stop_typing(self) -> None:
        self.query_one(TypedInput).display = False
        self.query_one(ChoiceTable).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Checked first: refused, said and nothing saved (the box stays as typed); else saved
        in the settings file, applied, and said (with the variable that overrides it)."""
        event.stop()
        table = self.query_one(ChoiceTable)
        typed = TYPED[table.cursor_row - len(CHOICES)]
        said = self.query_one("#settings-saved", Static)
        try:
            if typed.name == "keymap":
                from ..keys_doc import PLACES, place_classes
                from ..keys import actions

                known = {a.binding_id for a in actions([type(self.app),
                                                        *place_classes(PLACES)])}
                self.memvault.apply_keymap(typed_keymap(event.value, known))
            else:
                self.memvault.apply_decay(typed_decay(typed.name.removeprefix("decay."),
                                                      event.value, self.memvault.settings.decay))
        except ValueError as exc:
            refused = Text(f"{typed.label}: not saved: {exc}", style="bold red")
            said.update(refused)
            self.query_one(TypedInput).border_subtitle = refused  # (in view at 80x24)
            return
        self.action_stop_typing()
        self.refresh_typed()
        var = KEYMAP_ENV if typed.name == "keymap" else ENV_VARS[typed.name[6:]]
        over = (os.environ.get(var, "").strip() != "")
        where = f"saved in {home_short(settings_path())}" if self.memvault.settings_written \
            else f"not saved: the folder of {home_short(settings_path())} cannot be written"
        said.update(Text.assemble(
            (f"{typed.label}: {event.value.strip() or 'the default'}", "bold"), f" · {where}",
            (f" · ${var} is set and overrides it while set", "yellow") if over else ""))
        said.scroll_visible()

    def refresh_typed(self) -> None:
        """The typed rows and the sections below as they are now."""
        table = self.query_one(ChoiceTable)
        for typed in TYPED:
            for column, cell in zip(("label", "value", "key"), self._typed_cells(typed)):
                table.update_cell(typed.name, column, cell)
        self.query_one("#settings-keys", Static).update(self._keys())
        self.query_one("#settings-environment", Static).update(self._environment())

    # -- what the screen says ------------------------------------------------------------------
    def _where(self) -> Text:
        folder = os.environ.get(CONFIG_ENV, "").strip()
        why = f"${CONFIG_ENV}" if folder else f"the user's config folder; ${CONFIG_ENV} moves it"
        return Text.assemble(
            "Saved in ", (home_short(settings_path()), "bold"), f" ({why}), as they change, here or "
            "by the main screen's keys. enter / → the next value, ← the one before; the keys "
            "and the decay settings are typed (enter), a variable set in the environment "
            "overrides them.")

    def _keys(self) -> Table:
        table = Table(title="keys ($MEMVAULT_KEYMAP)", title_justify="left", title_style="bold",
                      box=None, padding=(0, 2), show_header=False)
        table.add_column(no_wrap=True, style="cyan")
        table.add_column()
        keymap = self.memvault.keymap
        if not keymap:
            table.add_row("", Text("not set: every key is as the code binds it (? lists "
                                   "them); MEMVAULT_KEYMAP='memvault.archive=A' remaps one"))
        for binding_id, keys in keymap.items():
            table.add_row(binding_id, Text(keys))
        return table

    def _environment(self) -> Table:
        config = getattr(self.memvault.service, "config", None)
        rows, problem = environment_rows(os.environ, config,
                                         home_short(self.memvault.service.root),
                                         self.memvault.settings.decay)
        table = Table(title="configuration from the environment (docs/configuration.md)",
                      title_justify="left", title_style="bold", box=None, padding=(0, 2))
        table.add_column("setting", no_wrap=True)
        table.add_column("value", style="bold")
        table.add_column("from", style="dim")
        if problem is not None:
            table.add_row(Text(problem, style="bold red"), "", "")
        for name, value, where in rows:
            table.add_row(Text(name), Text(value), Text(where))
        return table

