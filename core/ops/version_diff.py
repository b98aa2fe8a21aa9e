"""What changed in a memory between two of its versions, field by field: the text fields
(content, gist, context) as word diffs (:mod:`core.ops.word_diff`), the others as old and new
values (tags and entities as a list's words, numbers and times as they are stored).

Either side may be ``None`` (the memory did not exist at that version): every field of the
other side is then new (or gone)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model.records import Memory
from .word_diff import Piece, changed, word_diff

#: the fields compared, in the order they are shown; text fields get a word diff
TEXT_FIELDS = ("content", "gist", "context")
LIST_FIELDS = ("tags", "entities")
VALUE_FIELDS = ("status", "strength", "use_count", "last_used", "created_at", "source",
                "promoted_to")


@dataclass(frozen=True)
class FieldChange:
    name: str
    old: str  # the value as text ("" when absent)
    new: str
    pieces: list[Piece] = field(default_factory=list)  # the word diff (text and list fields)


def _values(m: Memory | None) -> dict[str, str]:
    if m is None:
        return {}
    return {
        "content": m.content, "gist": m.gist or "", "context": m.meta.context or "",
        "tags": ", ".join(m.meta.tags), "entities": ", ".join(m.entities),
        "status": m.status.value, "strength": f"{m.strength:g}", "use_count": str(m.use_count),
        "last_used": str(m.last_used), "created_at": str(m.created_at),
        "source": m.meta.source or "", "promoted_to": m.promoted_to or "",
    }


def version_changes(old: Memory | None, new: Memory | None) -> list[FieldChange]:
    """The fields that differ between ``old`` and ``new``, text and list fields first."""
    before, after = _values(old), _values(new)
    out: list[FieldChange] = []
    for name in (*TEXT_FIELDS, *LIST_FIELDS, *VALUE_FIELDS):
        a, b = before.get(name, ""), after.get(name, "")
        if a == b:
            continue
        if name in TEXT_FIELDS or name in LIST_FIELDS:
            pieces = word_diff(a, b)
            if changed(pieces):
                out.append(FieldChange(name, a, b, pieces))
        else:
            out.append(FieldChange(name, a, b))
    return out
