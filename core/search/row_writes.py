"""The writes of the search index's rows, parts of :meth:`core.search.index.SearchIndex.sync`
handed the connection and what they need: the FTS and ``records`` rows (:func:`put_rows`), the
near-duplicate keys (:func:`keep_near_dupes`) and word lists (:func:`keep_words`) that follow
them, the commit they are level with (:func:`note_level_at`), and the write of only the ids git
says changed (:func:`write_changed`)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import TYPE_CHECKING

from .row_sources import RowSources
from .sync_compare import SyncReport
from .transaction import transaction
from .word_forms import indexed

if TYPE_CHECKING:
    from ..model.records import Memory
    from .wordlists import Words

#: A row written: (rowid, content, gist, tags, entities).
WrittenRow = tuple[int, str, str, str, str]


def put_rows(conn: sqlite3.Connection, sources: RowSources, memories: Mapping[str, Memory],
             wanted: dict[str, str], gone_ids: Iterable[str] | None,
             known: dict[str, tuple[int, str]],
             report: SyncReport) -> tuple[list[int], list[WrittenRow]]:
    """Inside the caller's transaction: remove the rows of ``gone_ids`` (None: of every id
    of ``known`` not in ``wanted``) and rewrite those of ``wanted`` whose fingerprint
    differs; ``known`` (id -> (rowid, fingerprint) of the rows concerned) follows. Returns
    the rowids removed and the rows written."""
    gone: list[int] = []
    written: list[WrittenRow] = []
    for memory_id in [i for i in (known if gone_ids is None else gone_ids)
                      if i not in wanted and i in known]:
        rowid, _ = known.pop(memory_id)
        gone.append(rowid)
        conn.execute("DELETE FROM fts WHERE rowid = ?", (rowid,))
        conn.execute("DELETE FROM records WHERE rowid = ?", (rowid,))
        conn.execute("DELETE FROM embeddings WHERE id = ?", (memory_id,))
        report.removed += 1
    for memory_id, fp in wanted.items():
        old = known.get(memory_id)
        if old is not None and old[1] == fp:
            continue
        m = memories[memory_id]
        row = (indexed(m.content), m.gist or "", "\n".join(m.meta.tags), "\n".join(m.entities))
        source = sources.source_of(memory_id, m)
        if old is None:
            cursor = conn.execute("INSERT INTO records (id, fingerprint, source, created_at) "
                                  "VALUES (?, ?, ?, ?)", (memory_id, fp, source, m.created_at))
            assert cursor.lastrowid is not None  # (an INSERT's rowid)
            rowid = cursor.lastrowid
            report.added += 1
        else:
            rowid = old[0]
            conn.execute("DELETE FROM fts WHERE rowid = ?", (rowid,))
            conn.execute("UPDATE records SET fingerprint = ?, source = ?, created_at = ? "
                         "WHERE rowid = ?", (fp, source, m.created_at, rowid))
            report.changed += 1
        conn.execute("INSERT INTO fts (rowid, content, gist, tags, entities) "
                     "VALUES (?, ?, ?, ?, ?)", (rowid, *row))
        written.append((rowid, *row))
        known[memory_id] = (rowid, fp)
    return gone, written


def keep_words(conn: sqlite3.Connection, words: Callable[[], Words], gone: list[int],
               written: list[WrittenRow]) -> bool:
    """The word lists follow the rows (in the caller's transaction); True when they were
    dropped, to be built again once it ends."""
    from . import wordlists

    if len(written) + len(gone) >= wordlists.REWRITE_FROM:
        wordlists.drop_all(conn)
        return True
    words().keep_up(gone + [w[0] for w in written], written)
    return False


def keep_near_dupes(conn: sqlite3.Connection, memories: Mapping[str, Memory],
                    known: dict[str, tuple[int, str]], gone: list[int],
                    written: list[WrittenRow], at: str | None) -> None:
    """The near-duplicate rows (:mod:`.near_dupes`) follow the search rows, in their
    transaction: those of the rows gone or rewritten go, those written come (while keys are
    pending, only below what is made: :meth:`.NearDuplicateRows.defer`); rows made
    with other parameters (or none yet) are made again from every memory. The commit the
    rows are level with is noted (``at``), or forgotten (None: not known)."""
    from .near_dupes import NearDuplicateRows

    rows = NearDuplicateRows(conn)
    if rows.kept():  # (pending: rows past what is made get theirs when the rest are made)
        made_to = rows.made_to()
        rows.remove(gone + [w[0] for w in written])
        rows.put((w[0], w[1]) for w in written if w[0] <= made_to)
    else:
        rows.reset()
        rows.put((rowid, memories[i].content) for i, (rowid, _) in known.items())
    rows.note_level_at(at)


def note_level_at(conn: sqlite3.Connection, at: str, data_version: int | None) -> None:
    """After a sync that wrote nothing: note that the rows are level with the tree of
    ``at``, unless another connection wrote since they were compared (its ``data_version``
    is no longer ``data_version``)."""
    from .near_dupes import NearDuplicateRows

    rows = NearDuplicateRows(conn)
    if rows.level_at() == at:
        return
    with transaction(conn):
        if conn.execute("PRAGMA data_version").fetchone()[0] == data_version:
            rows.note_level_at(at)


def write_changed(conn: sqlite3.Connection, sources: RowSources,
                  fingerprint_of: Callable[[Memory], str],
                  words_kept: Callable[[list[int], list[WrittenRow]], bool],
                  memories: Mapping[str, Memory], ids: Collection[str], since: str, at: str,
                  report: SyncReport) -> bool | None:
    """In one transaction: the rows of ``ids`` brought level with ``memories`` (the tree of
    ``at``) when the rows are noted as level with the tree of ``since``; their near-duplicate
    keys and word lists follow (``words_kept``: :func:`keep_words`'s answer). Returns whether
    the word lists were dropped, to be built again; None (nothing written) when the rows are
    no longer level with ``since``."""
    from .near_dupes import NearDuplicateRows

    rows = NearDuplicateRows(conn)
    with transaction(conn):
        if rows.level_at() != since or not rows.current():
            return None
        part: dict[str, tuple[int, str]] = {}
        listed = sorted(ids)
        for start in range(0, len(listed), 500):
            chunk = listed[start:start + 500]
            part.update((i, (rowid, fp)) for rowid, i, fp in conn.execute(
                "SELECT rowid, id, fingerprint FROM records WHERE id IN "
                f"({', '.join('?' * len(chunk))})", chunk))
        wanted = {i: fingerprint_of(memories[i]) for i in listed if i in memories}
        gone, written = put_rows(conn, sources, memories, wanted,
                                 [i for i in listed if i not in memories], part, report)
        rows.remove(gone + [w[0] for w in written])
        rows.put((w[0], w[1]) for w in written)
        rows.note_level_at(at)
        return words_kept(gone, written)
