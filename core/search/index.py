"""The derived search index: ``.git/memvault/index.sqlite`` (0600, in the git directory, so never
committed), an FTS5 table over each memory's content, gist, tags and entities, and the cached
embeddings of semantic search.

The files stay the truth. The index only mirrors ``vault.memories``: :meth:`SearchIndex.sync`
compares each memory's :func:`fingerprint` with the one its row was made from and rewrites only
the rows that differ, in one transaction; the file is built again whenever it must be
(:mod:`.index_file`), and deleting it by hand loses nothing. Its parts: reading
(:mod:`.index_reading`, ``index.reading``), what a sync compares (:mod:`.sync_compare`), the
writes of rows (:mod:`.row_writes`), the cached embeddings (:mod:`.embedding_cache`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from .embedding_cache import EmbeddingCache
from .index_counts import INDEX_FILE as INDEX_FILE, index_path as index_path
from .index_file import SCHEMA_VERSION as SCHEMA_VERSION  # (read from here: the rows' version)
from .index_file import create, is_damage, is_locked, made_anew, open_index_file
from .index_reading import IndexReading
from .row_sources import RowSources
from .row_writes import (WrittenRow, keep_near_dupes, keep_words, note_level_at,
                         put_rows, write_changed)
from .sync_compare import SyncReport as SyncReport  # (imported from here too)
from .sync_compare import Synced, changed_since, stale, sync_mark
from .sync_compare import fingerprint as fingerprint
from .transaction import transaction

if TYPE_CHECKING:
    from ..model.records import Memory
    from .first_build import Progress
    from .near_dupes import NearDuplicateRows

T = TypeVar("T")


class SearchIndex:
    """The index at ``path`` (None: in memory only, for a vault in no repository)."""

    def __init__(self, path: Path | None):
        self.path = path
        self._conn: sqlite3.Connection | None = None
        self._known: dict[str, tuple[int, str]] | None = None  # id -> (rowid, fingerprint)
        self._data_version: int | None = None
        self._seen: dict[str, tuple[Memory, str]] = {}  # id -> (memory object, its fingerprint)
        self.sources = RowSources(self._fingerprint)
        #: (the known-rows dict, the mapping, its mark: :func:`.sync_mark`) of the last sync
        self._synced: Synced | None = None
        self._generation = 0
        self._near_dupes: bool | None = None  # near-duplicate rows current? (None: not asked)
        self.rebuilt: str | None = None
        self.note: str | None = None  # why the index lives in memory only, if it must
        #: One line each time the file was found damaged and built again (:meth:`answer`), for
        #: the caller to pass on (:meth:`take_notes`)
        self.notes: list[str] = []
        self.embeddings = EmbeddingCache(lambda: self.conn)
        #: Whatever a caller derives from the index and keeps between queries (the semantic
        #: search's matrix of vectors); emptied when the index is closed or rebuilt.
        self.memo: dict[str, object] = {}
        #: What a search reads of it (matches, counts, the best rows, the word lists).
        self.reading = IndexReading(lambda: self.conn, self.memo, lambda: self._generation,
                                    self._load_known)

    def row_count(self) -> int:
        """How many memories have a row."""
        return len(self._load_known())

    @classmethod
    def for_root(cls, root: Path) -> SearchIndex:
        return cls(index_path(root))

    # -- the connection --------------------------------------------------------------------------
    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
        self._conn, self._known, self._synced = None, None, None
        self._near_dupes = None
        self._generation += 1
        self.sources.forget()
        self.embeddings.forget()
        self.memo.clear()

    def __enter__(self) -> SearchIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = self._open()
        return self._conn

    def _open(self) -> sqlite3.Connection:
        if self.path is not None:
            try:
                return self._open_file()
            except (OSError, sqlite3.OperationalError) as exc:  # a read-only disk, no room...
                self.note = f"the search index could not be written ({exc}); kept in memory"
                self.path = None
        conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        create(conn)
        return conn

    def _open_file(self) -> sqlite3.Connection:
        assert self.path is not None
        conn, why = open_index_file(self.path)
        if why is not None:
            self._say_rebuilt(why)
        return conn

    def _say_rebuilt(self, why: str) -> None:
        self.rebuilt = why  # (and one line for the caller, unless it was missing)
        if why.startswith(("damaged", "unreadable", "schema")):  # (schema: an upgrade)
            was = f"written by another version of memvault ({why})" if why[0] == "s" else why
            self.notes.append(f"the search index ({self.path}) was {was}: built again")

    def take_notes(self) -> list[str]:
        """The notes (:attr:`notes`) not taken yet."""
        notes, self.notes = self.notes, []
        return notes

    def answer(self, memories: Mapping[str, Memory], ask: Callable[[], T]) -> T:
        """``ask()``, a read of the index level with ``memories``; a file it finds damaged (valid
        SQLite, wrong inside: :func:`.index_file.is_damage`) is built again from ``memories`` at
        once, said in :attr:`notes`, and asked again. Every reader of the index reads here."""
        try:
            return ask()
        except sqlite3.DatabaseError as exc:
            if not is_damage(exc):
                raise
            self.rebuild(f"damaged ({exc})")
        self.sync(memories)
        return ask()

    def rebuild(self, why: str = "asked for") -> None:
        """Forget everything the index holds; the next :meth:`sync` fills it again."""
        self.close()
        if self.path is None:
            return
        self._conn = made_anew(self.path)
        self._say_rebuilt(why)

    # -- keeping it equal to the vault -----------------------------------------------------------
    def _fingerprint(self, memory: Memory) -> str:
        seen = self._seen.get(memory.id)
        if seen is not None and seen[0] is memory:
            return seen[1]
        fp = fingerprint(memory)
        self._seen[memory.id] = (memory, fp)
        return fp

    def _load_known(self) -> dict[str, tuple[int, str]]:
        conn = self.conn
        version = conn.execute("PRAGMA data_version").fetchone()[0]
        if self._known is None or version != self._data_version:  # another process wrote it
            known: dict[str, tuple[int, str]] = {}
            sources: dict[str, str] = {}
            for rowid, i, fp, source in conn.execute(
                    "SELECT rowid, id, fingerprint, source FROM records"):
                known[i] = (rowid, fp)
                if source is not None:
                    sources[i] = source
            if self._known is not None:  # (written elsewhere: maybe emptied, reindexed)
                self._near_dupes = None
            self._known, self.sources.held = known, sources
            self._data_version = version
        return self._known

    def sync(self, memories: Mapping[str, Memory], at: str | None = None,
             progress: Progress | None = None, near_dupes: bool = True) -> SyncReport:
        """Bring the index level with ``memories`` (every status): rows whose fingerprint
        differs are rewritten, rows of memories that are gone removed, in one transaction.
        An index SQLite cannot read is built again. ``at``: the commit whose tree
        ``memories`` are (a read-write vault's head), noted with the rows so that another
        process brings them level with what changed since (:meth:`sync_changed`); a sync
        without it that writes rows drops the note. An index with none of many memories is
        built in chunks, ``progress(what, done, total)`` told after each (:mod:`.first_build`);
        while another builds it, nothing is written (``report.building``): never waited for.
        Not ``near_dupes`` (a search, which reads no near-duplicate row): a sync that writes no
        row leaves those rows as they are without asking whether they were made with today's
        parameters (:func:`.near_dupes.params`, rensa's version: importlib.metadata, ~a tenth
        of a search's start); the next sync that writes, or that a reader of them makes, makes
        them again if not."""
        try:
            report = self._sync(memories, at, progress, near_dupes)
        except sqlite3.DatabaseError as exc:
            if is_locked(exc):
                raise
            # another process may have built the file again (a reindex) under this
            # connection: open it again first, and build it again only if it still fails
            self.close()
            try:
                report = self._sync(memories, at, progress, near_dupes)
            except sqlite3.DatabaseError as again:
                if is_locked(again):
                    raise
                self.rebuild(f"unreadable ({again})")
                report = self._sync(memories, at, progress, near_dupes)
        if at is not None and not (report.added or report.changed or report.removed
                                   or report.building):
            note_level_at(self.conn, at, self._data_version)
        return report

    def _sync(self, memories: Mapping[str, Memory], at: str | None = None,
              progress: Progress | None = None, near_dupes: bool = True) -> SyncReport:
        report = SyncReport()

        def dupes_kept() -> bool:  # (asked last: only when no search row is to be written)
            return not near_dupes or self._near_dupes_current()

        known = self._load_known()
        if self._first_build_waits(memories, known, progress, report):
            return report
        known = self._load_known()
        mark = sync_mark(memories)
        changed = self._changed_since_sync(memories, known, mark)
        if changed is not None:  # only these ids can differ: the cost follows the change
            wanted = {i: self._fingerprint(memories[i]) for i in changed if i in memories}
            gone = [i for i in changed if i not in memories and i in known]
            if not gone and all(known.get(i, (0, None))[1] == fp for i, fp in wanted.items()) \
                    and dupes_kept():
                self._synced = (known, memories, mark)  # (uses, statuses: no row to write)
                return report
            return self._write(memories, wanted, gone, mark, report, at)
        if self._synced is not None and self._synced[0] is known and self._synced[2] == mark \
                and (self._synced[1] is memories or mark[0] == "objects") \
                and dupes_kept():
            # the same memory objects as last time (in the same mapping, or in a copy of the
            # same ids: the app's checks take one each time), no other writer since
            return report
        wanted = self.sources.wanted(memories, known)
        if not stale(wanted, known) and dupes_kept():
            self._note_sources()
            report.rebuilt, self.rebuilt = self.rebuilt, None
            self._synced, self._generation = (self._known, memories, mark), self._generation + 1
            return report
        return self._write(memories, wanted, None, mark, report, at)

    def _note_sources(self) -> None:
        """Note the sources found for rows whose fingerprint is current (:meth:`.RowSources.note`)."""
        if self.sources.note(None if self.path is None else self.conn, self._known):
            self._data_version = self.conn.execute("PRAGMA data_version").fetchone()[0]

    def _first_build_waits(self, memories: Mapping[str, Memory],
                           known: dict[str, tuple[int, str]], progress: Progress | None,
                           report: SyncReport) -> bool:
        """A first build (:mod:`.first_build`): True when another is under way (nothing
        written: a search answers from the memories, :meth:`.rank.Searcher.search`); runs one when
        the index lacks rows for many memories (the sync then goes on for what else differs)."""
        from . import first_build

        missing = len(memories) - len(known)
        if self.path is None or missing <= 0:
            return False
        under_way = first_build.building(self.conn)
        if under_way is not None:
            report.building = (under_way.done, under_way.total, under_way.eta)
            return True
        if missing < first_build.FIRST_BUILD_FROM:
            return False
        if known and not self._near_dupes_current():
            return False  # (the rows written so far need their keys made again: one sync)
        builder = first_build.Builder(self.conn, self.sources.made, progress)
        report.added = builder.run(memories)
        self._known, self._synced, self._near_dupes = None, None, True
        self._generation += 1
        return False

    def _changed_since_sync(self, memories: Mapping[str, Memory],
                            known: dict[str, tuple[int, str]],
                            mark: object = None) -> set[str] | None:
        """The ids changed in ``memories`` since the last sync (:func:`.changed_since`); None:
        compare every memory."""
        return changed_since(self._synced, memories, known, mark)

    def _write(self, memories: Mapping[str, Memory], wanted: dict[str, str],
               gone_ids: list[str] | None, mark: object, report: SyncReport,
               at: str | None = None) -> SyncReport:
        """Rewrite the rows of ``wanted`` (id -> fingerprint) that differ and remove those of
        ``gone_ids`` (None: every row not in ``wanted``), in one transaction."""
        conn = self.conn
        try:
            gone, written, bulk = self._write_rows(memories, wanted, gone_ids, report, at)
        except BaseException:
            # the transaction was rolled back: what this object holds of the rows (updated as
            # they were put) is no longer the file's, so the next sync reads them again
            self._known, self._synced, self._generation = None, None, self._generation + 1
            raise
        self._data_version = conn.execute("PRAGMA data_version").fetchone()[0]
        self._synced, self._generation = (self._known, memories, mark), self._generation + 1
        report.rebuilt, self.rebuilt = self.rebuilt, None
        if bulk:
            self.reading.words().build_common()
        return report

    def _write_rows(self, memories: Mapping[str, Memory], wanted: dict[str, str],
                    gone_ids: list[str] | None, report: SyncReport, at: str | None
                    ) -> tuple[list[int], list[tuple[int, str, str, str, str]], bool]:
        """:meth:`_write`'s transaction: the rows, the near-duplicate keys and the word lists."""
        with transaction(self.conn):
            before = self._known
            # under the write lock: read again when another connection wrote since (its
            # data_version moved), else the rows held are the file's and a change costs itself
            known = self._load_known()
            if gone_ids is not None and known is not before:  # written meanwhile: compare all
                wanted = self.sources.wanted(memories, known)
                gone_ids = None
            if known is before:  # a new dict for each write: what is kept by it (ids_by_rowid)
                known = self._known = dict(known)  # sees the change
            gone, written = put_rows(self.conn, self.sources, memories, wanted, gone_ids, known,
                                     report)
            self._keep_near_dupes(memories, known, gone, written, at)
            bulk = self._keep_words(gone, written)
        self._known = known
        return gone, written, bulk

    def _keep_words(self, gone: list[int], written: list[WrittenRow]) -> bool:
        """:func:`.keep_words` on this index's connection and word lists."""
        return keep_words(self.conn, self.reading.words, gone, written)

    def _near_dupes_current(self) -> bool:
        """True when the near-duplicate rows are made with today's parameters, or pending."""
        if self._near_dupes is None:
            from .near_dupes import NearDuplicateRows

            self._near_dupes = NearDuplicateRows(self.conn).kept()
        return self._near_dupes

    def _keep_near_dupes(self, memories: Mapping[str, Memory],
                         known: dict[str, tuple[int, str]], gone: list[int],
                         written: list[WrittenRow], at: str | None) -> None:
        """:func:`.keep_near_dupes` on this index's connection; they are current since."""
        keep_near_dupes(self.conn, memories, known, gone, written, at)
        self._near_dupes = True

    def sync_changed(self, memories: Mapping[str, Memory], ids: Collection[str], since: str,
                     at: str) -> SyncReport | None:
        """Bring the rows level with ``memories``, the tree of commit ``at``, when they were
        level with the tree of ``since`` and only ``ids`` changed between the two (what git
        says): the cost follows the change, not the vault, in a process that never synced
        (a ``memvault add``). None (nothing written) when the rows are no longer noted as
        level with ``since`` (another process wrote them meanwhile): sync everything."""
        report = SyncReport()
        bulk = write_changed(self.conn, self.sources, self._fingerprint, self._keep_words,
                             memories, ids, since, at, report)
        if bulk is None:
            return None
        # (the rows held here, if any, are no longer the file's: read again when needed)
        self._known, self._synced, self._generation = None, None, self._generation + 1
        if bulk:
            self.reading.words().build_common()
        return report

    def follows(self, memories: Mapping[str, Memory]) -> bool:
        """True when a sync of ``memories`` would cost only what changed in them since the
        last one (the same mapping, its change log still covering it); False when it would
        compare every memory."""
        if self._synced is None or self._synced[1] is not memories:
            return False
        return self._changed_since_sync(memories, self._load_known()) is not None

    def near_duplicates(self, progress: Callable[[int, int], None] | None = None) -> NearDuplicateRows:
        """The near-duplicate rows, for reading (sync first); pending ones made now (told)."""
        from .near_dupes import NearDuplicateRows

        (rows := NearDuplicateRows(self.conn)).make_pending(progress)
        return rows

    def ids_of(self, rowids: list[int] | None = None) -> dict[int, str]:
        """rowid -> memory id of these rows (None: of every row)."""
        if rowids is None:
            return dict(self.conn.execute("SELECT rowid, id FROM records"))
        out: dict[int, str] = {}
        for start in range(0, len(rowids), 500):
            chunk = rowids[start:start + 500]
            out.update(self.conn.execute("SELECT rowid, id FROM records WHERE rowid IN "
                                         f"({', '.join('?' * len(chunk))})", chunk))
        return out

    @property
    def generation(self) -> int:
        """Changes whenever the index was found to differ from the memories (or was written
        by another process): what is derived from it with an equal generation still holds."""
        return self._generation

    def fingerprints(self) -> dict[str, str]:
        """id -> fingerprint of every row (tests, ``reindex``)."""
        return {i: fp for i, (_, fp) in self._load_known().items()}

    def fingerprint_of(self, memory: Memory) -> str:
        return self._fingerprint(memory)

