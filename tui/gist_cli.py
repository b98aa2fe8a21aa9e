"""The gist verbs of ``memvault``: recall, gist and backfill-gists. :func:`register` adds them to
the parser of :mod:`tui.cli`. Token counts are approximate (``core.tokens``) and shown so."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from core.gist import LEVELS
from core.models import now_epoch
from core.recall import recall
from core.tokens import format_tokens

from .cli import _print_json, _positive_int, memory_json, open_readonly, open_writable

Verb = Callable[[str, Callable[[argparse.Namespace], int]], argparse.ArgumentParser]


def cmd_recall(args: argparse.Namespace) -> int:
    vault = open_readonly(args)
    now = now_epoch()
    result = recall(vault, args.query, budget=args.budget, full=args.full, now=now)
    if args.json:
        _print_json({
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
    if args.budget is not None:
        summary += f" (budget {args.budget:,})"
    if not args.full:
        summary += f"; {format_tokens(result.saved)} saved against full content"
    print(summary, file=sys.stderr)  # the block on stdout stays clean for a pipe
    return 0


def cmd_gist(args: argparse.Namespace) -> int:
    vault = open_writable(args)
    memory = vault.regenerate_gist(args.id, args.level)
    if memory.gist is None:
        print(f"{memory.id[:8]} has no gist at {args.level}: its content is short enough "
              "(or could not be shortened) and is read as it is")
    else:
        print(memory.gist)
    return 0


def cmd_backfill(args: argparse.Namespace) -> int:
    vault = open_readonly(args) if args.dry_run else open_writable(args)
    from rich.progress import Progress

    from .render import console

    with Progress(console=console(), transient=True) as bar:
        task = bar.add_task(f"gists ({args.level})", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        report = vault.backfill_gists(args.level, dry_run=args.dry_run, progress=progress)
    if args.json:
        _print_json({
            "level": report.level, "dry_run": args.dry_run, "missing": report.missing,
            "made": [m.id for m in report.made], "tokens_before": report.tokens_before,
            "tokens_after": report.tokens_after, "commit": report.commit,
        })
        return 0
    verb = "would give" if args.dry_run else "gave"
    print(f"{verb} {len(report.made)} of {report.missing} memories without a gist a "
          f"{report.level} gist")
    if report.made:
        saved = report.tokens_before - report.tokens_after
        share = saved / report.tokens_before if report.tokens_before else 0.0
        print(f"recall cost of those memories: {format_tokens(report.tokens_before)} -> "
              f"{format_tokens(report.tokens_after)} ({share:.0%} fewer)")
    if report.commit:
        print(f"one commit: {report.commit[:8]}")
    return 0


def register(verb: Verb, json_flag: Callable[[argparse.ArgumentParser], None]) -> None:
    p = verb("recall", cmd_recall)
    p.add_argument("query", metavar="QUERY")
    p.add_argument("--budget", type=_positive_int, metavar="TOKENS",
                   help="fit the block in this many tokens (approximate)")
    p.add_argument("--full", action="store_true", help="full content instead of gists")
    json_flag(p)

    p = verb("gist", cmd_gist)
    p.add_argument("id", metavar="ID")
    p.add_argument("--level", choices=LEVELS, default="moderate")

    p = verb("backfill-gists", cmd_backfill)
    p.add_argument("--level", choices=LEVELS, default="moderate")
    p.add_argument("--dry-run", action="store_true",
                   help="say what would change and the token totals, change nothing")
    json_flag(p)
