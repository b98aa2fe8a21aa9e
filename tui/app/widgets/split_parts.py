"""The split wizard's draft and its second step: each part of the memory being split (its text,
and once set its tags and entities), and the parts editor (each part in a text area; add,
remove, join with the next, reorder, cut at the cursor). They hold no vault state: the wizard
reads them back and asks the service (see :mod:`tui.app.screens.split_wizard`)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Button, Static, TextArea

from .text_area import EditorArea

_keys = itertools.count(1)


def parse_list(text: str) -> list[str]:
    """``"work, dev,, work"`` -> ``["work", "dev"]`` (comma separated, blanks dropped, each
    once; as the CLI's ``--tags``)."""
    return list(dict.fromkeys(x.strip() for x in text.split(",") if x.strip()))


@dataclass
class DraftPart:
    """One part of a split being drafted: its text and (once set) its tags and entities."""

    text: str
    tags: list[str] | None = None  # None: not decided yet (prefilled when step 3 opens)
    entities: list[str] | None = None
    key: int = field(default_factory=lambda: next(_keys))
    #: The person typed this part's tags or entities: they stay as typed. Otherwise they are
    #: derived again from the part's text whenever the tags step opens.
    labels_typed: bool = False
    #: The memories this part likely repeats (id, similarity), found for the text
    #: ``repeats_text`` (None: not checked); shown while the part still says that.
    repeats: list[tuple[str, float]] = field(default_factory=list)
    repeats_text: str | None = None

    def checked(self, repeats: list[tuple[str, float]], text: str) -> None:
        """The memories the part with ``text`` likely repeats, as the vault's check found."""
        self.repeats, self.repeats_text = list(repeats), text.strip()

    @property
    def shown_repeats(self) -> list[tuple[str, float]]:
        """What the part repeats, while its text is the one checked (an edit hides the flag
        until the next check)."""
        return self.repeats if self.repeats_text == self.text.strip() else []

    @property
    def typed_labels(self) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        """The tags and entities the person typed (None: derived ones)."""
        if not self.labels_typed:
            return None
        return tuple(self.tags or ()), tuple(self.entities or ())


class PartEditor(Vertical):
    """One part: a heading with its number, size and buttons, and its text in a text area."""

    BINDINGS = [
        Binding("ctrl+o", "part('add')", "New part after this one", id="memvault.split.add_part"),
        Binding("ctrl+t", "part('cut')", "Cut this part at the cursor",
                id="memvault.split.cut_part"),
        Binding("ctrl+g", "part('join')", "Join with the next part", id="memvault.split.join_part"),
        Binding("ctrl+r", "part('remove')", "Remove this part", id="memvault.split.remove_part"),
        Binding("alt+up", "part('up')", "Move this part up", id="memvault.split.part_up"),
        Binding("alt+down", "part('down')", "Move this part down", id="memvault.split.part_down"),
        Binding("ctrl+down", "part('next')", "To the next part (also tab)",
                id="memvault.split.next_part"),
        Binding("ctrl+up", "part('previous')", "To the previous part (also shift+tab)",
                id="memvault.split.previous_part"),
    ]

    class Act(Message):
        """The person asked for ``action`` on this part (add, cut, join, remove, up, down,
        next, previous)."""

        def __init__(self, editor: PartEditor, action: str) -> None:
            super().__init__()
            self.editor = editor
            self.action = action

    class Edited(Message):
        def __init__(self, editor: PartEditor) -> None:
            super().__init__()
            self.editor = editor

    def __init__(self, part: DraftPart, index: int, total: int) -> None:
        super().__init__(classes="part")
        self.part = part
        self.index = index
        self.total = total

    def compose(self) -> ComposeResult:
        with Horizontal(classes="part-head"):
            yield Static(self._heading(), classes="part-label")
            # (the buttons are for the mouse and have keys: tab goes from a part's text to
            # the next part's, not through four buttons)
            for label, action, tooltip in (("↑", "up", "move up (alt+↑)"),
                                           ("↓", "down", "move down (alt+↓)"),
                                           ("join ↓", "join", "join with the next part (ctrl+g)"),
                                           ("✕", "remove", "remove this part (ctrl+r)")):
                button = Button(label, classes=f"part-{action}", compact=True, tooltip=tooltip)
                button.can_focus = False
                yield button
        area = EditorArea(self.part.text, classes="part-text", soft_wrap=True,
                        show_line_numbers=False)
        yield area

    def on_mount(self) -> None:
        self._enable()

    def _heading(self) -> Text:
        text = Text(no_wrap=True)
        text.append(f"part {self.index + 1}", style="bold")
        text.append(f" of {self.total}", style="dim")
        n = len(self.part.text.strip())
        text.append(f"  {n} character{'s' if n != 1 else ''}",
                    style="dim" if n else "bold red")
        repeats = self.part.shown_repeats
        if repeats:
            memory_id, similarity = repeats[0]
            more = f" and {len(repeats) - 1} more" if len(repeats) > 1 else ""
            text.append(f"  repeats {memory_id[:8]} ({similarity:.2f}){more}", style="bold yellow")
        return text

    def show_heading(self) -> None:
        """Draw the heading again (the part's repeats were checked)."""
        self.query_one(".part-label", Static).update(self._heading())

    def bind(self, part: DraftPart, index: int, total: int) -> None:
        """Show ``part`` as part ``index`` of ``total`` (editors are reused, not remounted)."""
        self.part, self.index, self.total = part, index, total
        area = self.area
        if area.text != part.text:
            area.load_text(part.text)
        self.query_one(".part-label", Static).update(self._heading())
        self._enable()

    def _enable(self) -> None:
        self.query_one(".part-up", Button).disabled = self.index == 0
        self.query_one(".part-down", Button).disabled = self.index == self.total - 1
        self.query_one(".part-join", Button).disabled = self.index == self.total - 1

    @property
    def area(self) -> TextArea:
        return self.query_one(TextArea)

    @on(TextArea.Changed)
    def _edited(self, event: TextArea.Changed) -> None:
        event.stop()
        if event.text_area.text == self.part.text:
            return  # (bind loading the part's own text)
        self.part.text = event.text_area.text
        self.query_one(".part-label", Static).update(self._heading())
        self.post_message(self.Edited(self))

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        for action in ("up", "down", "join", "remove"):
            if event.button.has_class(f"part-{action}"):
                self.post_message(self.Act(self, action))

    def action_part(self, action: str) -> None:
        self.post_message(self.Act(self, action))

    def split_at_cursor(self) -> tuple[str, str]:
        """The text before and after the cursor."""
        area = self.area
        cursor = area.cursor_location
        return (area.get_text_range((0, 0), cursor),
                area.get_text_range(cursor, area.document.end))


class PartsEditor(VerticalScroll):
    """Every part of the split being drafted, in order, and an "add a part" button.

    Editors are kept and rebound to parts rather than removed and mounted again (a text area
    removed while the screen repaints can be drawn after it lost its styles): the ones not
    needed are hidden."""

    class Changed(Message):
        """The parts changed (text or shape)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.parts: list[DraftPart] = []
        self._pool: list[PartEditor] = []

    def compose(self) -> ComposeResult:
        yield Button("+ add a part", id="part-add", compact=True)

    @property
    def texts(self) -> list[str]:
        return [p.text for p in self.parts]

    @property
    def editors(self) -> list[PartEditor]:
        """The editors showing parts, in order."""
        return self._pool[: len(self.parts)]

    async def load(self, parts: list[DraftPart], focus: int | None = 0) -> None:
        """Show ``parts`` (the same objects: edits land in them)."""
        self.parts = parts
        await self._rebuild(focus)

    async def _rebuild(self, focus: int | None) -> None:
        total = len(self.parts)
        # (made with their own parts: an editor mounted empty is drawn as "part 1 of 1, 0
        # characters" until it is bound)
        new = [PartEditor(self.parts[i], i, total) for i in range(len(self._pool), total)]
        if new:
            self._pool.extend(new)
            await self.mount_all(new, before=self.query_one("#part-add"))
        for index, editor in enumerate(self._pool):
            if index < total:
                editor.bind(self.parts[index], index, total)
            editor.display = index < total
        if focus is not None and total:
            editor = self._pool[max(0, min(focus, total - 1))]
            editor.area.focus()
            self.call_after_refresh(self.scroll_to_widget, editor, animate=False)
        self.post_message(self.Changed())

    def show_headings(self) -> None:
        """Draw every part's heading again (their repeats were checked)."""
        for editor in self.editors:
            editor.show_heading()

    @on(PartEditor.Edited)
    def _edited(self, event: PartEditor.Edited) -> None:
        event.stop()
        self.post_message(self.Changed())

    @on(Button.Pressed, "#part-add")
    async def _add_at_end(self, event: Button.Pressed) -> None:
        event.stop()
        self.parts.append(DraftPart(""))
        await self._rebuild(len(self.parts) - 1)

    @on(PartEditor.Act)
    async def _act(self, event: PartEditor.Act) -> None:
        event.stop()
        await self.act(self.parts.index(event.editor.part), event.action, event.editor)

    async def act(self, index: int, action: str, editor: PartEditor | None = None) -> None:
        """Do ``action`` to part ``index``: add (an empty part after it), cut (at the cursor:
        the text after it becomes a new part), join (with the next), remove, up, down; next
        and previous only move the cursor to that part."""
        parts = self.parts
        if not 0 <= index < len(parts):
            return
        part = parts[index]
        focus = index
        if action == "add":
            parts.insert(index + 1, DraftPart("", tags=_copy(part.tags)))
            focus = index + 1
        elif action == "cut":
            if editor is None:
                return
            before, after = editor.split_at_cursor()
            part.text = before.strip()
            parts.insert(index + 1, DraftPart(after.strip(), tags=_copy(part.tags)))
            focus = index + 1
        elif action == "join":
            if index + 1 >= len(parts):
                self.app.bell()
                return
            nxt = parts.pop(index + 1)
            glue = "\n\n" if "\n" in part.text or "\n" in nxt.text else " "
            part.text = glue.join(t for t in (part.text.strip(), nxt.text.strip()) if t)
            part.tags = _union(part.tags, nxt.tags)
            part.entities = _union(part.entities, nxt.entities)
        elif action == "remove":
            parts.pop(index)
            focus = min(index, len(parts) - 1)
        elif action in ("next", "previous"):
            other = index + 1 if action == "next" else index - 1
            if not 0 <= other < len(parts):
                self.app.bell()
                return
            target = self._pool[other]
            target.area.focus()
            self.scroll_to_widget(target, animate=False)
            return
        elif action in ("up", "down"):
            other = index - 1 if action == "up" else index + 1
            if not 0 <= other < len(parts):
                self.app.bell()
                return
            parts[index], parts[other] = parts[other], parts[index]
            focus = other
        await self._rebuild(focus if parts else None)


def _copy(values: list[str] | None) -> list[str] | None:
    return list(values) if values is not None else None


def _union(a: list[str] | None, b: list[str] | None) -> list[str] | None:
    if a is None and b is None:
        return None
    return list(dict.fromkeys([*(a or []), *(b or [])]))
