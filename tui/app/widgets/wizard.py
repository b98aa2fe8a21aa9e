"""Pieces both wizards (split and consolidate) use: the rail of steps and a choice of a few
options. The split's own pieces are in :mod:`.split_parts` (the parts editor) and
:mod:`.split_labels` (tags and entities per part)."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static
from textual.widgets.option_list import Option

from .lists import RowOptions


class StepRail(Static):
    """``1 Memory › 2 Parts › 3 Tags › …`` with the current step highlighted, done ones ticked."""

    current: reactive[int] = reactive(0)

    def __init__(self, titles: list[str], *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.titles = titles

    def render(self) -> Text:
        """Every step named where they fit; else (at 80 columns) the current step named and
        the others by their number, so that the rail never ends in a cut-off title."""
        width = self.size.width or 1_000
        for compact in (False, True):
            text = self._rail(compact)
            if text.cell_len <= width:
                return text
        return text

    def _rail(self, compact: bool) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        for index, title in enumerate(self.titles):
            if index:
                text.append(" › " if compact else "  ›  ", style="dim")
            named = not compact or index == self.current
            if index < self.current:
                text.append(f"✓ {title}" if named else f"✓{index + 1}", style="green")
            elif index == self.current:
                text.append(f" {index + 1} {title} ", style="bold reverse")
            else:
                text.append(f"{index + 1} {title}" if named else f"{index + 1}", style="dim")
        return text


# -- a choice of a few (the original's or the sources' fate) -----------------------------------
class ChoiceList(RowOptions):
    """One of a few options: the highlighted one is the choice (● marks it)."""

    def __init__(self, choices: list[tuple[str, str, str]], *, id: str | None = None) -> None:
        """``choices``: (value, title, what it means)."""
        self.choices = choices
        super().__init__(*[Option(self._prompt(c, i == 0), id=c[0])
                           for i, c in enumerate(choices)], id=id)

    @staticmethod
    def _prompt(choice: tuple[str, str, str], chosen: bool) -> Text:
        _value, title, meaning = choice
        text = Text()
        text.append("● " if chosen else "○ ", style="bold green" if chosen else "dim")
        text.append(title, style="bold" if chosen else "")
        text.append(f"\n  {meaning}", style="dim")
        return text

    @property
    def value(self) -> str:
        index = self.highlighted if self.highlighted is not None else 0
        return self.choices[index][0]

    def choose(self, value: str) -> None:
        for index, choice in enumerate(self.choices):
            if choice[0] == value:
                self.highlighted = index

    def on_mount(self) -> None:
        if self.highlighted is None:
            self.highlighted = 0

    def watch_highlighted(self, highlighted: int | None) -> None:
        super().watch_highlighted(highlighted)
        for index, choice in enumerate(self.choices):
            self.replace_option_prompt_at_index(index, self._prompt(choice, index == highlighted))
        self.refresh()
