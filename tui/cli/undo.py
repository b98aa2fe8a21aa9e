"""``memvault undo`` and ``memvault redo``: revert the last operation (or the last undo) in one
new commit, through core's :func:`core.ops.revert.undo` / :func:`~core.ops.revert.redo`. Undo
reads git's log, so it works after a restart and across processes; where a later commit changed
the same memory core refuses (a VaultError: one line, exit 1) and writes nothing, except that
later touches are kept. ``undo --list`` prints what can be undone, newest first."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from core.ops.revert import RevertReport, redo as redo_last, undo as undo_last, undo_list
from core.vault import Vault

from ..text import absolute_time, plural, short_id
from .common import POSITIVE, json_option, open_writable, print_json, verb


def report_json(report: Any) -> dict[str, Any]:
    return {"commit": report.commit, "reverted": report.reverted, "subject": report.subject,
            "operation": report.operation,
            "memories": list(report.memories), "relations": list(report.relations),
            "kept_touches": list(report.kept_touches)}


def print_report(done: str, report: Any) -> None:
    """``undid archive: ... (3f2a1b4c; commit 9e0d7c6a)`` and what it changed; a redo names the
    operation it does again, and the undo it takes back."""
    reverted = short_id(report.reverted)
    what = f"undo {reverted} taken back" if done == "redid" else reverted
    print(f"{done} {report.operation} ({what}; commit {short_id(report.commit)})")
    changed = []
    if report.memories:
        changed.append(plural(len(report.memories), "memory", "memories"))
    if report.relations:
        changed.append(plural(len(report.relations), "relation"))
    if changed:
        print(f"  changed {' and '.join(changed)}")
    if report.kept_touches:
        ids = ", ".join(short_id(i) for i in report.kept_touches)
        print(f"  kept later touches of {ids}")


def _revert(run: Callable[[Vault], RevertReport], done: str, as_json: bool) -> int:
    vault = open_writable()
    report = run(vault)
    if as_json:
        print_json(report_json(report))
    else:
        print_report(done, report)
    return 0


@verb("undo")
@click.option("--list", "listing", is_flag=True, help="what can be undone, newest first")
@click.option("--limit", type=POSITIVE, default=20, show_default=True, metavar="N",
              help="with --list: at most N operations")
@json_option
def undo(listing: bool, limit: int, as_json: bool) -> int:
    if not listing:
        return _revert(undo_last, "undid", as_json)
    vault = open_writable()  # the list reads git's log: a normal open
    entries = undo_list(vault, limit=limit)
    if as_json:
        print_json([{"commit": e.commit, "subject": e.subject, "timestamp": e.timestamp}
                    for e in entries])
        return 0
    if not entries:
        print("nothing to undo")
    for e in entries:
        print(f"{short_id(e.commit)}  {absolute_time(e.timestamp)}  {e.subject}")
    return 0


@verb("redo")
@json_option
def redo(as_json: bool) -> int:
    return _revert(redo_last, "redid", as_json)
