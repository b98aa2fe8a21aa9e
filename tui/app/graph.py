"""A memory's provenance drawn with box-drawing characters: :func:`draw_lineage`.

Layers from old (top) to new (bottom): the memory's ancestors above it, its descendants below,
one box per memory. Edges run between adjacent layers and are labelled ``split`` (one memory
became several) or ``merge`` (several became one); each split or merge gets its own horizontal
bus, on its own row when buses would overlap. Lines are drawn on a canvas of direction bits
(north/east/south/west) per cell, so junctions come out right (``┬ ┴ ┼ ├``) wherever lines meet.

Pure layout (rich ``Text`` out, no textual), so it is tested on its own and the pane only maps
clicks and keys to the node regions it returns.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rich.text import Text

from core.model.records import Relation

if TYPE_CHECKING:  # a lineage is read in a worker (core.ops.provenance imported there)
    from core.ops.provenance import Lineage

N, E, S, W = 1, 2, 4, 8
_BOX_CHARS = {
    N | S: "│", E | W: "─", S | E: "┌", S | W: "┐", N | E: "└", N | W: "┘",
    N | S | E: "├", N | S | W: "┤", E | W | S: "┬", E | W | N: "┴", N | E | S | W: "┼",
    N: "╵", S: "╷", E: "╶", W: "╴",
}
BOX_W, BOX_H, GAP = 22, 4, 2
MIN_BOX_W, MAX_BOX_W = 17, 56
EDGE_STYLE = "grey62"
LABEL_STYLE = {"split": "italic cyan", "merge": "italic magenta"}


class Canvas:
    def __init__(self) -> None:
        self.lines: dict[tuple[int, int], int] = {}
        self.line_style: dict[tuple[int, int], str] = {}
        self.chars: dict[tuple[int, int], tuple[str, str]] = {}
        self.width = 0
        self.height = 0

    def _grow(self, x: int, y: int) -> None:
        self.width = max(self.width, x + 1)
        self.height = max(self.height, y + 1)

    def _bits(self, x: int, y: int, bits: int, style: str) -> None:
        self.lines[(x, y)] = self.lines.get((x, y), 0) | bits
        self.line_style.setdefault((x, y), style)
        self._grow(x, y)

    def hline(self, y: int, x0: int, x1: int, style: str = EDGE_STYLE) -> None:
        x0, x1 = min(x0, x1), max(x0, x1)
        for x in range(x0, x1 + 1):
            self._bits(x, y, (E if x < x1 else 0) | (W if x > x0 else 0), style)

    def vline(self, x: int, y0: int, y1: int, style: str = EDGE_STYLE) -> None:
        y0, y1 = min(y0, y1), max(y0, y1)
        for y in range(y0, y1 + 1):
            self._bits(x, y, (S if y < y1 else 0) | (N if y > y0 else 0), style)

    def box(self, x: int, y: int, w: int, h: int, style: str) -> None:
        self.hline(y, x, x + w - 1, style)
        self.hline(y + h - 1, x, x + w - 1, style)
        self.vline(x, y, y + h - 1, style)
        self.vline(x + w - 1, y, y + h - 1, style)

    def text(self, x: int, y: int, text: Text, width: int | None = None) -> None:
        if width is not None:
            text = text.copy()
            text.truncate(width, overflow="ellipsis", pad=False)
        for offset, (char, style) in enumerate(_cells(text)):
            self.chars[(x + offset, y)] = (char, style)
            self._grow(x + offset, y)

    def render(self, restyle: dict[tuple[int, int], str] | None = None) -> list[Text]:
        out = []
        restyle = restyle or {}
        for y in range(self.height):
            line = Text(no_wrap=True)
            for x in range(self.width):
                if (x, y) in self.chars:
                    char, style = self.chars[(x, y)]
                elif (x, y) in self.lines:
                    char = _BOX_CHARS.get(self.lines[(x, y)], "·")
                    style = self.line_style.get((x, y), "")
                else:
                    char, style = " ", ""
                extra = restyle.get((x, y))
                line.append(char, style=f"{style} {extra}".strip() if extra else style)
            out.append(line)
        return out


def _cells(text: Text) -> list[tuple[str, str]]:
    """Each character of ``text`` with its style as a string (single-width characters)."""
    plain = text.plain
    styles = [str(text.style) if text.style else ""] * len(plain)
    for span in text.spans:
        for i in range(span.start, min(span.end, len(plain))):
            styles[i] = f"{styles[i]} {span.style}".strip()
    return list(zip(plain, styles))


@dataclass
class NodeBox:
    id: str
    x: int
    y: int
    w: int = BOX_W
    h: int = BOX_H

    @property
    def center(self) -> int:
        return self.x + self.w // 2

    def contains(self, x: int, y: int) -> bool:
        return self.x <= x < self.x + self.w and self.y <= y < self.y + self.h


@dataclass
class Drawing:
    canvas: Canvas
    boxes: dict[str, NodeBox]
    order: list[str]  # node ids top to bottom, left to right (keyboard order)
    notes: list[Text] = field(default_factory=list)  # edges the layers could not draw

    def lines(self, highlight: str | None = None) -> list[Text]:
        """The drawing; the ``highlight`` node's box drawn in bold white on a lighter ground."""
        restyle: dict[tuple[int, int], str] = {}
        box = self.boxes.get(highlight) if highlight else None
        if box is not None:
            for y in range(box.y, box.y + box.h):
                for x in range(box.x, box.x + box.w):
                    edge = y in (box.y, box.y + box.h - 1) or x in (box.x, box.x + box.w - 1)
                    restyle[(x, y)] = "bold bright_white on grey30" if edge else "on grey30"
        return self.canvas.render(restyle)

    def node_at(self, x: int, y: int) -> str | None:
        for box in self.boxes.values():
            if box.contains(x, y):
                return box.id
        return None


@dataclass
class _Group:
    kind: str  # split | merge
    upper: list[str]
    lower: list[str]
    single: str  # the one side (split: the upper original; merge: the lower result)
    row: int = 0

    def span(self, boxes: dict[str, NodeBox]) -> tuple[int, int]:
        xs = [boxes[i].center for i in self.upper + self.lower]
        return min(xs), max(xs)


def draw_lineage(lineage: Lineage, content: Callable[[str], tuple[Text, Text, str]],
                 width: int | None = None, gap: int = GAP) -> Drawing:
    """Lay out ``lineage``. ``content(id)`` gives a node's two lines and its border style.
    Boxes share ``width`` columns when they can (between 17 and 56 columns each); a wider layer
    makes the drawing wider than ``width`` (the pane scrolls)."""
    depth = {i: n.depth for i, n in lineage.nodes.items()}
    layers: dict[int, list[str]] = {}
    for i, d in depth.items():
        layers.setdefault(d, []).append(i)
    widest = max((len(v) for v in layers.values()), default=1)
    if width is not None and (width - gap * (widest - 1)) // widest < MIN_BOX_W + 2:
        gap = 1  # tight: narrower gaps before narrower boxes

    def box_width(n: int) -> int:
        """Boxes of a layer of ``n`` share the width (a layer of one gets a wide box)."""
        if width is None:
            return BOX_W
        return max(MIN_BOX_W, min(MAX_BOX_W, (width - gap * (n - 1)) // n))
    ordered_depths = sorted(layers)
    adjacent: list[Relation] = []
    notes: list[Text] = []
    for r in lineage.edges:
        a, b = depth.get(r.from_memory_id), depth.get(r.to_memory_id)
        if a is None or b is None:
            continue
        if abs(a - b) == 1:
            adjacent.append(r)
        else:
            note = Text("  also: ", style="dim")
            note.append(r.from_memory_id[:8], style="bold")
            note.append(f" {lineage.label(r)} from ", style=LABEL_STYLE[lineage.label(r)])
            note.append(r.to_memory_id[:8], style="bold")
            notes.append(note)

    # order each layer by the mean position of its neighbours in the layer nearer the root
    position: dict[str, float] = {lineage.root: 0.0}
    layers[0] = [lineage.root] + sorted(i for i in layers.get(0, []) if i != lineage.root)

    def neighbours(i: str, d: int) -> list[str]:
        out = []
        for r in adjacent:
            for a, b in ((r.from_memory_id, r.to_memory_id), (r.to_memory_id, r.from_memory_id)):
                if a == i and depth.get(b) == d:
                    out.append(b)
        return out

    for d in [x for x in ordered_depths if x < 0][::-1] + [x for x in ordered_depths if x > 0]:
        toward = d + 1 if d < 0 else d - 1

        def key(i: str, toward: int = toward) -> tuple[float, str]:
            near = [position[n] for n in neighbours(i, toward) if n in position]
            return (sum(near) / len(near) if near else 1e9, i)

        layers[d].sort(key=key)
        for index, i in enumerate(layers[d]):
            position[i] = float(index)

    box_w = {d: box_width(len(ids)) for d, ids in layers.items()}
    widths = {d: len(ids) * box_w[d] + (len(ids) - 1) * gap for d, ids in layers.items()}
    total = max(widths.values()) if widths else BOX_W
    boxes: dict[str, NodeBox] = {}
    canvas = Canvas()
    y = 0
    order: list[str] = []
    for d in ordered_depths:  # columns first: connecting two layers needs both
        left = (total - widths[d]) // 2
        for k, i in enumerate(layers[d]):
            boxes[i] = NodeBox(i, left + k * (box_w[d] + gap), 0, box_w[d])
            order.append(i)
    for index, d in enumerate(ordered_depths):
        for i in layers[d]:
            boxes[i].y = y
        y += BOX_H
        if index + 1 < len(ordered_depths):
            y = _connect(canvas, boxes, layers[d], layers[ordered_depths[index + 1]], adjacent,
                         lineage, y)
    for i, box in boxes.items():
        first, second, style = content(i)
        canvas.box(box.x, box.y, box.w, box.h, style)
        canvas.text(box.x + 2, box.y + 1, first, box.w - 4)
        canvas.text(box.x + 2, box.y + 2, second, box.w - 4)
    return Drawing(canvas, boxes, order, notes)


def _connect(canvas: Canvas, boxes: dict[str, NodeBox], upper: list[str], lower: list[str],
             edges: list[Relation], lineage: Lineage, y: int) -> int:
    """Draw the edges between two adjacent layers starting at row ``y`` (just under the upper
    boxes); return the row where the lower boxes start."""
    up, low = set(upper), set(lower)
    groups: dict[tuple[str, str], _Group] = {}
    for r in edges:
        a, b = r.from_memory_id, r.to_memory_id
        if a in low and b in up:
            new, old = a, b
        elif b in low and a in up:
            new, old = b, a
        else:
            continue
        kind = lineage.label(r)
        if kind == "split":
            g = groups.setdefault((kind, old), _Group(kind, [old], [], old))
            if new not in g.lower:
                g.lower.append(new)
        else:
            g = groups.setdefault((kind, new), _Group(kind, [], [new], new))
            if old not in g.upper:
                g.upper.append(old)
    rows: list[list[tuple[int, int]]] = []
    for g in sorted(groups.values(), key=lambda g: g.span(boxes)):
        lo, hi = g.span(boxes)
        for index, taken in enumerate(rows):
            if all(hi + 1 < a or lo - 1 > b for a, b in taken):
                taken.append((lo, hi))
                g.row = index
                break
        else:
            rows.append([(lo, hi)])
            g.row = len(rows) - 1
    bus_rows = max(1, len(rows))
    row_a, first_bus = y, y + 1
    row_c = first_bus + bus_rows
    top_of_lower = row_c + 1
    for g in groups.values():
        bus = first_bus + g.row
        for i in g.upper:
            canvas.vline(boxes[i].center, boxes[i].y + BOX_H - 1, bus)
        for i in g.lower:
            canvas.vline(boxes[i].center, bus, top_of_lower)
        lo, hi = g.span(boxes)
        if lo < hi:
            canvas.hline(bus, lo, hi)
        label_row = row_a if g.kind == "split" else row_c
        canvas.text(boxes[g.single].center + 2, label_row, Text(g.kind, style=LABEL_STYLE[g.kind]))
    return top_of_lower
