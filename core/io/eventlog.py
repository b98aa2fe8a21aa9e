"""The vault's git history as an append-only event log (``memvault log``).

Every commit that changed the vault is one :class:`Event`, oldest first: its time, commit,
author, operation (the commit message's leading verb: ``add``, ``split``, ``migrate``...), the
memory and relation ids it created, changed or deleted, and on request the record before and
after. Nothing is stored besides git's history: the log is derived from it, in one ``git log``
pass plus one long-running ``git cat-file --batch`` process for the records
(:meth:`core.git.reading.HistoryReader.commits_with_changes`,
:meth:`~core.git.blobs.ObjectStore.blob`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from ..vault import Vault


@dataclass
class Change:
    """One file an event changed."""

    kind: str  # "memory", "relation", "meta" or "file" (another committed file, e.g. a backup)
    id: str  # the record id; "" for .meta.json; the vault-relative path for a "file"
    action: str  # "created", "changed", "deleted" or "moved" (its file, into the other layout)
    before: Any = None  # the parsed JSON record (or its text when it is not JSON), with objects
    after: Any = None


@dataclass
class Event:
    commit: str
    parents: list[str]
    timestamp: int
    author: str
    operation: str
    message: str
    changes: list[Change] = field(default_factory=list)

    @property
    def time(self) -> str:
        """The commit time as ISO 8601 UTC."""
        return datetime.fromtimestamp(self.timestamp, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

    def ids(self, kind: str = "memory") -> list[str]:
        return [c.id for c in self.changes if c.kind == kind]

    def to_json(self, objects: bool = True) -> dict[str, Any]:
        """The event as one JSON object (what ``memvault log --jsonl`` prints a line of)."""
        changes = []
        for c in self.changes:
            item: dict[str, Any] = {"kind": c.kind, "id": c.id, "action": c.action}
            if objects and c.kind != "file":
                item["before"] = c.before
                item["after"] = c.after
            changes.append(item)
        return {
            "time": self.time,
            "timestamp": self.timestamp,
            "commit": self.commit,
            "parents": self.parents,
            "author": self.author,
            "operation": self.operation,
            "message": self.message,
            "memories": self.ids("memory"),
            "relations": self.ids("relation"),
            "changes": changes,
        }


_ACTIONS = {"A": "created", "M": "changed", "D": "deleted"}


def events(vault: Vault, since: str | None = None, *, objects: bool = False) -> Iterator[Event]:
    """Every change to the vault as an event, oldest first; ``since`` a revision (commit id,
    prefix, ``HEAD~3``...): only what came after it. With ``objects`` each change carries the
    record before and after (files other than records and ``.meta.json`` never do)."""
    journal, layout = vault.journal, vault.layout
    for commit in journal.history.commits_with_changes(since):
        event = Event(commit.commit, list(commit.parents), commit.timestamp, commit.author,
                      commit.operation, commit.message)
        seen: dict[tuple[str, str], Change] = {}
        for fc in commit.changes:
            what = layout.classify(fc.path)
            kind, record_id = what if what is not None else ("file", fc.path)
            change = Change(kind, record_id, _ACTIONS.get(fc.status, "changed"))
            if objects and kind != "file":
                change.before = _object(journal.objects.blob(fc.old_blob)) if fc.old_blob else None
                change.after = _object(journal.objects.blob(fc.new_blob)) if fc.new_blob else None
            first = seen.get((kind, record_id))
            if kind == "memory" and first is not None:  # its file moved to the other layout
                first.action = "moved" if {first.action, change.action} == {
                    "created", "deleted"} else "changed"
                first.before = first.before if first.before is not None else change.before
                first.after = first.after if first.after is not None else change.after
                continue
            seen[(kind, record_id)] = change
            event.changes.append(change)
        order = {"meta": 0, "memory": 1, "relation": 2, "file": 3}
        event.changes.sort(key=lambda c: (order.get(c.kind, 9), c.id))
        yield event


def _object(data: bytes) -> Any:
    try:
        return json.loads(data)
    except ValueError:
        return data.decode("utf-8", "replace")


__all__ = ["Change", "Event", "events"]
