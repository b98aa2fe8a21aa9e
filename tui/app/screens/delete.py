"""The delete confirmation: which memory (or which marked memories, listed), and what goes with
it (its relations but the lineage ones, which stay: core's one rule)."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from core.vault import first_words

from ..service import BulkDeletePreview, DeletePreview
from ..view import leaf_label


class DeleteScreen(ModalScreen[bool]):
    BINDINGS = [
        Binding("y", "confirm", "Delete", id="memvault.delete.confirm"),
        Binding("n,escape", "cancel", "Cancel", id="memvault.delete.cancel"),
    ]

    def __init__(self, preview: DeletePreview | BulkDeletePreview) -> None:
        super().__init__()
        self.preview = preview

    def compose(self) -> ComposeResult:
        if isinstance(self.preview, BulkDeletePreview):
            yield from self._compose_many(self.preview)
            return
        p = self.preview
        m = p.row.memory
        with Vertical(id="dialog", classes="dialog danger"):
            title = Text()
            title.append("Delete ", style="bold")
            title.append(m.id[:8], style="bold")
            title.append("?", style="bold")
            yield Static(title, classes="dialog-title")
            yield Static(Text(first_words(m.text, 160)), classes="dialog-memory")
            n = len(p.relations)
            if n:
                head = Text("With it goes 1 relation:" if n == 1 else f"With it go {n} relations:",
                            style="bold")
                yield Static(head, classes="dialog-note")
                width = max(len(r.relation_type) for r, _, _ in p.relations) + 2
                lines = Text(no_wrap=True, overflow="ellipsis")
                for index, (r, other, row) in enumerate(p.relations):
                    if index:
                        lines.append("\n")
                    outgoing = r.from_memory_id == m.id
                    lines.append("  → " if outgoing else "  ← ", style="dim")
                    lines.append(r.relation_type.ljust(width), style="cyan")
                    lines.append(other[:8], style="bold")
                    lines.append(" ")
                    lines.append(first_words(row.memory.text, 40) if row else "(not in the vault)",
                                 style="" if row else "dim")
                with VerticalScroll(id="dialog-relations"):
                    yield Static(lines)
            else:
                yield Static(Text("No relations go with it.", style="dim"), classes="dialog-note")
            if p.kept:
                k = len(p.kept)
                yield Static(Text(f"Its {k} lineage relation{'s' if k != 1 else ''} (split, "
                                  "merge) stay: the record of what it became.", style="dim"),
                             classes="dialog-note")
            yield Static(Text("It stays in git history: undo (ctrl+z) or `memvault restore` "
                              "brings it back.", style="dim italic"), classes="dialog-note")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Delete (y)", variant="error", id="confirm")
                yield Button("Cancel (n)", id="cancel")

    def _compose_many(self, p: BulkDeletePreview) -> ComposeResult:
        """Several marked memories: each listed (score, id, first words), then how many
        relations go with them all and how many lineage ones stay."""
        n = len(p.rows)
        with Vertical(id="dialog", classes="dialog danger"):
            yield Static(Text(f"Delete {n} memories?", style="bold"), classes="dialog-title")
            lines = Text(no_wrap=True, overflow="ellipsis")
            for index, row in enumerate(p.rows):
                if index:
                    lines.append("\n")
                lines.append_text(leaf_label(row, words=44))
            with VerticalScroll(id="dialog-memories"):
                yield Static(lines)
            r = len(p.relations)
            note = ("No relations go with them." if not r else
                    "With them goes 1 relation that touches them." if r == 1 else
                    f"With them go {r} relations that touch them.")
            yield Static(Text(note, style="bold" if r else "dim"), classes="dialog-note")
            if p.kept:
                k = len(p.kept)
                which = "Their lineage relation (split, merge) stays" if k == 1 else \
                    f"Their {k} lineage relations (split, merge) stay"
                yield Static(Text(f"{which}: the record of what they became.", style="dim"),
                             classes="dialog-note")
            yield Static(Text("One commit: undo (ctrl+z) brings them all back; they stay in "
                              "git history.", style="dim italic"), classes="dialog-note")
            with Horizontal(classes="dialog-buttons"):
                yield Button(f"Delete {n} (y)", variant="error", id="confirm")
                yield Button("Cancel (n)", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#cancel", Button).focus()

    @on(Button.Pressed, "#confirm")
    def action_confirm(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(False)
