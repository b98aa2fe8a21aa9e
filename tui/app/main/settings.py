"""The main screen's saved choices (:mod:`tui.app.settings`): the grouping, the sort, gist or
content first, the tree or the flat list with its sort, and the left pane's width (``<`` /
``>``): shown as saved when the screen mounts, saved again when the person changes one."""

from __future__ import annotations

from textual.screen import Screen

from ..settings import LEFT_MAX, LEFT_MIN, Settings
from ..widgets.detail import DetailPane
from ..widgets.memory_list import MemoryList
from .tree import MainTree


class SavedChoices:
    """What ``screen``'s widgets show as the app's settings say, and what it saves of them
    (nothing without the app's settings: a screen run on its own)."""

    def __init__(self, screen: Screen[object]) -> None:
        self.screen = screen

    def settings(self) -> Settings | None:
        settings = getattr(self.screen.app, "settings", None)  # (the app's: MemvaultApp.settings)
        return settings if isinstance(settings, Settings) else None

    def save(self) -> None:
        """The app writes the settings when they changed."""
        getattr(self.screen.app, "save_settings")()

    def apply(self, settings: Settings) -> None:
        """Show what the saved settings say (at mount, before the vault is open)."""
        tree = self.screen.query_one(MainTree)
        tree.mode, tree.sort = settings.mode, settings.sort
        self.screen.query_one(DetailPane).show_content = settings.show_content
        memory_list = self.screen.query_one(MemoryList)
        memory_list.order = (settings.list_sort, settings.list_descending)
        memory_list.display = settings.view == "list"
        tree.display = settings.view != "list"
        self.left_width()

    def left_width(self) -> None:
        """The left pane as wide as the tree's, or the list's, width says."""
        settings = self.settings()
        if settings is not None:
            showing_list = self.screen.query_one(MemoryList).display
            width = settings.list_width if showing_list else settings.left_width
            self.screen.query_one("#left").styles.width = f"{width}%"

    def remember(self) -> None:
        """Save what the person chose (the app writes it when it changed)."""
        settings = self.settings()
        if settings is None:
            return
        memory_list = self.screen.query_one(MemoryList)
        tree = self.screen.query_one(MainTree)
        settings.mode, settings.sort = tree.mode, tree.sort
        settings.show_content = self.screen.query_one(DetailPane).show_content
        settings.view = "list" if memory_list.display else "tree"
        settings.list_sort = memory_list.sort_column
        settings.list_descending = memory_list.descending
        self.save()

    def action_resize_left(self, step: int) -> None:
        """``<`` / ``>``: the left pane narrower or wider (by 4% of the screen); the tree and
        the list each keep their own width."""
        settings = self.settings()
        if settings is None:
            return
        name = "list_width" if self.screen.query_one(MemoryList).display else "left_width"
        setattr(settings, name, max(LEFT_MIN, min(LEFT_MAX, getattr(settings, name) + step)))
        self.left_width()
        self.save()
