"""The gist verbs of ``memvault``: recall, gist and backfill-gists. Token counts are approximate
(``core.model.tokens``) and shown so."""

from __future__ import annotations

import sys

import click

from core.gist import LEVELS
from core.model.records import now_epoch
from core.model.tokens import format_tokens

from .common import (POSITIVE, json_option, memory_json, open_readonly, open_writable,
                     print_json, verb)

LEVEL = click.option("--level", type=click.Choice(LEVELS), default="moderate", show_default=True)


@verb("recall")
@click.argument("query", metavar="QUERY")
@click.option("--budget", type=POSITIVE, metavar="TOKENS",
              help="fit the block in this many tokens (approximate)")
@click.option("--full", is_flag=True, help="full content instead of gists")
@json_option
def recall(query: str, budget: int | None, full: bool, as_json: bool) -> int:
    from core.ops.recall import recall as find

    vault = open_readonly()
    now = now_epoch()
    result = find(vault, query, budget=budget, full=full, now=now)
    if as_json:
        print_json({
            "query": result.query,
            "budget": result.budget,
            "matched": result.matched,
            "tokens": result.tokens,
            "full_tokens": result.full_tokens,
            "saved": result.saved,
            "block": result.block,
            "memories": [{**memory_json(vault, line.memory, now), "relevance": line.relevance,
                          "tokens": line.tokens} for line in result.lines],
        })
        return 0
    if result.lines:
        print(result.block)
    summary = (f"{len(result.lines)} of {result.matched} matching memories, "
               f"{format_tokens(result.tokens)}")
    if budget is not None:
        summary += f" (budget {budget:,})"
    if not full:
        summary += f"; {format_tokens(result.saved)} saved against full content"
    print(summary, file=sys.stderr)  # the block on stdout stays clean for a pipe
    return 0


@verb("gist")
@click.argument("memory_id", metavar="ID")
@LEVEL
@json_option
def gist(memory_id: str, level: str, as_json: bool) -> int:
    vault = open_writable()
    memory = vault.regenerate_gist(memory_id, level)
    if as_json:
        print_json({"id": memory.id, "level": level, "gist": memory.gist})
    elif memory.gist is None:
        print(f"{memory.id[:8]} has no gist at {level}: its content is short enough "
              "(or could not be shortened) and is read as it is")
    else:
        print(memory.gist)
    return 0


@verb("backfill-gists")
@LEVEL
@click.option("--dry-run", is_flag=True,
              help="say what would change and the token totals, change nothing")
@json_option
def backfill_gists(level: str, dry_run: bool, as_json: bool) -> int:
    vault = open_readonly() if dry_run else open_writable()
    from rich.progress import Progress

    from .render import console

    with Progress(console=console(), transient=True) as bar:
        task = bar.add_task(f"gists ({level})", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        report = vault.backfill_gists(level, dry_run=dry_run, progress=progress)
    if as_json:
        print_json({
            "level": report.level, "dry_run": dry_run, "missing": report.missing,
            "made": [m.id for m in report.made], "tokens_before": report.tokens_before,
            "tokens_after": report.tokens_after, "commit": report.commit,
        })
        return 0
    done = "would give" if dry_run else "gave"
    print(f"{done} {len(report.made)} of {report.missing} memories without a gist a "
          f"{report.level} gist")
    if report.made:
        saved = report.tokens_before - report.tokens_after
        share = saved / report.tokens_before if report.tokens_before else 0.0
        print(f"recall cost of those memories: {format_tokens(report.tokens_before)} -> "
              f"{format_tokens(report.tokens_after)} ({share:.0%} fewer)")
    if report.commit:
        print(f"one commit: {report.commit[:8]}")
    return 0
