"""What reads the derived index's counts and its vault's rows without the rest of the search
package (no record model, no pydantic): the app's first frame counts a vault's memories by status
and tag from here before anything else is imported, and :mod:`.indexed_files` reads its rows
through the same pieces."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from ..git.gitdir import find_git_dir
from ..store.names import MEMORIES_DIR, RELATIONS_DIR
from .index_file import SCHEMA_VERSION, foreign_table

#: ``state``'s key of the commit a vault's rows are for (then the vault's folder, ``.`` at the top)
COMMIT_KEY = "files_commit:"
INDEX_FILE = "index.sqlite"


def index_path(root: Path) -> Path | None:
    """Where the index of the vault at ``root`` lives: ``<git dir>/memvault/index.sqlite``
    (the git directory of the work tree holding it, as :class:`core.git.journal.Journal`
    finds it); None when the vault is in no repository."""
    found = find_git_dir(Path(root))
    return None if found is None else found[0] / "memvault" / INDEX_FILE


def record_ranges(folder: str) -> tuple[tuple[str, str], tuple[str, str]]:
    """The paths of the vault at ``folder`` of the repository, as two ranges (start, end) of
    the index's ``path`` column: its memories folder and its relations folder. A vault's rows
    are those and nothing else, so that a vault whose folder holds another vault (the
    repository's top and a folder of it) never takes, nor removes, the other's rows."""
    prefix = "" if folder in ("", ".") else folder.rstrip("/") + "/"
    memories, relations = f"{prefix}{MEMORIES_DIR}/", f"{prefix}{RELATIONS_DIR}/"
    return (memories, memories[:-1] + "0"), (relations, relations[:-1] + "0")  # "0" after "/"


#: The rows of one range of paths (:func:`record_ranges`).
IN_RANGE = " WHERE path >= ? AND path < ?"


def open_readonly(path: Path) -> sqlite3.Connection | None:
    """The index file at ``path`` opened read-only (nothing is created, rebuilt or moved on);
    None when it is missing or of another schema (or lacks a table of this one). Raises
    sqlite3.Error when it cannot be read."""
    if not path.is_file():
        return None
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=5)
    try:
        if conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION \
                and foreign_table(conn) is None:
            return conn
    except sqlite3.Error:
        conn.close()
        raise
    conn.close()
    return None


@contextlib.contextmanager
def reading(path: Path, folder: str
             ) -> Iterator[tuple[sqlite3.Connection, str, tuple[str, str]] | None]:
    """The index file at ``path`` opened read-only (:func:`open_readonly`), with the commit
    its rows are for in the vault at ``folder`` and the range of that vault's memory paths
    (:data:`IN_RANGE`: the summaries are of memories only); None when the file is missing or
    of another schema, or holds no rows for that vault."""
    conn = open_readonly(path)
    if conn is None:
        yield None
        return
    try:
        conn.execute("BEGIN")  # (one snapshot: the rows read are of the commit read)
        found = conn.execute("SELECT value FROM state WHERE key = ?",
                             (COMMIT_KEY + folder,)).fetchone()
        yield None if found is None else (conn, found[0], record_ranges(folder)[0])
    finally:
        conn.close()


def read_counts(path: Path, folder: str
                ) -> tuple[str | None, list[tuple[str, int]], list[tuple[str, str, int]]]:
    """(the commit the rows are for, (status, memories) and (status, tag, memories) of the
    summaries) from the index file at ``path``, for the vault at ``folder`` of the repository:
    counted by SQLite over the status index and ``summary_tags`` (milliseconds at 100k
    memories), no summary read. Untagged memories count under the tag ``''``. Opened read-only;
    (None, [], []) when the file is missing, of another schema or holds no rows for that vault;
    raises sqlite3.Error when it cannot be read.

    The counts come back as one row of JSON: Python's sqlite3 lets go of the GIL for each row it
    steps to, and in a thread beside a busy one (the app painting) each row then waits for the
    GIL (~5 ms): 150 rows took 0.8 s that way, one row 80 ms."""
    with reading(path, folder) as found:
        if found is None:
            return None, [], []
        conn, commit, paths = found
        statuses, tags = conn.execute(
            "SELECT (SELECT json_group_array(json_array(status, n)) FROM (SELECT status, "
            f"count(*) AS n FROM summaries INDEXED BY summaries_status{IN_RANGE} "
            "GROUP BY status)), "
            "(SELECT json_group_array(json_array(status, tag, n)) FROM (SELECT status, tag, "
            f"count(*) AS n FROM summary_tags{IN_RANGE} GROUP BY status, tag))",
            paths + paths).fetchone()
        return (commit, [tuple(row) for row in json.loads(statuses)],
                [tuple(row) for row in json.loads(tags)])
