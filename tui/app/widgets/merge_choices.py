"""What the consolidate wizard's first step shows: the choice of the memories marked in the tree
(what to do when there are too few), each cluster core suggests (its cohesion, suggested action
and first members), and the members of the highlighted choice."""

from __future__ import annotations

from rich.text import Text

from core.ops.consolidate import Cluster
from core.vault import first_words

from ..view import STATUS_STYLE, VaultView, score_text

ACTION_STYLE = {"merge": "bold green", "review": "bold yellow", "keep separate": "bold red"}


def marked_prompt(marked: list[str], view: VaultView, mark_key: str) -> Text:
    """The "marked in the tree" choice: how many, the first three (``mark_key`` marks more)."""
    n = len(marked)
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append("marked in the tree", style="bold cyan")
    if not n:
        text.append(f"  none yet: press {mark_key} on memories in the tree to mark them",
                    style="dim")
        return text
    text.append(f"  {n} memor{'y' if n == 1 else 'ies'}", style="dim")
    if n == 1:
        text.append("  mark at least one more in the tree to merge, or pick a cluster below",
                    style="yellow")
    for memory_id in marked[:3]:
        row = view.get(memory_id)
        text.append("\n   " + memory_id[:8], style="bold")
        text.append(" " + (first_words(row.memory.text, 70) if row else "(gone)"),
                    style="" if row else "dim")
    if n > 3:
        text.append(f"\n   … and {n - 3} more", style="dim")
    return text


def cluster_prompt(cluster: Cluster, focus_id: str | None) -> Text:
    """A cluster's choice: cohesion, suggested action, size (whether it holds ``focus_id``), the
    first three members."""
    text = Text(no_wrap=True, overflow="ellipsis")
    action = cluster.suggested_action
    text.append(f"cohesion {cluster.cohesion:.2f}", style="bold")
    text.append("  suggests ", style="dim")
    text.append(action, style=ACTION_STYLE.get(action, "bold"))
    text.append(f"  {len(cluster.members)} memories", style="dim")
    if focus_id and focus_id in {m.id for m in cluster.members}:
        text.append(f"  holds {focus_id[:8]}", style="cyan")
    for m in cluster.members[:3]:
        text.append("\n   " + m.id[:8], style="bold")
        text.append(" " + first_words(m.text, 70))
    if len(cluster.members) > 3:
        text.append(f"\n   … and {len(cluster.members) - 3} more", style="dim")
    return text


def members_text(ids: list[str], view: VaultView) -> Text:
    """The members of the highlighted choice, a line each: score, id, status, first words."""
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append("members", style="bold")
    for memory_id in ids:
        row = view.get(memory_id)
        text.append("\n")
        if row is None:
            text.append(f"  {memory_id[:8]} (no longer in the vault)", style="dim")
            continue
        text.append_text(score_text(row.score, row.band))
        text.append(" ")
        text.append(memory_id[:8], style="bold")
        status = row.memory.status
        text.append(f" {status.value}", style=STATUS_STYLE[status])
        text.append(" " + first_words(row.memory.text, 80))
    return text
