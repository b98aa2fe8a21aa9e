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
    """An :class:`~textual.widgets.OptionList` that also moves with ``j`` / ``k``."""

    BINDINGS = ROW_BINDINGS
