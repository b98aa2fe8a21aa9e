"""The provenance pane: the highlighted memory's ancestors and descendants (split and merge
edges) as a layered box drawing, its other relations listed under it. Choosing a node (click,
or arrows and enter) jumps to that memory.

Memories that are gone appear dimmed with their last version from history, named "consumed"
with the commit that removed it, or "not in this vault" when no commit of this vault ever held
them (never "deleted": core.ops.provenance.EndState)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.console import Group as RenderGroup
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.events import Click
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from core import MemoryStatus
from core.vault import first_words

from ..graph import Drawing, draw_lineage
from ..messages import JumpTo
from ..bands import BAND_STYLE
from ..view import STATUS_STYLE, VaultView
from .git_reading import GitRead, GitReading
from .lists import RowOptions

if TYPE_CHECKING:  # a lineage is read in a worker (core.ops.provenance imported there)
    from core.ops.provenance import EndState, Lineage


class ProvenanceGraph(Widget, can_focus=True):
    BINDINGS = [
        Binding("left,up", "move(-1)", "previous node", show=False),
        Binding("right,down", "move(1)", "next node", show=False),
        Binding("enter", "choose", "go to node", show=False),
        Binding("k", "move(-1)", "previous node", show=False, id="memvault.provenance.up"),
        Binding("j", "move(1)", "next node", show=False, id="memvault.provenance.down"),
        Binding("escape", "screen.focus_tree", "Back to the tree", show=False,
                id="memvault.provenance.back"),
    ]

    highlighted: reactive[str | None] = reactive(None, layout=False)

    class NodeChosen(Message):
        def __init__(self, memory_id: str) -> None:
            super().__init__()
            self.memory_id = memory_id

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.drawing: Drawing | None = None

    def set_drawing(self, drawing: Drawing | None, highlight: str | None) -> None:
        self.drawing = drawing
        if drawing is None:
            self.styles.width = "auto"
            self.styles.height = 1
        else:
            self.styles.width = max(drawing.canvas.width, 1)
            self.styles.height = drawing.canvas.height + len(drawing.notes)
        self.highlighted = highlight
        self.refresh(layout=True)

    def render(self) -> RenderGroup | Text:
        if self.drawing is None:
            return Text("")
        return RenderGroup(*self.drawing.lines(self.highlighted), *self.drawing.notes)

    def watch_highlighted(self) -> None:
        self.refresh()

    def action_move(self, step: int) -> None:
        if self.drawing is None or not self.drawing.order:
            return
        order = self.drawing.order
        index = order.index(self.highlighted) if self.highlighted in order else 0
        self.highlighted = order[(index + step) % len(order)]
        self._scroll_to_highlight()

    def _scroll_to_highlight(self) -> None:
        """Scroll the pane that holds the graph so the highlighted box is visible."""
        if self.drawing is None or self.highlighted is None:
            return
        b = self.drawing.boxes[self.highlighted]
        container = self.parent
        if isinstance(container, Widget):
            region = Region(b.x, b.y, b.w, b.h).translate(self.virtual_region.offset)
            container.scroll_to_region(region, animate=False)

    def action_choose(self) -> None:
        if self.highlighted is not None:
            self.post_message(self.NodeChosen(self.highlighted))

    def on_click(self, event: Click) -> None:
        if self.drawing is None:
            return
        offset = event.get_content_offset(self)
        if offset is None:
            return
        node = self.drawing.node_at(offset.x, offset.y)
        if node is not None:
            self.highlighted = node
            self.post_message(self.NodeChosen(node))


class ProvenancePane(VerticalScroll):
    class WizardRequested(Message):
        """The person asked for the split or consolidate wizard (``wizard``: "split" or
        "consolidate") on the memory the pane shows."""

        def __init__(self, wizard: str, memory_id: str) -> None:
            super().__init__()
            self.wizard = wizard
            self.memory_id = memory_id

    #: the memory whose lineage the pane shows (None: a hint); set, the pane reads it from git
    #: in a worker of its own (``read``: the service's)
    memory_id: reactive[str | None] = reactive(None, init=False)

    def __init__(self, *, read: Callable[[str], Lineage] | None = None,
                 id: str | None = None) -> None:
        super().__init__(id=id)
        self.reading = GitReading(self, read, "lineage",
                                  "Highlight a memory to see where it came from.")
        #: the vault as the screen shows it (the nodes' texts and states)
        self.view: VaultView | None = None
        self.keys = ("v", "M")
        self._drawn: tuple[VaultView, Lineage] | None = None  # what the graph shows
        self._drawn_width = 0  # the width it was drawn for

    def compose(self) -> ComposeResult:
        with Horizontal(id="prov-actions"):
            yield Button(f"Split… ({self.keys[0]})", id="prov-split", compact=True,
                         tooltip="split this memory into atomic ones (the split wizard)")
            yield Button(f"Consolidate… ({self.keys[1]})", id="prov-consolidate", compact=True,
                         tooltip="merge this memory with the marked ones or its cluster")
        yield Static(Text("Highlight a memory to see where it came from.", style="dim"),
                     id="prov-title")
        yield ProvenanceGraph(id="prov-graph")
        yield Static("", id="prov-relations-title")
        yield RowOptions(id="prov-relations")

    def set_keys(self, split: str, consolidate: str) -> None:
        """The keys that open the wizards (as the keymap has them), for the buttons."""
        self.keys = (split, consolidate)
        if self.is_mounted:
            self.query_one("#prov-split", Button).label = f"Split… ({split})"
            self.query_one("#prov-consolidate", Button).label = f"Consolidate… ({consolidate})"

    def on_mount(self) -> None:
        self.query_one("#prov-actions").display = False

    def _actions(self, memory_id: str | None, living: bool) -> None:
        self.query_one("#prov-actions").display = memory_id is not None
        self.query_one("#prov-split", Button).disabled = not living
        self.query_one("#prov-consolidate", Button).disabled = not living

    @on(Button.Pressed, "#prov-split")
    def _split(self, event: Button.Pressed) -> None:
        event.stop()
        if self.memory_id is not None:
            self.post_message(self.WizardRequested("split", self.memory_id))

    @on(Button.Pressed, "#prov-consolidate")
    def _consolidate(self, event: Button.Pressed) -> None:
        event.stop()
        if self.memory_id is not None:
            self.post_message(self.WizardRequested("consolidate", self.memory_id))

    def watch_memory_id(self, memory_id: str | None) -> None:
        self.reading.follow(memory_id)

    def want(self, memory_id: str | None) -> None:
        """Show ``memory_id``'s lineage: read when it is another memory, or the vault changed."""
        self.reading.want(memory_id)

    @on(GitRead)
    def _read(self, message: GitRead) -> None:
        if not self.reading.current(message) or self.view is None:
            return  # an older memory's read: the current one's follows
        if message.found is None:
            self.reading.stale = True
            self.show_message(message.error or "no lineage")
        else:
            self.show_lineage(self.view, message.found)

    def show_loading(self, memory_id: str) -> None:
        self.query_one("#prov-title", Static).update(
            Text(f"provenance of {memory_id[:8]}: reading…", style="dim"))

    def on_resize(self) -> None:
        """The pane is shown (a hidden one has no width) or resized: draw the graph again
        for the width it has now."""
        if self._drawn is not None and self._graph_width() != self._drawn_width:
            self._draw(*self._drawn)

    def _graph_width(self) -> int:
        """The pane's width less a vertical scrollbar it may grow (0 while hidden)."""
        return self.scrollable_content_region.width - 2

    def _draw(self, view: VaultView, lineage: Lineage) -> None:
        graph = self.query_one(ProvenanceGraph)
        self._drawn = (view, lineage)
        width = self._graph_width()
        self._drawn_width = width
        # (hidden: the drawing is made again when the pane gets its width)
        graph.set_drawing(draw_lineage(lineage, lambda i: _node_lines(view, lineage, i),
                                       max(20, width)), lineage.root)

    def show_message(self, message: str) -> None:
        self._actions(None, False)
        self.query_one("#prov-title", Static).update(Text(message, style="dim"))
        self._drawn = None
        self.query_one(ProvenanceGraph).set_drawing(None, None)
        self.query_one("#prov-relations-title", Static).update("")
        self.query_one("#prov-relations", OptionList).clear_options()
        self.query_one("#prov-relations", OptionList).display = False

    def show_lineage(self, view: VaultView, lineage: Lineage) -> None:
        root = lineage.root
        self._actions(root, view.get(root) is not None)
        ancestors, descendants = lineage.ancestors(), lineage.descendants()
        title = Text()
        title.append("provenance of ", style="dim")
        title.append(root[:8], style="bold")
        if not ancestors and not descendants:
            title.append("  no splits or merges: it was made as it is", style="dim")
        else:
            parts = []
            if ancestors:
                parts.append(f"{len(ancestors)} ancestor{'s' if len(ancestors) != 1 else ''}")
            if descendants:
                parts.append(f"{len(descendants)} descendant{'s' if len(descendants) != 1 else ''}")
            consumed = sum(1 for n in lineage.nodes.values()
                           if n.gone and (n.end is None or n.end.state != "absent"))
            absent = sum(1 for n in lineage.nodes.values()
                         if n.gone and n.end is not None and n.end.state == "absent")
            if consumed:
                parts.append(f"{consumed} consumed (dim)")
            if absent:
                parts.append(f"{absent} not in this vault")
            title.append("  " + ", ".join(parts), style="dim")
            # what became of each, one line for those one commit consumed
            fates: dict[str, list[str]] = {}
            for node in sorted((n for n in lineage.nodes.values() if n.gone),
                               key=lambda n: (n.depth, n.id)):
                fates.setdefault(_gone_label(node.end), []).append(node.id[:8])
            for label, ids in fates.items():
                title.append("\n")
                title.append(", ".join(ids), style="dim bold")
                title.append(f" {label}", style="dim italic")
            title.append("\nolder above, newer below · click or ←→ enter to go to a node",
                         style="dim italic")
        self.query_one("#prov-title", Static).update(title)
        if ancestors or descendants:
            self._draw(view, lineage)
        else:
            self._drawn = None
            self.query_one(ProvenanceGraph).set_drawing(None, None)
        options = self.query_one("#prov-relations", OptionList)
        options.clear_options()
        others = lineage.other_relations
        heading = self.query_one("#prov-relations-title", Static)
        if not others:
            heading.update(Text("no other relations", style="dim"))
            options.display = False
            return
        heading.update(Text(f"other relations ({len(others)})", style="bold"))
        options.display = True
        items = []
        for r in others:
            outgoing = r.from_memory_id == root
            other = r.to_memory_id if outgoing else r.from_memory_id
            row = view.get(other)
            prompt = Text(no_wrap=True, overflow="ellipsis")
            prompt.append("→ " if outgoing else "← ", style="dim")
            prompt.append(f"{r.relation_type:<13}", style="cyan")
            prompt.append(other[:8], style="bold" if row else "dim bold")
            prompt.append(" ")
            if row is None:
                prompt.append(_gone_label(lineage.other_ends.get(other)), style="dim italic")
            else:
                prompt.append(first_words(row.memory.text, 40))
            items.append(Option(prompt, id=f"{r.id}:{other}"))
        options.add_options(items)

    @on(OptionList.OptionSelected, "#prov-relations")
    def _relation_chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_id:
            self.post_message(JumpTo(event.option_id.split(":", 1)[1]))

    @on(ProvenanceGraph.NodeChosen)
    def _node_chosen(self, event: ProvenanceGraph.NodeChosen) -> None:
        event.stop()
        self.post_message(JumpTo(event.memory_id))


def _gone_label(end: EndState | None) -> str:
    """What became of a memory that is not in the vault: consumed by which commit (and its
    subject), or never in this vault."""
    return end.label if end is not None else "gone"


def _node_lines(view: VaultView, lineage: Lineage, node_id: str) -> tuple[Text, Text, str]:
    """A node's box: id and score (or "consumed <commit>" / "not in this vault"), then the
    first words; the border in the colour of its decay band (bold for the memory the pane is
    about), grey when gone."""
    node = lineage.nodes[node_id]
    row = view.get(node_id)
    is_root = node_id == lineage.root
    first = Text(no_wrap=True)
    if row is not None:
        first.append(node_id[:8], style="bold")
        first.append(f" {row.score:.2f}", style=BAND_STYLE.get(row.band, ""))
        status = row.memory.status
        if status != MemoryStatus.ACTIVE:
            first.append(f" {status.value}", style=f"dim {STATUS_STYLE[status]}")
        second = Text(first_words(row.memory.text, 120),
                      style="dim" if status == MemoryStatus.ARCHIVED else "")
        border = BAND_STYLE.get(row.band, "grey70")
        return first, second, f"bold {border}" if is_root else border
    first.append(node_id[:8], style="dim bold")
    end = node.end  # (the title names the commit: a box is narrow)
    first.append(" not in vault" if end is not None and end.state == "absent" else " consumed",
                 style="dim italic")
    words = first_words(node.memory.text, 60) if node.memory is not None else (
        "(no version in its history)" if end is not None and end.state != "absent" else
        "(no commit of this vault held it)")
    return first, Text(words, style="dim"), "grey35"
