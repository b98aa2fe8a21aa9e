"""Human output of the lifecycle verbs: split candidates, suggested parts, clusters and the
lineage tree (rich)."""

from __future__ import annotations

import shlex

from rich.text import Text
from rich.tree import Tree

from core import Memory, Vault
from core.ops.consolidate import Cluster
from core.ops.provenance import Lineage, LineageNode
from core.ops.split import SplitCandidate, SuggestedPart
from core.textutil import neutralise_line
from core.vault import first_words

from .render import borderless_table, cell, console, plain

ACTION_STYLE = {"merge": "green", "review": "yellow", "keep separate": "dim"}


def print_split_candidates(found: list[SplitCandidate]) -> None:
    out = console()
    if not found:
        out.print("no memory looks composite")
        return
    table = borderless_table()
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("id", no_wrap=True, style="bold")
    table.add_column("chars", justify="right", no_wrap=True)
    table.add_column("reasons")
    table.add_column("memory")
    for rank, c in enumerate(found, 1):
        table.add_row(str(rank), c.memory.id[:8], str(len(c.memory.content)),
                      plain("; ".join(c.reasons)), cell(first_words(c.memory.text, 60)))
    out.print(table)
    out.print(Text("`memvault suggest-split ID` drafts the parts", style="dim"))


def print_suggested_split(memory: Memory, parts: list[SuggestedPart],
                          repeats: list[list[tuple[Memory, float]]] | None = None) -> None:
    """The draft: each part with its tags and entities, the memories it likely repeats, and
    the ``memvault split`` command that makes it (every part's tags and entities)."""
    out = console()
    if len(parts) < 2:
        out.print(f"nothing in {memory.id[:8]} suggests a split (one idea found)")
        return
    out.print(Text(f"{len(parts)} parts suggested for {memory.id[:8]}", style="bold"))
    for i, part in enumerate(parts, 1):
        out.print()
        out.print(Text(f"part {i}", style="bold"))
        out.print(plain(part.content))
        out.print(plain(f"tags: {', '.join(part.tags) or '-'}   "
                        f"entities: {', '.join(part.entities) or '-'}", style="dim"))
        for other, score in (repeats[i - 1] if repeats else []):
            out.print(plain(f"likely repeats {other.id[:8]} (similarity {score:.2f}): "
                            f"{first_words(other.text, 60)}", style="yellow"))
    command = ["memvault", "split", memory.id[:8]]
    for part in parts:
        command += ["--part", part.content]
    for part in parts:
        command += ["--tags", ",".join(part.tags)]
    for part in parts:
        command += ["--entities", ",".join(part.entities)]
    out.print()
    out.print(Text("edit and run:", style="dim"))
    out.print(plain(shlex.join(command)), soft_wrap=True)


def print_clusters(clusters: list[Cluster], threshold: float) -> None:
    out = console()
    if not clusters:
        out.print(f"no clusters: no two active memories reach similarity {threshold:g}")
        return
    table = borderless_table()
    table.add_column("cluster", no_wrap=True, style="bold")
    table.add_column("size", justify="right", no_wrap=True)
    table.add_column("cohesion", justify="right", no_wrap=True)
    table.add_column("action", no_wrap=True)
    table.add_column("members")
    for c in clusters:
        members = Text("\n").join(
            Text(f"{m.id[:8]} {first_words(m.text, 60)}", no_wrap=True, overflow="ellipsis")
            for m in c.members)
        table.add_row(c.id, str(len(c.members)), f"{c.cohesion:.3f}",
                      Text(c.suggested_action, style=ACTION_STYLE.get(c.suggested_action, "")),
                      members)
    out.print(table)
    out.print(Text(f"{len(clusters)} cluster{'s' if len(clusters) != 1 else ''} at threshold "
                   f"{threshold:g} · `memvault consolidate ID ID ...` merges", style="dim"))


# -- lineage ---------------------------------------------------------------------------------
def _node_label(node: LineageNode | None, node_id: str, edge: str | None = None,
                seen: bool = False) -> Text:
    label = Text()
    if edge:
        label.append(f"{edge} ", style="cyan")
    label.append(node_id[:8], style="bold")
    memory = node.memory if node else None
    label.append(f"  {first_words(memory.text, 70)}" if memory else "  (unknown)")
    if node is not None and node.gone:  # consumed (by which commit), or never in this vault
        label.append(f" ({neutralise_line(node.end.short_label) if node.end else 'deleted'})")
        label.stylize("dim")
    elif memory is not None and memory.status.value != "active":
        label.append(f" ({memory.status.value})", style="yellow")
    if seen:
        label.append(" (shown above)", style="dim")
    return label


def lineage_tree(found: Lineage, side: str) -> Tree:
    """Ancestors (``side="ancestors"``: what the memory was made from) or descendants (what was
    made from it), as a tree under the memory. Edges read ``split`` or ``merge``."""
    ancestors = side == "ancestors"
    title = "ancestors (made from)" if ancestors else "descendants (made into)"
    tree = Tree(Text(title, style="bold"))
    seen: set[str] = set()

    def grow(branch: Tree, node_id: str) -> None:
        for edge in found.edges:
            near, far = ((edge.from_memory_id, edge.to_memory_id) if ancestors
                         else (edge.to_memory_id, edge.from_memory_id))
            other = found.nodes.get(far)
            if near != node_id or other is None or (other.depth < 0) != ancestors:
                continue
            label = found.label(edge)
            repeat = far in seen
            seen.add(far)
            child = branch.add(_node_label(other, far, label, seen=repeat))
            if not repeat:
                grow(child, far)

    grow(tree, found.root)
    if not tree.children:
        tree.add(Text("nothing", style="dim"))
    return tree


def print_lineage(found: Lineage, vault: Vault | None = None) -> None:
    out = console()
    root = found.nodes.get(found.root)
    out.print(Text("lineage of ", style="bold") + _node_label(root, found.root))
    out.print(lineage_tree(found, "ancestors"))
    out.print(lineage_tree(found, "descendants"))
    if found.other_relations:
        table = borderless_table(title="other relations")
        table.add_column("", no_wrap=True)
        table.add_column("type", no_wrap=True)
        table.add_column("memory", no_wrap=True, style="bold")
        table.add_column("text")
        for r in found.other_relations:
            outgoing = r.from_memory_id == found.root
            other_id = r.to_memory_id if outgoing else r.from_memory_id
            other = vault.find(other_id) if vault is not None else None
            end = found.other_ends.get(other_id)
            table.add_row("->" if outgoing else "<-", r.relation_type, other_id[:8],
                          cell(first_words(other.text, 70) if other else
                               f"({end.label})" if end is not None else ""))
        out.print(table)
