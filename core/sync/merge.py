"""One merge of a fetched commit into the vault's (``RecordMerge``): git's ``merge-tree``, then
what the driver never sees settled by the rules in ``docs/sync.md``
(deletions: :mod:`core.sync.merge_deletions`; files waiting for a person:
:mod:`core.sync.waiting_files`), then one merge commit."""

from __future__ import annotations

from typing import Any

from ..errors import VaultError
from ..git.journal import TreeChange
from ..textutil import neutralise_line
from ..vault import Vault
from .merge_deletions import DeletionRules
from .merge_driver import LOG_ENV, read_log
from .merged_tree import MergedTree, MergeSides
from .moves import follow_moves
from .purged import purged_on_either_side, purged_paths
from .report import SyncReport, clear_conflicts, counts, reload_after, vault_rel_of
from .waiting_files import WaitingFiles

DRIVER_LOG_FILE = "merge-driver.log"


class RecordMerge:
    """One merge of ``theirs`` into ``ours`` (see the module docstring)."""

    def __init__(self, vault: Vault, report: SyncReport, ours: str, theirs: str, target: str,
                 allow_unrelated: bool):
        self.vault, self.report, self.journal = vault, report, vault.journal
        self.ours, self.theirs, self.target = ours, theirs, target
        self.allow_unrelated = allow_unrelated

    def run(self) -> str:
        """Merge, and commit the merge when nothing waits for a person; the commit made (or
        ``ours`` when files wait), what happened in the report."""
        journal, report = self.journal, self.report
        root = journal.relpath(journal.root)
        under = None if root == "." else root
        base = journal.history.merge_base(self.ours, self.theirs)
        if base is None and not self.allow_unrelated:
            raise VaultError(f"refused: this vault's history and {self.target}'s share no "
                             "commit (two vaults made separately); clone the remote instead, or "
                             "pass --allow-unrelated to merge them")
        log = journal.state_dir / DRIVER_LOG_FILE
        log.unlink(missing_ok=True)
        merged = journal.remote.merge_tree(self.ours, self.theirs, env={LOG_ENV: str(log)},
                                    allow_unrelated=base is None)
        decisions = read_log(log)  # what git's runs of the driver decided
        log.unlink(missing_ok=True)
        tree = MergedTree(self.vault, journal.objects.ls_tree(merged.tree, under))
        ours_changes = journal.objects.tree_changes(base, self.ours, under)
        theirs_changes = journal.objects.tree_changes(base, self.theirs, under)
        sides = MergeSides(self.ours, self.theirs, self.target, base, ours_changes,
                           theirs_changes)
        files = WaitingFiles(self.vault, tree, decisions)
        for old_path in follow_moves(tree.classify, ours_changes, theirs_changes):
            tree.set(old_path, None)  # a memory moved into the other layout: one record
        waiting: list[dict[str, Any]] = []
        Settle = tuple[str, tuple[str, str], TreeChange, TreeChange]
        memory_md: list[Settle] = []
        relation_md: list[Settle] = []
        driven: set[str] = set()  # files changed on both sides: git ran the driver on them
        for path in sorted(ours_changes.keys() | theirs_changes.keys()):
            what = tree.classify(path)
            if what is None:
                continue  # not a vault record: git's merge stands
            o, t = ours_changes.get(path), theirs_changes.get(path)
            if o is None or t is None:
                change = o or t
                assert change is not None
                tree.set(path, change.new)
            elif o.new == t.new:
                tree.set(path, o.new)
            elif o.new is None or t.new is None:
                if what[0] == "meta":
                    tree.set(path, (o.new or t.new))  # .meta.json deleted: keep the other
                else:
                    (memory_md if what[0] == "memory" else relation_md).append((path, what, o, t))
            elif path in merged.conflicts:
                driven.add(path)
                waiting.append(files.unmerged(path, what, o, t))
            elif path in tree.view and not any(d.get("path") == path for d in decisions):
                # changed on both sides and merged, but not by our driver (its log says nothing):
                # never committed unseen
                driven.add(path)
                waiting.append(files.unmerged(
                    path, what, o, t,
                    without_driver="git merged it without the memory-latest driver (is this "
                                   "clone's set-up changed? `memvault sync install`)"))
            elif path in tree.view:
                driven.add(path)
                tree.set(path, tree.view[path])  # the driver's result
            else:
                waiting.append(files.waiting(path, f"git left no result for {path}", o, t))
        for path in sorted(merged.conflicts):
            if tree.classify(path) is None:
                waiting.append({"path": path, "vault_path": vault_rel_of(journal, path),
                                "file": str(journal.worktree / path),
                                "reason": "a conflict outside the vault's records: merge "
                                          f"{self.target} by hand (git merge {self.target})"})
        # (git may also run the driver on a pair it took for a rename; sync settles those)
        report.driver.extend(d for d in decisions if d.get("path") in driven)
        resolutions = {w["path"]: w.pop("resolution") for w in waiting if "resolution" in w}
        if len(resolutions) < len(waiting):
            # Nothing is committed; files a person already resolved wait with the others.
            report.outcome = "conflict"
            report.conflicts = [{**w, "resolved": w["path"] in resolutions} for w in waiting]
            clear_conflicts(self.vault, keep=[w["vault_path"] for w in waiting
                                               if w.get("vault_path")])
            return self.ours
        for path, data in sorted(resolutions.items()):
            tree.set(path, ("100644", journal.objects.write_blob(data)))
            report.resolved.append(path)
        deletions = DeletionRules(self.vault, tree, report, sides)
        for item in memory_md:
            deletions.settle_memory(*item)
        for item in relation_md:
            deletions.settle_relation(*item)
        deletions.settle_dangling()
        self.drop_purged(tree)
        new_tree = journal.remote.build_tree(merged.tree, tree.final)
        message = self.message()
        commit = journal.remote.commit_tree(new_tree, [self.ours, self.theirs], message)
        changes = journal.objects.tree_changes(self.ours, commit)
        changed = journal.remote.advance(self.ours, commit, message)
        reload_after(self.vault, changed, report)
        clear_conflicts(self.vault, keep=[])
        report.outcome = "merged"
        report.merge_commit = commit
        report.commits_in = journal.history.count_commits(self.theirs, self.ours)
        report.incoming = counts(self.vault, changes)
        return commit

    def drop_purged(self, tree: MergedTree) -> None:
        """Never a record `memvault purge` removed, on either side (:mod:`core.sync.purged`)."""
        memories, relations = purged_on_either_side(self.vault, self.theirs)
        for path in purged_paths(memories, relations, list(tree.view), tree.classify,
                                 tree.relations):
            tree.set(path, None)

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
