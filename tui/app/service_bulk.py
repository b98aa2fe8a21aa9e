"""The bulk side of the service: every operation of the app on a LIST of memories (the marked
ones, or the highlighted one), each ONE commit through core (``Vault.archive`` / ``unarchive``,
``delete``, ``tag`` / ``untag``, ``promote``, ``touch``: each takes many ids), and taking back
several operations from the undo list (each its own revert, stopping at the first refusal)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from core import Memory, MemoryStatus, Relation, VaultError, relations_of_gone

from ..text import operation_label, plural
from .open_vault import OpenVault
from .service_results import Change, describe
from .view import Row


@dataclass
class BulkDeletePreview:
    """What deleting several memories takes with them (core's one rule, over all of them):
    the relations that go and the lineage ones that stay, each once."""

    rows: list[Row]
    relations: list[Relation] = field(default_factory=list)
    kept: list[Relation] = field(default_factory=list)


def _what(memories: list[Memory]) -> str:
    """``3f2a1b2c The first words…`` for one, ``3 memories (3f2a1b2c, …)`` for several."""
    if len(memories) == 1:
        return describe(memories[0])
    shown = ", ".join(m.id[:8] for m in memories[:4])
    more = ", …" if len(memories) > 4 else ""
    return f"{len(memories)} memories ({shown}{more})"


def _skipped(counts: dict[str, int]) -> str:
    parts = [f"{n} {why}" for why, n in counts.items() if n]
    return f" ({'; '.join(parts)}: left as they are)" if parts else ""


class BulkService:
    """Operations on many memories, on the vault ``state`` holds (its lock, vault and views).
    Every method takes a list of ids (one is fine)."""

    def __init__(self, state: OpenVault) -> None:
        self.state = state

    def _living(self, ids: Iterable[str]) -> list[Memory]:
        vault = self.state.vault_or_fail()
        found = [vault.get(i) for i in dict.fromkeys(ids)]
        if not found:
            raise VaultError("no memory marked or highlighted")
        return found

    def archive_many(self, ids: list[str]) -> Change:
        """Archive the memories; when every one is archived already, make them what they were
        before instead (``unarchive``: a promotion survives)."""
        with self.state.lock:
            vault = self.state.vault_or_fail()
            memories = self._living(ids)
            archived = [m for m in memories if m.status == MemoryStatus.ARCHIVED]
            if len(archived) == len(memories):
                changed = vault.unarchive(*[m.id for m in memories])
                title, done, skipped = "unarchive", "Unarchived", {}
            else:
                changed = vault.archive(*[m.id for m in memories if m not in archived])
                title, done = "archive", "Archived"
                skipped = {"already archived": len(archived)}
            return self._changed(changed, title, f"{done} {_what(changed)}{_skipped(skipped)}")

    def promote_many(self, ids: list[str]) -> Change:
        """Promote the active ones; promoted and archived ones are left as they are (said)."""
        with self.state.lock:
            vault = self.state.vault_or_fail()
            memories = self._living(ids)
            active = [m.id for m in memories if m.status == MemoryStatus.ACTIVE]
            counts: dict[str, int] = {}
            for m in memories:
                if m.status != MemoryStatus.ACTIVE:
                    why = ("already " if m.status == MemoryStatus.PROMOTED else "") + \
                        m.status.value
                    counts[why] = counts.get(why, 0) + 1
            if not active:
                why = "; ".join(f"{n} {w}" for w, n in counts.items())
                raise VaultError(f"refused: nothing to promote ({why}; only an active memory "
                                 "can be promoted)")
            changed = vault.promote(*active)
            return self._changed(changed, "promote",
                                 f"Promoted {_what(changed)}{_skipped(counts)}")

    def touch_many(self, ids: list[str]) -> Change:
        """Reinforce them (use count + 1, last used now). A touch is a use record: undo passes
        over it (core.ops.revert), so the change is not offered for undo."""
        with self.state.lock:
            vault = self.state.vault_or_fail()
            changed = vault.touch(*[m.id for m in self._living(ids)])
            change = self._changed(changed, "touch", f"Touched {_what(changed)}")
            change.undoable = False
            return change

    def tag_many(self, ids: list[str], tag: str) -> Change:
        return self._retag(ids, tag, "tag")

    def untag_many(self, ids: list[str], tag: str) -> Change:
        return self._retag(ids, tag, "untag")

    def _retag(self, ids: list[str], tag: str, verb: str) -> Change:
        with self.state.lock:
            vault = self.state.vault_or_fail()
            memories = self._living(ids)
            changed = getattr(vault, verb)(*[m.id for m in memories], tags=[tag])
            tag = tag.strip()  # as core took it
            sign = "+" if verb == "tag" else "-"
            rest = len(memories) - len(changed)
            why = "had it already" if verb == "tag" else "did not have it"
            note = f"{verb.capitalize()}ged {_what(changed)} {sign}{tag}"
            return self._changed(changed, verb, note + _skipped({why: rest}))

    def delete_many_preview(self, ids: list[str]) -> BulkDeletePreview:
        """What deleting them takes along (read from the current view, no lock)."""
        view = self.state.view
        rows = [view.rows[view.resolve(i)] for i in dict.fromkeys(ids)]
        gone = {r.memory.id for r in rows}
        touching = {rel.id: rel for i in gone for rel in view.relations_of(i)}
        fate = relations_of_gone(touching.values(), gone)
        return BulkDeletePreview(rows, list(fate.removed), list(fate.kept))

    def delete_many(self, ids: list[str]) -> Change:
        with self.state.lock:
            vault = self.state.vault_or_fail()
            report = vault.delete(*[m.id for m in self._living(ids)])
            n = len(report.relations)
            extra = f" and {plural(n, 'relation')}" if n else ""
            gone = [m.id for m in report.memories]
            ends = [e for r in report.relations for e in (r.from_memory_id, r.to_memory_id)]
            return Change(self.state.next_view(gone + ends), gone, "delete",
                          f"Deleted {_what(report.memories)}{extra}", undoable=True)

    def _changed(self, changed: list[Memory], title: str, note: str) -> Change:
        ids = [m.id for m in changed]
        # one memory: the cursor follows it (as archive always did); several: it stays put
        return Change(self.state.next_view(ids), ids, title, note,
                      focus=ids[0] if len(ids) == 1 else None, undoable=True)

    # -- the undo list ---------------------------------------------------------------------
    def undo_through(self, commits: list[str]) -> Change:
        """Undo the operations ``commits`` (what the undo list showed, newest first, down to
        the one chosen), each as its own revert of exactly that commit, newest first; stop at
        the first refusal and say why (what was undone before it stays undone)."""
        if not commits:
            raise VaultError("nothing chosen to undo")
        done: list[str] = []
        ids: list[str] = []
        refused = ""
        with self.state.lock:
            vault = self.state.vault_or_fail()
            for commit in commits:
                from core.ops.revert import revert  # (imported on first use, not at first paint)
                try:  # (``undo: <its subject>`` with the revert trailer, as Vault.undo writes)
                    report = revert(vault, commit)
                except VaultError as exc:
                    refused = str(exc)
                    break
                done.append(operation_label(report.subject))
                ids.extend(report.memories)
            if not done:
                raise VaultError(refused or "nothing was undone")
            if len(done) == 1:
                note = f"Undid {done[0]}"
            else:
                note = f"Undid {len(done)} operations: " + "; ".join(done)
            if refused:
                note += f". Stopped at the next one, {len(done)} of {len(commits)} undone: " \
                        f"{refused}"
            ids = list(dict.fromkeys(ids))
            focus = next((i for i in ids if vault.find(i)), None)
            return Change(self.state.next_view(ids), ids, "undo", note, focus=focus)

