"""Sync a vault between machines through git: install the ``memory-latest`` merge driver, and
``sync``: commit pending work, fetch, merge (git runs the driver for files changed on both
sides), settle what git never hands a driver, commit, push.

The merge is made with ``git merge-tree`` (no work tree, no index), settled and committed with
plumbing (:mod:`core.sync.merge`), and only then checked out for the paths that changed
(``Journal.advance``), so a person's uncommitted work elsewhere in the repository is never
touched and a crash is rolled back like any other operation. Network (fetch, push) happens
outside the vault's write lock. What is refused from a remote before anything is checked out:
:mod:`core.sync.foreign`. The last sync's result is kept in the git directory
(``memvault/last-sync.json``), for ``memvault sync status`` and the app (:func:`last_sync`).

The rules of a merge, and what a remote can never do here: ``docs/sync.md``.
"""

from __future__ import annotations

import time

from ..errors import VaultError
from ..ops.maintenance import META_KEY, designated_machine, machine_id, may_maintain
from ..vault import Plan, Vault
from .install import (  # noqa: F401  (the install verbs are part of core.sync.engine's API)
    InstallReport,
    attribute_lines,
    driver_command,
    install,
    installed,
)

from .foreign import ForeignCommitError, forget_refused, refuse_foreign
from .merge import RecordMerge
from .purged import PurgedHistoryError, forget_fetched, refuse_purged_history
from .report import (  # noqa: F401  (last_sync and status are part of core.sync.engine's API)
    SyncReport,
    clear_conflicts,
    conflicts_dir,
    counts,
    last_sync,
    pick_remote,
    reload_after,
    save_record,
    status,
    vault_rel_of,
)

PUSH_ATTEMPTS = 3


# -- the maintenance setting -----------------------------------------------------------------------
def designate(vault: Vault, machine: str | None) -> Plan:
    """Make ``machine`` the one that runs gc and consolidation (None: any machine may)."""
    machine = machine.strip() if machine else None
    if machine is not None and (not machine or any(ord(c) < 32 for c in machine)):
        raise VaultError(f"refused: {machine!r} is not a machine name")
    message = (f"sync: designate {machine} for gc and consolidation" if machine
               else "sync: no designated maintenance machine")
    return vault.apply(lambda v: Plan(message, meta={META_KEY: machine}))



# -- sync ------------------------------------------------------------------------------------------
def sync(vault: Vault, remote: str | None = None, *, allow_unrelated: bool = False) -> SyncReport:
    """Sync the vault's branch with ``remote`` (default: the branch's upstream, else origin).
    Returns the report (also kept for :func:`last_sync`); an unmergeable conflict is an outcome
    (``conflict``: nothing committed, nothing pushed), a failure raises VaultError."""
    journal = vault.journal
    report = SyncReport(time=int(time.time()), machine=machine_id())
    try:
        if journal.work_tree.operation_in_progress():
            raise VaultError("refused: a git merge or rebase is in progress in "
                             f"{journal.worktree}; finish or abort it, then sync again")
        branch = journal.remote.current_branch()
        if branch is None:
            raise VaultError("refused: HEAD is detached; check out a branch to sync")
        report.remote, report.branch = pick_remote(journal, branch, remote)
        report.installed = install(vault).changed
        with vault.transaction():
            report.before = journal.head()
            changed = journal.work_tree.finish_status(journal.work_tree.start_status(vault.layout.vault_paths()))
            if changed:
                vault.adopt_outside_edits(changed)
                report.external_commit = vault.report.external_commit
        for _attempt in range(PUSH_ATTEMPTS):
            tracking = f"refs/remotes/{report.remote}/{report.branch}"
            known = journal.history.rev_parse(tracking)
            theirs = journal.remote.fetch(report.remote, report.branch)
            report.fetched = theirs
            with vault.transaction():
                try:
                    head = _integrate(vault, report, theirs, allow_unrelated)
                except PurgedHistoryError:  # the remote still holds purged memories
                    forget_fetched(vault, tracking, known)
                    raise
                except ForeignCommitError:  # what sync never takes: none of it stays here
                    forget_refused(vault, tracking, known)
                    raise
            if report.outcome == "conflict":
                break
            if theirs is not None and head == theirs:
                break
            if journal.remote.push(report.remote, head, report.branch) == "pushed":
                report.pushed = True
                report.commits_out = journal.history.count_commits(head, theirs)
                if report.outcome == "up-to-date":
                    report.outcome = "pushed"
                break
        else:
            raise VaultError(f"refused: {report.remote}/{report.branch} kept moving while "
                             f"syncing ({PUSH_ATTEMPTS} attempts); sync again")
    except VaultError as exc:
        report.outcome, report.message = "error", str(exc)
        _finish(vault, report)
        raise
    _finish(vault, report)
    return report


def _finish(vault: Vault, report: SyncReport) -> None:
    if report.outcome == "error" and not report.conflicts:
        # a failed sync leaves the files waiting for a person as they were
        report.conflicts = list((last_sync(vault) or {}).get("conflicts") or [])
    report.after = vault.journal.head()
    report.maintenance_machine = designated_machine(vault.meta)
    report.may_maintain = may_maintain(vault.meta)
    save_record(vault, report)


def _integrate(vault: Vault, report: SyncReport, theirs: str | None, allow_unrelated: bool) -> str:
    """Bring the fetched commit into HEAD (under the lock); the commit to push."""
    journal = vault.journal
    ours = journal.head()
    assert ours is not None  # a vault always has its init commit
    target = f"{report.remote}/{report.branch}"
    if theirs is None or theirs == ours or journal.history.is_ancestor(theirs, ours):
        report.outcome = "up-to-date"
        clear_conflicts(vault, keep=[])
        return ours
    refuse_foreign(vault, ours, theirs, target)  # core.sync.foreign
    refuse_purged_history(vault, ours, theirs, target)  # core.sync.purged
    if journal.history.is_ancestor(ours, theirs):
        changes = journal.objects.tree_changes(ours, theirs)
        changed = journal.remote.advance(ours, theirs, f"sync: fast-forward to {target}")
        reload_after(vault, changed, report)
        report.outcome = "fast-forward"
        report.commits_in = journal.history.count_commits(theirs, ours)
        report.incoming = counts(vault, changes)
        clear_conflicts(vault, keep=[])
        return theirs
    merge = RecordMerge(vault, report, ours, theirs, target, allow_unrelated)
    return merge.run()



__all__ = ["InstallReport", "SyncReport", "attribute_lines", "designate", "driver_command",
           "install", "installed", "last_sync", "status", "sync"]
