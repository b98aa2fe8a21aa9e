"""What ``migrate``, ``import`` and ``import-markdown`` share (:mod:`tui.cli.migrate`,
:mod:`tui.cli.interchange`): the vault to import into, the progress bar, the ``--dry-run``
option and the summary's lists of problems and record counts."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

from core.io.markdown_import import MarkdownImportReport
from core.io.migrate import MigrationReport

from . import progress as bars
from .common import open_writable, vault_exists, vault_path

MAX_LISTED = 20  # problems listed in the human summary (--json lists them all)
PHASES = {"memory": "reading memories.jsonl", "relation": "reading relations.jsonl",
          "commit": "committing", "files": "reading markdown files", "read": "reading"}


@contextmanager
def progress_bar(enabled: bool) -> Iterator[Callable[[str, int, int], None] | None]:
    """A progress bar for the phases of a migration or an import (:mod:`.progress`)."""
    with bars.progress_bar(enabled, PHASES) as update:
        yield update


def open_for_import(dry_run: bool):
    """The vault to migrate or import into: created if missing; on a dry run the existing
    vault read-only, or None when there is none yet."""
    if dry_run:
        from . import common

        path = vault_path()
        return common.Vault.open(path, readonly=True) if vault_exists(path) else None
    return open_writable(create=True)


def summary_console():
    """A console on the current stdout that never wraps a summary line."""
    from .render import console

    return console(soft_wrap=True)


def print_problems(con: Any, title: str, problems: list[Any]) -> None:
    if not problems:
        return
    con.print(f"{title}:", markup=False)
    for p in problems[:MAX_LISTED]:
        con.print(f"  {p}", markup=False)
    if len(problems) > MAX_LISTED:
        con.print(f"  ... and {len(problems) - MAX_LISTED} more (--json lists them all)",
                  markup=False)


def print_record_counts(con: Any, report: MigrationReport | MarkdownImportReport) -> None:
    for noun, new, updated, unchanged in (
            ("memories: ", report.new_memories, report.updated_memories,
             report.unchanged_memories),
            ("relations:", report.new_relations, report.updated_relations,
             report.unchanged_relations)):
        con.print(f"  {noun} {len(new)} new, {len(updated)} updated, {unchanged} unchanged",
                  markup=False)


DRY_RUN = click.option("--dry-run", is_flag=True, help="say what would change, change nothing")
