"""The main screen's keys: :data:`MAIN_BINDINGS`, every key of the screen in the order help lists
them. Each part of the screen owns the ``action_*`` methods of its keys (the screen hands an
action to the part that has it: :meth:`~.screen.MainScreen.__getattr__`); the keys of the tree
(moving, folding, the grouping and the sort) are the tree's own (:mod:`.tree`).

A new key: its binding here (or in its part's list below, or in the widget's ``BINDINGS``) and
its ``action_*`` method in the part that does the work; help, the palette and ``docs/app.md``
read the bindings."""

from __future__ import annotations

from textual.binding import Binding

from .bulk import BULK_BINDINGS
from .edit import EDIT_BINDINGS
from .marks import MARK_BINDINGS

#: Every key of the main screen, in the order help lists them.
MAIN_BINDINGS = [
    Binding("slash", "focus_filter", "Filter", id="memvault.filter"),
    Binding("a", "archive", "Archive", id="memvault.archive"),
    Binding("x,delete", "delete", "Delete", id="memvault.delete"),
    Binding("ctrl+z", "undo", "Undo", id="memvault.undo"),
    Binding("ctrl+y", "redo", "Redo", show=False, id="memvault.redo"),
    Binding("v", "split", "Split", id="memvault.split"),
    Binding("M", "consolidate", "Merge", id="memvault.consolidate"),
    # (the tree binds space to the same action, over Tree's own space)
    Binding("space", "mark", "Mark", show=False, id="memvault.mark"),
    Binding("c", "toggle_body", "Gist/content", show=False, id="memvault.toggle_body"),
    Binding("i", "goto", "Go to id", show=False, id="memvault.goto"),
    Binding("d", "tab('detail')", "Detail", show=False, id="memvault.tab.detail"),
    Binding("p", "pane('provenance')", "Provenance", show=False, id="memvault.tab.provenance"),
    Binding("H", "pane('history')", "History", show=False, id="memvault.tab.history"),
    Binding("C", "gc", "gc", show=False, id="memvault.gc"),
    Binding("S", "stats", "Stats", show=False, id="memvault.stats"),
    Binding("I", "inbox", "Inbox", show=False, id="memvault.inbox"),
    Binding("ctrl+r", "reload", "Reload", show=False, id="memvault.reload"),
    Binding("E", "outside_edits", "Outside edits", show=False, id="memvault.outside_edits"),
    Binding("y", "copy_id", "Copy id", show=False, id="memvault.copy_id"),
    Binding("escape", "clear_filter", "Clear filter", show=False, id="memvault.clear_filter"),
    *EDIT_BINDINGS,
    # views (views.py): the flat list, the left pane's width
    Binding("f", "toggle_view", "List/tree", show=False, id="memvault.toggle_view"),
    Binding("less_than_sign", "resize_left(-4)", "Narrower", show=False,
            id="memvault.left.narrower"),
    Binding("greater_than_sign", "resize_left(4)", "Wider", show=False,
            id="memvault.left.wider"),
    *BULK_BINDINGS,
    *MARK_BINDINGS,
]
