"""The service's edits of one memory (the highlighted one): the form and ``$EDITOR`` (core's
:mod:`core.ops.edit`, one ``update:`` commit, nothing when unchanged), a new memory (with the
likely duplicates first: :mod:`core.ops.duplicates`), touch, promote, pin and unpin. Each is one
commit through ``Vault`` and comes back as a :class:`~tui.app.service_results.Change`; undo
takes it back. Small methods on purpose: bulk actions on the marked memories build on them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from core import Memory
from core.io.edit_files import new_edit_file, read_edit_file, remove_edit_file
from core.io.edit_text import EditFields, check_content, parse
from core.model.records import is_pinned
from core.ops.duplicates import indexed_duplicates
from core.ops.edit import apply_edit

from .open_vault import OpenVault
from .service_results import Change, describe
from .view import shown


@dataclass
class EditSession:
    """A memory being edited in ``$EDITOR``: the file, and the version it started from."""

    memory_id: str
    base: Memory
    path: Path


class EditService:
    """Edits of one memory, on the vault ``state`` holds (its lock, vault and views)."""

    def __init__(self, state: OpenVault) -> None:
        self.state = state

    def memory(self, key: str) -> Memory:
        """The memory as stored (control characters and all: for editing, never for showing)."""
        with self.state.lock:
            return self.state.vault_or_fail().get(key)

    # -- the form and $EDITOR -----------------------------------------------------------------
    def edit_fields(self, key: str, base: Memory, fields: EditFields) -> Change | None:
        """Write what the form changed (None: nothing changed, nothing written)."""
        with self.state.lock:
            result = apply_edit(self.state.vault_or_fail(), key, base, fields)
            if not result.written:
                return None
            m = result.memory
            return Change(self.state.next_view([m.id]), [m.id], "edit",
                          f"Edited {', '.join(result.changed)} of {describe(m)}", focus=m.id,
                          undoable=True)

    def start_edit(self, key: str) -> EditSession:
        """A private file holding the memory as text (core/io/edit_text.py), for ``$EDITOR``."""
        with self.state.lock:
            vault = self.state.vault_or_fail()
            memory = vault.get(key)
            return EditSession(memory.id, memory, new_edit_file(vault, memory))

    def finish_edit(self, session: EditSession) -> Change | None:
        """Read the edited file back and commit it (None: unchanged). The file is removed once
        its edit is committed or unchanged; when it does not parse (EditTextError) or the edit
        is refused, it stays where it is, with the person's text."""
        fields = parse(read_edit_file(session.path), session.base)
        change = self.edit_fields(session.memory_id, session.base, fields)
        remove_edit_file(session.path)
        return change

    def drop_edit(self, session: EditSession) -> None:
        remove_edit_file(session.path)

    # -- a new memory ------------------------------------------------------------------------
    def duplicates(self, content: str, tags: Sequence[str] = (),
                   entities: Sequence[str] = ()) -> list[tuple[Memory, float]]:
        """Memories a new one with this text would likely duplicate (shown, never merged)."""
        root, memories = self._memories_now()
        found = indexed_duplicates(root, memories, content, tags, entities)
        return [(shown(m), s) for m, s in found]

    def _memories_now(self) -> tuple[Path, dict[str, Memory]]:
        """The vault's folder and a copy of its memories, taken under the lock; the checks run
        without it (the first one on a large vault builds the index: the app goes on)."""
        with self.state.lock:
            vault = self.state.vault_or_fail()
            return vault.root, dict(vault.memories.items())

    def duplicates_of_saved(self, ids: list[str]) -> dict[str, list[tuple[str, float]]]:
        """For each of these saved memories that likely duplicates others: their ids and
        similarities, most similar first (the review inbox's note)."""
        out: dict[str, list[tuple[str, float]]] = {}
        root, memories = self._memories_now()
        for memory_id in ids:
            memory = memories.get(memory_id)
            if memory is None:
                continue
            found = indexed_duplicates(root, memories, memory.content, memory.meta.tags,
                                       memory.entities, exclude={memory_id})
            if found:
                out[memory_id] = [(m.id, s) for m, s in found]
        return out

    def add(self, content: str, tags: Sequence[str] = (), entities: Sequence[str] = (), *,
            secrets: str | None = None) -> Change:
        """Add a memory (its gist made as ``memvault add`` makes it), one commit. ``secrets``:
        the secrets policy for this add only (``redact`` or ``allow``; None: the vault's), as
        the CLI's ``--allow-secret`` is for one command."""
        check_content(content)
        with self.state.lock:
            vault = self.state.vault_or_fail().acting_for(secrets=secrets)
            m = vault.add(content, tags=list(tags), entities=list(entities))
            return Change(self.state.next_view([m.id]), [m.id], "add", f"Added {describe(m)}",
                          focus=m.id, undoable=True)

    # -- pin (touch and promote of many: service_bulk.py) ----------------------------------
    def toggle_pin(self, key: str) -> Change:
        """Pin the memory (gc never takes it), or unpin a pinned one."""
        with self.state.lock:
            vault = self.state.vault_or_fail()
            pinned = is_pinned(vault.get(key))
            [m] = vault.unpin(key) if pinned else vault.pin(key)
            verb = "Unpinned" if pinned else "Pinned (gc keeps it)"
            return Change(self.state.next_view([m.id]), [m.id], "unpin" if pinned else "pin",
                          f"{verb} {describe(m)}", focus=m.id, undoable=True)
