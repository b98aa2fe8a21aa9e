"""Writing the open index's rows (:mod:`core.search.indexed_files`) after a first open, from
the bytes that open read: each file is read once, by the open, and the rows are made from
those bytes (a file whose bytes are the very blob git holds at HEAD keeps them in its row; any
other gets none, and the next open reads it from disk, as for any row without bytes).

A first open of many files (:data:`BACKGROUND_FROM`) hands this to a thread of its own and
returns as soon as every file is read: at 100k memories the rows take seconds to work out (git's
diff of the trees at HEAD, each path classified) and to write, and the vault is usable meanwhile
(its cache is full; the index is only a cache). The thread touches nothing of the vault but git's
objects at the commit ``head`` the open read (never changed), its own connection to the index
file, and, when the open holds its records unchecked (:meth:`core.store.cache.Store.fill_unchecked`),
the check of those records, which it runs first (a reader meanwhile waits for it, then finds
them parsed); :meth:`OpenIndexWriter.wait` waits for it (``Vault.close``, ``Vault.index_files`` and the
end of the program do). Python waits for it at exit, so a short command still leaves the rows
written for the next open.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

#: A first open of this many record files or more writes the rows in a thread.
BACKGROUND_FROM = 5000

#: path relative to the vault -> (blob, kind, record id, bytes or None), or None: gone
Rows = dict[str, "tuple[str, str | None, str | None, bytes | None] | None"]
#: path relative to the vault -> (blob, kind, record id) of each record file git holds
Wanted = dict[str, tuple[str, str, str]]
#: the commit the rows move from (None: written anew), the rows, and the record files among them
RowPlan = tuple["str | None", Rows, Wanted]


class OpenIndexWriter:
    """The rows of the commit ``head``, made from the bytes an open read (``read``: path ->
    bytes of each file that loaded as a valid record of its id), written into the index at
    ``index`` for the vault at ``folder`` of the repository. ``plan``: works out, in the thread,
    which rows change from the rows' commit to ``head`` (:data:`RowPlan`). ``settle``: when the
    open holds its records unchecked, checks them (in the thread, before ``read`` is used),
    dropping from ``read`` the bytes of every file that is no record."""

    def __init__(self, index: Path, folder: str, head: str, read: dict[str, bytes],
                 blob_id: Callable[[bytes, int], str], plan: Callable[[], RowPlan],
                 settle: Callable[[], None] | None = None):
        self.index, self.folder, self.head = index, folder, head
        self.read, self.blob_id, self.plan = read, blob_id, plan
        self.settle = settle
        self.base: str | None = None
        self.rows: Rows = {}
        self._thread: threading.Thread | None = None
        self.written: bool | None = None  # (None: not done yet)

    def fill(self) -> None:
        """The rows: the record files git holds with the bytes read when they are git's blob,
        else none."""
        if self.settle is not None:  # (an open that holds its records unchecked: read's
            self.settle()            # bytes of a file that is no record are dropped first)
        self.base, rows, wanted = self.plan()
        read, blob_id = self.read, self.blob_id
        for rel, (sha, kind, record_id) in wanted.items():
            data = read.get(rel)
            body = data if data is not None and blob_id(data, len(sha)) == sha else None
            rows[rel] = (sha, kind, record_id, body)
        self.rows, self.read = rows, {}

    def write(self) -> bool:
        """Make the rows and write them (one transaction); False when the index could not be
        written (read-only disk, another process moved it on first): nothing is lost, the next
        open writes them."""
        import sqlite3

        from ..search.indexed_files import IndexedFiles

        self.fill()
        try:
            files = IndexedFiles(self.index, self.folder)
        except (OSError, sqlite3.Error):
            return False
        try:
            return files.update(self.base, self.head, self.rows, replace=self.base is None)
        finally:
            files.close()

    def start(self) -> None:
        """Write in a thread of its own (not a daemon: the program waits for it at exit)."""
        def run() -> None:
            try:
                self.written = self.write()
            except Exception:  # noqa: BLE001 (a cache: never fails the program; the next open writes it)
                self.written = False

        self._thread = threading.Thread(target=run, name="memvault-open-index", daemon=False)
        self._thread.start()

    def wait(self) -> None:
        if self._thread is not None:
            self._thread.join()
