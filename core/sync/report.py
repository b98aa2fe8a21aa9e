"""The sync report, the record of the last sync in the git directory (``memvault sync status``,
the app), and the helpers the engine and the merge share."""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..errors import VaultError
from ..git.journal import Journal, TreeChange
from ..git.shallow import shallow_note
from ..ops.maintenance import designated_machine, machine_id, may_maintain
from ..store.layout import write_atomic
from ..vault import Vault
from .conflicts import FOLDER as CONFLICTS_DIR
from .conflicts import ConflictFolder
from .install import installed

RECORD_FILE = "last-sync.json"


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


def counts(vault: Vault, changes: dict[str, TreeChange]) -> dict[str, dict[str, int]]:
    counts = {kind: {"added": 0, "changed": 0, "deleted": 0} for kind in ("memories", "relations")}
    for path, change in changes.items():
        what = vault.layout.classify(vault_rel_of(vault.journal, path) or "")
        if what is None or what[0] == "meta":
            continue
        key = "added" if change.old is None else "deleted" if change.new is None else "changed"
        counts["memories" if what[0] == "memory" else "relations"][key] += 1
    return counts


def vault_rel_of(journal: Journal, path: str) -> str | None:
    """A repository path as a vault-relative path, or None outside the vault."""
    root = journal.relpath(journal.root)
    if root == ".":
        return path
    return path[len(root) + 1:] if path.startswith(root + "/") else None


# -- the record ------------------------------------------------------------------------------------
def record_path(vault: Vault) -> Path:
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


def save_record(vault: Vault, report: SyncReport) -> None:
    with contextlib.suppress(OSError):
        write_atomic(record_path(vault),
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
        "branch": journal.remote.current_branch(),
        "remote": None, "remote_branch": None, "ahead": None, "behind": None,
        "last_sync": last_sync(vault),
        "shallow": shallow_note(journal.common_dir),
    }
    branch = info["branch"]
    if branch:
        with contextlib.suppress(VaultError):
            remote, rbranch = pick_remote(journal, branch, None)
            info["remote"], info["remote_branch"] = remote, rbranch
            tracking = journal.history.rev_parse(f"refs/remotes/{remote}/{rbranch}")
            head = journal.head()
            if tracking and head:
                info["ahead"] = journal.history.count_commits(head, tracking)
                info["behind"] = journal.history.count_commits(tracking, head)
    return info



def reload_after(vault: Vault, changed: list[str], report: SyncReport | None = None) -> None:
    rels = [r for r in (vault_rel_of(vault.journal, p) for p in changed) if r is not None]
    vault.catch_up()
    if report is not None:  # what came in and cannot be loaded: reported, never followed
        paths = {vault.root / r for r in rels}
        report.problems = [{"path": str(p.path), "reason": p.reason}
                           for p in vault.problems if p.path in paths]
        report.problems += [
            {"path": str(vault.root / r), "reason": "not a record's file name (ignored)"}
            for r in rels if r.split("/", 1)[0] in ("memories", "relations")
            and vault.layout.classify(r) is None and os.path.lexists(vault.root / r)]


def conflicts_dir(vault: Vault) -> Path:
    return vault.root / CONFLICTS_DIR


def clear_conflicts(vault: Vault, keep: list[str]) -> None:
    """Remove conflict files that are no longer waiting (``keep``: vault paths still waiting);
    never through a link (:meth:`ConflictFolder.clear`)."""
    ConflictFolder(vault.root).clear(keep)


def pick_remote(journal: Journal, branch: str, remote: str | None) -> tuple[str, str]:
    remotes = journal.remote.remotes()
    upstream = journal.remote.upstream(branch)
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
