"""Moving between memvault and the other memory servers: ``import --from mcp-memory FILE``,
``--from basic-memory DIR``, ``--from mem0 FILE``, and what ``export --to mcp-memory FILE`` /
``--to basic-memory DIR`` run (``export`` itself is declared in :mod:`tui.cli.migrate`).

The import is ONE commit with a backup of the source (as ``migrate``); ``--dry-run`` prints
what would come in; a bad record refuses the whole import unless ``--skip-bad``; ``--json``
prints the report (also when refused, before the error on stderr). docs/import-export.md says
how each source is mapped.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from ..text import plural as _plural
from .common import json_option, layout_hint, open_readonly, print_json, stderr, verb
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

SOURCES = ("mcp-memory", "basic-memory", "mem0")
TARGETS = ("mcp-memory", "basic-memory")


def read_source(source_format: str, path: str, progress: Any) -> Any:
    """The source read into a snapshot (nothing written yet)."""
    if source_format == "mcp-memory":
        from core.io.mcp_memory import read_mcp_memory

        return read_mcp_memory(path, progress)
    if source_format == "basic-memory":
        from core.io.basic_memory import read_basic_memory

        return read_basic_memory(path, progress)
    from core.io.mem0 import read_mem0

    return read_mem0(path, progress)


@verb("import")
@click.option("--from", "source_format", type=click.Choice(SOURCES), required=True,
              help="mcp-memory: the MCP memory server's file (MEMORY_FILE_PATH); "
                   "basic-memory: a project folder of notes; mem0: a mem0 / OpenMemory "
                   "export (JSON or JSON lines)")
@click.argument("path", metavar="PATH")
@DRY_RUN
@click.option("--skip-bad", is_flag=True,
              help="import the rest when some records are bad (they are listed); without it "
                   "a bad record means nothing is imported")
@click.option("--force", is_flag=True, help="import even a source this vault imported before")
@json_option
def import_(source_format: str, path: str, dry_run: bool, skip_bad: bool, force: bool,
            as_json: bool) -> int:
    """PATH is the file (mcp-memory, mem0) or folder (basic-memory) to import."""
    from core.io.foreign_import import ImportRefusedError, import_snapshot

    show = not as_json and sys.stderr.isatty()
    vault = None
    before: str | None = None
    try:
        with progress_bar(show) as progress:
            snap = read_source(source_format, path, progress)  # before a vault is made for it
        vault = open_for_import(dry_run)
        before = vault.head if vault is not None else None
        with progress_bar(show) as progress:
            report = import_snapshot(vault, snap, dry_run=dry_run, skip_bad=skip_bad,
                                     force=force, progress=progress)
            index_at_end(vault, progress)
    except KeyboardInterrupt:  # the commit was put back (core.git.commit), temp files gone
        return interrupted(vault, before, dry_run)
    except ImportRefusedError as exc:
        if as_json:
            print_json(exc.report.to_json())
        else:
            print_problems(summary_console(), f"{_plural(len(exc.report.problems), 'bad record')}",
                      exc.report.problems)
        raise
    if vault is not None and not dry_run:
        layout_hint(vault)
    if as_json:
        print_json(report.to_json())
    else:
        print_import(report)
    return 1 if report.refused else 0


def interrupted(vault: Any, before: str | None, dry_run: bool) -> int:
    """Ctrl+C during an import: one line saying what it left (nothing, unless the commit had
    already landed), exit status 130."""
    landed = None
    if vault is not None and not dry_run:
        try:
            now = vault.journal.head()
        except Exception:  # noqa: BLE001 - the line is said all the same
            now = before
        landed = now if now != before else None
    if landed is None:
        stderr("interrupted", "nothing was imported")
    else:
        stderr("interrupted", f"after the import was committed ({landed[:12]}): it is in the "
               "vault")
    return 130


def print_import(report: Any) -> None:
    con = summary_console()
    if print_opening(con, report, "imported", f"{report.source} ({report.format})",
                     already=report.already_imported):
        return
    print_record_counts(con, report)
    if report.import_time:
        con.print(f"  {_plural(report.import_time, 'memory', 'memories')} without a time in "
                  "the source: given the import time", markup=False)
    if report.dangling:
        con.print(f"  {_plural(len(report.dangling), 'relation')} to something the source and "
                  "the vault lack, kept dangling:", markup=False)
        for why in list(report.dangling.values())[:10]:
            con.print(f"    {why}", markup=False)
    if report.backup:
        where = "would be copied to" if report.dry_run else "backed up, committed, in"
        con.print(f"  source files {where} {report.backup}/", markup=False)
    if report.secrets:
        print_problems(con, "what looks like a secret (the secrets policy would refuse the import: "
                       "take it out, or see `memvault secrets-policy`)", report.secrets)
    if report.refused:
        print_problems(con, f"{_plural(len(report.problems), 'bad record')} (the import would "
                       "refuse: fix them, or pass --skip-bad to import the rest)",
                  report.problems)
    else:
        print_problems(con, f"skipped {_plural(len(report.problems), 'bad record')}",
                  report.problems)
    print_problems(con, "read with a change", report.notes)


def export_to(target: str, path: str, force: bool, as_json: bool) -> int:
    """``export --to mcp-memory FILE`` / ``--to basic-memory DIR``."""
    vault = open_readonly()
    if target == "mcp-memory":
        from core.io.mcp_memory_export import export_mcp_memory

        report = export_mcp_memory(vault, path, force=force)
        how = "the MCP memory server reads it with MEMORY_FILE_PATH set to that file"
    else:
        from core.io.basic_memory_export import export_basic_memory

        report = export_basic_memory(vault, path, force=force)
        how = "basic-memory reads it as a project: basic-memory project add NAME DIR"
    if as_json:
        print_json(report.to_json())
        return 0
    con = summary_console()
    con.print(f"exported {_plural(report.entities, 'memory', 'memories')} and "
              f"{_plural(report.relations, 'relation')} to {report.path} ({how})", markup=False)
    print_notes(con, [
        report.renamed and f"{_plural(len(report.renamed), 'memory', 'memories')} not from "
        f"{target} named after the first line of their content",
        report.dangling and f"{_plural(len(report.dangling), 'relation')} to a memory the "
        "vault lacks written as they were (dangling)",
        report.merged_relations and f"{_plural(report.merged_relations, 'relation')} repeating "
        "another's ends and type written once",
        report.kept_fields and f"what {target} cannot hold ({', '.join(report.kept_fields)}) "
        f"kept in {report.kept_file}, which import --from {target} reads back",
        report.kept_beside and f"{_plural(len(report.kept_beside), 'relation')} to a memory "
        "the vault lacks, under no name, kept there only",
        report.left_out and f"{_plural(len(report.left_out), 'relation')} between memories "
        "the vault lacks left out",
    ])
    return 0
