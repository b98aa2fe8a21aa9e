"""The copies of record files the open index holds, read for an open: each used only when its
bytes are the blob its row names.

The rows are :mod:`core.search.indexed_files`'s, the open :class:`core.vault.indexed_open.
OpenIndex`. git's blob id of each copy is worked out as its row is read. A derived file is never
a source of truth: a copy that is not its blob (changed inside the SQLite file, which SQLite's
own checks do not see) is left for the open to read from disk, said in one notice, and its row
is written again from the blob git holds (:func:`plan_damaged`). Figures: docs/writes.md."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..errors import InvalidIdError
from ..store.layout import check_id
from ..store.record_loading import RecordRefused, check_record
from .index_writer import Rows, Wanted

if TYPE_CHECKING:  # (imported when an open first reads the index)
    from ..git.blobs import ObjectStore
    from ..search.indexed_files import IndexedFiles


class Copies:
    """The bodies of the rows an open can use: ``memories`` and ``relations`` (id -> bytes), the
    paths it must read from disk (``stale``, given and added to) and, among them, those whose
    copy was not its blob (``damaged``)."""

    def __init__(self, stale: set[str]) -> None:
        self.memories: dict[str, bytes] = {}
        self.relations: dict[str, bytes] = {}
        self.stale = stale
        self.damaged: list[str] = []

    def read(self, files: IndexedFiles) -> bool:
        """Read every row of ``files`` (but those of ``stale``); False when a memory or a
        relation has two rows (two files for one id: reading every file says which is loaded).
        Raises sqlite3.Error when the rows cannot be read."""
        from ..search.indexed_files import blob_id

        pools = {"memory": self.memories, "relation": self.relations}
        stale, damaged = self.stale, self.damaged
        for rel, blob, kind, record_id, body in files.rows():
            if rel in stale:
                continue
            pool = pools.get(kind)  # type: ignore[arg-type]
            if body is None or pool is None or record_id is None:
                stale.add(rel)  # read from disk: it says what is wrong with the file
                continue
            if type(body) is not bytes or type(blob) is not str \
                    or blob_id(body, len(blob)) != blob:
                damaged.append(rel)  # not the bytes of the blob it names: never used
                stale.add(rel)
                continue
            if record_id in pool:
                return False
            pool[record_id] = body  # valid when written (makes_record)
        return True

    def notice(self, readonly: bool) -> str:
        """One line: which copies were damaged, and what was done instead."""
        rels = self.damaged
        first = rels[0] + (f" and {len(rels) - 1} more" if len(rels) > 1 else "")
        return (f"the derived index (.git/memvault/index.sqlite) held a damaged copy of {first}: "
                "read from the file instead" + ("" if readonly else "; its row rebuilt"))


def plan_damaged(objects: ObjectStore, classify: Callable[[str], tuple[str, str] | None],
                 folder: str, head: str, damaged: list[str], rows: Rows, wanted: Wanted) -> None:
    """Add to ``rows`` and ``wanted`` the rows of the ``damaged`` paths not planned already:
    each written again from the blob git holds at ``head`` (its path gone there: its row
    removed). Raises JournalError when git cannot say."""
    damaged = [rel for rel in damaged if rel not in rows]
    if not damaged:
        return
    prefix = "" if folder in ("", ".") else folder.rstrip("/") + "/"
    found = objects.blob_ids(head, [prefix + rel for rel in damaged])
    for rel in damaged:
        sha = found.get(prefix + rel)
        what = classify(rel)
        rows[rel] = None if sha is None else (sha, None, None, None)
        if sha is not None and what is not None and what[0] != "meta" and valid_id(*what):
            wanted[rel] = (sha, *what)


def valid_id(kind: str, record_id: str) -> bool:
    """Whether ``record_id`` is a valid id of a ``kind`` record (else the open reads the file
    from disk, which says what is wrong)."""
    try:
        check_id(record_id, kind)
    except InvalidIdError:
        return False
    return True


def makes_record(kind: str, record_id: str, body: bytes) -> bool:
    """Whether ``body`` is a valid record of ``kind`` with this id, as reading the file would
    find (:func:`~core.store.record_loading.check_record`): a row keeps its bytes only then, for
    an open to hold them unparsed (:meth:`core.store.cache.Store.fill_raw`)."""
    try:
        check_record(kind, record_id, body)
    except RecordRefused:
        return False
    return True
