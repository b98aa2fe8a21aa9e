"""Which columns of a table fit beside its text column, shared by every table whose last word is a
memory's text (the flat list, the gc preview): at a narrow width the columns a decision needs
least give way, one at a time, so that the text keeps at least :data:`TEXT_MIN` characters
(at 80x24 the flat list's text was 12 characters wide, and the gc preview's was off the screen)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: the fewest characters of a memory's text worth showing before other columns give way
TEXT_MIN = 20
#: the cell padding DataTable puts between columns (one each side)
GAP = 2


@dataclass(frozen=True)
class Column:
    """A fixed-width column. ``gives_way``: 0 never; else the lowest goes first."""

    key: str
    label: str
    width: int
    gives_way: int = 0


def fit_columns(columns: Sequence[Column], total: int, text_min: int = TEXT_MIN
                ) -> tuple[list[Column], int]:
    """The columns kept (in their order) and the text column's width in ``total`` cells: the
    columns that give way leave, lowest first, while the text would be under ``text_min``."""
    kept = list(columns)

    def text_width() -> int:
        return total - sum(c.width for c in kept) - GAP * (len(kept) + 1) - 1

    while text_width() < text_min:
        movable = [c for c in kept if c.gives_way]
        if not movable:
            break
        kept.remove(min(movable, key=lambda c: c.gives_way))
    return kept, max(12, text_width())
