"""The files of a sync merge waiting for a person (``WaitingFiles``): a vault file the merge
could not settle is written into ``sync-conflicts/`` with conflict markers, and read back as the
person's resolution once it is a valid record; a file a person edited is never overwritten."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from ..git.journal import TreeChange
from ..model.records import Memory, Relation
from ..store.layout import Layout
from ..vault import Vault
from .conflict_markers import conflict_text, has_conflict_markers
from .conflicts import ConflictFolder
from .merged_tree import MergedTree
from .report import last_sync, vault_rel_of


class WaitingFiles:
    """The items a merge leaves waiting, each a dict of the sync report's ``conflicts``; one
    that a person resolved carries its ``resolution`` (the record's bytes to commit)."""

    def __init__(self, vault: Vault, tree: MergedTree, decisions: list[dict[str, Any]]):
        self.vault, self.journal, self.tree = vault, vault.journal, tree
        self.decisions = decisions  # what git's runs of the driver decided, in order

    def waiting(self, path: str, reason: str, o: TreeChange, t: TreeChange) -> dict[str, Any]:
        rel = vault_rel_of(self.journal, path)
        return {"path": path, "vault_path": rel,
                "file": str(ConflictFolder(self.vault.root).file(rel)) if rel else None,
                "reason": reason, "ours": o.new[1] if o.new else None,
                "theirs": t.new[1] if t.new else None}

    def unmerged(self, path: str, what: tuple[str, str], o: TreeChange, t: TreeChange,
                 without_driver: str | None = None) -> dict[str, Any]:
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
        tree = self.tree
        if without_driver:  # both sides between markers, never git's own merge of them
            data = conflict_text(tree.load_bytes(o.old), tree.load_bytes(o.new) or b"",
                                 tree.load_bytes(t.new) or b"", path, reason)
        else:
            blob = tree.view.get(path)
            data = self.journal.objects.read_blob(blob[1]) if blob else b""
        folder.write(rel, data)
        item["written"] = _digest(data)
        return item


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
    if kind == "memory":
        return Layout.encode(Memory.model_validate_json(data))
    if kind == "relation":
        return Layout.encode(Relation.model_validate_json(data))
    return Layout.encode(json.loads(data))
