"""Opening from the derived index: the cache is filled from the record files as git holds them
at the commit the index was written for (:mod:`core.search.indexed_files`), and only the files
that changed since (``git diff`` from that commit to HEAD) or that differ from HEAD on disk
(``git status``, as every open runs) are read from disk. Afterwards the index is moved to HEAD
with the blobs git holds, read in batches through ``git cat-file --batch``.

A row keeps a record's bytes only when they made a valid record of its id
(:func:`.index_copies.makes_record`): the open holds them and parses each record when first read
(:meth:`core.store.cache.Store.fill_raw`; opening 10k memories parses none). Other rows are read
from disk, which says what is wrong. The files stay the truth: a row is used only for a path
that is, by git's own account, the same blob on disk and at HEAD as when the row was written,
and only when its bytes are that blob (:mod:`core.vault.index_copies`: one that is not is read
from disk, said in a notice, and written again by a read-write open); anything the index cannot
answer (missing, unreadable, of an older schema, its commit gone) means reading every file.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import InvalidIdError, JournalError
from ..store.cache import Store
from ..store.layout import (
    MAX_FILE_BYTES,
    MEMORIES_DIR,
    RELATIONS_DIR,
)
from .index_copies import Copies, makes_record, plan_damaged, valid_id
from .index_writer import BACKGROUND_FROM, OpenIndexWriter, RowPlan, Rows, Wanted
from .loading import CacheLoader
from .state import VaultState

if TYPE_CHECKING:
    from ..search.indexed_files import IndexedFiles
    from .later_copies import CopiesLater
    from ..search.read_rows import RowsWhileReading

#: Blobs read from git per ``cat-file`` call when the index is written (bounds the memory held).
BLOB_BATCH = 5000
#: A read-only open takes the records from the index from this many files (below, reading them
#: all is quicker than starting git for its ``status``).
READONLY_INDEX_FROM = 1000
_REGULAR = ("100644", "100755")


class OpenIndex:
    """The part of opening that uses the derived index (see the module docstring), for the
    vault whose cache is ``state``, read from disk by ``loader`` where the index cannot answer.

    ``keep_read``: a read-only open that reads every file keeps their bytes until
    :meth:`index_files` writes the index from them (the first search after a clone: each file
    read once); other opens keep nothing. ``search_rows``: a read-only open that reads every
    file hands the memories to :class:`~core.search.read_rows.RowsWhileReading` as it loads
    them (the search rows of the first search after a clone, made while the files are read)."""

    def __init__(self, state: VaultState, loader: CacheLoader, *, keep_read: bool = False,
                 search_rows: bool = False, copies_later: bool = False) -> None:
        self.state = state
        self.loader = loader
        self.keep_read = keep_read
        #: the copies read on the cache's first use (:mod:`.later_copies`), or whether they are
        self.copies_later: CopiesLater | bool = copies_later
        #: the search rows made while a read-only open read the files (``search_rows``)
        self.search_rows: RowsWhileReading | None = None
        if search_rows and state.readonly:
            from ..search.read_rows import RowsWhileReading

            self.search_rows = RowsWhileReading(state.root)
        #: the bytes a read-only open kept (``keep_read``), vault path -> bytes
        self.read_at_open: dict[str, bytes] | None = None
        #: The open index's rows a first open is writing in the background, if any
        #: (:mod:`core.vault.index_writer`; :meth:`wait_for_open_index`)
        self.writer: OpenIndexWriter | None = None
        #: The vault paths whose row held bytes that are not the blob it names
        #: (:mod:`.index_copies`): read from disk, their rows written again by :meth:`write_index`
        self.damaged: list[str] = []

    def files_index(self, readonly: bool = False) -> IndexedFiles | None:
        import sqlite3

        from ..search.indexed_files import IndexedFiles

        try:
            root = self.state.root
            return IndexedFiles.for_root(root, self.state.journal.relpath(root), readonly,
                                         self.state.notices)
        except (OSError, sqlite3.Error, JournalError):
            return None

    def index_absent(self) -> bool:
        """Whether the repository holds no index file yet (after a clone: :meth:`write_fresh`)."""
        from ..search.index import index_path

        path = index_path(self.state.root)
        return path is not None and not os.path.lexists(path)

    def write_fresh(self, read: dict[str, bytes], settle: Callable[[], None] | None) -> None:
        """The rows of an open that found no index file, from the bytes it read (as
        :meth:`write_index`): for many files by a thread that makes the file too (the open
        never waits for SQLite's syncs making it: 0.1-0.2 s on a busy disk), else here."""
        state = self.state
        if len(read) >= BACKGROUND_FROM and state.head is not None and not state.readonly \
                and self._start_writer(state.journal.relpath(state.root), None, state.head,
                                       read, settle):
            return
        files = self.files_index()
        if files is not None:
            try:
                self.write_index(files, read=read or None, settle=settle)
            finally:
                files.close()

    def load_indexed_readonly(self, head: str) -> bool:
        """A read-only open from the derived index (only read, never written): the cache from
        the rows, and from disk the files changed since their commit or differing from HEAD on
        disk (``git status``, with optional locks off: nothing under ``.git`` is written). False
        when the index cannot be used (nothing loaded: the caller reads every file), and for a
        vault of fewer than :data:`READONLY_INDEX_FROM` files, which reads them all sooner than
        git can start (and so runs no git at all)."""
        from ..search.index import index_path
        from ..search.indexed_files import holds_rows

        path = index_path(self.state.root)  # (counted before git is asked for the vault's folder)
        if path is None or not holds_rows(path, READONLY_INDEX_FROM):
            return False
        files = self.files_index(readonly=True)
        if files is None:
            return False
        try:
            work_tree = self.state.journal.work_tree
            with work_tree.status_running(self.state.layout.vault_paths()) as status:
                stale = self.load_from_index(files, head)
                changed = work_tree.finish_status(status)
            if stale is None:
                return False
            self.read_from_disk(stale | set(changed))
            return True
        except JournalError:
            return False
        finally:
            files.close()

    def load_from_index(self, files: IndexedFiles, head: str | None) -> set[str] | None:
        """Fill the cache from the index's rows; return the vault paths the rows cannot answer
        for (changed since the rows' commit, or not kept in the index): the caller reads them
        from disk. None when the index cannot be used (nothing loaded)."""
        base = files.commit()
        if base is None or head is None:
            return None
        import sqlite3

        try:
            history = self.state.journal.history
            stale = set(history.changed_between(base, head)) if base != head else set()
        except JournalError:  # the rows' commit is gone (history rewritten, pruned)
            return None
        if base == head and self.copies_later is True and not self.state.readonly:
            from .later_copies import open_later

            return open_later(self, base)
        copies = Copies(stale)
        try:
            if not copies.read(files):
                return None  # two files for one id: reading every file says which is loaded
        except sqlite3.Error as exc:
            files.mend(exc)  # (damaged inside: a read-write open makes it anew, then writes it)
            return None
        if copies.damaged:
            self.damaged = copies.damaged
            self.state.notices.append(copies.notice(self.state.readonly))
        store = Store()
        store.fill_raw(copies.memories, copies.relations)
        self.state.store, self.state.problems = store, []
        self.state.meta = self.state.layout.read_meta() or {}
        self.state.opened_from_index = True
        return stale

    def read_from_disk(self, rels: set[str]) -> None:
        """Load these vault paths from disk into the cache (what the index could not answer
        for, and what differs from HEAD). A path in a record folder that names no record (a
        folder, a dot-file, a stray file) means reading every file instead, so that it is
        reported exactly as then."""
        if any(_in_record_folder(rel) and self.state.layout.classify(rel) is None for rel in rels) \
                or self._two_files_for_an_id(rels):
            self.loader.load_files()
            self.state.opened_from_index = False
            return
        self.loader.reload_paths(sorted(rels))

    def keep_for_open(self) -> dict[str, bytes] | None:
        """Where a read-only open that reads every file keeps their bytes (``keep_read``): for
        the first search (its rows wanted), only while too few to hand the search index's first
        build over (:class:`~core.store.kept_bytes.KeptWhileSmall`)."""
        if not self.keep_read:
            return None
        if self.search_rows is not None and self.search_rows.wanted:
            from ..search.first_build import FIRST_BUILD_FROM
            from ..store.kept_bytes import KeptWhileSmall

            return KeptWhileSmall(FIRST_BUILD_FROM)
        return {}

    @property
    def kept_read(self) -> bool:
        """Whether a read-only open kept the bytes of every file it read (``keep_read``, a vault
        of :data:`READONLY_INDEX_FROM` files or more whose index had no rows for it): then
        :meth:`index_files` writes the rows from them."""
        return bool(self.read_at_open)

    def index_files(self) -> int | None:
        """Bring the derived index's rows of files level with HEAD now (``memvault reindex``;
        every read-write open does it by itself). Returns how many rows there are for this
        vault, or None when the index cannot be written (no repository, a read-only disk)."""
        self.wait_for_open_index()
        read, self.read_at_open = self.read_at_open, None
        files = self.files_index()
        if files is None:
            return None
        try:
            self.write_index(files, self.state.journal.head(), read, self.state.store.settle)
            return None if files.commit() is None else files.count()
        finally:
            files.close()

    def _two_files_for_an_id(self, rels: set[str]) -> bool:
        """Whether a memory among these paths has a file in both layouts (after a merge of a
        flat and a sharded clone): the rule that picks one (:mod:`core.store.shards`) is
        applied where every file is read."""
        for rel in rels:
            what = self.state.layout.classify(rel)
            if what is None or what[0] != "memory":
                continue
            try:
                paths = self.state.layout.memory_paths(what[1])
            except InvalidIdError:
                return True  # reading every file says what is wrong with its name
            if sum(os.path.lexists(p) for p in paths) > 1:
                return True
        return False

    def write_index(self, files: IndexedFiles, head: str | None = None,
                     read: dict[str, bytes] | None = None,
                     settle: Callable[[], None] | None = None) -> None:
        """Move the index's rows to HEAD (from their commit, or anew), with the blobs git holds.
        ``read``: vault path -> the bytes the open just read there and loaded as a valid record
        of its id; a path whose bytes are the very blob git holds at HEAD takes them (so a
        first open reads each file once, not once more from git). ``settle``: checks the
        records the open holds unchecked, which drops from ``read`` the bytes of every file
        that is no record (:meth:`core.store.cache.Store.settle`): called before ``read`` is
        used (in the thread that writes the rows, for a first open of many files). Never fails
        the open: the index is only a cache."""
        from ..search.indexed_files import blob_id

        head = head or self.state.head
        damaged, self.damaged = self.damaged, []
        if head is None:
            return
        base = files.commit()
        if base == head and not damaged:
            return
        if read is not None and len(read) >= BACKGROUND_FROM and self._write_later(
                files, base, head, read, settle):
            return
        if read is not None and settle is not None:
            settle()
        base, rows, wanted = self._plan_rows(files.folder, base, head) if base != head \
            else (base, {}, {})
        try:
            plan_damaged(self.state.journal.objects, self.state.layout.classify, files.folder,
                         head, damaged, rows, wanted)
        except JournalError:
            return
        bodies: dict[str, bytes] = {}
        trusted: set[str] = set()  # paths whose bytes loaded as a record of their id just now
        for rel, (sha, _kind, _id) in wanted.items() if read else ():
            data = read.get(rel)  # type: ignore[union-attr]
            if data is not None and blob_id(data, len(sha)) == sha:
                bodies[sha] = data
                trusted.add(rel)
        shas = list(dict.fromkeys(sha for sha, _, _ in wanted.values() if sha not in bodies))
        try:
            for start in range(0, len(shas), BLOB_BATCH):
                bodies.update(self.state.journal.objects.read_blobs(shas[start:start + BLOB_BATCH],
                                                      limit=MAX_FILE_BYTES))
        except JournalError:
            return
        for rel, (sha, kind, record_id) in wanted.items():
            body = bodies.get(sha)
            if body is not None and rel not in trusted and not makes_record(kind, record_id,
                                                                              body):
                body = None  # the open reads the file from disk, which reports what is wrong
            rows[rel] = (sha, kind, record_id, body)
        files.update(base, head, rows, replace=base is None)

    def _plan_rows(self, folder: str, base: str | None, head: str) -> RowPlan:
        """Which rows change from the rows' commit ``base`` to ``head`` (``git diff-tree``;
        from nothing when ``base`` is gone), and the record files among them."""
        objects = self.state.journal.objects
        try:
            changes = objects.tree_changes(base, head, under=folder)
        except JournalError:  # the rows' commit is gone: write them all anew
            base, changes = None, objects.tree_changes(None, head, under=folder)
        cut = 0 if folder in ("", ".") else len(folder.rstrip("/")) + 1
        rows: Rows = {}
        wanted: Wanted = {}
        classify = self.state.layout.classify
        for repo_path, change in changes.items():
            rel = repo_path[cut:]
            if not _in_record_folder(rel):
                continue
            if change.new is None:
                rows[rel] = None
                continue
            mode, sha = change.new
            rows[rel] = (sha, None, None, None)
            what = classify(rel)
            if mode in _REGULAR and what is not None and what[0] != "meta" and valid_id(*what):
                wanted[rel] = (sha, *what)
        return base, rows, wanted

    def _write_later(self, files: IndexedFiles, base: str | None, head: str,
                     read: dict[str, bytes], settle: Callable[[], None] | None = None) -> bool:
        """Hand the rows of a first open to a thread (:mod:`core.vault.index_writer`), git's
        diff of the trees included; False when the index is in memory only (nothing to
        write)."""
        if files.readonly:
            return False  # (a read-only vault: the caller asked for the rows, and waits)
        return self._start_writer(files.folder, base, head, read, settle)

    def _start_writer(self, folder: str, base: str | None, head: str, read: dict[str, bytes],
                      settle: Callable[[], None] | None) -> bool:
        from ..search.index import index_path
        from ..search.indexed_files import blob_id

        path = index_path(self.state.root)
        if path is None or self.state.readonly:
            return False
        self.writer = OpenIndexWriter(path, folder, head, read, blob_id,
                                      lambda: self._plan_rows(folder, base, head), settle)
        self.writer.start()
        return True

    def wait_for_open_index(self) -> None:
        """Wait until the rows a first open writes in the background are written (see
        :mod:`core.vault.index_writer`); at once when there are none."""
        writer = self.writer
        if writer is not None:
            writer.wait()
            self.writer = None

    def unchanged_since_open(self, path: Path) -> bool:
        """For a file the open took from the index or from git's objects (never read, so never
        stat'ed): True when it still holds that blob (one read and a hash); it is then noted as
        seen. (A commit since the open that changed the file made the vault read it, so the
        index's row, even one moved to a later commit since, is what the vault shows.)"""
        return path in self.unchanged_since_open_many([path])

    def unchanged_since_open_many(self, paths: list[Path]) -> set[Path]:
        """:meth:`unchanged_since_open` of several files, the index opened once for all
        (:mod:`.unchanged_files`)."""
        from .unchanged_files import unchanged_files

        layout = self.state.layout
        same = unchanged_files(self.state.root, layout.seen, layout.vouched,
                               self._index_blobs if self.state.opened_from_index else None,
                               paths)
        layout.note(same, same)
        return set(same)

    def _index_blobs(self, rels: list[str]) -> dict[str, str | None]:
        files = self.files_index()
        if files is None:
            return {}
        try:
            return {rel: files.blob_of(rel) for rel in rels}
        finally:
            files.close()


def _in_record_folder(rel: str) -> bool:
    return rel.startswith((MEMORIES_DIR + "/", RELATIONS_DIR + "/"))

