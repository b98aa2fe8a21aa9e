"""Editing a memory a person saw: the fields they changed (a form, a file from ``$EDITOR``: see
:mod:`core.io.edit_text`) become ONE ``update:`` commit through ``Vault.update``; nothing changed
writes nothing; a field another writer changed since the person started is never written over
(:class:`EditConflict`, nothing written)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import VaultError
from ..io.edit_text import EditFields, changes
from ..model.records import Memory
from ..vault import Vault

#: ``changes`` keys -> the field names a person sees
_SHOWN = {"meta": "tags", "content": "content", "gist": "gist", "entities": "entities",
          "strength": "strength"}


class EditConflict(VaultError):
    """A field the person changed was changed by another writer since they started editing."""


@dataclass
class EditResult:
    memory: Memory  # as it is now (unchanged when nothing was written)
    changed: list[str] = field(default_factory=list)  # the fields written (tags, content...)
    commit: str | None = None  # None: nothing written

    @property
    def written(self) -> bool:
        return self.commit is not None


def _value(memory: Memory, key: str) -> Any:
    return memory.meta.tags if key == "meta" else getattr(memory, key)


def apply_edit(vault: Vault, key: str, base: Memory, fields: EditFields) -> EditResult:
    """Write what ``fields`` change in ``base`` (the version the person started from) to the
    memory ``key``, as one commit; an unchanged edit writes nothing. Refused (EditConflict)
    when another commit changed one of those very fields since ``base``; other fields changed
    since are kept as they are now."""
    with vault.transaction():
        current = vault.get(key)
        wanted = changes(base, fields)
        if not wanted:
            return EditResult(current)
        clashes = [k for k in wanted if _value(current, k) != _value(base, k)]
        if current.content != base.content and "gist" in wanted:
            clashes.append("content")
        if clashes:
            names = ", ".join(sorted({_SHOWN[k] for k in clashes}))
            raise EditConflict(f"refused: {current.id[:8]} changed since you started editing it "
                               f"({names}: another commit wrote it); nothing was written. Edit "
                               "it again from its current version.")
        if "meta" in wanted:  # the tags on top of the meta as it is now (source, extra...)
            wanted["meta"] = {**current.meta.model_dump(), "tags": wanted["meta"]["tags"]}
        head = vault.head
        memory = vault.update(current.id, **wanted)
        return EditResult(memory, sorted({_SHOWN[k] for k in wanted}),
                          vault.head if vault.head != head else None)
