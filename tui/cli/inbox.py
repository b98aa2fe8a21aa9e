"""``memvault inbox``: review what the assistant wrote (core/ops/inbox.py).

``memvault inbox [--json]`` lists the unreviewed entries, one a memory (operation, short diff,
when, which client; a person's later change and whether reject would be refused);
``memvault inbox accept [ID... | --all]`` marks them reviewed; ``memvault inbox reject ID`` takes
the assistant's change to one memory back in one commit (refused, nothing written, over a
person's later change to the same field). Everything shown from the vault or git is neutralised.
"""

from __future__ import annotations

import time
from typing import Any

import click

from core.ops.inbox import InboxEntry, accept, reject, review
from core.textutil import neutralise_line

from ..text import plural, relative_time, short_id
from .common import (CONTEXT, REGISTRY, is_terminal, json_option, open_writable,
                     print_json, vault_option)
from .verbs import VERB_HELP


def entry_json(entry: InboxEntry) -> dict[str, Any]:
    return entry.as_dict()


@click.group("inbox", invoke_without_command=True, context_settings=CONTEXT,
             help=VERB_HELP["inbox"] + "\n\nWithout a subcommand: the list (newest first).",
             short_help=VERB_HELP["inbox"], subcommand_metavar="[accept|reject] [ARGS]...")
@vault_option
@json_option
@click.pass_context
def inbox_(ctx: click.Context, as_json: bool) -> int:
    if ctx.invoked_subcommand is not None:
        return 0
    vault = open_writable()
    view = review(vault)
    if as_json:
        print_json([entry_json(e) for e in view.entries])
        return 0
    print_entries(view.entries, int(time.time()))
    return 0


@inbox_.command("accept", context_settings=CONTEXT)
@click.argument("ids", nargs=-1, metavar="[ID]...")
@click.option("--all", "everything", is_flag=True, help="accept every entry (moves the mark)")
@vault_option
@json_option
def accept_(ids: tuple[str, ...], everything: bool, as_json: bool) -> int:
    """Mark entries reviewed: the memories named (ids or unique prefixes), or --all."""
    if bool(ids) == everything:
        raise click.UsageError("give the memories' ids, or --all (not both)")
    vault = open_writable()
    report = accept(vault, None if everything else list(ids))
    if as_json:
        print_json(report.as_dict())
        return 0
    if not report.accepted:
        print("nothing to accept: the inbox is empty")
    else:
        shown = ", ".join(short_id(i) for i in report.accepted[:10])
        more = f" and {len(report.accepted) - 10} more" if len(report.accepted) > 10 else ""
        print(neutralise_line(f"accepted {plural(len(report.accepted), 'memory', 'memories')}"
                              f": {shown}{more}"))
    return 0


@inbox_.command("reject", context_settings=CONTEXT)
@click.argument("memory_id", metavar="ID")
@vault_option
@json_option
def reject_(memory_id: str, as_json: bool) -> int:
    """Take back the assistant's change to one memory (and the relations its commits changed
    around it), in one commit. Refused, nothing written, where you changed the same since."""
    vault = open_writable()
    report = reject(vault, memory_id)
    if as_json:
        print_json(report.as_dict())
        return 0
    n = len(report.reverted)
    if report.commit is None:
        print(f"{short_id(report.memory_id)} was already as before the assistant's change; "
              "marked reviewed")
        return 0
    print(f"rejected the assistant's change to {short_id(report.memory_id)} "
          f"({plural(n, 'commit')} taken back) as commit {short_id(report.commit)}")
    if report.relations:
        print(f"  {plural(len(report.relations), 'relation')} put back too")
    if report.kept_fields:
        print(neutralise_line(f"  kept your later change to {', '.join(report.kept_fields)}"))
    if report.kept_touches:
        print("  kept later uses (use count, last used)")
    print("  `memvault undo` takes the reject back")
    return 0


REGISTRY["inbox"] = inbox_


def print_entries(entries: list[InboxEntry], now: int) -> None:
    """A table on a terminal; piped, one plain line an entry (and one a note), never cut."""
    from .render import borderless_table, cell, console, plain

    out = console()
    if not entries:
        out.print("the inbox is empty: nothing the assistant wrote is waiting for review")
        return
    terminal = is_terminal()
    grid = borderless_table()
    grid.add_column("id", no_wrap=True, style="bold")
    grid.add_column("operation", no_wrap=True)
    grid.add_column("when", no_wrap=True)
    grid.add_column("client", no_wrap=True)
    grid.add_column("change")
    for e in entries:
        summary = e.summary(40 if terminal else 80) or e.preview
        notes = [neutralise_line(n) for n in _notes(e)]
        change = cell(summary) if terminal else "\n".join([neutralise_line(summary), *notes])
        grid.add_row(short_id(e.memory_id), _operation_text(e), relative_time(e.when, now),
                      neutralise_line(", ".join(e.clients)), change)
        if terminal:
            for note in notes:
                grid.add_row("", "", "", "", plain(note, style="dim"))
    out.print(grid)
    if terminal:
        out.print(plain(f"{plural(len(entries), 'entry', 'entries')} · `memvault inbox accept "
                        "ID... | --all` · `memvault inbox reject ID`", style="dim"))


def _operation_text(entry: InboxEntry) -> Any:
    from rich.text import Text

    style = {"added": "green", "removed": "red", "archived": "yellow"}.get(entry.operation, "")
    return Text(entry.operation, style=style)


def _notes(entry: InboxEntry) -> list[str]:
    notes = []
    if entry.later:
        fields = sorted({f for c in entry.later for f in c.fields})
        notes.append(f"  you changed it since ({', '.join(fields) or 'use only'}): "
                     + "; ".join(f"{short_id(c.commit)} {c.subject}" for c in entry.later[-2:]))
    if entry.blocked:
        notes.append("  reject refused: it would discard your change")
    return notes
