"""Single values read from SQLite, typed where they come in (``sqlite3`` gives every row as
``Any``): a query's one integer, checked to be one."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence


def int_value(conn: sqlite3.Connection, sql: str, params: Sequence[object] = ()) -> int:
    """The integer in the first column of the first row ``sql`` gives (a count, a pragma).
    A query that gives no row, or something else than an integer, raises
    :class:`sqlite3.DatabaseError` (a broken index file, handled as SQLite's own errors are)."""
    row = conn.execute(sql, params).fetchone()
    value = None if row is None else row[0]
    if not isinstance(value, int):
        raise sqlite3.DatabaseError(f"expected an integer from {sql!r}, got {value!r}")
    return value
