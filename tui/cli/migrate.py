"""Migration, import, export and the event log of ``memvault``: ``migrate --from jsonl DIR``,
``export --format jsonl DIR`` (``--to mcp-memory`` / ``basic-memory``: :mod:`tui.cli.interchange`),
``import-markdown DIR`` and ``log``.

Human output is a rich progress bar (on a terminal) and a summary; ``--json`` prints the report;
``log --jsonl`` (or ``--json``) prints one event a line. Refusals are VaultError or UserError
(status 1).
"""

from __future__ import annotations

import sys
from datetime import datetime

import click

from core.io.eventlog import Event, events
from core.io.export import export_jsonl
from core.io.markdown_import import MarkdownImportReport, import_markdown
from core.io.migrate import MigrationReport, migrate_jsonl

from ..terminal import json_text
from ..text import plural as _plural
from .common import json_option, layout_hint, open_readonly, open_writable, print_json, verb
from .importing import (
    DRY_RUN,
    print_notes,
    index_at_end,
    open_for_import,
    print_opening,
    print_problems,
    print_record_counts,
    progress_bar,
    summary_console,
)
from .interchange import export_to


@verb("migrate")
@click.option("--from", "source_format", type=click.Choice(["jsonl"]), default="jsonl",
              help="the source's format: jsonl, a CortexGraph 1.2.1 store (the default)")
@click.argument("folder", metavar="DIR")
@DRY_RUN
@click.option("--force", is_flag=True,
              help="migrate even a source this vault has migrated before")
@json_option
def migrate(source_format: str, folder: str, dry_run: bool, force: bool, as_json: bool) -> int:
    """DIR is the folder holding memories.jsonl and relations.jsonl."""
    from core.io.migrate import check_source

    check_source(folder)  # before a vault is created for it
    vault = open_for_import(dry_run)
    with progress_bar(not as_json and sys.stderr.isatty()) as progress:
        report = migrate_jsonl(vault, folder, dry_run=dry_run, force=force, progress=progress)
        index_at_end(vault, progress)
    if vault is not None and not dry_run:
        layout_hint(vault)  # a flat vault now above 50,000 memories: migrate-layout
    if as_json:
        print_json(report.to_json())
        return 0
    print_migration(report)
    return 0


def print_migration(report: MigrationReport) -> None:
    con = summary_console()
    if print_opening(con, report, "migrated", f"{report.source} (jsonl-v1)",
                     already=report.already_migrated):
        return
    print_record_counts(con, report)
    con.print(f"  replayed: {_plural(report.tombstones, 'deletion marker')}, "
              f"{_plural(report.replaced, 'older version')} replaced by a later line, "
              f"{_plural(len(report.resurrected), 'memory', 'memories')} back after deletion, "
              f"{_plural(len(report.deleted), 'memory', 'memories')} left deleted", markup=False)
    where = "would be copied to" if report.dry_run else "backed up, committed, in"
    print_notes(con, [
        report.dangling and f"{_plural(len(report.dangling), 'dangling relation')} kept (an "
        "end is no living memory: lineage relations outlive it)",
        report.dropped_relations and f"{_plural(len(report.dropped_relations), 'relation')} "
        "of deleted memories left out (they go with their memory; kept in the backup)",
        report.remapped and f"{_plural(len(report.remapped), 'id')} not safe as file names "
        "got new ids (the originals are kept under cortexgraph_ids)",
        report.unknown_keys and "keys CortexGraph does not know, kept: "
        f"{', '.join(report.unknown_keys)}",
        report.backup and f"source files {where} {report.backup}/",
        report.without_gist and not report.already_migrated and
        f"{_plural(report.without_gist, 'memory', 'memories')} without a gist: "
        "`memvault backfill-gists` makes them, in one commit",
    ])
    print_problems(con, f"skipped {_plural(len(report.problems), 'line')}", report.problems)
    print_problems(con, "read with a change", report.notes)


# -- export ----------------------------------------------------------------------------------
@verb("export")
@click.option("--to", "--format", "file_format",
              type=click.Choice(["jsonl", "mcp-memory", "basic-memory"]), default="jsonl",
              help="jsonl: CortexGraph 1.2.1 files in DIR (the default); mcp-memory: the MCP "
                   "memory server's file PATH; basic-memory: a project folder DIR of notes")
@click.argument("folder", metavar="PATH")
@click.option("--force", is_flag=True, help="replace existing files")
@json_option
def export(file_format: str, folder: str, force: bool, as_json: bool) -> int:
    """PATH is the folder to write memories.jsonl and relations.jsonl in (jsonl), the file
    (mcp-memory) or the folder of notes (basic-memory)."""
    if file_format != "jsonl":
        return export_to(file_format, folder, force, as_json)
    vault = open_readonly()
    report = export_jsonl(vault, folder, force=force)
    if as_json:
        print_json(report.to_json())
        return 0
    con = summary_console()
    con.print(f"exported {_plural(report.memories, 'memory', 'memories')} and "
              f"{_plural(report.relations, 'relation')} to {report.folder} "
              "(memories.jsonl, relations.jsonl; CortexGraph 1.2.1 loads them)", markup=False)
    if report.restored_ids:
        con.print(f"  {_plural(len(report.restored_ids), 'memory', 'memories')} written with "
                  "their original CortexGraph ids", markup=False)
    if report.status_kept_aside:
        con.print(f"  {_plural(len(report.status_kept_aside), 'memory', 'memories')} superseded "
                  "written as archived (CortexGraph has no superseded; meta.extra."
                  "memvault_status keeps it)", markup=False)
    return 0


# -- import-markdown -------------------------------------------------------------------------
@verb("import-markdown")
@click.argument("folder", metavar="DIR")
@DRY_RUN
@json_option
def import_markdown_(folder: str, dry_run: bool, as_json: bool) -> int:
    """DIR is the folder holding memory/YYYY-MM-DD.md files and MEMORY.md."""
    from core.io.markdown_import import check_source

    check_source(folder)  # before a vault is created for it
    vault = open_for_import(dry_run)
    with progress_bar(not as_json and sys.stderr.isatty()) as progress:
        report = import_markdown(vault, folder, dry_run=dry_run, progress=progress)
        index_at_end(vault, progress)
    if as_json:
        print_json(report.to_json())
        return 0
    print_import(report)
    return 0


def print_import(report: MarkdownImportReport) -> None:
    con = summary_console()
    print_opening(con, report, "imported",
                  f"{report.source} ({_plural(len(report.files), 'file')})")
    print_record_counts(con, report)
    if report.dangling:
        con.print(f"  {_plural(len(report.dangling), 'relation')} to ids not in the vault kept",
                  markup=False)
    if report.remapped:
        con.print(f"  {_plural(len(report.remapped), 'id')} not safe as file names got new ids "
                  "(meta.extra.original_id keeps them)", markup=False)
    if report.without_gist:
        con.print(f"  {_plural(report.without_gist, 'memory', 'memories')} without a gist: "
                  "`memvault backfill-gists` makes them, in one commit", markup=False)
    print_problems(con, f"skipped {_plural(len(report.skipped), 'entry', 'entries')}",
              report.skipped)
    print_problems(con, "ignored", [p for p in report.problems if not p.skipped])


# -- log -------------------------------------------------------------------------------------
@verb("log")
@click.option("--since", metavar="REV", help="only changes after this commit")
@click.option("--jsonl", is_flag=True,
              help="one JSON object a line, with the records before and after")
@click.option("--json", "as_json", is_flag=True, help="the same as --jsonl")
def log(since: str | None, jsonl: bool, as_json: bool) -> int:
    jsonl = jsonl or as_json
    vault = open_writable()  # reads git: a normal open
    out = sys.stdout
    for event in events(vault, since, objects=jsonl):
        if jsonl:
            out.write(json_text(event.to_json(), indent=None) + "\n")
        else:
            out.write(event_line(event) + "\n")
    out.flush()
    return 0


def event_line(event: Event) -> str:
    """``2026-01-29 14:30:05  1a2b3c4d  split  memories +3 ~1, relations +3  split: ...``"""
    when = datetime.fromtimestamp(event.timestamp).strftime("%Y-%m-%d %H:%M:%S")
    parts = []
    for kind, noun in (("memory", "memories"), ("relation", "relations"), ("meta", "meta"),
                       ("file", "files")):
        signs = {"created": 0, "changed": 0, "deleted": 0}
        for c in event.changes:
            if c.kind == kind:
                signs[c.action] += 1
        shown = " ".join(f"{mark}{signs[a]}" for a, mark in
                         (("created", "+"), ("changed", "~"), ("deleted", "-")) if signs[a])
        if shown:
            parts.append(f"{noun} {shown}" if kind != "meta" else "meta")
    subject = event.message.splitlines()[0] if event.message else ""
    return (f"{when}  {event.commit[:8]}  {event.operation or '-':<11} "
            f"{', '.join(parts) or '-':<32} {subject}")


