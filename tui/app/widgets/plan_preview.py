"""What the wizards show before anything is written: the plan of a split (its parts, their
relations, the original's fate, the commit) and of a merge, as rich renderables. The ids shown
are the plan's: the ones the commit will carry."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from core.vault import first_words

from ...text import date_text, relative_time
from ..service import MergePreview, SplitPreview
from ..bands import BAND_STYLE
from .detail import no_gist_note


def split_preview(p: SplitPreview, now: int) -> Group:
    """The preview step: what the split makes, what it keeps, what it commits."""
    o = p.original
    n = len(p.parts)
    head = Text()
    head.append(f"{n} new memories", style="bold")
    head.append(f" from {o.id[:8]}, in one commit. Each inherits strength {o.strength:g}, "
                f"use count {o.use_count}, last used {relative_time(o.last_used, now)}, "
                f"created {date_text(o.created_at)} ({relative_time(o.created_at, now)}), "
                f"source {o.meta.source or '—'}")
    if o.meta.context:
        head.append(f", context {first_words(o.meta.context, 30)}")
    head.append(".")
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True, style="dim")
    grid.add_column(ratio=1)
    for index, (part, relation) in enumerate(zip(p.parts, p.relations)):
        if index:
            grid.add_row("", "", "")
        name = Text(part.id[:8], style="bold green")
        labels = Text()
        labels.append("tags ", style="dim")
        labels.append(", ".join(part.meta.tags) or "—", style="cyan")
        labels.append("   entities ", style="dim")
        labels.append(", ".join(part.entities) or "—", style="magenta")
        grid.add_row(name, "", labels)
        edge = Text(f"─split_from→ {o.id[:8]}", style="italic cyan")
        edge.append(f"  split_index {relation.metadata.get('split_index', index)} of "
                    f"total_splits {relation.metadata.get('total_splits', n)}", style="dim")
        if not part.gist:
            edge.append(f"  · no gist: {no_gist_note(part.content, 'short enough to be its own')}",
                        style="dim italic")
        grid.add_row("", "", edge)
        grid.add_row("", "text", Text(first_words(part.content, 240)))
        for repeat in (p.repeats[index] if index < len(p.repeats) else []):
            grid.add_row("", Text("repeats", style="bold yellow"),
                         Text(f"{repeat.memory_id[:8]} (similarity {repeat.similarity:.2f}): "
                              f"{repeat.words}", style="yellow"))
        if part.gist and part.gist != part.content:
            grid.add_row("", "gist", Text(part.gist, style="italic"))
    tail = Text()
    tail.append("The original ")
    tail.append(o.id[:8], style="bold")
    if p.fate == "archive":
        tail.append(" is archived", style="bold yellow")
        tail.append(": it stays in the vault with status archived.")
    else:
        tail.append(" is deleted", style="bold red")
        tail.append(": git history keeps it (restore brings it back)")
        if p.dropped:
            k = len(p.dropped)
            tail.append(f"; {k} relation{'s' if k != 1 else ''} go with it")
        tail.append(".")
    tail.append("\n\ncommit  ", style="dim")
    tail.append(p.message, style="bold")
    return Group(head, Text(""), grid, Text(""), tail)


def merge_summary(p: MergePreview) -> Group:
    """The confirm step: the merged memory, its relations, the sources' fate, the commit."""
    plan = p.plan
    m = plan.merged
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True, style="dim")
    grid.add_column(ratio=1)
    facts = Text()
    facts.append(f"{len(m.content)} characters", style="dim")
    facts.append("   tags ", style="dim")
    facts.append(", ".join(m.meta.tags) or "—", style="cyan")
    facts.append("   entities ", style="dim")
    facts.append(", ".join(m.entities) or "—", style="magenta")
    facts.append("   strength ", style="dim")
    facts.append(f"{m.strength:.2f}")
    facts.append("   uses ", style="dim")
    facts.append(f"{m.use_count}")
    grid.add_row(Text(m.id[:8], style="bold green"), "", facts)
    grid.add_row("", "text", Text(first_words(m.content, 240)))
    grid.add_row("", "gist", Text(m.gist, style="italic") if m.gist else
                 Text(f"none: {no_gist_note(m.content, 'short enough to be its own')}",
                      style="dim italic"))
    rels = Text()
    rels.append(f"{len(plan.relations)} consolidated_from relations", style="bold")
    rels.append(f" (cluster {plan.cluster_id}, cohesion {plan.cohesion:.2f})", style="dim")
    for source in plan.sources:
        rels.append(f"\n  {m.id[:8]} ─consolidated_from→ ", style="italic magenta")
        rels.append(source.id[:8], style="bold")
        rels.append(" " + first_words(source.text, 60))
    rels.no_wrap = True
    rels.overflow = "ellipsis"
    tail = Text()
    tail.append("The sources are ")
    if p.fate == "delete":
        tail.append("deleted", style="bold red")
        moved = len(plan.moved_relations)
        tail.append(": git history keeps them")
        if moved:
            tail.append(f"; {moved} relation{'s' if moved != 1 else ''} move to the merged "
                        "memory")
        tail.append(".")
    else:
        tail.append("archived", style="bold yellow")
        tail.append(": they stay in the vault with status archived.")
    tail.append("\n\ncommit  ", style="dim")
    tail.append(p.message, style="bold")
    if p.maintenance:
        tail.append(f"\n\n{p.maintenance}", style=f"bold {BAND_STYLE['danger']}")
    return Group(grid, Text(""), rels, Text(""), tail)
