"""One review-inbox entry drawn in full: who changed the memory and when, its commits, each field
before and after (text as a word diff: removed words red and struck through, added ones green),
the relations, a person's later change and what reject would do."""

from __future__ import annotations

import difflib
from typing import Any

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from core.ops.inbox import InboxEntry

from ...text import plural, relative_time, short_id

OPERATION_STYLE = {"added": "green", "removed": "red", "archived": "yellow",
                   "unarchived": "green", "promoted": "cyan", "superseded": "magenta"}
REMOVED = "red strike"
ADDED = "green"


def word_diff(before: str, after: str) -> Text:
    """``before`` -> ``after`` as one text: removed words struck through, added ones green."""
    old, new = before.split(" "), after.split(" ")
    out = Text()
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(" ".join(old[i1:i2]) + " ")
            continue
        if op in ("delete", "replace"):
            out.append(" ".join(old[i1:i2]), style=REMOVED)
            out.append(" ")
        if op in ("insert", "replace"):
            out.append(" ".join(new[j1:j2]), style=ADDED)
            out.append(" ")
    out.rstrip()
    return out


def _value(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "none"
    return str(value)


def render_entry(entry: InboxEntry, now: int) -> Text:
    """The entry (texts already neutralised by the inbox service) as rich text."""
    text = Text()
    text.append(entry.operation, style=f"bold {OPERATION_STYLE.get(entry.operation, '')}")
    text.append(f"  {short_id(entry.memory_id)}  ", style="bold")
    text.append(f"by {', '.join(entry.clients)}  {relative_time(entry.when, now)}",
                style="dim")
    if not entry.exists:
        text.append("  (not in the vault now)", style="dim")
    text.append("\n")
    for subject in entry.subjects[-5:]:
        text.append(f"  {subject}\n", style="dim")
    if len(entry.subjects) > 5:
        text.append(f"  … and {len(entry.subjects) - 5} earlier commits\n", style="dim")
    for change in entry.changes:
        text.append(f"\n{change.field}\n", style="bold")
        b, a = change.before, change.after
        if isinstance(b, list | type(None)) and isinstance(a, list | type(None)):
            old, new = list(b or []), list(a or [])
            kept = [x for x in new if x in old]
            for x in kept:
                text.append(f"  {x}")
            for x in new:
                if x not in old:
                    text.append(f"  +{x}", style=ADDED)
            for x in old:
                if x not in new:
                    text.append(f"  -{x}", style=REMOVED)
            text.append("\n")
        elif isinstance(b, str) and isinstance(a, str):
            text.append("  ")
            text.append_text(word_diff(b, a))
            text.append("\n")
        elif b is None:
            text.append(f"  {_value(a)}\n", style=ADDED)
        elif a is None:
            text.append(f"  {_value(b)}\n", style=REMOVED)
        else:
            text.append(f"  {_value(b)}", style=REMOVED)
            text.append(" -> ")
            text.append(f"{_value(a)}\n", style=ADDED)
    if entry.relations:
        text.append("\nrelations\n", style="bold")
        for r in entry.relations:
            sign, style = {"added": ("+", ADDED), "removed": ("-", REMOVED)}.get(
                r.operation, ("~", ""))
            text.append(f"  {sign} {r.label}\n", style=style)
    if entry.later:
        fields = sorted({f for c in entry.later for f in c.fields})
        text.append(f"\nYou changed it since ({', '.join(fields) or 'use only'}):\n",
                    style="bold yellow")
        for c in entry.later[-3:]:
            text.append(f"  {short_id(c.commit)} {c.subject}\n", style="yellow")
    text.append("\n")
    if entry.blocked:
        text.append("r is refused: ", style="bold red")
        text.append(f"{entry.blocked}. Accept it, or change it yourself.\n", style="red")
    else:
        n = len(entry.commits)
        what = {"added": "removes the memory", "removed": "brings the memory back"}.get(
            entry.operation, "puts the memory back as it was")
        text.append(f"r {what} ({plural(n, 'commit')} taken back, one new commit; u on the "
                    "main screen undoes it)", style="dim")
        if entry.later:
            text.append("; your later change stays", style="dim")
        text.append(". a accepts it as it is.\n", style="dim")
    return text


class InboxDiff(VerticalScroll):
    """The highlighted entry, scrollable."""

    def compose(self):  # type: ignore[no-untyped-def]
        yield Static(Text("Nothing to review.", style="dim"), id="inbox-diff-text")

    def show(self, entry: InboxEntry | None, now: int, empty: str = "Nothing to review.") -> None:
        static = self.query_one("#inbox-diff-text", Static)
        static.update(render_entry(entry, now) if entry is not None else Text(empty, style="dim"))
        self.scroll_home(animate=False)
