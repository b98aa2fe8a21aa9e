"""A write shown the moment its key is pressed, before its commit lands (as lazygit does): the
rows of the memories it acts on dimmed in place, in the tree and in the flat list (only their
lines are drawn again, never the whole tree) and the titles of both saying what is under way
(``memories 40 · ⋯ archiving…``).

The commit runs in a worker; when it lands, the tree takes the new view and its titles as
always (the pending look goes with the rows it rebuilds). When core refuses it, the rows get
their labels back and the title is said again: nothing looks done that was not.

A screen that takes a moment to build (the wizards, the review inbox, stats, gc) is said the
same way (``⋯ opening the consolidate wizard…``) and built once that is drawn."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rich.text import Text
from textual.screen import Screen
from textual.widgets.tree import TreeNode

from ..widgets.memory_list import Cell, MemoryList
from ..widgets.memory_tree import MemoryTree
from ..widgets.tree_nodes import NodeData, every_node

#: the style a pending row takes over its own
PENDING_STYLE = "dim italic"


class PendingWrite:
    """The pending look of ``screen``'s tree and flat list while a write is under way;
    ``retitle`` says their titles again (from the screen's state) after a refusal."""

    def __init__(self, screen: Screen[object], retitle: Callable[[], None]) -> None:
        self.screen = screen
        self.retitle = retitle
        #: the tree's rows dimmed and the labels they had
        self.labels: dict[TreeNode[NodeData], Text] = {}
        #: the list's cells dimmed (memory id, column) and what they held
        self.cells: dict[tuple[str, str], object] = {}

    def start(self, doing: str, ids: Iterable[str] = ()) -> None:
        """Show ``doing`` (``archiving``) in the tree's title and dim the rows of ``ids``."""
        tree = self.screen.query_one(MemoryTree)
        wanted = set(ids)
        if wanted:
            for node in every_node(tree.root):
                data = node.data
                if data is not None and data.memory_id in wanted and data.kind == "memory":
                    label = node.label if isinstance(node.label, Text) else Text(node.label)
                    self.labels.setdefault(node, label)
                    pending = label.copy()
                    pending.stylize(PENDING_STYLE)
                    node.set_label(pending)  # (the tree draws this one line again)
            self._dim_list(wanted)
        for widget in (tree, self.screen.query_one(MemoryList)):
            if not widget.display:  # (the hidden one is titled again when it shows)
                continue
            title = str(widget.border_title or "memories").split(" · ⋯ ", 1)[0]
            widget.border_title = f"{title} · ⋯ {doing}…"

    def _dim_list(self, ids: set[str]) -> None:
        """The flat list's rows of ``ids`` (those it holds yet) dimmed, each cell in place."""
        listing = self.screen.query_one(MemoryList)
        dimmed: dict[tuple[str, str], object] = {}
        for memory_id in ids:
            if memory_id not in listing.rows:
                continue
            for column in listing.shown_columns:
                held = listing.get_cell(memory_id, column)
                text = held.text if isinstance(held, Cell) else held
                if not isinstance(text, Text):
                    continue
                self.cells.setdefault((memory_id, column), held)
                pending = text.copy()
                pending.stylize(PENDING_STYLE)
                dimmed[memory_id, column] = pending
        listing.update_cells(dimmed)

    def then(self, start: Callable[[], object]) -> None:
        """``start`` (the write's worker) once the pending look is drawn: a worker started with
        the key takes the interpreter from the frame that shows it (issue 42: the first visible
        change of archive and undo came after 100-600 ms on a loaded machine)."""
        self.screen.call_after_refresh(start)

    def opening(self, what: str, push: Callable[[], object]) -> None:
        """A screen that takes a moment to build (a wizard, the review inbox, stats: a few
        hundred milliseconds of mounting on a busy machine): the titles say ``opening what…``
        at once, ``push`` builds it once that is drawn, then the titles are said again."""
        self.start(f"opening {what}")

        def push_now() -> None:
            try:
                push()
            finally:
                self._retitle()

        self.screen.call_after_refresh(push_now)

    def refused(self) -> None:
        """Core refused the write: the rows get their labels back, the title is said again."""
        tree = self.screen.query_one(MemoryTree)
        alive = set(every_node(tree.root))
        for node, label in self.labels.items():
            if node in alive:
                node.set_label(label)
        self.landed()
        self._retitle()

    def _retitle(self) -> None:
        """The tree's and the list's titles said again, without what was under way."""
        self.retitle()
        for widget in (self.screen.query_one(MemoryTree), self.screen.query_one(MemoryList)):
            if "⋯" in str(widget.border_title or ""):  # (no view to title yet)
                widget.border_title = str(widget.border_title).split(" · ⋯ ", 1)[0]

    def landed(self) -> None:
        """The write landed: the tree is rebuilt from its view (its old rows are dropped); the
        list's dimmed cells are put back as they were (it makes again only the rows the write
        changed: a memory left as it was, "already archived", is not dimmed any longer)."""
        self.labels.clear()
        self._undim_list()

    def _undim_list(self) -> None:
        listing = self.screen.query_one(MemoryList)
        listing.update_cells({cell: held for cell, held in self.cells.items()
                              if cell[0] in listing.rows})
        self.cells.clear()

