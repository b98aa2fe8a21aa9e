"""The app's text area: Textual's :class:`~textual.widgets.TextArea` where ``ctrl+a`` selects
all the text, as in most editors (Textual's own ``ctrl+a`` goes to the start of the line, which
``home`` still does). Every text area of a screen or form is one of these."""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import TextArea


class EditorArea(TextArea):
    BINDINGS = [
        Binding("ctrl+a", "select_all", "Select all", show=False, id="memvault.text.select_all"),
    ]
