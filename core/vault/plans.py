"""Committing a :class:`~core.vault.reports.Plan` (the change set of a multi-file operation, and
its preview) as ONE commit through the write path, and refusing a plan built from an older HEAD
that a later commit would be written over by. :meth:`core.vault.api.Vault.apply` builds or takes
the plan under the lock and hands it here."""

from __future__ import annotations

from pathlib import Path

from ..errors import VaultError
from ..model.relation_rule import is_lineage
from ..store.layout import META_FILE, Layout, check_folder, check_id
from ..store.shards import LAYOUT_KEY
from .reports import Plan, StalePlanError
from .state import VaultState
from .writing import WritePath


class PlanCommit:
    """Commits plans on the vault whose cache is ``state``, through ``writes``."""

    def __init__(self, state: VaultState, writes: WritePath) -> None:
        self.state = state
        self.writes = writes

    def commit(self, plan: Plan) -> Plan:
        """Write ``plan`` as one commit (the lock is held, the cache up to date and the plan's
        checks passed) and return it with its ``commit`` filled in and the records as written
        (a redacted record under the ``redact`` secrets policy)."""
        state, writes = self.state, self.writes
        layout = state.layout
        for m in plan.put_memories:
            check_id(m.id)
        for r in plan.put_relations:
            check_id(r.id, "relation")
        files: dict[Path, bytes | None] = {}
        if plan.meta:
            files.update(writes.meta_write(**plan.meta))
        files.update({layout.memory_path(i): None for i in plan.drop_memories})
        files.update({layout.relation_path(i): None for i in plan.drop_relations})
        # a plan that changes the layout (an undo of `migrate-layout`) writes in the new one
        files.update(writes.memory_writes(plan.put_memories, plan.meta.get(LAYOUT_KEY)))
        files.update({layout.relation_path(r.id): layout.encode(r) for r in plan.put_relations})
        files.update({self._plain_file(rel): data for rel, data in plan.put_files.items()})
        plan.drop_relations += writes.drop_relations_of_gone(files, plan.drop_memories)
        plan.commit = writes.commit(
            plan.message, files, memories=plan.put_memories, relations=plan.put_relations,
            dropped_memories=plan.drop_memories, dropped_relations=plan.drop_relations)
        memories, relations = state.store.memories, state.store.relations
        plan.put_memories = [memories[m.id] if m.id in memories else m for m in plan.put_memories]
        plan.put_relations = [relations[r.id] if r.id in relations else r
                              for r in plan.put_relations]
        return plan

    def check_fresh(self, plan: Plan) -> None:
        """Refuse a plan built from an older HEAD that a later commit would be written over by
        (see :meth:`core.vault.api.Vault.apply`). The lock is held and the cache is up to
        date."""
        state = self.state
        if plan.base is None or plan.base == state.head:
            return
        changed = set(state.journal.history.changed_between(plan.base, state.head))
        mine = {p.relative_to(state.root).as_posix() for p in plan.record_paths(state.layout)}
        clash = sorted(changed & mine)
        removed = set(plan.drop_memories)
        for rel in changed - mine:
            what = state.layout.classify(rel)
            relation = state.store.relations.get(what[1]) \
                if what and what[0] == "relation" else None
            if relation is not None and not is_lineage(relation) and \
                    {relation.from_memory_id, relation.to_memory_id} & removed:
                clash.append(rel)
        if clash:
            names = ", ".join(_record_name(state.layout, rel) for rel in clash[:5])
            more = f" and {len(clash) - 5} more" if len(clash) > 5 else ""
            raise StalePlanError(
                f"refused: the vault changed since this was planned ({names}{more} changed "
                f"after {plan.base[:8]}); nothing was written. Plan it again to see the "
                "current state")

    def _plain_file(self, rel: str) -> Path:
        """The path of a :attr:`Plan.put_files` entry: inside the vault, and not a record,
        ``.meta.json``, a record folder or a git path (refused with VaultError)."""
        layout, root = self.state.layout, self.state.root
        parts = rel.split("/")
        if (not rel or rel.startswith("/") or "\\" in rel or "\0" in rel
                or any(p in ("", ".", "..") for p in parts)
                or parts[0] in (".git", layout.memories_dir.name, layout.relations_dir.name)
                or layout.classify(rel) is not None):
            raise VaultError(f"refused: {rel!r} cannot be written as a plain vault file")
        for depth in range(1, len(parts)):  # never write through a folder that is a link
            check_folder(root.joinpath(*parts[:depth]))
        return root.joinpath(*parts)


def _record_name(layout: Layout, rel: str) -> str:
    what = layout.classify(rel)
    if what is None:
        return rel
    kind, record_id = what
    return META_FILE if kind == "meta" else f"{kind} {record_id[:8]}"
