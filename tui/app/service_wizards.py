"""The wizards' side of the service: split candidates and drafts, clusters, and the plans the
split and consolidate wizards show and then commit as they are (core's ``plan_split`` /
``plan_consolidation``, applied with ``apply_split`` / ``apply_consolidation``: the ids shown
are the ids committed; a plan the vault moved past is refused, nothing written)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from core import (
    Memory,
    MemoryStatus,
    Vault,
    VaultError,
)
from .open_vault import OpenVault
from .service_results import (
    Change,
    MergePreview,
    Repeat,
    SplitDraft,
    SplitPreview,
    describe,
    maintenance_note,
    repeats_of,
)


if TYPE_CHECKING:  # core's wizards are imported on first use, not on the app's first paint
    from core.ops.consolidate import Cluster
    from core.ops.split import SplitCandidate, SuggestedPart
    from core.ops.split_repeats import PartLabels


class WizardService:
    """Split and consolidate, on the vault ``state`` holds (its lock, vault and views)."""

    def __init__(self, state: OpenVault) -> None:
        self.state = state
        #: the last clusters found: ((HEAD, threshold), the vault, the clusters), reused while
        #: the vault is the same one at the same commit (every change to it is a commit)
        self.found: tuple[tuple[str, float], Vault, list[Cluster]] | None = None

    def split_candidates(self) -> list[SplitCandidate]:
        """Active memories that look composite, most reasons first (core's ranking)."""
        from core.ops.split import split_candidates
        with self.state.lock:
            return split_candidates(self.state.vault_or_fail())

    def split_draft(self, key: str) -> SplitDraft:
        """The memory to split and core's suggested parts. Refused (VaultError, core's words)
        when the memory cannot be split at all."""
        from core.ops.split import suggest_split
        with self.state.lock:
            vault = self.state.vault_or_fail()
            memory = vault.get(key)
            if memory.status != MemoryStatus.ACTIVE:
                # the same refusal plan_split gives, before any part is looked at
                raise VaultError(f"refused: {memory.id[:8]} is {memory.status.value}; only an "
                                 "active memory can be split")
            parts = suggest_split(memory)
        labels = [(p.content, p.tags, p.entities) for p in parts]
        return SplitDraft(memory, parts, self.repeats(memory.id, labels) if len(parts) > 1 else [])

    def repeats(self, memory_id: str, parts: Sequence[PartLabels]) -> list[list[Repeat]]:
        """For each part of a split of ``memory_id``: the memories it likely repeats (core's
        check, ``memvault add``'s, the original left out). The memories are taken under the
        lock, the check runs without it (a large vault's first builds the index); a check that
        fails names nothing: it is a hint."""
        import sqlite3

        with self.state.lock:
            vault = self.state.vault_or_fail()
            root, memories = vault.root, dict(vault.memories.items())
        try:
            from core.ops.split_repeats import repeated_memories
            found = repeated_memories(root, memories, parts, {memory_id})
        except (sqlite3.Error, OSError):
            return [[] for _ in parts]
        return [repeats_of(f) for f in found]

    def split_labels(self, memory: Memory, texts: list[str]) -> list[SuggestedPart]:
        """Tags and entities for parts of ``memory`` with these texts (core's rule, the one
        suggest_split uses; reads nothing from the vault)."""
        from core.ops.split import label_parts
        return label_parts(memory, texts)

    def plan_split(self, key: str, parts: list[str], tags: list[list[str]] | None = None,
                   entities: list[list[str]] | None = None,
                   original: str = "archive") -> SplitPreview:
        """Validate a split with core's rules (``plan_split``) and say what it would do, with
        the memories each part likely repeats; writes nothing. Raises VaultError with core's
        message."""
        with self.state.lock:
            vault = self.state.vault_or_fail()
            memory = vault.get(key)
            from core.ops.split import plan_split
            change = plan_split(vault, memory.id, parts, tags, entities,
                                original=original, now=self.state.view.now)  # type: ignore[arg-type]
            n = len(change.put_relations)
            dropped = [vault.relations[r] for r in change.drop_relations if r in vault.relations]
        made = change.put_memories[:n]
        repeats = self.repeats(memory.id, [(m.content, m.meta.tags, m.entities) for m in made])
        return SplitPreview(memory, made, list(change.put_relations), original, dropped,
                            change.message, change, repeats)

    def split(self, preview: SplitPreview) -> Change:
        """Commit the split the person saw (core's ``apply_split``: one commit, the ids shown);
        refused (StalePlanError, nothing written) if the memory changed since. The cursor goes
        to the first new memory."""
        with self.state.lock:
            vault = self.state.vault_or_fail()
            from core.ops.split import apply_split
            result = apply_split(vault, preview.plan)
            memory_id = result.original.id
            new_ids = [m.id for m in result.parts]
            ids = [memory_id, *new_ids]  # (the next view adds the other ends of relations)
            verb = "archived" if result.original_fate == "archive" else "deleted"
            return Change(self.state.next_view(ids), new_ids, "split",
                          f"Split {memory_id[:8]} into {len(new_ids)} memories "
                          f"({', '.join(i[:8] for i in new_ids)}); the original is {verb}",
                          focus=new_ids[0], undoable=True)

    def clusters(self, threshold: float | None = None) -> list[Cluster]:
        """Clusters of similar active memories, most cohesive first (core's find_clusters).

        The memories are taken under the lock, the clustering runs without it: on a large
        vault of look-alike memories it can take minutes, and the app must go on meanwhile.
        Found again only when the vault moved on (a new commit): ``M`` opened again, or the
        duplicates' grouping after it, lists the clusters at once (a new list each time)."""
        from core.ops.consolidate import DEFAULT_THRESHOLD, find_clusters
        at = DEFAULT_THRESHOLD if threshold is None else threshold
        with self.state.lock:
            vault = self.state.vault_or_fail()
            head = vault.journal.head()
            found = self.found
            if found is not None and head is not None and found[0] == (head, at) \
                    and found[1] is vault:
                return list(found[2])
            pool = [m for m in vault.memories.values() if m.status == MemoryStatus.ACTIVE]
        clusters = find_clusters(vault, threshold=at, memories=pool)
        if head is not None:
            self.found = ((head, at), vault, clusters)
        return list(clusters)

    def plan_consolidation(self, ids: list[str], content: str | None = None,
                           sources: str = "delete") -> MergePreview:
        """Validate a consolidation with core's rules and say what it would do; writes
        nothing. Raises VaultError with core's message."""
        with self.state.lock:
            vault = self.state.vault_or_fail()
            from core.ops.consolidate import plan_consolidation
            plan = plan_consolidation(vault, ids, content, sources,  # type: ignore[arg-type]
                                      now=self.state.view.now)
            # what the plan itself removes (core's one rule: lineage relations stay)
            dropped = [vault.relations[r] for r in (plan.plan.drop_relations if plan.plan else [])
                       if r in vault.relations]
            return MergePreview(plan, sources, dropped, plan.message,
                                maintenance_note(vault, "consolidate"))

    def consolidate(self, preview: MergePreview) -> Change:
        """Commit the merge the person saw (core's ``apply_consolidation``: one commit, the
        merged id shown); refused (StalePlanError, nothing written) if a source changed since.
        The cursor goes to the merged memory."""
        with self.state.lock:
            vault = self.state.vault_or_fail()
            from core.ops.consolidate import apply_consolidation
            result = apply_consolidation(vault, preview.plan)
            merged = result.merged.id
            source_ids = [m.id for m in result.sources]
            touched = [merged, *source_ids]  # (the next view adds the other ends of relations)
            verb = "archived" if preview.fate == "archive" else "deleted"
            return Change(self.state.next_view(touched), [merged, *source_ids], "consolidate",
                          f"Merged {len(source_ids)} memories into {describe(result.merged)}; "
                          f"the sources are {verb}", focus=merged, undoable=True)

