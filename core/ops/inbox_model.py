"""The review inbox's records: an entry, the reports of accept and reject, and the trailer that
tells an assistant's commit (see :mod:`core.ops.inbox`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ..errors import VaultError
from ..git.entries import VIA_TRAILER, trailer_of
from .inbox_diff import FieldChange, short


class InboxRefusedError(VaultError):
    """A reject that would discard a person's later change: nothing was written."""


@dataclass(frozen=True)
class RelationChange:
    relation_id: str
    operation: str  # added, removed, changed
    label: str  # "1a2b3c4d -supports-> 5e6f7a8b"


@dataclass(frozen=True)
class LaterChange:
    """A person's own commit to the memory after the assistant's first unreviewed change."""

    commit: str
    subject: str
    timestamp: int
    fields: tuple[str, ...]


@dataclass
class InboxEntry:
    memory_id: str
    operation: str  # added, changed, archived, unarchived, promoted, superseded, removed, related
    preview: str  # the memory's first words (as now, else as the assistant left it)
    changes: list[FieldChange]
    relations: list[RelationChange]
    when: int  # time of the newest assistant commit in the entry
    clients: list[str]
    commits: list[str]  # the assistant's commits, oldest first
    subjects: list[str]
    later: list[LaterChange] = field(default_factory=list)
    exists: bool = True  # the memory exists now
    blocked: str | None = None  # why reject would be refused; None: reject can go ahead

    def summary(self, width: int = 40) -> str:
        """A one-line short diff: ``content: 'old…' -> 'new…'; tags: +a -b``."""
        parts = [short(c, width) for c in self.changes]
        parts += [f"relation {r.operation}: {r.label}" for r in self.relations]
        return "; ".join(parts)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["summary"] = self.summary()
        return data


@dataclass
class InboxView:
    head: str | None  # the commit the entries were computed at
    mark: str | None
    entries: list[InboxEntry]


@dataclass
class AcceptReport:
    mark: str | None  # where the mark is now
    accepted: list[str]  # memory ids accepted (all: every entry there was)
    all: bool

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class RejectReport:
    commit: str | None  # None: the memory was already back as before (nothing to write)
    memory_id: str
    reverted: list[str]  # the assistant's commits taken back
    relations: list[str]  # relations written back
    kept_touches: bool  # later use records kept
    kept_fields: list[str]  # fields a person changed later, kept as they are

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def via_of(message: str) -> str | None:
    """The ``Memvault-Via`` trailer of a commit message, or None (a person's commit)."""
    return trailer_of(message, VIA_TRAILER)
