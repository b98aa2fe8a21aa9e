"""The memvault terminal app: :class:`MemvaultApp` and :func:`run_app`.

    memvault                 # the configured vault (see `memvault -h`)
    memvault tui --vault DIR
    memvault demo            # a demo vault, then this app on it
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from .commands import MemoryCommands
from .grouping import MODE_NAMES, MODES, SORT_NAMES, SORTS
from .screens.help import HelpScreen
from .screens.main import MainScreen
from .service import VaultService
from .settings import Loaded, Settings
from .settings import load as load_settings
from .settings import save as write_settings


class MemvaultApp(App[None]):
    CSS_PATH = ["app.tcss", "screens/screens.tcss"]
    TITLE = "memvault"
    COMMANDS = App.COMMANDS | {MemoryCommands}
    BINDINGS = [
        Binding("question_mark", "help", "Help", id="memvault.help"),
        Binding("q", "quit", "Quit", show=False, id="memvault.quit"),
    ]

    def __init__(self, service: VaultService, *, keymap: dict[str, str] | None = None,
                 poll_interval: float = 2.0, rescore_interval: float = 60.0,
                 settings: Loaded | None = None) -> None:
        super().__init__()
        loaded = load_settings() if settings is None else settings
        self.settings: Settings = loaded.settings
        self._settings_extra = loaded.extra
        self._settings_notice = loaded.notice
        self._settings_saved = repr(self.settings)
        self.service = service
        self.keymap = dict(keymap or {})
        self.poll_interval = poll_interval
        self.rescore_interval = rescore_interval
        self.main_screen: MainScreen | None = None
        self.pane_delay = 0.12  # seconds the cursor rests on a memory before git-backed panes load

    def get_default_screen(self) -> Screen:
        self.main_screen = MainScreen(self.service, poll_interval=self.poll_interval,
                                      rescore_interval=self.rescore_interval)
        return self.main_screen

    def on_load(self) -> None:
        if self.keymap:
            self.set_keymap(self.keymap)

    def on_mount(self) -> None:
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
    def deliver_screenshot(self, filename: str | None = None, path: str | None = None,
                           time_format: str | None = None) -> str | None:
        """Save a screenshot (the palette's "Save screenshot"): in the Downloads folder, or in
        the current folder when there is none (Textual's default would fail there)."""
        return super().deliver_screenshot(filename, path or str(screenshot_folder()),
                                          time_format)

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(HelpScreen(self.screen.active_bindings, self.get_key_display))

    # -- the command palette: every action --------------------------------------------------
    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        main = self.main_screen
        if main is None or screen is not main:
            return
        # what the screen's keys cannot do now (while the vault opens: check_action), the
        # palette does not offer either
        for command in self._main_commands(main):
            if main.check_action(_action_of(command.callback), ()):
                yield command

    def _main_commands(self, main: MainScreen) -> Iterable[SystemCommand]:
        yield SystemCommand("Archive / unarchive", "archive the marked memories, else the "
                            "highlighted one (or make them active again)", main.action_archive)
        yield SystemCommand("Delete", "delete the marked memories, else the highlighted one "
                            "(asks first)", main.action_delete)
        yield SystemCommand("Undo", "take back the newest operation not undone yet (a revert of "
                            "its own changes; later touches are kept)", main.action_undo)
        yield SystemCommand("Redo", "take back the newest undo", main.action_redo)
        yield SystemCommand("Go to id", "go to a memory by id or unique prefix", main.action_goto)
        yield SystemCommand("Edit…", "edit the highlighted memory's content, gist, tags, "
                            "entities and strength in a form (ctrl+e)", main.action_edit_form)
        yield SystemCommand("Edit in $EDITOR", "the highlighted memory as a text file in your "
                            "editor (e)", main.action_edit_text)
        yield SystemCommand("New memory…", "add a memory (likely duplicates shown first) (n)",
                            main.action_new_memory)
        yield SystemCommand("Pin / unpin", "a pinned memory is never deleted or archived by gc "
                            "(F)", main.action_pin)
        yield SystemCommand("Split…", "the split wizard: decompose the highlighted memory (or a "
                            "split candidate) into atomic ones", main.action_split)
        yield SystemCommand("Consolidate…", "the consolidate wizard: merge the marked memories "
                            "(or a suggested cluster) into one", main.action_consolidate)
        yield SystemCommand("Mark / unmark", "mark the highlighted memory for consolidation "
                            "(space)", main.action_mark)
        yield SystemCommand("Copy id", "copy the highlighted memory's id to the clipboard (y)",
                            main.action_copy_id)
        yield SystemCommand("Expand all", "open every group (*)", main.action_expand_all)
        yield SystemCommand("Collapse all", "close every group (-)", main.action_collapse_all)
        yield SystemCommand("Outside edits", "files changed outside memvault: what was "
                            "committed, what is not valid (E)", main.action_outside_edits)
        yield SystemCommand("Clear marks", "unmark every marked memory (U)",
                            main.action_clear_marks)
        # marks and bulk actions (tui/app/screens/main_marks.py, main_bulk.py) and the undo list
        yield SystemCommand("Mark the group", "mark every memory of the highlighted group (A)",
                            main.action_mark_group)
        yield SystemCommand("Invert marks", "mark what is shown and unmarked, unmark the rest "
                            "(~)", main.action_invert_marks)
        yield SystemCommand("Visual range", "mark from here to where the cursor goes (V ends)",
                            main.action_visual)
        yield SystemCommand("Tag / untag…", "tag the marked memories, else the highlighted one "
                            "(T; -tag takes it off)", main.action_tag)
        yield SystemCommand("Promote", "promote the marked memories, else the highlighted one "
                            "(P)", main.action_promote)
        yield SystemCommand("Touch", "reinforce the marked memories, else the highlighted one "
                            "(t)", main.action_touch)
        yield SystemCommand("Undo list…", "what successive undos would take back; undo down "
                            "to one of them (u)", main.action_undo_list)
        yield SystemCommand("Filter", "focus the filter box", main.action_focus_filter)
        yield SystemCommand("Toggle gist / content", "show the gist or the content",
                            main.action_toggle_body)
        yield SystemCommand("Flat list / tree", "a flat sortable list of the memories the filter "
                            "keeps, or the grouped tree (f)", main.action_toggle_view)
        for mode in MODES:
            yield SystemCommand(f"Group by {MODE_NAMES[mode]}", "change how the tree groups",
                                partial(main.set_mode, mode))
        for sort in SORTS:
            yield SystemCommand(f"Sort by {SORT_NAMES[sort]}", "change the order of memories",
                                partial(main.set_sort, sort))
        yield SystemCommand("Show detail", "the detail pane", partial(main.action_tab, "detail"))
        yield SystemCommand("Show provenance", "ancestors and descendants of the memory",
                            partial(main.action_tab, "provenance"))
        yield SystemCommand("Show history", "the memory's git log", partial(main.action_tab, "history"))
        yield SystemCommand("gc preview", "memories below the forget threshold", main.action_gc)
        yield SystemCommand("Stats", "counts per status and a histogram of scores", main.action_stats)
        yield SystemCommand("Review inbox", "what the assistant wrote since you last looked: "
                            "accept or reject it", main.action_inbox)
        yield SystemCommand("Reload", "read the vault again from disk", main.action_reload)
        yield SystemCommand("Help", "keys, the filter language, group modes", self.action_help)


#: The action a palette command runs, for those that call a screen method of another name.
_ACTIONS_OF = {"set_mode": "cycle_mode", "set_sort": "cycle_sort"}


def _action_of(callback: Callable[..., object]) -> str:
    """The name of the action (as ``check_action`` is asked it) a palette command runs."""
    func = callback.func if isinstance(callback, partial) else callback
    name = getattr(func, "__name__", "")
    return _ACTIONS_OF.get(name, name.removeprefix("action_"))


def screenshot_folder() -> Path:
    """The user's Downloads folder when it exists, else the current folder."""
    from platformdirs import user_downloads_path

    downloads = user_downloads_path()
    return downloads if downloads.is_dir() else Path.cwd()


def parse_keymap(text: str | None) -> dict[str, str]:
    """``memvault.archive=A;memvault.delete=D,ctrl+d`` -> {binding id: keys}."""
    keymap: dict[str, str] = {}
    for part in (text or "").split(";"):
        binding_id, sep, keys = part.partition("=")
        if sep and binding_id.strip() and keys.strip():
            keymap[binding_id.strip()] = keys.strip()
    return keymap


def run_app(path: Path | str, *, keymap: dict[str, str] | None = None) -> int:
    app = MemvaultApp(VaultService(path), keymap=keymap)
    app.run()
    return 0
