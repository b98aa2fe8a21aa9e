"""``memvault migrate-layout [--to sharded|flat]``: move every memory into one layout of the vault
(core/store/shards.py), one commit of renames that a memory's history follows."""

from __future__ import annotations

from dataclasses import asdict

import click

from core.store.shards import LAYOUTS, SHARDED

from ..text import plural
from .common import json_option, open_writable, print_json, verb

MAX_LISTED = 10  # files listed in the human summary (--json lists them all)


@verb("migrate-layout")
@click.option("--to", "to", type=click.Choice(LAYOUTS), default=SHARDED, show_default=True,
              help="the layout to move the memories into")
@json_option
def migrate_layout(to: str, as_json: bool) -> int:
    """Sharded puts each memory at memories/ab/{id}.json (ab: the id's first two characters), for
    vaults above 50,000 memories; flat at memories/{id}.json. The files are renamed as they are,
    in one commit (`memvault undo` takes it back); `memvault history ID` shows a memory's
    versions from before the move. Also moves stragglers (files a clone in the other layout
    synced in) when the vault is already in that layout."""
    vault = open_writable()
    report = vault.migrate_layout(to)
    if as_json:
        print_json(asdict(report))
        return 0
    if report.commit is None:
        print(f"the vault is already in the {to} layout; nothing to move")
    else:
        moved = plural(report.moved, "memory", "memories")
        change = (f"{report.before} -> {report.after}" if report.before != report.after
                  else f"into the {to} layout")
        print(f"moved {moved} ({change}) in commit {report.commit[:8]}")
    for rel in report.set_aside[:MAX_LISTED]:
        print(f"  a second copy, set aside in the quarantine: {rel}")
    if report.left:
        print(f"left where {'it is' if len(report.left) == 1 else 'they are'} "
              f"({plural(len(report.left), 'unreadable file')}):")
        for rel in report.left[:MAX_LISTED]:
            print(f"  {rel}")
    more = len(report.set_aside[MAX_LISTED:]) + len(report.left[MAX_LISTED:])
    if more:
        print(f"  ... and {more} more (--json lists them all)")
    return 0
