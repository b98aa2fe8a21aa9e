"""Sync a vault between machines through git: install the ``memory-latest`` merge driver, and
``sync``: commit pending work, fetch, merge (git runs the driver for files changed on both
sides), settle what git never hands a driver, commit, push.

The merge is made with ``git merge-tree`` (no work tree, no index), settled and committed with
plumbing, and only then checked out for the paths that changed (``journal.remote.advance``), so a
person's uncommitted work elsewhere in the repository is never touched and a crash is rolled
back like any other operation. Network (fetch, push) happens outside the vault's write lock.

What the driver never sees, sync settles (rename detection off: a file is its id):

* **modify/delete** of a memory: the deletion stands if the merged tree has a
  ``consolidated_from`` / ``split_from`` relation pointing at the memory, or a ``gc:`` commit on
  the deleting side deleted it; the modified side's reinforcement (``last_used``, the increase
  of ``use_count`` and ``review_count``) is carried into the memories made from it. Otherwise
  the modified memory is kept (with the relations the deletion took along) and reported.
* **modify/delete** of a relation: kept when both its memories are in the merged tree.
* a relation added on one side to a memory the other side consolidated is re-pointed at the
  consolidated memory; to a memory deleted otherwise, it is removed (reported), unless it is a
  lineage relation, which outlives the memory (the one rule of
  :mod:`core.model.relation_rule`).
* a driver that could not merge (a side that is not a valid record, or too large), or a file
  changed on both sides that git merged without the driver: nothing is committed or pushed; the
  file with conflict markers is put in ``{vault}/sync-conflicts/`` for a person; once it is
  edited into a valid record, the next sync uses it.

A remote is not trusted (see docs/promises.md; what is refused before anything is checked
out: :mod:`core.sync.foreign`):

* git runs the driver by the absolute path of the installed ``memvault-merge-driver`` program,
  never ``python -m`` (which would import a ``core/`` or ``tui/`` package the remote committed
  at the repository's root).
* The vault's merge rules are pinned in the clone's own ``$GIT_DIR/info/attributes``, which
  outranks every ``.gitattributes``: a remote's ``.gitattributes`` cannot name another merge
  driver, a filter, an eol or encoding conversion or a diff driver for vault files. The lines
  in the committed ``.gitattributes`` are for a person's own ``git merge``; when a remote
  removes or changes them, the next sync adds them back (a ``sync: install merge driver``
  commit), and contrary lines the remote added stay (overruled here).
* ``{vault}/sync-conflicts/`` is never tracked: a remote commit with anything there is refused
  before anything is checked out, and the folder is only ever handled without following a
  link (:mod:`core.sync.conflicts`).
* Vault files that came in and cannot be loaded (a link, too large, a bad name) are listed in
  the report's ``problems``; the vault never follows or loads them.

The last sync's result is kept in the git directory (``memvault/last-sync.json``), for
``memvault sync status`` and the app (:func:`last_sync`).
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
            work_tree = journal.work_tree
            changed = work_tree.finish_status(work_tree.start_status(vault.layout.vault_paths()))
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
