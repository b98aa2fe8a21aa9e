"""The secret verbs of ``memvault``: ``scan`` (every version in history), ``purge`` (remove
memories from all of history) and ``secrets-policy`` (what a write does with a secret). The
work is in :mod:`core.secrets`; see docs/secrets.md."""

from __future__ import annotations

import sys
import time

import click

from core import Memory

from core.secrets.history import scan_history
from core.secrets.policy import META_KEY, POLICIES, policy_in_force
from core.secrets.purge import pending, plan_purge, purge, resume
from core.secrets.scanner import scan_record
from core.vault import Plan

from ..text import plural
from .common import (UserError, json_option, open_readonly, open_writable, print_json, stderr,
                     verb)


@verb("scan")
@json_option
def scan(as_json: bool) -> int:
    """Scans every version of every vault file on every ref, and every commit message; each
    distinct version is read and scanned once. Exit status 1 when anything is found (0 when
    history is clean), with --json too; the JSON lists each finding (record_kind, record_id,
    path, commit, kind, field, start, end)."""
    vault = open_readonly()
    report = scan_history(vault)
    found_any = 1 if report.findings else 0  # like a linter's: scripts and CI stop on it
    if as_json:
        print_json(report.to_json())
        return found_any
    for f in report.findings:
        who = (f"{f.record_kind} {f.record_id[:8]}" if f.record_kind in ("memory", "relation")
               else "message" if f.record_kind == "message" else f"file {f.path}")
        print(f"{who:<16} commit {f.commit[:8]}  {f.kind:<22} {f.field} at offset {f.start}")
    found = plural(len(report.findings), "finding")
    print(f"{found} in {plural(report.blobs, 'version')} of "
          f"{plural(report.commits, 'commit')} ({report.seconds:.2f} s)", file=sys.stderr)
    if report.memory_ids:
        print(f"`memvault purge {' '.join(i[:8] for i in report.memory_ids[:10])}` removes "
              f"{'them' if len(report.memory_ids) > 1 else 'it'} from all of history",
              file=sys.stderr)
    return found_any


@verb("purge")
@click.argument("ids", nargs=-1, metavar="ID...")
@click.option("--yes", "-y", is_flag=True, help="do not ask for confirmation")
@click.option("--dry-run", is_flag=True, help="show what would be removed; change nothing")
@json_option
def purge_(ids: tuple[str, ...], yes: bool, dry_run: bool, as_json: bool) -> int:
    """ID... are memory ids or prefixes (4+ characters), living or deleted. Every version of
    them, and of every relation that touched them, leaves every commit of every ref; reflogs
    are expired and old objects pruned; one `purge:` commit lists them in .meta.json so sync
    never takes them back. Remotes still have them: the output says what each one needs. With
    no ID, finishes a purge a crash interrupted."""
    vault = open_writable()
    if not ids:
        if pending(vault) is None:
            raise UserError("purge: no memory ids given (and no unfinished purge to finish)")
        report = resume(vault)
        assert report is not None
        return _print_report(report, as_json)
    if pending(vault) is not None:
        stderr("note", "finishing a purge a crash interrupted first")
        resume(vault)
    plan = plan_purge(vault, ids)
    if dry_run:
        if as_json:
            print_json({**plan.to_json(), "dry_run": True})
        else:
            _print_plan(vault, plan)
            print("(dry run: nothing changed)")
        return 0
    if not yes:
        _print_plan(vault, plan, sys.stderr)
        stdin = sys.stdin
        if stdin is None or not stdin.isatty():
            raise UserError("refusing to purge without confirmation: stdin is not a terminal "
                            "(pass --yes)")
        print("Purge them from all of history? This cannot be undone. [y/N] ", end="",
              file=sys.stderr, flush=True)
        if stdin.readline().strip().lower() not in ("y", "yes"):
            stderr("note", "nothing purged")
            return 1
    return _print_report(purge(vault, plan), as_json)


def _print_plan(vault, plan, out=None) -> None:
    out = out or sys.stdout
    for mid in plan.memories:
        print(f"  memory   {mid[:8]}  {_described(vault.find(mid))}", file=out)
    for rid in plan.relations:
        print(f"  relation {rid[:8]}", file=out)
    print(f"{plural(len(plan.memories), 'memory', 'memories')} and "
          f"{plural(len(plan.relations), 'relation')} would leave all of history "
          f"({plural(plan.commits, 'commit')} wrote them)", file=out)


def _described(memory: Memory | None) -> str:
    """A memory about to be purged, told without a word of it: what is purged is most often a
    secret, and a preview on a terminal (or a log) must not show it again. Its status, size and
    date, and the kinds of secret its text holds now."""
    if memory is None:
        return "deleted (in history only)"
    created = time.strftime("%Y-%m-%d", time.gmtime(memory.created_at))
    kinds = sorted({f.kind for f in scan_record(memory.model_dump(mode="json"))})
    holds = f", holds {', '.join(kinds)}" if kinds else ""
    return f"{memory.status.value}, {plural(len(memory.text), 'character')}, created {created}{holds}"


def _print_report(report, as_json: bool) -> int:
    if as_json:
        print_json(report.to_json())
        return 0
    plan = report.plan
    print(f"purged {plural(len(plan.memories), 'memory', 'memories')} and "
          f"{plural(len(plan.relations), 'relation')} from all of history "
          f"(commit {(report.commit or '')[:8]}, {report.seconds:.1f} s)")
    for need in report.remotes:
        if "command" in need:
            print(f"remote {need['remote']}: still has them on {need['branch']}; it needs a "
                  f"force push: {need['command']}")
        else:
            print(f"remote {need['remote']}: {need['needs']}")
    if report.remotes:
        print("every other clone of this vault still has them: run `memvault purge --yes "
              f"{' '.join(i[:8] for i in plan.memories)}` there too (sync refuses until then)")
    return 0


@verb("secrets-policy")
@click.argument("policy", required=False, type=click.Choice(POLICIES))
@json_option
def secrets_policy(policy: str | None, as_json: bool) -> int:
    """POLICY (refuse, redact or allow) is kept in the vault's .meta.json (one commit); without
    it, prints the policy in force. MEMVAULT_SECRETS and --allow-secret win over it."""
    vault = open_writable()
    if policy is not None:
        vault.apply(lambda v: Plan(f"secrets: policy {policy}", meta={META_KEY: policy}))
    in_force = policy_in_force(None, vault.meta)
    if as_json:
        print_json({"policy": in_force, "vault": vault.meta.get(META_KEY)})
    else:
        print(in_force)
    return 0
