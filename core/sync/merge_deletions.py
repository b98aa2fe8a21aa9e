"""A sync merge's deletions (``DeletionRules``): a record changed on one side and deleted on
the other, and a relation left pointing at a memory the other side deleted, settled by the
rules in ``docs/sync.md``."""

from __future__ import annotations

from typing import Any

from ..git.journal import TreeChange
from ..model.records import Memory, Relation
from ..model.relation_rule import is_lineage, relations_of_gone
from ..vault import Vault
from .merged_tree import MergedTree, MergeSides
from .report import SyncReport


class DeletionRules:
    """Settles deletions into ``tree`` and says what it did in ``report``."""

    def __init__(self, vault: Vault, tree: MergedTree, report: SyncReport, sides: MergeSides):
        self.vault, self.journal, self.tree = vault, vault.journal, tree
        self.report, self.sides = report, sides

    def settle_memory(self, path: str, what: tuple[str, str], o: TreeChange,
                      t: TreeChange) -> None:
        """A memory deleted on one side and changed on the other: the deletion stands when
        the memory was consumed (a lineage relation points at it) or collected by gc, else the
        changed memory is kept."""
        tree, sides = self.tree, self.sides
        memory_id = what[1]
        deleted_ours = o.new is None
        deleter = sides.ours if deleted_ours else sides.theirs
        side = "here" if deleted_ours else sides.target
        modified = t if deleted_ours else o
        # a lineage relation points at it (the one rule keeps those when a memory goes): it
        # was consumed into what the relation comes from
        provenance = [r for r in tree.relations().values()
                      if is_lineage(r) and r.get("to_memory_id") == memory_id
                      and isinstance(r.get("from_memory_id"), str)]
        gc = any(s.startswith("gc:") for s in
                 self.journal.history.deleting_subjects(path, deleter, sides.base))
        if provenance or gc:
            tree.set(path, None)
            verb = {"split_from": "split"}.get(provenance[0]["relation_type"], "consolidated") \
                if provenance else ""
            how = (f"{verb} into "
                   f"{', '.join(sorted({r['from_memory_id'][:8] for r in provenance}))}"
                   if provenance else "gc")
            carried = self.carry(modified, provenance)
            self.report.accepted_deletions.append({
                "id": memory_id, "deleted": side, "reason": how,
                "carried_to": carried,
                "note": f"its last version is in history (memvault restore {memory_id[:8]})"})
            return
        tree.set(path, modified.new)
        restored = self.restore_relations(memory_id, deleted_ours)
        self.report.kept.append({
            "id": memory_id, "deleted": side, "relations_restored": restored,
            "reason": "deleted without a consolidation, split or gc, and changed on the other "
                      "side: the changed memory is kept"})

    def carry(self, modified: TreeChange, provenance: list[dict[str, Any]]) -> list[str]:
        """Carry the reinforcement the deleted memory got on the other side (later last_used,
        the increase of use_count and review_count) into the memories made from it."""
        tree = self.tree
        new, old = tree.load(modified.new), tree.load(modified.old)
        if new is None:
            return []
        carried = []
        for successor in sorted({r["from_memory_id"] for r in provenance}):
            path = tree.path_of("memory", successor)
            entry = tree.view.get(path)
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
            tree.set(path, (entry[0], self.journal.objects.write_blob(data)))
            carried.append(successor)
        return carried

    def restore_relations(self, memory_id: str, deleted_ours: bool) -> int:
        """The relations of a kept memory that its deletion took along (deleted on the same
        side, unchanged on the other) come back when both ends are in the merged tree."""
        tree, sides = self.tree, self.sides
        deleting, other = ((sides.ours_changes, sides.theirs_changes) if deleted_ours
                           else (sides.theirs_changes, sides.ours_changes))
        restored = 0
        for path, change in sorted(deleting.items()):
            what = tree.classify(path)
            if not what or what[0] != "relation" or change.new is not None or path in other:
                continue
            entry = change.old
            record = tree.load(entry)
            if not record or memory_id not in (record.get("from_memory_id"),
                                               record.get("to_memory_id")):
                continue
            ends = [record.get("from_memory_id"), record.get("to_memory_id")]
            if all(isinstance(e, str) and tree.exists("memory", e) for e in ends):
                tree.set(path, entry)
                restored += 1
        return restored

    def settle_relation(self, path: str, what: tuple[str, str], o: TreeChange,
                        t: TreeChange) -> None:
        """A relation changed on one side and deleted on the other: kept when both its
        memories are in the merged tree."""
        tree = self.tree
        modified = t if o.new is None else o
        record = tree.load(modified.new) or {}
        ends = [record.get("from_memory_id"), record.get("to_memory_id")]
        keep = all(isinstance(e, str) and tree.exists("memory", e) for e in ends)
        tree.set(path, modified.new if keep else None)
        self.report.relations.append({
            "id": what[1], "action": "kept" if keep else "deleted",
            "reason": "changed on one side, deleted on the other: " + (
                "both its memories are there, kept" if keep else
                "one of its memories is gone, deleted")})

    def settle_dangling(self) -> None:
        """A relation added or changed on one side that points at a memory the other side
        deleted: re-pointed at the consolidated memory, else removed."""
        tree, sides = self.tree, self.sides
        both = (sides.ours_changes, sides.theirs_changes)
        gone: set[str] = set()
        for changes in both:
            for path, change in changes.items():
                what = tree.classify(path)
                if what and what[0] == "memory" and change.new is None and path not in tree.view:
                    gone.add(what[1])
        if not gone:
            return
        successors: dict[str, set[str]] = {}
        for record in tree.relations().values():
            heir = record.get("from_memory_id")
            if record.get("relation_type") == "consolidated_from" and \
                    record.get("to_memory_id") in gone and isinstance(heir, str):
                successors.setdefault(record["to_memory_id"], set()).add(heir)
        touched = {p for c in both for p, ch in c.items() if ch.new is not None}
        added = sorted((p, r) for p, r in tree.relations().items() if p in touched)
        # the one rule (core.model.relation_rule): lineage relations outlive the memory
        going = {id(r) for r in relations_of_gone([r for _, r in added], gone).removed}
        for path, record in added:
            if id(record) not in going:
                continue
            what = tree.classify(path)
            if what is None:  # (``added`` holds relations only)
                continue
            self._repoint_or_remove(path, what[1], record, gone, successors)

    def _repoint_or_remove(self, path: str, rid: str, record: dict[str, Any], gone: set[str],
                           successors: dict[str, set[str]]) -> None:
        ends = {"from_memory_id": record.get("from_memory_id"),
                "to_memory_id": record.get("to_memory_id")}
        lost = {k: v for k, v in ends.items() if isinstance(v, str) and v in gone}
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
                self.tree.set(path, ("100644", self.journal.objects.write_blob(data)))
                self.report.relations.append({
                    "id": rid, "action": "re-pointed",
                    "reason": "its memory was consolidated on the other side: now points "
                              "at the consolidated memory"})
                return
        self.tree.set(path, None)
        self.report.relations.append({
            "id": rid, "action": "deleted",
            "reason": "its memory was deleted on the other side"})
