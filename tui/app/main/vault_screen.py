"""What the main screen's parts read of the screen: :class:`VaultScreen`, a screen showing a
vault, with the vault as it shows it and the memory its panes show. (What the person chose of
the tree, its grouping, sort, filter and marks, is the tree's: :mod:`.tree`.)"""

from __future__ import annotations

from textual.screen import Screen

from ..view import VaultView


class VaultScreen(Screen[object]):
    """A screen showing a vault: ``view``, the vault as shown (a glance, a first look from the
    index, then the open vault: written by the opening and by each operation), and
    ``current``, the memory the panes show (written by the panes: :mod:`.panes`). The main
    screen is one; its parts are handed it, typed so."""

    def __init__(self) -> None:
        super().__init__()
        self.view: VaultView | None = None
        self.current: str | None = None
