"""The command palette's memory finder: type an id prefix or words to go to a memory.
(Every action is in the palette too, through :meth:`MemvaultApp.get_system_commands`.)"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Protocol, cast

from textual.command import Hit, Hits, Provider

from core.vault import first_words

if TYPE_CHECKING:
    from .main.screen import MainScreen

MAX_HITS = 40


class HoldsMainScreen(Protocol):
    """What the finder needs of the app: its main screen (None before it is made)."""

    main_screen: MainScreen | None


class MemoryCommands(Provider):
    async def search(self, query: str) -> Hits:
        main = cast(HoldsMainScreen, self.app).main_screen
        text = query.strip().lower()
        if main is None or main.view is None or not text:
            return
        view = main.view
        words = text.split()
        matcher = self.matcher(query)
        found = 0
        for memory_id, row in view.rows.items():
            by_id = memory_id.startswith(text)
            if not by_id and not all(w in row.hay for w in words):
                continue
            label = f"{memory_id[:8]}  {first_words(row.memory.text, 70)}"
            score = 1.0 if by_id else max(matcher.match(label), 0.3)
            yield Hit(
                score,
                matcher.highlight(label),
                partial(main.jumps.jump, memory_id),
                help=f"go to memory · score {row.score:.2f} · {row.memory.status.value}",
            )
            found += 1
            if found >= MAX_HITS:
                return
