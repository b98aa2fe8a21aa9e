"""A modal whose see-through backdrop is drawn once: :class:`SeeThroughModal`.

A modal screen with a translucent background (``ModalScreen { background: $background 60% }``)
draws the screen below it, tinted, as its own background: Textual renders that whole screen
again and tints every segment each time the modal lays itself out. Opening a wizard or help
did that three times (its first frame, the resize Textual sends a new screen, a step filled
in) although nothing below had changed (its cost: bench/app_speed.py --keys). Here the tinted lines are kept for the size and the theme they were drawn
at, and drawn again only when a screen below reports a change (Textual refreshes the modal with
the regions that changed), when the size or the theme changes, or when a screen was above the
modal (the palette: it may have changed what is below)."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.segment import Segment
from textual.geometry import Region
from textual.renderables.background_screen import BackgroundScreen
from textual.screen import ModalScreen, ScreenResultType
from typing import Self

#: the tinted lines of a screen below, by (width, height, theme)
Kept = dict[tuple[int, int, str], list[list[Segment]]]


class KeptBackdrop:
    """Draws ``below`` (Textual's tinted screen below) once for a size and a theme into
    ``kept``, then the lines kept."""

    def __init__(self, below: BackgroundScreen, kept: Kept, theme: str) -> None:
        self.below = below
        self.kept = kept
        self.theme = theme

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        size = (options.max_width, options.height or options.size.height, self.theme)
        lines = self.kept.get(size)
        if lines is None:
            lines = console.render_lines(self.below, options)
            self.kept.clear()
            self.kept[size] = lines
        new_line = Segment.line()
        for line in lines:
            yield from line
            yield new_line


class SeeThroughModal(ModalScreen[ScreenResultType]):
    """A modal screen that keeps its see-through backdrop while nothing below it changes."""

    def __init__(self, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        #: the backdrop's lines, for the size they were drawn at
        self.backdrop: Kept = {}

    def render(self) -> RenderableType:
        found = super().render()
        if isinstance(found, BackgroundScreen):
            return KeptBackdrop(found, self.backdrop, self.app.theme)
        return found

    def on_screen_suspend(self) -> None:
        self.backdrop.clear()  # (a screen above it may change what is below: drawn when back)

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False,
                recompose: bool = False) -> Self:
        if regions:  # (a screen below changed there: its backdrop is drawn again)
            self.backdrop.clear()
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)
