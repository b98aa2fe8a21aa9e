"""The app's own moving keys in every list: a table (:class:`RowTable`) and a list of options
(:class:`RowOptions`) that move with ``j`` / ``k`` as the main screen's tree does, besides the
arrows. Every list of a screen or modal is one of these (a test looks for the others)."""

from __future__ import annotations

from textual.binding import Binding, BindingType
from textual.widgets import DataTable, OptionList

ROW_BINDINGS: list[BindingType] = [
    Binding("j", "cursor_down", "Down", show=False, id="memvault.rows.down"),
    Binding("k", "cursor_up", "Up", show=False, id="memvault.rows.up"),
]


class RowTable(DataTable):
    """A :class:`~textual.widgets.DataTable` that also moves with ``j`` / ``k``."""

    BINDINGS = ROW_BINDINGS


class RowOptions(OptionList):
    """An :class:`~textual.widgets.OptionList` that also moves with ``j`` / ``k``."""

    BINDINGS = ROW_BINDINGS
