"""What ``migrate``, ``import`` and ``import-markdown`` share (:mod:`tui.cli.migrate`,
:mod:`tui.cli.interchange`): the vault to import into, the progress bar, the ``--dry-run``
option, the summary's lists of problems and record counts, and the index left complete at the
end (:func:`index_at_end`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

from core.io.markdown_import import MarkdownImportReport
from core.io.migrate import MigrationReport

from ..text import plural
from . import progress as bars
from .common import AT_DEFAULT, open_writable, vault_exists, vault_path

MAX_LISTED = 20  # problems listed in the human summary (--json lists them all)
PHASES = {"memory": "reading memories.jsonl", "relation": "reading relations.jsonl",
          "commit": "committing", "files": "reading markdown files", "read": "reading",
          "search index": "building the search index", **{
              k: v for k, v in bars.SEARCH_BUILD.items() if k != "search index"}}


@contextmanager
def progress_bar(enabled: bool) -> Iterator[Callable[[str, int, int], None] | None]:
    """A progress bar for the phases of a migration or an import (:mod:`.progress`)."""
    with bars.progress_bar(enabled, PHASES) as update:
        yield update


def index_at_end(vault: Any, progress: Callable[[str, int, int], None] | None) -> None:
    """Leave the derived index of ``vault`` (a verb that made or filled it: ``init``,
    ``migrate``, ``import``) complete: the search rows of every memory, the next search
    building nothing (a first build's phases told to ``progress``), and the files' rows at
    HEAD for the next open. Nothing for a dry run's vault (None or read-only). The index is
    a cache: one that cannot be written is said on stderr, and the next search builds it."""
    import sqlite3

    from core.search import SearchIndex
    from core.search.completion import complete

    if vault is None or vault.readonly:
        return
    try:
        with SearchIndex.for_root(vault.root) as index:
            complete(index, vault.memories, progress)
        if progress is not None:
            progress("open index", 0, 0)
        vault.index_files()
    except (OSError, sqlite3.Error) as exc:
        click.echo(f"memvault: note: the search index was not built ({exc}); the next search "
                   "builds it", err=True)


def open_for_import(dry_run: bool):
    """The vault to migrate or import into: created if missing (at a named folder only with
    --create: :func:`~.common.may_create`); on a dry run the existing vault read-only, or None
    when there is none yet."""
    if dry_run:
        from . import common

        path = vault_path()
        return common.Vault.open(path, readonly=True) if vault_exists(path) else None
    return open_writable(create=AT_DEFAULT)


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


def print_notes(con: Any, notes: list[Any]) -> None:
    """The lines of a summary under its first, each indented; a falsy entry (``count and
    text`` for a count of nothing) is left out."""
    for note in notes:
        if note:
            con.print(f"  {note}", markup=False)


def print_record_counts(con: Any, report: MigrationReport | MarkdownImportReport) -> None:
    for noun, new, updated, unchanged in (
            ("memories: ", report.new_memories, report.updated_memories,
             report.unchanged_memories),
            ("relations:", report.new_relations, report.updated_relations,
             report.unchanged_relations)):
        con.print(f"  {noun} {len(new)} new, {len(updated)} updated, {unchanged} unchanged",
                  markup=False)


DRY_RUN = click.option("--dry-run", is_flag=True, help="say what would change, change nothing")


def print_opening(con: Any, report: Any, verb: str, named: str, *,
                  already: bool = False) -> bool:
    """The first line of a migration's or an import's summary: done before (``already``:
    True is returned, nothing more to say), a dry run, the one commit, or nothing to change.
    ``verb``: "migrated" or "imported"; ``named``: the source as the summary names it."""
    what = (f"{plural(report.memories, 'memory', 'memories')} and "
            f"{plural(report.relations, 'relation')}")
    again = {"migrated": "migrates", "imported": "imports"}[verb]  # (not 'importes')
    if already:
        con.print(f"already {verb}: {named} ({what}) was {verb} into this vault before; "
                  f"nothing changed (--force {again} it again)", markup=False)
    elif report.dry_run:
        con.print(f"dry run: {named} holds {what}; nothing was written", markup=False)
    elif report.commit:
        con.print(f"{verb} {what} from {named} in one commit {report.commit[:8]}",
                  markup=False)
    else:
        con.print(f"nothing to change: the vault already holds the {what} of {report.source}",
                  markup=False)
    return already
