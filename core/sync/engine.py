"""Sync a vault between machines through git: install the ``memory-latest`` merge driver, and
``sync``: commit pending work, fetch, merge (git runs the driver for files changed on both
sides), settle what git never hands a driver, commit, push.

The merge is made with ``git merge-tree`` (no work tree, no index), settled and committed with
plumbing, and only then checked out for the paths that changed (``Journal.advance``), so a
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
  consolidated memory; to a memory deleted otherwise, it is removed (reported).
* a driver that could not merge (a side that is not a valid record, or too large), or a file
  changed on both sides that git merged without the driver: nothing is committed or pushed; the
  file with conflict markers is put in ``{vault}/sync-conflicts/`` for a person; once it is
  edited into a valid record, the next sync uses it.

A remote is not trusted (see README, "What memvault promises"):

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

import contextlib
import hashlib
import json
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..errors import VaultError
from ..git.journal import Journal, TreeChange
from ..store.layout import write_atomic
from ..ops.maintenance import META_KEY, designated_machine, machine_id, may_maintain
from .merge_driver import LOG_ENV, conflict_text, has_conflict_markers, read_log
from ..model.records import PROVENANCE_RELATION_TYPES, Memory, Relation
from ..git.shallow import shallow_note
from .conflicts import FOLDER as CONFLICTS_DIR
from .conflicts import ConflictFolder
from ..textutil import neutralise_line
from .install import (  # noqa: F401  (the install verbs are part of core.sync.engine's API)
    InstallReport,
    attribute_lines,
    driver_command,
    install,
    installed,
)
from ..vault import Plan, Vault

RECORD_FILE = "last-sync.json"
DRIVER_LOG_FILE = "merge-driver.log"
PUSH_ATTEMPTS = 3

Entry = tuple[str, str]  # (mode, object id) of a file in a tree


# -- the maintenance setting -----------------------------------------------------------------------
def designate(vault: Vault, machine: str | None) -> Plan:
    """Make ``machine`` the one that runs gc and consolidation (None: any machine may)."""
    machine = machine.strip() if machine else None
    if machine is not None and (not machine or any(ord(c) < 32 for c in machine)):
        raise VaultError(f"refused: {machine!r} is not a machine name")
    message = (f"sync: designate {machine} for gc and consolidation" if machine
               else "sync: no designated maintenance machine")
    return vault.apply(lambda v: Plan(message, meta={META_KEY: machine}))


# -- the report ------------------------------------------------------------------------------------
@dataclass
class SyncReport:
    """What one sync did; also what :func:`last_sync` returns (as a dict)."""

    remote: str = ""
    branch: str = ""
    outcome: str = "error"  # up-to-date, pushed, fast-forward, merged, conflict, error
    message: str = ""
    time: int = 0
    machine: str = ""
    maintenance_machine: str | None = None
    may_maintain: bool = True
    before: str | None = None  # HEAD before
    after: str | None = None  # HEAD after
    fetched: str | None = None  # the remote's commit
    merge_commit: str | None = None
    pushed: bool = False
    commits_in: int = 0  # commits brought in from the remote
    commits_out: int = 0  # commits the remote got
    incoming: dict[str, dict[str, int]] = field(default_factory=dict)
    driver: list[dict[str, Any]] = field(default_factory=list)  # the driver's decisions
    accepted_deletions: list[dict[str, Any]] = field(default_factory=list)
    kept: list[dict[str, Any]] = field(default_factory=list)  # modify/delete: modified kept
    relations: list[dict[str, Any]] = field(default_factory=list)  # relations settled
    resolved: list[str] = field(default_factory=list)  # conflicts resolved by a person
    conflicts: list[dict[str, Any]] = field(default_factory=list)  # waiting for a person
    problems: list[dict[str, str]] = field(default_factory=list)  # came in, cannot be loaded
    installed: bool = False  # this sync installed the driver
    external_commit: str | None = None  # pending work committed first

    @property
    def ok(self) -> bool:
        return self.outcome not in ("conflict", "error")

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _counts(vault: Vault, changes: dict[str, TreeChange]) -> dict[str, dict[str, int]]:
    counts = {kind: {"added": 0, "changed": 0, "deleted": 0} for kind in ("memories", "relations")}
    for path, change in changes.items():
        what = vault.layout.classify(_vault_rel(vault.journal, path) or "")
        if what is None or what[0] == "meta":
            continue
        key = "added" if change.old is None else "deleted" if change.new is None else "changed"
        counts["memories" if what[0] == "memory" else "relations"][key] += 1
    return counts


def _vault_rel(journal: Journal, path: str) -> str | None:
    """A repository path as a vault-relative path, or None outside the vault."""
    root = journal.relpath(journal.root)
    if root == ".":
        return path
    return path[len(root) + 1:] if path.startswith(root + "/") else None


# -- the record ------------------------------------------------------------------------------------
def _record_path(vault: Vault) -> Path:
    return vault.journal.state_dir / RECORD_FILE


def _git_dir_of(folder: Path) -> Path | None:
    """The git directory of the repository around ``folder``, found without git (a read-only
    vault never starts git, and reading the record must never create a repository)."""
    for candidate in (folder, *folder.parents):
        dot_git = candidate / ".git"
        if dot_git.is_dir():
            return dot_git
        if dot_git.is_file():  # a worktree or submodule: "gitdir: <path>"
            text = dot_git.read_text("utf-8", "replace").strip()
            if text.startswith("gitdir:"):
                return (candidate / text[7:].strip()).resolve()
    return None


def last_sync(vault: Vault) -> dict[str, Any] | None:
    """The last sync's report on this clone (``SyncReport.as_dict()``), or None: outcome, time,
    counts, the driver's decisions, memories kept or deleted, and ``conflicts`` waiting for a
    person (each with ``path``, ``file`` to edit and ``reason``). Reads one file; works on a
    read-only vault too."""
    git_dir = _git_dir_of(vault.root)
    if git_dir is None:
        return None
    try:
        data = json.loads((git_dir / "memvault" / RECORD_FILE).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _save_record(vault: Vault, report: SyncReport) -> None:
    with contextlib.suppress(OSError):
        write_atomic(_record_path(vault),
                     json.dumps(report.as_dict(), indent=2, ensure_ascii=False).encode() + b"\n")


def status(vault: Vault) -> dict[str, Any]:
    """Sync set-up and state without touching the network: the machine and the designated one,
    the branch and remote, commits ahead/behind the last fetched remote state, the last sync."""
    journal = vault.journal
    info: dict[str, Any] = {
        "machine": machine_id(),
        "maintenance_machine": designated_machine(vault.meta),
        "may_maintain": may_maintain(vault.meta),
        "installed": installed(vault),
        "branch": journal.current_branch(),
        "remote": None, "remote_branch": None, "ahead": None, "behind": None,
        "last_sync": last_sync(vault),
        "shallow": shallow_note(journal.repo.common_dir),
    }
    branch = info["branch"]
    if branch:
        with contextlib.suppress(VaultError):
            remote, rbranch = _pick_remote(journal, branch, None)
            info["remote"], info["remote_branch"] = remote, rbranch
            tracking = journal.rev_parse(f"refs/remotes/{remote}/{rbranch}")
            head = journal.head()
            if tracking and head:
                info["ahead"] = journal.count_commits(head, tracking)
                info["behind"] = journal.count_commits(tracking, head)
    return info


# -- sync ------------------------------------------------------------------------------------------
def _pick_remote(journal: Journal, branch: str, remote: str | None) -> tuple[str, str]:
    remotes = journal.remotes()
    upstream = journal.upstream(branch)
    if remote is None:
        if upstream is not None:
            return upstream
        if "origin" in remotes:
            remote = "origin"
        elif len(remotes) == 1:
            remote = remotes[0]
        elif not remotes:
            raise VaultError("refused: this repository has no remote to sync with (add one: "
                             "git remote add origin URL)")
        else:
            raise VaultError(f"refused: several remotes ({', '.join(remotes)}) and none is the "
                             "branch's upstream; pass --remote NAME")
    if remote not in remotes:
        raise VaultError(f"refused: no remote named {remote!r} (remotes: "
                         f"{', '.join(remotes) or 'none'})")
    if upstream is not None and upstream[0] == remote:
        return upstream
    return remote, branch


def sync(vault: Vault, remote: str | None = None, *, allow_unrelated: bool = False) -> SyncReport:
    """Sync the vault's branch with ``remote`` (default: the branch's upstream, else origin).
    Returns the report (also kept for :func:`last_sync`); an unmergeable conflict is an outcome
    (``conflict``: nothing committed, nothing pushed), a failure raises VaultError."""
    journal = vault.journal
    report = SyncReport(time=int(time.time()), machine=machine_id())
    try:
        if journal.operation_in_progress():
            raise VaultError("refused: a git merge or rebase is in progress in "
                             f"{journal.worktree}; finish or abort it, then sync again")
        branch = journal.current_branch()
        if branch is None:
            raise VaultError("refused: HEAD is detached; check out a branch to sync")
        report.remote, report.branch = _pick_remote(journal, branch, remote)
        report.installed = install(vault).changed
        with vault.transaction():
            report.before = journal.head()
            changed = journal.finish_status(journal.start_status(vault.layout.vault_paths()))
            if changed:
                vault.adopt_outside_edits(changed)
                report.external_commit = vault.report.external_commit
        for _attempt in range(PUSH_ATTEMPTS):
            theirs = journal.fetch(report.remote, report.branch)
            report.fetched = theirs
            with vault.transaction():
                head = _integrate(vault, report, theirs, allow_unrelated)
            if report.outcome == "conflict":
                break
            if theirs is not None and head == theirs:
                break
            if journal.push(report.remote, head, report.branch) == "pushed":
                report.pushed = True
                report.commits_out = journal.count_commits(head, theirs)
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
    _save_record(vault, report)


def _integrate(vault: Vault, report: SyncReport, theirs: str | None, allow_unrelated: bool) -> str:
    """Bring the fetched commit into HEAD (under the lock); the commit to push."""
    journal = vault.journal
    ours = journal.head()
    assert ours is not None  # a vault always has its init commit
    target = f"{report.remote}/{report.branch}"
    if theirs is None or theirs == ours or journal.is_ancestor(theirs, ours):
        report.outcome = "up-to-date"
        _clear_conflicts(vault, keep=[])
        return ours
    _refuse_foreign(vault, theirs, target)
    if journal.is_ancestor(ours, theirs):
        changes = journal.tree_changes(ours, theirs)
        changed = journal.advance(ours, theirs, f"sync: fast-forward to {target}")
        _reload(vault, changed, report)
        report.outcome = "fast-forward"
        report.commits_in = journal.count_commits(theirs, ours)
        report.incoming = _counts(vault, changes)
        _clear_conflicts(vault, keep=[])
        return theirs
    merge = _Merge(vault, report, ours, theirs, target, allow_unrelated)
    return merge.run()


def _reload(vault: Vault, changed: list[str], report: SyncReport | None = None) -> None:
    rels = [r for r in (_vault_rel(vault.journal, p) for p in changed) if r is not None]
    vault.catch_up()
    if report is not None:  # what came in and cannot be loaded: reported, never followed
        paths = {vault.root / r for r in rels}
        report.problems = [{"path": str(p.path), "reason": p.reason}
                           for p in vault.problems if p.path in paths]
        report.problems += [
            {"path": str(vault.root / r), "reason": "not a record's file name (ignored)"}
            for r in rels if r.split("/", 1)[0] in ("memories", "relations")
            and vault.layout.classify(r) is None and os.path.lexists(vault.root / r)]


def _conflicts_dir(vault: Vault) -> Path:
    return vault.root / CONFLICTS_DIR


def _clear_conflicts(vault: Vault, keep: list[str]) -> None:
    """Remove conflict files that are no longer waiting (``keep``: vault paths still waiting);
    never through a link (:meth:`ConflictFolder.clear`)."""
    ConflictFolder(vault.root).clear(keep)


def _refuse_foreign(vault: Vault, commit: str, target: str) -> None:
    """What sync never checks out from a remote, refused before anything is checked out:

    * anything in ``sync-conflicts/`` (memvault's own, never committed: a link there would
      send the files waiting for a person, and their clearing, elsewhere on this machine);
    * a symbolic link or a submodule where vault files go (``memories/``, ``relations/``,
      ``.meta.json``): memvault never follows one, and a link to a file elsewhere would be
      read and pushed back;
    * a folder above the vault's (a vault in a folder of a larger repository) that is not a
      folder in the commit: the vault's own path would lead elsewhere."""
    journal = vault.journal
    rel_root = journal.relpath(vault.root)
    if rel_root != ".":
        parts = rel_root.split("/")
        above = ["/".join(parts[: i + 1]) for i in range(len(parts))]
        listing = journal._git("ls-tree", "-z", commit, "--", *above)
        for entry in listing.split("\0"):
            info, _, path = entry.partition("\t")
            if entry and info.split()[0] != "040000":
                raise VaultError(
                    f"refused: in {target}, {neutralise_line(path)} (a folder above the vault's) is "
                    "not a folder (a link to elsewhere?); nothing was brought in. Make it a "
                    f"folder again on {target}, then sync again")
    bad, conflicts = [], False
    for path, (mode, _sha) in journal.ls_tree(commit, None if rel_root == "." else rel_root
                                              ).items():
        rel = _vault_rel(journal, path) or ""
        top = rel.split("/", 1)[0]
        if top == CONFLICTS_DIR:
            conflicts = True
        elif top in ("memories", "relations", ".meta.json") and mode in ("120000", "160000"):
            bad.append(path)
    if conflicts:
        raise VaultError(
            f"refused: {target} has {neutralise_line(journal.relpath(_conflicts_dir(vault)))} in its "
            "commits, a folder memvault keeps for files waiting for a person and never commits "
            "(it may be a link to elsewhere on this machine); nothing was brought in. Remove it "
            f"from {target} (git rm -r --cached it there, commit, push), then sync again")
    if bad:
        shown = ", ".join(neutralise_line(p) for p in bad[:3]) + (
            f" and {len(bad) - 3} more" if len(bad) > 3 else "")
        raise VaultError(
            f"refused: {target} has {len(bad)} symbolic link{'s' if len(bad) != 1 else ''} or "
            f"submodule{'s' if len(bad) != 1 else ''} where vault files go ({shown}); memvault "
            "never follows one (it may point at a file elsewhere on this machine) and nothing "
            f"was brought in. Replace {'them' if len(bad) != 1 else 'it'} with regular files "
            f"on {target}, then sync again")


class _Merge:
    """One merge of ``theirs`` into ``ours`` (see the module docstring)."""

    def __init__(self, vault: Vault, report: SyncReport, ours: str, theirs: str, target: str,
                 allow_unrelated: bool):
        self.vault, self.report, self.journal = vault, report, vault.journal
        self.ours, self.theirs, self.target = ours, theirs, target
        self.allow_unrelated = allow_unrelated
        root = self.journal.relpath(self.journal.root)
        self.under = None if root == "." else root
        self.final: dict[str, Entry | None] = {}  # repository path -> entry (None: deleted)
        self.view: dict[str, Entry] = {}  # the merged tree under the vault, as settled so far
        self._relations: dict[str, dict[str, Any]] | None = None

    # -- helpers --------------------------------------------------------------------------------
    def path_of(self, kind: str, record_id: str) -> str:
        folder = "memories" if kind == "memory" else "relations"
        tail = f"{folder}/{record_id}.json"
        return tail if self.under is None else f"{self.under}/{tail}"

    def classify(self, path: str) -> tuple[str, str] | None:
        rel = _vault_rel(self.journal, path)
        return None if rel is None else self.vault.layout.classify(rel)

    def set(self, path: str, entry: Entry | None) -> None:
        self.final[path] = entry
        if entry is None:
            self.view.pop(path, None)
        else:
            self.view[path] = entry
        if self._relations is not None:
            what = self.classify(path)
            if what is not None and what[0] == "relation":
                record = self.load(entry)
                if record is None:
                    self._relations.pop(path, None)
                else:
                    self._relations[path] = record

    def exists(self, kind: str, record_id: str) -> bool:
        return self.path_of(kind, record_id) in self.view

    def load(self, entry: Entry | None) -> dict[str, Any] | None:
        if entry is None:
            return None
        try:
            data = json.loads(self.journal.read_blob(entry[1]))
        except ValueError:
            return None
        return data if isinstance(data, dict) else None

    def relations_in_view(self) -> dict[str, dict[str, Any]]:
        """Every relation of the merged tree (path -> record), read once."""
        if self._relations is None:
            paths = {p: e for p, e in self.view.items()
                     if (c := self.classify(p)) is not None and c[0] == "relation"}
            blobs = self.journal.read_blobs(e[1] for e in paths.values())
            found = {}
            for path, entry in paths.items():
                with contextlib.suppress(ValueError):
                    value = json.loads(blobs.get(entry[1], b""))
                    if isinstance(value, dict):
                        found[path] = value
            self._relations = found
        return self._relations

    # -- the merge ------------------------------------------------------------------------------
    def run(self) -> str:
        journal, report = self.journal, self.report
        base = journal.merge_base(self.ours, self.theirs)
        if base is None and not self.allow_unrelated:
            raise VaultError(f"refused: this vault's history and {self.target}'s share no "
                             "commit (two vaults made separately); clone the remote instead, or "
                             "pass --allow-unrelated to merge them")
        log = journal.state_dir / DRIVER_LOG_FILE
        log.unlink(missing_ok=True)
        merged = journal.merge_tree(self.ours, self.theirs, env={LOG_ENV: str(log)},
                                    allow_unrelated=base is None)
        self.decisions = read_log(log)  # what git's runs of the driver decided
        log.unlink(missing_ok=True)
        self.view = journal.ls_tree(merged.tree, self.under)
        ours_changes = self.ours_changes = journal.tree_changes(base, self.ours, self.under)
        theirs_changes = self.theirs_changes = journal.tree_changes(base, self.theirs,
                                                                    self.under)
        waiting: list[dict[str, Any]] = []
        memory_md, relation_md = [], []
        driven: set[str] = set()  # files changed on both sides: git ran the driver on them
        for path in sorted(ours_changes.keys() | theirs_changes.keys()):
            what = self.classify(path)
            if what is None:
                continue  # not a vault record: git's merge stands
            o, t = ours_changes.get(path), theirs_changes.get(path)
            if o is None or t is None:
                change = o or t
                assert change is not None
                self.set(path, change.new)
            elif o.new == t.new:
                self.set(path, o.new)
            elif o.new is None or t.new is None:
                if what[0] == "meta":
                    self.set(path, (o.new or t.new))  # .meta.json deleted: keep the other
                else:
                    (memory_md if what[0] == "memory" else relation_md).append((path, what, o, t))
            elif path in merged.conflicts:
                driven.add(path)
                waiting.append(self.unmerged(path, what, o, t, merged.tree))
            elif path in self.view and not any(d.get("path") == path for d in self.decisions):
                # changed on both sides and merged, but not by our driver (its log says nothing):
                # never committed unseen
                driven.add(path)
                waiting.append(self.unmerged(
                    path, what, o, t, merged.tree,
                    without_driver="git merged it without the memory-latest driver (is this "
                                   "clone's set-up changed? `memvault sync install`)"))
            elif path in self.view:
                driven.add(path)
                self.set(path, self.view[path])  # the driver's result
            else:
                waiting.append(self.waiting(path, f"git left no result for {path}", o, t))
        for path in sorted(merged.conflicts):
            if self.classify(path) is None:
                waiting.append({"path": path, "vault_path": _vault_rel(journal, path),
                                "file": str(journal.worktree / path),
                                "reason": "a conflict outside the vault's records: merge "
                                          f"{self.target} by hand (git merge {self.target})"})
        # (git may also run the driver on a pair it took for a rename; sync settles those)
        report.driver.extend(d for d in self.decisions if d.get("path") in driven)
        resolutions = {w["path"]: w.pop("resolution") for w in waiting if "resolution" in w}
        if len(resolutions) < len(waiting):
            # Nothing is committed; files a person already resolved wait with the others.
            report.outcome = "conflict"
            report.conflicts = [{**w, "resolved": w["path"] in resolutions} for w in waiting]
            _clear_conflicts(self.vault, keep=[w["vault_path"] for w in waiting
                                               if w.get("vault_path")])
            return self.ours
        for path, data in sorted(resolutions.items()):
            self.set(path, ("100644", journal.write_blob(data)))
            report.resolved.append(path)
        for item in memory_md:
            self.settle_memory(*item, base)
        for item in relation_md:
            self.settle_relation(*item)
        self.settle_dangling(ours_changes, theirs_changes)
        tree = journal.build_tree(merged.tree, self.final)
        message = self.message()
        commit = journal.commit_tree(tree, [self.ours, self.theirs], message)
        changes = journal.tree_changes(self.ours, commit)
        changed = journal.advance(self.ours, commit, message)
        _reload(self.vault, changed, report)
        _clear_conflicts(self.vault, keep=[])
        report.outcome = "merged"
        report.merge_commit = commit
        report.commits_in = journal.count_commits(self.theirs, self.ours)
        report.incoming = _counts(self.vault, changes)
        return commit

    # -- driver failures ------------------------------------------------------------------------
    def waiting(self, path: str, reason: str, o: TreeChange, t: TreeChange) -> dict[str, Any]:
        rel = _vault_rel(self.journal, path)
        return {"path": path, "vault_path": rel,
                "file": str(ConflictFolder(self.vault.root).file(rel)) if rel else None,
                "reason": reason, "ours": o.new[1] if o.new else None,
                "theirs": t.new[1] if t.new else None}

    def unmerged(self, path: str, what: tuple[str, str], o: TreeChange, t: TreeChange,
                 tree: str, without_driver: str | None = None) -> dict[str, Any]:
        """A file the driver could not merge: a person's resolution from an earlier sync, or
        the file with conflict markers written for a person."""
        decision = next((d for d in reversed(self.decisions) if d.get("path") == path), {})
        reason = without_driver or decision.get("reason") or "git could not merge it"
        item = self.waiting(path, reason, o, t)
        folder, rel = ConflictFolder(self.vault.root), item["vault_path"]
        target = Path(item["file"])
        previous = {c.get("path"): c for c in (last_sync(self.vault) or {}).get("conflicts", [])}
        before = previous.get(path) or {}
        current = folder.read(rel)  # never through a link
        if current is not None:
            written = before.get("written")
            # A file a person edited is theirs: never overwritten, used once it is valid. One
            # still as written is rewritten when either side has moved on since.
            edited = (written != _digest(current) if written
                      else not has_conflict_markers(current))
            same = before.get("ours") == item["ours"] and before.get("theirs") == item["theirs"]
            if edited or same:
                item["written"] = written
                problem = _resolution_problem(current, what)
                if problem is None:
                    item["resolution"] = _normalise(current, what[0])
                else:
                    item["reason"] = f"{reason}; {target} is not resolved yet ({problem})"
                return item
        if without_driver:  # both sides between markers, never git's own merge of them
            data = conflict_text(self.load_bytes(o.old), self.load_bytes(o.new) or b"",
                                 self.load_bytes(t.new) or b"", path, reason)
        else:
            blob = self.view.get(path)
            data = self.journal.read_blob(blob[1]) if blob else b""
        folder.write(rel, data)
        item["written"] = _digest(data)
        return item

    def load_bytes(self, entry: Entry | None) -> bytes | None:
        return None if entry is None else self.journal.read_blob(entry[1])

    # -- modify/delete --------------------------------------------------------------------------
    def settle_memory(self, path: str, what: tuple[str, str], o: TreeChange, t: TreeChange,
                      base: str | None) -> None:
        memory_id = what[1]
        deleted_ours = o.new is None
        deleter = self.ours if deleted_ours else self.theirs
        side = "here" if deleted_ours else self.target
        modified = t if deleted_ours else o
        provenance = [r for r in self.relations_in_view().values()
                      if r.get("relation_type") in PROVENANCE_RELATION_TYPES
                      and r.get("to_memory_id") == memory_id
                      and isinstance(r.get("from_memory_id"), str)]
        gc = any(s.startswith("gc:") for s in
                 self.journal.deleting_subjects(path, deleter, base))
        if provenance or gc:
            self.set(path, None)
            how = (f"{provenance[0]['relation_type'].removesuffix('_from')}d into "
                   f"{', '.join(sorted({r['from_memory_id'][:8] for r in provenance}))}"
                   if provenance else "gc")
            carried = self.carry(memory_id, modified, provenance)
            self.report.accepted_deletions.append({
                "id": memory_id, "deleted": side, "reason": how,
                "carried_to": carried,
                "note": f"its last version is in history (memvault restore {memory_id[:8]})"})
            return
        self.set(path, modified.new)
        restored = self.restore_relations(memory_id, deleted_ours)
        self.report.kept.append({
            "id": memory_id, "deleted": side, "relations_restored": restored,
            "reason": "deleted without a consolidation, split or gc, and changed on the other "
                      "side: the changed memory is kept"})

    def carry(self, memory_id: str, modified: TreeChange,
              provenance: list[dict[str, Any]]) -> list[str]:
        """Carry the reinforcement the deleted memory got on the other side (later last_used,
        the increase of use_count and review_count) into the memories made from it."""
        new, old = self.load(modified.new), self.load(modified.old)
        if new is None:
            return []
        carried = []
        for successor in sorted({r["from_memory_id"] for r in provenance}):
            path = self.path_of("memory", successor)
            entry = self.view.get(path)
            if entry is None:
                continue
            try:
                memory = Memory.model_validate_json(self.journal.read_blob(entry[1]))
            except ValueError:
                continue
            updates: dict[str, Any] = {}
            last_used = new.get("last_used")
            if isinstance(last_used, int) and last_used > memory.last_used:
                updates["last_used"] = last_used
            for counter in ("use_count", "review_count"):
                now, before = new.get(counter), (old or {}).get(counter, 0)
                if isinstance(now, int) and isinstance(before, int) and now > before:
                    updates[counter] = getattr(memory, counter) + now - before
            if not updates:
                continue
            data = self.vault.layout.encode(memory.model_copy(update=updates))
            self.set(path, (entry[0], self.journal.write_blob(data)))
            carried.append(successor)
        return carried

    def restore_relations(self, memory_id: str, deleted_ours: bool) -> int:
        """The relations of a kept memory that its deletion took along (deleted on the same
        side, unchanged on the other) come back when both ends are in the merged tree."""
        deleting, other = ((self.ours_changes, self.theirs_changes) if deleted_ours
                           else (self.theirs_changes, self.ours_changes))
        restored = 0
        for path, change in sorted(deleting.items()):
            what = self.classify(path)
            if not what or what[0] != "relation" or change.new is not None or path in other:
                continue
            entry = change.old
            record = self.load(entry)
            if not record or memory_id not in (record.get("from_memory_id"),
                                               record.get("to_memory_id")):
                continue
            ends = [record.get("from_memory_id"), record.get("to_memory_id")]
            if all(isinstance(e, str) and self.exists("memory", e) for e in ends):
                self.set(path, entry)
                restored += 1
        return restored

    def settle_relation(self, path: str, what: tuple[str, str], o: TreeChange,
                        t: TreeChange) -> None:
        modified = t if o.new is None else o
        record = self.load(modified.new) or {}
        ends = [record.get("from_memory_id"), record.get("to_memory_id")]
        keep = all(isinstance(e, str) and self.exists("memory", e) for e in ends)
        self.set(path, modified.new if keep else None)
        self.report.relations.append({
            "id": what[1], "action": "kept" if keep else "deleted",
            "reason": "changed on one side, deleted on the other: " + (
                "both its memories are there, kept" if keep else
                "one of its memories is gone, deleted")})

    def settle_dangling(self, ours_changes: dict[str, TreeChange],
                        theirs_changes: dict[str, TreeChange]) -> None:
        """A relation added or changed on one side that points at a memory the other side
        deleted: re-pointed at the consolidated memory, else removed."""
        gone: set[str] = set()
        for changes in (ours_changes, theirs_changes):
            for path, change in changes.items():
                what = self.classify(path)
                if what and what[0] == "memory" and change.new is None and path not in self.view:
                    gone.add(what[1])
        if not gone:
            return
        successors: dict[str, set[str]] = {}
        for record in self.relations_in_view().values():
            if record.get("relation_type") == "consolidated_from" and \
                    record.get("to_memory_id") in gone:
                successors.setdefault(record["to_memory_id"], set()).add(record.get("from_memory_id"))
        touched = {p for c in (ours_changes, theirs_changes) for p, ch in c.items()
                   if ch.new is not None}
        for path, record in sorted(self.relations_in_view().items()):
            if path not in touched or record.get("relation_type") in PROVENANCE_RELATION_TYPES:
                continue
            ends = {"from_memory_id": record.get("from_memory_id"),
                    "to_memory_id": record.get("to_memory_id")}
            lost = {k: v for k, v in ends.items() if v in gone}
            if not lost:
                continue
            rid = self.classify(path)[1]  # type: ignore[index]
            moved = dict(record)
            for key, old_id in lost.items():
                heirs = successors.get(old_id, set())
                if len(heirs) != 1:
                    moved = None
                    break
                moved[key] = next(iter(heirs))
            if moved is not None and moved["from_memory_id"] != moved["to_memory_id"]:
                try:
                    data = self.vault.layout.encode(Relation.model_validate(moved))
                except ValueError:
                    data = None
                if data is not None:
                    self.set(path, ("100644", self.journal.write_blob(data)))
                    self.report.relations.append({
                        "id": rid, "action": "re-pointed",
                        "reason": "its memory was consolidated on the other side: now points "
                                  "at the consolidated memory"})
                    continue
            self.set(path, None)
            self.report.relations.append({
                "id": rid, "action": "deleted",
                "reason": "its memory was deleted on the other side"})

    # -- the commit message ---------------------------------------------------------------------
    def message(self) -> str:
        lines = [f"sync: merge {self.target}", ""]
        for d in self.report.driver:
            if d.get("clean"):
                lines.append(f"driver: {d.get('path')}: {d.get('decision')} ({d.get('reason')})")
        for d in self.report.accepted_deletions:
            lines.append(f"deleted: {d['id'][:8]} ({d['reason']}, {d['deleted']})")
        for d in self.report.kept:
            lines.append(f"kept: {d['id'][:8]} (changed here or there, deleted {d['deleted']} "
                         "without provenance)")
        for d in self.report.relations:
            lines.append(f"relation {d['action']}: {d['id'][:8]}")
        for path in self.report.resolved:
            lines.append(f"resolved by a person: {path}")
        # names come from a remote: no control character reaches a commit message
        lines = [neutralise_line(line) for line in lines]
        return "\n".join(lines).rstrip() if len(lines) > 2 else lines[0]


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _resolution_problem(data: bytes, what: tuple[str, str]) -> str | None:
    if has_conflict_markers(data):
        return "it still has conflict markers"
    kind, record_id = what
    try:
        if kind == "memory":
            record: Any = Memory.model_validate_json(data)
        elif kind == "relation":
            record = Relation.model_validate_json(data)
        else:
            value = json.loads(data)
            return None if isinstance(value, dict) else "not a JSON object"
    except ValueError as exc:
        return f"not a valid {kind}: {' '.join(str(exc).split())[:200]}"
    if record.id != record_id:
        return f"its id is {record.id!r}, not {record_id!r}"
    return None


def _normalise(data: bytes, kind: str) -> bytes:
    from ..store.layout import Layout

    if kind == "memory":
        return Layout.encode(Memory.model_validate_json(data))
    if kind == "relation":
        return Layout.encode(Relation.model_validate_json(data))
    return Layout.encode(json.loads(data))


__all__ = ["InstallReport", "SyncReport", "attribute_lines", "designate", "driver_command",
           "install", "installed", "last_sync", "status", "sync"]
