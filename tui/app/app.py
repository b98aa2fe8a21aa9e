"""The memvault terminal app: :class:`MemvaultApp` and :func:`run_app`.

    memvault                 # the configured vault (see `memvault -h`)
    memvault tui --vault DIR
    memvault demo            # a demo vault, then this app on it
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, cast

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen

from .first_frame import FirstCounts, FirstFrame, read_first_counts, short_path
from .keys import KeyedAction, key_for, unknown_ids
from .keys import actions as keyed_actions
from .settings import Loaded, Settings, settings_path
from .settings import load as load_settings
from .settings import save as write_settings

if TYPE_CHECKING:  # imported by a worker once the first frame is painted (launched on a path)
    from textual.command import Provider

    from .main.screen import MainScreen
    from .service import VaultService
    from .view import VaultView


def memory_commands() -> type[Provider]:
    """The palette's memory finder (:mod:`.commands`), imported when the palette opens."""
    from .commands import MemoryCommands

    return MemoryCommands


class MainReady(Message):
    """(From the worker that imported them.) The service on the vault the app was launched on,
    and its glance when it has one: the main screen can take the first frame's place."""

    def __init__(self, service: VaultService, glance: VaultView | None) -> None:
        super().__init__()
        self.service = service
        self.glance = glance


class MemvaultApp(App[None]):
    #: every stylesheet of the app, its screens' too: read with the app's at start, so pushing
    #: a screen with a ``CSS_PATH`` of its own (the review inbox, the edit form, the settings)
    #: finds it read and does not reparse and reapply the whole stylesheet (Textual does that
    #: on the UI thread when a pushed screen brings a file it has not read: ~380 ms of the
    #: first ``I``); the files' rules name the screens' own widgets only
    CSS_PATH = ["app.tcss", "screens/screens.tcss", "screens/inbox.tcss",
                "screens/edit_form.tcss", "screens/settings_screen.tcss"]
    TITLE = "memvault"
    COMMANDS = App.COMMANDS | {memory_commands}
    BINDINGS = [
        Binding("question_mark", "help", "Help", id="memvault.help"),
        Binding("comma", "settings", "Settings", show=False, id="memvault.settings"),
        Binding("q", "quit", "Quit", id="memvault.quit"),
    ]

    def __init__(self, service: VaultService | Path | str, *, keymap: dict[str, str] | None = None,
                 poll_interval: float = 2.0, rescore_interval: float = 60.0,
                 settings: Loaded | None = None) -> None:
        super().__init__()
        loaded = load_settings() if settings is None else settings
        self.settings: Settings = loaded.settings
        self._settings_extra = loaded.extra
        self._settings_notice = loaded.notice
        self._settings_saved: str | None = repr(self.settings)
        self._settings_told = False  # the first save of a run says where (once)
        #: the vault's path when the app was launched on one (:func:`run_app`): the first frame
        #: shows, and the service is made once the main screen is imported (:meth:`import_main`)
        self.path: Path | None = None
        if isinstance(service, (str, Path)):
            self.path = Path(service).expanduser()
            self.service: VaultService | None = None
        else:
            self.service = service
        #: the keymap in effect: the settings file's, each id the environment's (``keymap``,
        #: MEMVAULT_KEYMAP's) names taken from that instead
        self.env_keymap = dict(keymap or {})
        self.keymap = {**self.settings.keymap, **self.env_keymap}
        self.poll_interval = poll_interval
        self.rescore_interval = rescore_interval
        self.main_screen: MainScreen | None = None
        #: help is said to be opening over the main screen, not pushed yet (a second ``?`` waits)
        self.help_opening = False
        #: the main screen's service and glance, ready while a screen over the first frame shows
        self.main_waiting: MainReady | None = None
        #: what the first frame counted (its index's counts make the main screen's glance)
        self.first_counts: FirstCounts | None = None
        self.pane_delay = 0.12  # seconds the cursor rests on a memory before git-backed panes load

    def get_default_screen(self) -> Screen:
        if self.service is None:
            assert self.path is not None
            self.first_counts = read_first_counts(self.path)
            return FirstFrame(self.first_counts, short_path(self.path.resolve()),
                              self.settings.mode)
        return self.make_main_screen(self.service)

    def make_main_screen(self, service: VaultService,
                         glance: VaultView | None = None) -> MainScreen:
        from .main.screen import MainScreen

        self.main_screen = MainScreen(service, poll_interval=self.poll_interval,
                                      rescore_interval=self.rescore_interval, glance=glance)
        return self.main_screen

    # -- launched on a path: the first frame, then the main screen ----------------------------
    @work(thread=True, group="first-frame", exit_on_error=False)
    def import_main(self) -> None:
        """(In a worker, once the first frame is painted.) The main screen and the service
        imported, the service made, the vault's glance read: :class:`MainReady`."""
        try:
            from .main.screen import MainScreen  # noqa: F401  (imported here, off the UI thread)
            from .service import VaultService

            from .configured import decay_config

            assert self.path is not None  # (the file's decay settings, the environment's over)
            service = VaultService(self.path, config=decay_config(self.settings.decay))
            if self.first_counts is not None:
                service.counted = self.first_counts.read  # (the glance: not counted again)
        except Exception as exc:  # (the frame would say "opening…" for ever)
            self.call_from_thread(self.main_failed, f"cannot open the vault: {exc}")
            return
        try:
            glance = service.glance()
        except (ValueError, TypeError, OSError):  # a count the view cannot take: the open says
            glance = None
        self.post_message(MainReady(service, glance))

    def main_failed(self, message: str) -> None:
        """The main screen could not be made: said (control characters escaped), on the first
        frame, which stays."""
        from core.textutil import neutralise_line

        message = neutralise_line(message)
        if isinstance(self.screen, FirstFrame):
            self.screen.query_one("#tree").border_title = "memories"
        self.notify(message, title="refused", severity="error", markup=False)

    def on_main_ready(self, message: MainReady) -> None:
        """The main screen over the first frame (which it looks like: its glance drawn at once),
        opening the vault: now, or once a screen opened over the frame (help, the settings)
        is closed (:meth:`show_main`)."""
        self.service = message.service
        self.main_waiting = message
        self.show_main()

    def show_main(self) -> None:
        """The main screen waiting (:meth:`on_main_ready`) pushed over the first frame when
        that is the screen shown. (Over it, not in its place: Textual switches no default
        screen; no screen of the app pops the main screen, the frame stays hidden beneath.)"""
        waiting = self.main_waiting
        if waiting is None or not isinstance(self.screen, FirstFrame):
            return
        self.main_waiting = None
        self.push_screen(self.make_main_screen(waiting.service, waiting.glance))

    def on_load(self) -> None:
        if self.keymap:
            self.set_keymap(self.keymap)

    def on_mount(self) -> None:
        if self.service is None:  # the first frame shows: the main screen imported after its paint
            self.call_after_refresh(self.import_main)
        theme = self.settings.theme
        if theme is not None and theme in self.available_themes:
            self.theme = theme
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        if self._settings_notice:
            self.notify(self._settings_notice, title="settings", severity="warning",
                        timeout=8, markup=False)

    # -- settings that persist (settings.py) ------------------------------------------------
    def _theme_changed(self, theme: object) -> None:
        self.settings.theme = self.theme
        self.save_settings()

    def save_settings(self) -> None:
        """Write the settings when they changed; a folder that cannot be written is said once,
        never fatal."""
        now = repr(self.settings)
        if now == self._settings_saved:
            return
        try:
            write_settings(self.settings, extra=self._settings_extra)
        except OSError as exc:
            if self._settings_saved is not None:
                self.notify(f"cannot save the settings: {exc}", title="settings",
                            severity="warning", timeout=6, markup=False)
            self._settings_saved = None  # tell once; try again at the next change
            return
        self._settings_saved = now
        if not self._settings_told:
            from .screens.settings_screen import home_short

            self._settings_told = True
            key = key_for(cast("App[object]", self), type(self), "settings")
            self.notify(f"Saved in {home_short(settings_path())} (every setting: {key})",
                        title="settings", timeout=4, markup=False)

    @property
    def settings_written(self) -> bool:
        """The settings file holds the settings now (False after a write failed)."""
        return self._settings_saved == repr(self.settings)

    def apply_setting(self, name: str, value: object) -> None:
        """Change one saved choice (the settings screen): shown at once, as the main screen's
        own key for it would show it, and saved."""
        if name == "theme":
            self.theme = str(value)  # (_theme_changed saves it)
            return
        setattr(self.settings, name, value)
        if self.main_screen is not None:
            apply_to_main(self.main_screen, self.settings, name)
        self.save_settings()

    def apply_keymap(self, keymap: dict[str, str]) -> None:
        """The settings screen's keymap: saved, and in effect at once (with the environment's
        ids over it)."""
        self.settings.keymap = dict(keymap)
        self.keymap = {**keymap, **self.env_keymap}
        self.set_keymap(self.keymap)
        self.save_settings()

    def apply_decay(self, values: dict[str, object]) -> None:
        """The settings screen's decay model and thresholds: saved, and every score made with
        them (the environment's variables over them) in a worker; the main screen shows it."""
        from .configured import decay_config

        self.settings.decay = dict(values)
        self.save_settings()
        service, main = self.service, self.main_screen
        if service is not None and service.is_open and main is not None:
            config = decay_config(values)
            self.run_worker(partial(self._rescore, service, main, config), thread=True,
                            group="rescore", exclusive=True, exit_on_error=False)

    def _rescore(self, service: VaultService, main: MainScreen, config: object) -> None:
        """(In a worker.)"""
        from .messages import VaultReloaded

        main.post_message(VaultReloaded(service.use_config(config), ""))  # type: ignore[arg-type]

    def action_settings(self) -> None:
        """``,``: the settings screen (on the first frame: once the main screen is made, it
        shows the vault's configuration)."""
        from .screens.settings_screen import SettingsHost, SettingsScreen

        if self.service is None:
            self.notify("the settings open once the vault is read (opening…)", title="settings",
                        timeout=3, markup=False)
            return
        if not isinstance(self.screen, SettingsScreen):
            self.push_screen(SettingsScreen(cast(SettingsHost, self)))  # (its service is made)
    def deliver_screenshot(self, filename: str | None = None, path: str | None = None,
                           time_format: str | None = None) -> str | None:
        """Save a screenshot (the palette's "Screenshot"): in the Downloads folder, or in
        the current folder when there is none (Textual's default would fail there)."""
        return super().deliver_screenshot(filename, path or str(screenshot_folder()),
                                          time_format)

    # -- keys: one source, the bindings (keys.py) ---------------------------------------------
    def key_display_of(self, key: str) -> str:
        """How the app shows ``key`` (the footer's way)."""
        return self.get_key_display(Binding(key, ""))

    def keyed_actions(self, screen: Screen | None = None) -> list[KeyedAction]:
        """Every action of the focused widget, ``screen`` (default: the current one) and the
        app, with its keys as the keymap leaves them."""
        screen = screen or self.screen
        parts: list[type] = []
        focused = screen.focused
        if focused is not None:
            for node in focused.ancestors_with_self:
                if node is screen:
                    break
                parts.append(type(node))
        return keyed_actions([*parts, type(screen), type(self)], self.keymap)

    def action_help(self) -> None:
        from .screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen) or self.help_opening:
            return
        screen = self.screen
        # (a keymap's typos: every place's classes are imported only when there is a keymap)
        unknown = unknown_ids(self._keyed_parts(), self.keymap) if self.keymap else []
        help_screen = HelpScreen(self.keyed_actions(screen), screen.active_bindings,
                                 self.get_key_display, unknown)
        main = self.main_screen
        if main is None or screen is not main:
            self.push_screen(help_screen)
            return
        # over the main screen, said at once as the wizards are ("⋯ opening help…" in the tree's
        # title, a frame of a few ms) and built once that is drawn: composing and drawing help
        # over the see-through backdrop takes 120-250 ms on the bench, too long a wait to see
        # the key did something
        self.help_opening = True

        def push() -> None:
            self.help_opening = False
            self.push_screen(help_screen)

        main.pending.opening("help", push)

    def _keyed_parts(self) -> list[type]:
        """Every class the app's keys are declared on (a keymap id none declares is a typo)."""
        from .keys_doc import PLACES, place_classes

        return [self.__class__, *place_classes(PLACES)]

    # -- the command palette: every action --------------------------------------------------
    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        main = self.main_screen
        if main is None or screen is not main:
            return
        from .main.screen import MAIN_WIDGETS, MainScreen
        from .palette import main_commands

        # what the screen's keys cannot do now (while the vault opens: check_action), the
        # palette does not offer either
        keyed = keyed_actions([MainScreen, *MAIN_WIDGETS, type(self)], self.keymap)
        for command in main_commands(main, keyed, self.key_display_of, self):
            if main.check_action(_action_of(command.callback), ()):
                yield command


#: The action a palette command runs, for those that call a screen method of another name.
_ACTIONS_OF = {"choose_mode": "cycle_mode", "choose_sort": "cycle_sort"}


def _action_of(callback: Callable[..., object]) -> str:
    """The name of the action (as ``check_action`` is asked it) a palette command runs."""
    func = callback.func if isinstance(callback, partial) else callback
    name = getattr(func, "__name__", "")
    return _ACTIONS_OF.get(name, name.removeprefix("action_"))


def apply_to_main(main: MainScreen, settings: Settings, name: str) -> None:
    """Show the choice ``name`` of ``settings`` on the main screen through the screen's own
    actions (those of its keys ``m``, ``s``, ``c``, ``f``, ``<`` / ``>``), which save what
    they show: the main screen and the file never disagree."""
    if name == "mode":
        main.memory_tree.mode = settings.mode  # (the screen rebuilds the tree)
    elif name == "sort":
        main.memory_tree.sort = settings.sort
    elif name == "show_content" and main.detail.show_content != settings.show_content:
        main.action_toggle_body()
    elif name == "view" and main.showing_list != (settings.view == "list"):
        main.action_toggle_view()
    elif name in ("list_sort", "list_descending"):
        main.memory_list.order = (settings.list_sort, settings.list_descending)  # (watched)
    elif name in ("left_width", "list_width"):
        main.action_resize_left(0)  # the width of the list or the tree, as it shows now


def screenshot_folder() -> Path:
    """The user's Downloads folder when it exists, else the current folder."""
    from platformdirs import user_downloads_path

    downloads = user_downloads_path()
    return downloads if downloads.is_dir() else Path.cwd()


def parse_keymap(text: str | None) -> dict[str, str]:
    """``memvault.archive=A;memvault.delete=D,ctrl+d`` -> {binding id: keys}."""
    from .configured import parse_keymap as parsed

    return parsed(text)


def run_app(path: Path | str, *, keymap: dict[str, str] | None = None) -> int:
    """The app on the vault at ``path``: its first frame painted before the vault and the main
    screen are imported (:mod:`.first_frame`)."""
    app = MemvaultApp(path, keymap=keymap)
    app.run()
    return 0
