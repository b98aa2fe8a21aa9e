"""The sync verbs of ``memvault``: ``sync`` (with ``install``, ``status`` and ``designate``) and
``merge-driver`` (an alias of the ``memvault-merge-driver`` program git runs,
:func:`core.sync.merge_driver.main`).

``memvault sync`` exits 1 when files wait for a person (nothing committed, nothing pushed);
``memvault merge-driver`` exits 0 when it merged and 1 when it left conflict markers.

Paths, ids and reasons in a sync report may come from a remote: they are shown through
:func:`_shown`, never raw.
"""

from __future__ import annotations

from typing import Any

import click

from core.textutil import neutralise_line as _shown

from ..text import plural as _plural
from .common import UserError, json_option, open_writable, print_json, verb

ACTIONS = ("install", "status", "designate")


# -- merge-driver ----------------------------------------------------------------------------
@verb("merge-driver")
@click.argument("ancestor", metavar="O")
@click.argument("current", metavar="A")
@click.argument("other", metavar="B")
@click.argument("path", metavar="P")
@json_option
def merge_driver(ancestor: str, current: str, other: str, path: str, as_json: bool) -> int:
    """git's %O (the common ancestor's version), %A (this side's version, the result goes
    here), %B (the other side's version) and %P (the file's path in the repository)."""
    from core.sync.merge_driver import main

    code = main([ancestor, current, other, path])
    if as_json:
        print_json({"path": path, "merged": code == 0})
    return code


# -- sync --------------------------------------------------------------------------------------
@verb("sync")
@click.argument("action", required=False, type=click.Choice(ACTIONS), metavar="[ACTION]")
@click.argument("machine", required=False, metavar="[MACHINE]")
@click.option("--remote", metavar="NAME",
              help="the remote (default: the branch's upstream, else origin)")
@click.option("--allow-unrelated", is_flag=True,
              help="merge a remote whose history shares no commit with this vault's")
@click.option("--clear", is_flag=True,
              help="with designate: no designated machine (any may run gc/consolidate)")
@json_option
def sync_(action: str | None, machine: str | None, remote: str | None, allow_unrelated: bool,
          clear: bool, as_json: bool) -> int:
    """ACTION: install: the merge driver (.gitattributes + git config); status: set-up and the
    last sync; designate [MACHINE]: the machine that runs gc and consolidation (default this
    one). Without an action: sync."""
    if action != "designate" and (machine is not None or clear):
        raise UserError("refused: a machine name (or --clear) goes with `memvault sync designate`")
    vault = open_writable()
    from core.sync import engine as sync

    if action == "install":
        report = sync.install(vault)
        if as_json:
            print_json({**report.__dict__, "changed": report.changed})
        else:
            print_install(report)
        return 0
    if action == "designate":
        if clear:
            machine = None
        else:
            from core.ops.maintenance import machine_id

            machine = machine or machine_id()
        change = sync.designate(vault, machine)
        if as_json:
            print_json({"maintenance_machine": machine, "commit": change.commit})
        elif machine is None:
            print("no designated maintenance machine: gc and consolidation may run anywhere")
        else:
            print(f"gc and consolidation run on {machine} from now on (commit "
                  f"{(change.commit or '')[:8]}); other machines refuse them unless --force; "
                  "`memvault sync` spreads the setting")
        return 0
    if action == "status":
        info = sync.status(vault)
        if as_json:
            print_json(info)
        else:
            print_status(info)
        return 0
    result = sync.sync(vault, remote, allow_unrelated=allow_unrelated)
    if as_json:
        print_json(result.as_dict())
    else:
        print_report(result.as_dict())
    return 0 if result.ok else 1


def print_install(report: Any) -> None:
    if not report.changed:
        print(f"the memory-latest merge driver is already installed ({report.attributes_file})")
        return
    if report.added_lines:
        print(f"added {_plural(len(report.added_lines), 'line')} to {report.attributes_file}"
              + (f" (commit {report.commit[:8]})" if report.commit else ""))
        for line in report.added_lines:
            print(f"  {line}")
    if report.config_changed:
        print(f"set {', '.join(report.config_changed)} in this clone's git config")
    if report.pinned:
        print("pinned the vault's merge rules in this clone's info/attributes (a remote's "
              ".gitattributes cannot change them)")


# -- output ------------------------------------------------------------------------------------
def _counts_line(incoming: dict[str, dict[str, int]]) -> str:
    parts = []
    for kind in ("memories", "relations"):
        counts = incoming.get(kind) or {}
        shown = [f"{n} {what}" for what, n in counts.items() if n]
        if shown:
            parts.append(f"{kind}: {', '.join(shown)}")
    return "; ".join(parts)


def summary(report: dict[str, Any]) -> str:
    """One line for a sync report (also for the app's status line)."""
    target = f"{report.get('remote')}/{report.get('branch')}"
    outcome = report.get("outcome")
    ins, outs = report.get("commits_in", 0), report.get("commits_out", 0)
    if outcome == "up-to-date":
        return f"up to date with {target}"
    if outcome == "pushed":
        return f"pushed {_plural(outs, 'commit')} to {target}"
    if outcome == "fast-forward":
        return f"brought in {_plural(ins, 'commit')} from {target} (fast-forward)"
    if outcome == "merged":
        pushed = f", pushed {_plural(outs, 'commit')}" if report.get("pushed") else ", not pushed"
        commit = (report.get("merge_commit") or "")[:8]
        return f"merged {_plural(ins, 'commit')} from {target} (merge commit {commit}){pushed}"
    if outcome == "conflict":
        n = len(report.get("conflicts") or [])
        return (f"not synced with {target}: {_plural(n, 'file')} need a person "
                "(nothing committed, nothing pushed)")
    return f"sync with {target} failed: {report.get('message')}"


def print_report(report: dict[str, Any]) -> None:
    print(_shown(summary(report)))
    if report.get("external_commit"):
        print(f"  committed pending changes first ({report['external_commit'][:8]}, external:)")
    if report.get("installed"):
        print("  installed the memory-latest merge driver in this clone")
    counts = _counts_line(report.get("incoming") or {})
    if counts:
        print(f"  {counts}")
    for d in report.get("driver") or []:
        if d.get("clean") and d.get("decision") != "same":
            notes = f"; {'; '.join(d['notes'])}" if d.get("notes") else ""
            print(_shown(f"  driver: {d.get('path')}: {d.get('decision')} ({d.get('reason')}"
                         f"{notes})"))
    for d in report.get("accepted_deletions") or []:
        carried = (f"; its reinforcement carried to {', '.join(i[:8] for i in d['carried_to'])}"
                   if d.get("carried_to") else "")
        print(_shown(f"  deleted {d['id'][:8]}: {d['reason']} ({d['deleted']}){carried}; "
                     f"{d['note']}"))
    for d in report.get("kept") or []:
        extra = (f", with {_plural(d['relations_restored'], 'relation')}"
                 if d.get("relations_restored") else "")
        print(_shown(f"  kept {d['id'][:8]}{extra}: deleted {d['deleted']} without a "
                     "consolidation, split or gc, and changed on the other side (delete it "
                     "again if it should go)"))
    for d in report.get("relations") or []:
        print(_shown(f"  relation {d['id'][:8]} {d['action']}: {d['reason']}"))
    for path in report.get("resolved") or []:
        print(_shown(f"  used the resolution of {path}"))
    for p in report.get("problems") or []:
        print(_shown(f"  not loaded: {p.get('path')}: {p.get('reason')}"))
    for c in report.get("conflicts") or []:
        if c.get("resolved"):
            print(_shown(f"  resolved, waiting for the others: {c['path']}"))
            continue
        print(_shown(f"  conflict: {c['path']}: {c['reason']}"))
        if c.get("vault_path") and c.get("file") and c.get("ours") is not None:
            print(_shown(f"    edit {c['file']} into the version to keep (one valid record, no "
                         "conflict markers), then run `memvault sync` again"))
    if report.get("maintenance_machine") and not report.get("may_maintain", True):
        print(f"  gc and consolidation run on {report['maintenance_machine']}, not on this "
              f"machine ({report.get('machine')})")


def print_status(info: dict[str, Any]) -> None:
    designated = info.get("maintenance_machine")
    print(f"this machine: {info['machine']}")
    if designated:
        mark = " (this machine)" if info.get("may_maintain") else ""
        print(f"gc and consolidation: on {designated}{mark}")
    else:
        print("gc and consolidation: on any machine (`memvault sync designate` picks one)")
    print(f"merge driver: {'installed' if info.get('installed') else 'not installed (memvault sync install)'}")
    if info.get("remote"):
        where = f"{info['remote']}/{info['remote_branch']}"
        if info.get("ahead") is not None:
            print(f"branch {info['branch']} -> {where}: {info['ahead']} ahead, "
                  f"{info['behind']} behind (as of the last fetch)")
        else:
            print(f"branch {info['branch']} -> {where}: never synced")
    else:
        print(f"branch {info.get('branch') or '(detached)'}: no remote")
    if info.get("shallow"):
        print(info["shallow"])
    last = info.get("last_sync")
    if last:
        import time

        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(last.get("time") or 0))
        print(f"last sync ({when}):")
        print_report(last)
    else:
        print("last sync: never")
