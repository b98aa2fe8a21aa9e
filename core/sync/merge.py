"""One merge of a fetched commit into the vault's (``RecordMerge``): git's ``merge-tree``, then
what the driver never sees settled by the rules in :mod:`core.sync.engine`'s docstring."""

from __future__ import annotations

import contextlib
import hashlib
import json
from pathlib import Path
from typing import Any

from ..errors import InvalidIdError, VaultError
from ..git.journal import TreeChange
from ..model.records import Memory, Relation
from ..model.relation_rule import is_lineage, relations_of_gone
from ..textutil import neutralise_line
from ..vault import Vault
from .conflicts import ConflictFolder
from .purged import purged_on_either_side, purged_paths
from .merge_driver import LOG_ENV, conflict_text, has_conflict_markers, read_log
from .moves import follow_moves
from .report import (
    SyncReport,
    clear_conflicts,
    counts,
    last_sync,
    reload_after,
    vault_rel_of,
)

DRIVER_LOG_FILE = "merge-driver.log"

Entry = tuple[str, str]  # (mode, object id) of a file in a tree



class RecordMerge:
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
        """The record's repository path in the merged tree (a memory: in either layout, the
        vault's own when it is in neither)."""
        layout = self.vault.layout
        try:
            found = (layout.memory_paths(record_id) if kind == "memory"
                     else [layout.relation_path(record_id)])
        except InvalidIdError:  # an id a remote's record names: no file of the vault's
            return f"{kind}:{record_id}"
        paths = [self.journal.relpath(p) for p in found]
        return next((p for p in paths if p in self.view), paths[0])

    def classify(self, path: str) -> tuple[str, str] | None:
        rel = vault_rel_of(self.journal, path)
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
            data = json.loads(self.journal.objects.read_blob(entry[1]))
        except ValueError:
            return None
        return data if isinstance(data, dict) else None

    def drop_purged(self) -> None:
        """Never a record `memvault purge` removed, on either side (:mod:`core.sync.purged`)."""
        memories, relations = purged_on_either_side(self.vault, self.theirs)
        for path in purged_paths(memories, relations, list(self.view), self.classify,
                                 self.relations_in_view):
            self.set(path, None)

    def relations_in_view(self) -> dict[str, dict[str, Any]]:
        """Every relation of the merged tree (path -> record), read once."""
        if self._relations is None:
            paths = {p: e for p, e in self.view.items()
                     if (c := self.classify(p)) is not None and c[0] == "relation"}
            blobs = self.journal.objects.read_blobs(e[1] for e in paths.values())
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
        base = journal.history.merge_base(self.ours, self.theirs)
        if base is None and not self.allow_unrelated:
            raise VaultError(f"refused: this vault's history and {self.target}'s share no "
                             "commit (two vaults made separately); clone the remote instead, or "
                             "pass --allow-unrelated to merge them")
        log = journal.state_dir / DRIVER_LOG_FILE
        log.unlink(missing_ok=True)
        merged = journal.remote.merge_tree(self.ours, self.theirs, env={LOG_ENV: str(log)},
                                    allow_unrelated=base is None)
        self.decisions = read_log(log)  # what git's runs of the driver decided
        log.unlink(missing_ok=True)
        self.view = journal.objects.ls_tree(merged.tree, self.under)
        ours_changes = self.ours_changes = journal.objects.tree_changes(base, self.ours, self.under)
        theirs_changes = self.theirs_changes = journal.objects.tree_changes(base, self.theirs,
                                                                    self.under)
        for old_path in follow_moves(self.classify, ours_changes, theirs_changes):
            self.set(old_path, None)  # a memory moved into the other layout: one record
        waiting: list[dict[str, Any]] = []
        Settle = tuple[str, tuple[str, str], TreeChange, TreeChange]
        memory_md: list[Settle] = []
        relation_md: list[Settle] = []
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
                waiting.append({"path": path, "vault_path": vault_rel_of(journal, path),
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
            clear_conflicts(self.vault, keep=[w["vault_path"] for w in waiting
                                               if w.get("vault_path")])
            return self.ours
        for path, data in sorted(resolutions.items()):
            self.set(path, ("100644", journal.objects.write_blob(data)))
            report.resolved.append(path)
        for path, what, o, t in memory_md:
            self.settle_memory(path, what, o, t, base)
        for item in relation_md:
            self.settle_relation(*item)
        self.settle_dangling(ours_changes, theirs_changes)
        self.drop_purged()
        tree = journal.remote.build_tree(merged.tree, self.final)
        message = self.message()
        commit = journal.remote.commit_tree(tree, [self.ours, self.theirs], message)
        changes = journal.objects.tree_changes(self.ours, commit)
        changed = journal.remote.advance(self.ours, commit, message)
        reload_after(self.vault, changed, report)
        clear_conflicts(self.vault, keep=[])
        report.outcome = "merged"
        report.merge_commit = commit
        report.commits_in = journal.history.count_commits(self.theirs, self.ours)
        report.incoming = counts(self.vault, changes)
        return commit

    # -- driver failures ------------------------------------------------------------------------
    def waiting(self, path: str, reason: str, o: TreeChange, t: TreeChange) -> dict[str, Any]:
        rel = vault_rel_of(self.journal, path)
        return {"path": path, "vault_path": rel,
                "file": str(ConflictFolder(self.vault.root).file(rel)) if rel else None,
                "reason": reason, "ours": o.new[1] if o.new else None,
                "theirs": t.new[1] if t.new else None}

    def unmerged(self, path: str, what: tuple[str, str], o: TreeChange, t: TreeChange,
                 tree: str, without_driver: str | None = None) -> dict[str, Any]:
        """A file the driver could not merge: a person's resolution from an earlier sync, or
        the file with conflict markers written for a person."""
        decision: dict[str, Any] = next(
            (d for d in reversed(self.decisions) if d.get("path") == path), {})
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
            data = self.journal.objects.read_blob(blob[1]) if blob else b""
        folder.write(rel, data)
        item["written"] = _digest(data)
        return item

    def load_bytes(self, entry: Entry | None) -> bytes | None:
        return None if entry is None else self.journal.objects.read_blob(entry[1])

    # -- modify/delete --------------------------------------------------------------------------
    def settle_memory(self, path: str, what: tuple[str, str], o: TreeChange, t: TreeChange,
                      base: str | None) -> None:
        memory_id = what[1]
        deleted_ours = o.new is None
        deleter = self.ours if deleted_ours else self.theirs
        side = "here" if deleted_ours else self.target
        modified = t if deleted_ours else o
        # a lineage relation points at it (the one rule keeps those when a memory goes): it
        # was consumed into what the relation comes from
        provenance = [r for r in self.relations_in_view().values()
                      if is_lineage(r) and r.get("to_memory_id") == memory_id
                      and isinstance(r.get("from_memory_id"), str)]
        gc = any(s.startswith("gc:") for s in
                 self.journal.history.deleting_subjects(path, deleter, base))
        if provenance or gc:
            self.set(path, None)
            verb = {"split_from": "split"}.get(provenance[0]["relation_type"], "consolidated") \
                if provenance else ""
            how = (f"{verb} into "
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
                memory = Memory.model_validate_json(self.journal.objects.read_blob(entry[1]))
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
            self.set(path, (entry[0], self.journal.objects.write_blob(data)))
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
            heir = record.get("from_memory_id")
            if record.get("relation_type") == "consolidated_from" and \
                    record.get("to_memory_id") in gone and isinstance(heir, str):
                successors.setdefault(record["to_memory_id"], set()).add(heir)
        touched = {p for c in (ours_changes, theirs_changes) for p, ch in c.items()
                   if ch.new is not None}
        added = sorted((p, r) for p, r in self.relations_in_view().items() if p in touched)
        # the one rule (core.model.relation_rule): lineage relations outlive the memory
        going = {id(r) for r in relations_of_gone([r for _, r in added], gone).removed}
        for path, record in added:
            if id(record) not in going:
                continue
            ends = {"from_memory_id": record.get("from_memory_id"),
                    "to_memory_id": record.get("to_memory_id")}
            lost = {k: v for k, v in ends.items() if isinstance(v, str) and v in gone}
            what = self.classify(path)
            if what is None:  # (``added`` holds relations only)
                continue
            rid = what[1]
            moved: dict[str, Any] | None = dict(record)
            for key, old_id in lost.items():
                heirs = successors.get(old_id, set())
                if len(heirs) != 1 or moved is None:
                    moved = None
                    break
                moved[key] = next(iter(heirs))
            if moved is not None and moved["from_memory_id"] != moved["to_memory_id"]:
                try:
                    data = self.vault.layout.encode(Relation.model_validate(moved))
                except ValueError:
                    data = None
                if data is not None:
                    self.set(path, ("100644", self.journal.objects.write_blob(data)))
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


