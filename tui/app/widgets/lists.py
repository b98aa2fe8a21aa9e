"""The app's own moving keys in every list: a table (:class:`RowTable`) and a list of options
(:class:`RowOptions`) that move with ``j`` / ``k`` (a table also with ``home`` / ``end``) as the main screen's tree does, besides the
arrows. Every list of a screen or modal is one of these (a test looks for the others)."""

from __future__ import annotations

from textual.binding import Binding, BindingType
from textual.widgets import DataTable, OptionList

ROW_BINDINGS: list[BindingType] = [
    Binding("j", "cursor_down", "Down", show=False, id="memvault.rows.down"),
    Binding("k", "cursor_up", "Up", show=False, id="memvault.rows.up"),
]


class RowTable(DataTable):
    """A :class:`~textual.widgets.DataTable` that also moves with ``j`` / ``k``, and whose
    ``home`` / ``end`` go to the first and last row (DataTable's own scroll sideways: in a
    table of rows the cursor stayed where it was)."""

    BINDINGS = [
        *ROW_BINDINGS,
        Binding("home", "scroll_top", "First", show=False, id="memvault.rows.first"),
        Binding("end", "scroll_bottom", "Last", show=False, id="memvault.rows.last"),
    ]


class RowOptions(OptionList):
    """An :class:`~textual.widgets.OptionList` that also moves with ``j`` / ``k``, and stops at
    its ends as the tree and the tables do: OptionList's own wraps around, so Down three times
    in a list of three came back to where it started and Enter picked what was not meant."""

    BINDINGS = ROW_BINDINGS

    def action_cursor_down(self) -> None:
        self.move_without_wrap(1)

    def action_cursor_up(self) -> None:
        self.move_without_wrap(-1)

    def move_without_wrap(self, direction: int) -> None:
        """The next enabled option in ``direction``; none past the end: the highlight stays."""
        if self.highlighted is None:
            if direction > 0:
                self.action_first()
            else:
                self.action_last()
            return
        index = self.highlighted + direction
        while 0 <= index < self.option_count:
            if not self.get_option_at_index(index).disabled:
                self.highlighted = index
                return
            index += direction
