"""What the app's service hands back to the screens: the result of an operation (:class:`Change`),
history, and the previews of delete, split and consolidate (a split or merge preview holds the
plan that is committed)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from core import HistoryEntry, Memory, Relation, Vault
from core.ops.maintenance import designated_machine, machine_id, may_maintain
from core.vault import Plan, first_words

from .view import Row, VaultView

if TYPE_CHECKING:  # core's wizards are imported on first use, not on the app's first paint
    from core.ops.consolidate import ConsolidationPreview
    from core.ops.split import SuggestedPart


@dataclass
class Change:
    """What an operation did, for the UI."""

    view: VaultView
    ids: list[str]  # memories it created, changed or removed
    title: str  # the operation ("archive", "delete"...)
    note: str  # one sentence for the notification
    focus: str | None = None  # where the cursor should go afterwards
    undoable: bool = False
    stay_key: str | None = None  # the tree row the cursor goes to instead (the app sets it)


@dataclass
class HistoryInfo:
    memory_id: str
    live: bool
    entries: list[HistoryEntry] = field(default_factory=list)


@dataclass
class DeletePreview:
    row: Row
    relations: list[tuple[Relation, str, Row | None]]  # (relation, other end's id, its row)
    #: its lineage relations, which stay (core.model.relation_rule); the same shape
    kept: list[tuple[Relation, str, Row | None]] = field(default_factory=list)


@dataclass(frozen=True)
class Repeat:
    """A memory a part of a split likely repeats (core.ops.split_repeats): its id, the
    similarity and its first words (safe on a terminal)."""

    memory_id: str
    similarity: float
    words: str


def repeats_of(found: list[tuple[Memory, float]]) -> list[Repeat]:
    return [Repeat(m.id, s, first_words(m.text, 60)) for m, s in found]


@dataclass
class SplitDraft:
    """Where the split wizard starts: the memory, core's suggested parts and what each of them
    likely repeats."""

    memory: Memory
    parts: list[SuggestedPart]
    repeats: list[list[Repeat]] = field(default_factory=list)


@dataclass
class SplitPreview:
    """What a split would do: core's plan (``plan_split``; nothing written), which is what
    :meth:`VaultService.split` commits, ids included."""

    original: Memory
    parts: list[Memory]
    relations: list[Relation]  # split_from, part -> original
    fate: str  # "archive" or "delete"
    dropped: list[Relation]  # the original's relations that go with it (fate "delete")
    message: str  # the commit message
    plan: Plan  # what split() commits, exactly
    repeats: list[list[Repeat]] = field(default_factory=list)  # per part: memories it repeats


@dataclass
class MergePreview:
    """What a consolidation would do (core's ``plan_consolidation``; nothing written): its
    plan is what :meth:`VaultService.consolidate` commits, the merged memory's id included."""

    plan: ConsolidationPreview
    fate: str  # "delete" or "archive"
    dropped: list[Relation]  # the sources' relations that go (fate "delete"; some move)
    message: str
    maintenance: str | None  # why consolidating would be refused on this machine


def describe(memory: Memory, words: int = 48) -> str:
    return f"{memory.id[:8]} {first_words(memory.text, words)}"


def maintenance_note(vault: Vault, operation: str = "gc") -> str | None:
    """Why gc (or consolidate) would be refused on this machine (a synced vault names one
    maintenance machine), or None."""
    meta = vault.meta
    if may_maintain(meta):
        return None
    doing = "applying it" if operation == "gc" else "consolidating"
    return (f"{operation} runs on this vault's maintenance machine "
            f"{designated_machine(meta)!r}; this machine is {machine_id()!r}, so "
            f"{doing} here will be refused.")
