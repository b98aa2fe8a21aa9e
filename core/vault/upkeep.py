"""Upkeep: gc (prune or archive what has faded), gists made anew or backfilled (the statistics,
which only read, are :mod:`.statistics`'s)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable

from ..model.records import (
    Memory,
    MemoryStatus,
    is_pinned,
    now_epoch,
)
from ..decay import scores_below
from ..textutil import make_gist
from .reports import GcReport, GistBackfill, op_message, relations_going_with
from .state import VaultState
from .writing import WritePath


class Upkeep:
    """Pruning, statistics and gists of the vault whose cache is ``state``, committed through
    ``writes``."""

    def __init__(self, state: VaultState, writes: WritePath) -> None:
        self.state = state
        self.writes = writes

    def gc(self, *, dry_run: bool = False, archive: bool = False,
           threshold: float | None = None, now: int | None = None,
           force: bool = False, keep: Iterable[str] = ()) -> GcReport:
        """Active memories scoring below the forget threshold: listed (dry run), or deleted with
        the relations that go with them (lineage relations stay: core.model.relation_rule), or
        archived, in ONE commit that also records ``last_gc_at``. Pinned memories
        (:func:`core.model.records.is_pinned`) are never candidates: the report lists those it
        kept out (``pinned_kept``). Refused (MaintenanceRefused)
        on a machine that is not the vault's designated maintenance machine
        (``core.ops.maintenance``), unless ``force``. ``keep``: ids a person chose to keep out
        of this gc (the app's preview); they stay as they are, listed in ``person_kept``."""
        limit = self.state.config.forget_threshold if threshold is None else threshold
        kept_ids = set(keep)
        at = now_epoch() if now is None else now

        def below() -> tuple[list[tuple[Memory, float]], list[tuple[Memory, float]]]:
            """(candidates, pinned ones kept out), lowest score first."""
            active = MemoryStatus.ACTIVE
            low = sorted(scores_below((m for m in self.state.store.memories.values()
                                       if m.status == active), limit, self.state.config, at),
                         key=lambda p: (p[1], p[0].id))
            return [p for p in low if not is_pinned(p[0])], [p for p in low if is_pinned(p[0])]

        def chosen(found: list[tuple[Memory, float]]) -> tuple[list[tuple[Memory, float]],
                                                               list[tuple[Memory, float]]]:
            """(what gc takes, what the person kept out)."""
            return ([p for p in found if p[0].id not in kept_ids],
                    [p for p in found if p[0].id in kept_ids])

        if dry_run:
            found, pinned = below()
            found, person = chosen(found)
            return GcReport(limit, found, applied=False, archived=archive, pinned_kept=pinned,
                            person_kept=person)
        with self.writes.transaction():
            from ..ops.maintenance import check_maintenance, machine_id

            check_maintenance(self.state.meta, "gc", force=force)
            found, pinned = below()
            found, person = chosen(found)
            report = GcReport(limit, found, applied=True, archived=archive, pinned_kept=pinned,
                              person_kept=person)
            if not found:
                return report
            ids = [m.id for m, _ in found]
            writes = self.writes.meta_write(last_gc_at=at, machine_id=machine_id())
            noun = "memory" if len(ids) == 1 else "memories"
            if archive:
                new = [m.model_copy(update={"status": MemoryStatus.ARCHIVED}) for m, _ in found]
                writes.update(self.writes.memory_writes(new))
                message = f"gc: archive {len(ids)} {noun} below {limit:g}"
                report.commit = self.writes.commit(message, writes, memories=new)
            else:
                fate = relations_going_with(self.state.store, ids)  # lineage ones stay
                rels = fate.removed
                writes.update({self.state.layout.memory_path(i): None for i in ids})
                writes.update({self.state.layout.relation_path(r.id): None for r in rels})
                message = f"gc: prune {len(ids)} {noun} below {limit:g}"
                report.relations_removed, report.relations_kept = rels, fate.kept
                report.commit = self.writes.commit(message, writes, dropped_memories=ids,
                                             dropped_relations=[r.id for r in rels])
        return report

    # -- gists ------------------------------------------------------------------------------
    def regenerate_gist(self, key: str, level: str = "moderate") -> Memory:
        """Make the memory's gist anew at ``level`` (``gist: <id8> ...``); None when the content
        is too short or no short enough gist exists."""
        from ..gist import check_level

        check_level(level)
        with self.writes.transaction():
            old = self.state.get(key)
            gist = make_gist(old.content, old.meta.tags, old.entities, level)
            new = old.model_copy(update={"gist": gist})
            self.writes.commit(op_message("gist", [new]) + f" ({level})",
                         self.writes.memory_writes([new]), memories=[new])
        return new

    def backfill_gists(
        self,
        level: str = "moderate",
        *,
        dry_run: bool = False,
        progress: Callable[[int, int], None] | None = None,
    ) -> GistBackfill:
        """Give every memory without a gist one, in ONE commit (``gist: backfill N ...``).
        ``progress(done, total)`` is called as gists are made. A dry run changes nothing."""
        from ..gist import check_level
        from ..model.tokens import estimate_tokens

        check_level(level)
        with contextlib.ExitStack() as stack:
            if not dry_run:
                stack.enter_context(self.writes.transaction())
            missing = sorted((m for m in self.state.store.memories.values() if m.gist is None),
                             key=lambda m: m.id)
            made: list[Memory] = []
            for done, memory in enumerate(missing, 1):
                gist = make_gist(memory.content, memory.meta.tags, memory.entities, level)
                if gist is not None:
                    made.append(memory.model_copy(update={"gist": gist}))
                if progress is not None:
                    progress(done, len(missing))
            report = GistBackfill(level, len(missing), made,
                                  sum(estimate_tokens(m.content) for m in made),
                                  sum(estimate_tokens(m.gist or "") for m in made))
            if made and not dry_run:
                noun = "memory" if len(made) == 1 else "memories"
                report.commit = self.writes.commit(
                    f"gist: backfill {len(made)} {noun} ({level})",
                    self.writes.memory_writes(made), memories=made)
        return report

