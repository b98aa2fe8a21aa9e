"""The index file itself (``.git/memvault/index.sqlite``): its schema, opening it, and making it
new, for :class:`core.search.index.SearchIndex`.

Several processes hold the file open at once (the app, the MCP server, a ``memvault search``,
a vault's open writing its rows of files, a background build), so the file is never removed
from under them: an index of another schema, and ``memvault reindex``, are emptied and given
the schema again **in place**, in one write transaction (:func:`reset`); every other connection
sees the change as any other write (its ``data_version`` moves, its statements are prepared
again). Removing the file and its ``-wal``/``-shm`` while another connection used them left that
connection writing into a file no one would read again, and a process opening the path between
the removal of the file and that of its write-ahead log paired a new, empty file with the old
log ("disk I/O error", "database disk image is malformed"). Only a file SQLite cannot read at
all is removed (its log and shared memory first, then the file), since no connection can use it.

Tables: ``records(rowid, id, fingerprint, source)`` (``source``: the blob id of the file's bytes
the row was made from, when known: :mod:`.row_sources`); ``fts(content, gist, tags, entities)``
whose rowid is the record's (tokenizer ``porter unicode61 remove_diacritics 2``: words match across
inflections, ``é`` matches ``e``); ``embeddings(id, fingerprint, model, vector)``. And, for
opening the vault without reading every file (:mod:`core.store.indexed_files`):
``files(path, blob, kind, record_id, body)``, the vault's record files as git holds them at the
commit named in ``state('files_commit')``, and ``summaries``, for each memory file among them,
what the app's first paint needs of it (status, use_count, last_used, strength, created_at,
tags, head, pinned: :mod:`core.vault.preview`), in a table of its own so reading it skips the
bodies; ``summary_tags(status, tag, path)``, one row for each tag of each summary (``''`` for a
memory without tags), written with the summaries, and an index of the summaries' status, so that
the glance (:func:`core.vault.preview.read_glance`) counts memories by status and tag in
milliseconds.
And ``words`` and ``wordlists``: the best memories of each common word (:mod:`.wordlists`), kept
level with the FTS rows by every sync. And ``dupe_docs`` and ``dupe_bands``: the near-duplicate
keys of each memory (:mod:`.near_dupes`), written in the same transaction as its FTS rows.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sqlite3
import stat
from pathlib import Path

from .index_reading import TOKENIZER
from .transaction import transaction
from ..store.private import make_folders

#: 2: the files and state tables; 3: a summary of each memory file; 4: word lists; 5: a files
#: row keeps its bytes only when they make a valid record of its id (an open holds them unparsed:
#: a change to the record models must bump this, see tests/core/search/test_indexed_files.py),
#: and summary_tags and a status index for the glance; 6: records.source (:mod:`.row_sources`);
#: 7: records.created_at and its index (a hit's neighbours in time, :mod:`.episodes`); 8: the
#: content followed by the base forms of its irregular words (:mod:`.word_forms`).
SCHEMA_VERSION = 8
PAGE_SIZE = 16384

SCHEMA = (
    "CREATE TABLE records (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, "
    "fingerprint TEXT NOT NULL, source TEXT, created_at INTEGER NOT NULL DEFAULT 0)",
    "CREATE INDEX records_time ON records (created_at, id)",
    f"CREATE VIRTUAL TABLE fts USING fts5(content, gist, tags, entities, tokenize='{TOKENIZER}')",
    "CREATE TABLE embeddings (id TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, model TEXT NOT NULL, "
    "vector BLOB NOT NULL)",
    "CREATE TABLE files (path TEXT PRIMARY KEY, blob TEXT NOT NULL, kind TEXT, record_id TEXT, "
    "body BLOB) WITHOUT ROWID",
    "CREATE TABLE summaries (path TEXT PRIMARY KEY, record_id TEXT NOT NULL, status TEXT, "
    "use_count INTEGER, last_used INTEGER, strength REAL, created_at INTEGER, tags TEXT, "
    "head TEXT, pinned INTEGER) WITHOUT ROWID",
    # the glance (:func:`core.vault.preview.read_glance`): memories counted by status, and by
    # status and tag, without reading a summary
    "CREATE INDEX summaries_status ON summaries (status)",
    "CREATE TABLE summary_tags (status TEXT NOT NULL, tag TEXT NOT NULL, path TEXT NOT NULL, "
    "PRIMARY KEY (status, tag, path)) WITHOUT ROWID",
    "CREATE TABLE state (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    # the word lists (:mod:`.wordlists`): each common word's best memories, best first
    "CREATE TABLE words (token TEXT PRIMARY KEY, avgdl REAL NOT NULL, floor REAL NOT NULL)",
    "CREATE TABLE wordlists (token TEXT NOT NULL, impact REAL NOT NULL, doc INTEGER NOT NULL, "
    "f REAL NOT NULL, PRIMARY KEY (token, impact, doc)) WITHOUT ROWID",
    "CREATE INDEX wordlists_doc ON wordlists (doc)",
    f"PRAGMA user_version = {SCHEMA_VERSION}",
)


def open_index_file(path: Path) -> tuple[sqlite3.Connection, str | None]:
    """A connection to the index file at ``path`` with this version's schema, and why it was
    made new (None: it was already): "missing", "schema N, not M" (emptied in place) or
    "unreadable (...)" (a file SQLite cannot read: removed and made again)."""
    existed = path.exists()
    conn = None
    try:
        conn = connect(path)
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version == 0 and create_if_empty(conn):
            # a new file, or one another connection is creating this moment (its schema
            # not committed yet): never removed from under that connection
            return conn, "missing"
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version == SCHEMA_VERSION:
            foreign = foreign_table(conn)
            if foreign is None:
                conn.execute("SELECT count(*) FROM records").fetchone()
                return conn, None
            reset(conn)
            return conn, f"damaged (schema {version} without this version's {foreign})"
        if reset(conn, unless=SCHEMA_VERSION):
            return conn, f"schema {version}, not {SCHEMA_VERSION}" if existed else "missing"
        return conn, None  # (another connection made it this version meanwhile)
    except sqlite3.DatabaseError as exc:
        if conn is not None:
            conn.close()
        if is_locked(exc):
            raise
        why = f"unreadable ({exc})"
    remove_unreadable(path)
    conn = connect(path)
    create(conn)
    return conn, why


#: What SQLite says of a file it reads that is not this index as it should be (a page or an FTS5
#: segment damaged, a table or column missing): building it again mends it. A lock, a full or
#: read-only disk, an I/O error are not that (SQLITE_BUSY, SQLITE_FULL, SQLITE_IOERR...), nor is
#: any other SQLITE_ERROR (a query FTS5 cannot read: building again would not change it).
DAMAGE = frozenset({"SQLITE_CORRUPT", "SQLITE_CORRUPT_VTAB", "SQLITE_CORRUPT_INDEX",
                    "SQLITE_CORRUPT_SEQUENCE", "SQLITE_NOTADB", "SQLITE_MISMATCH",
                    "SQLITE_SCHEMA"})
MISSING = ("no such table", "no such column", "has no column")


def is_locked(exc: BaseException) -> bool:
    """Whether ``exc`` says another connection holds the file (wait, never build it again)."""
    return isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc)


def is_damage(exc: BaseException) -> bool:
    """Whether ``exc``, raised reading the index, says the file is damaged (:data:`DAMAGE`, or a
    table or column of this version's schema missing)."""
    if not isinstance(exc, sqlite3.DatabaseError):
        return False
    name = getattr(exc, "sqlite_errorname", None)
    return name in DAMAGE or (name == "SQLITE_ERROR" and str(exc).startswith(MISSING))


@functools.cache
def _schema_sql() -> dict[str, str | None]:
    """name -> SQL of every table and index this version's schema makes (FTS5's own shadow
    tables by name only: their SQL is the library's, which may differ between versions)."""
    conn = sqlite3.connect(":memory:")
    try:
        create(conn)
        return {name: None if name.startswith("fts_") else sql
                for name, sql in conn.execute("SELECT name, sql FROM sqlite_master")}
    finally:
        conn.close()


def foreign_table(conn: sqlite3.Connection) -> str | None:
    """The first table or index of this version's schema that the database of ``conn`` lacks or
    holds with another definition (a file of another program, or damaged, that says this
    version in its ``user_version``); None when it has them all (it may hold more: the
    near-duplicate tables are made on first use). One read of ``sqlite_master``."""
    found = dict(conn.execute("SELECT name, sql FROM sqlite_master"))
    for name, sql in _schema_sql().items():
        if name not in found or (sql is not None and found[name] != sql):
            return name
    return None


def checkpoint(path: Path) -> tuple[int, int, int] | None:
    """Copy the pages the index file's write-ahead log holds into the file, on a connection of
    its own (SQLite's PASSIVE checkpoint: no reader or writer waits for it). A process that
    answers someone runs it once an answer is sent (the MCP server), so that the checkpoint a
    commit makes when the log reaches 1,000 pages does not fall on an answer. (busy, pages in
    the log, pages copied); None when there is no index file (a link is never followed)."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
    except OSError:
        return None
    conn = sqlite3.connect(path, timeout=15, isolation_level=None)
    try:
        busy, log, copied = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    finally:
        conn.close()
    return busy, log, copied


def connect(path: Path) -> sqlite3.Connection:
    make_folders(path.parent)
    fd = os.open(path, os.O_CREAT | os.O_RDWR | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        if os.fstat(fd).st_mode & 0o077:
            os.fchmod(fd, 0o600)
    finally:
        os.close(fd)
    conn = sqlite3.connect(path, timeout=15, isolation_level=None, check_same_thread=False)
    # 16 KiB pages: a record file's body (~1.2 KB) then fits in its row (4 KiB pages send
    # any row over ~1 KB to an overflow page, and reading the rows at open takes twice as
    # long). Only a new, empty file takes it: it must come before WAL mode.
    conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
    conn.execute("PRAGMA journal_mode=WAL")  # -wal and -shm take the file's mode (0600)
    conn.execute("PRAGMA synchronous=NORMAL")
    return conn


def create_if_empty(conn: sqlite3.Connection) -> bool:
    """Under the write lock: give a database with no table at all the schema; True when
    this connection did. False when it has one by then (another connection's, committed
    while this one waited for the lock: the caller reads its version)."""
    with transaction(conn):
        if conn.execute("PRAGMA user_version").fetchone()[0] != 0 or conn.execute(
                "SELECT count(*) FROM sqlite_master").fetchone()[0]:
            return False
        for statement in SCHEMA:
            conn.execute(statement)
    return True


def create(conn: sqlite3.Connection) -> None:
    with transaction(conn):
        for statement in SCHEMA:
            conn.execute(statement)


def reset(conn: sqlite3.Connection, unless: int | None = None) -> bool:
    """Empty the database of ``conn`` and give it this version's schema, in place, in one write
    transaction (see the module docstring); with ``unless``, only when its version is not that
    one by the time the write lock is held. True when it was reset."""
    with transaction(conn):
        if unless is not None and conn.execute("PRAGMA user_version").fetchone()[0] == unless:
            return False
        # virtual tables first: dropping one drops its shadow tables
        for _ in range(2):
            for kind_sql, name in conn.execute(
                    "SELECT coalesce(sql, ''), name FROM sqlite_master WHERE type = 'table' "
                    "AND name NOT LIKE 'sqlite_%' ORDER BY sql NOT LIKE 'CREATE VIRTUAL%'"
            ).fetchall():
                quoted = '"' + name.replace('"', '""') + '"'
                with contextlib.suppress(sqlite3.OperationalError):  # (a shadow table gone)
                    conn.execute(f"DROP TABLE IF EXISTS {quoted}")
        conn.execute("PRAGMA user_version = 0")
        for statement in SCHEMA:
            conn.execute(statement)
    return True


def made_anew(path: Path) -> sqlite3.Connection:
    """A connection to the index file at ``path`` emptied and given this version's schema: in
    place (:func:`reset`: other connections see it emptied, never gone), or, a file SQLite
    cannot read at all (no connection can use it), removed and made again."""
    conn, _ = open_index_file(path)
    try:
        reset(conn)
    except sqlite3.DatabaseError as exc:
        if is_locked(exc):
            raise
        conn.close()
        remove_unreadable(path)
        conn = connect(path)
        create(conn)
    return conn


def remove_unreadable(path: Path) -> None:
    """Remove an index file SQLite cannot read: its journal, write-ahead log and shared memory
    first, then the file (a process opening the path meanwhile finds the old file alone, never
    a new file paired with the old log)."""
    for suffix in ("-journal", "-wal", "-shm", ""):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{path}{suffix}")
