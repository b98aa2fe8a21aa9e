"""The split wizard's third step: each part's first words, with its tags and entities as
comma-separated inputs (the rows are reused as the parts change)."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Input, Label, Static

from core.vault import first_words

from .split_parts import DraftPart, parse_list


class PartLabels(Vertical):
    """A part's first words, and its tags and entities as comma-separated inputs."""

    def __init__(self) -> None:
        super().__init__(classes="part-labels")
        self.part = DraftPart("")
        self.index = 0

    def compose(self) -> ComposeResult:
        yield Static("", classes="part-label")
        with Horizontal(classes="labels-row"):
            yield Label("tags", classes="labels-name")
            yield Input(placeholder="comma separated", classes="part-tags",
                        select_on_focus=False)
        with Horizontal(classes="labels-row"):
            yield Label("entities", classes="labels-name")
            yield Input(placeholder="comma separated", classes="part-entities",
                        select_on_focus=False)

    def bind(self, part: DraftPart, index: int) -> None:
        self.part, self.index = part, index
        head = Text(no_wrap=True, overflow="ellipsis")
        head.append(f"part {index + 1}  ", style="bold")
        head.append(first_words(part.text, 80))
        self.query_one(".part-label", Static).update(head)
        self.query_one(".part-tags", Input).value = ", ".join(part.tags or [])
        self.query_one(".part-entities", Input).value = ", ".join(part.entities or [])

    @on(Input.Changed, ".part-tags")
    def _tags(self, event: Input.Changed) -> None:
        if parse_list(event.value) != parse_list(", ".join(self.part.tags or [])):
            self.part.tags = parse_list(event.value)
            self.part.labels_typed = True

    @on(Input.Changed, ".part-entities")
    def _entities(self, event: Input.Changed) -> None:
        if parse_list(event.value) != parse_list(", ".join(self.part.entities or [])):
            self.part.entities = parse_list(event.value)
            self.part.labels_typed = True


class LabelsEditor(VerticalScroll):
    """Tags and entities of every part (rows are reused, like the parts' editors)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._pool: list[PartLabels] = []

    async def load(self, parts: list[DraftPart]) -> None:
        new = [PartLabels() for _ in range(len(parts) - len(self._pool))]
        if new:
            self._pool.extend(new)
            await self.mount_all(new)
        for index, row in enumerate(self._pool):
            if index < len(parts):
                row.bind(parts[index], index)
            row.display = index < len(parts)
        if parts:
            self._pool[0].query_one(".part-tags", Input).focus()
            self.scroll_home(animate=False)
