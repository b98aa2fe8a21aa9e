"""What each search row was made from: the git blob id of the memory file's bytes
(``records.source``), so that bringing the index level with a vault opened from the derived index
(whose memories are still their files' bytes) compares hashes and parses only the memories whose
bytes differ.

A row whose source is unknown (written from a memory already parsed) is compared by its
fingerprint as before; when the bytes are known and make the same fingerprint, the source is
noted (:attr:`RowSources.fixes`), so the next search spares the parse. Figures: docs/writes.md.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from .transaction import transaction

if TYPE_CHECKING:
    from ..model.records import Memory

#: One row of the search index: (the memory, its fingerprint, the blob id of the bytes it was
#: parsed from, or None when not known).
MadeRow = tuple["Memory", str, "str | None"]


def blob_id(data: bytes, length: int = 40) -> str:
    """The id git gives a blob of ``data`` (SHA-1; SHA-256 when ``length`` is 64)."""
    digest = hashlib.sha256() if length == 64 else hashlib.sha1()  # noqa: S324 (git's own id)
    digest.update(b"blob %d\0" % len(data))
    digest.update(data)
    return digest.hexdigest()


class RowSources:
    """The sources of an index's rows (``held``: id -> source, as read with the rows) and the
    blob ids of the memories parsed from bytes here; ``fingerprint`` is the index's own."""

    def __init__(self, fingerprint: Callable[[Memory], str]):
        self.fingerprint = fingerprint
        self.held: dict[str, str] = {}
        #: id -> (the memory parsed from bytes here, the blob id of those bytes)
        self._parsed: dict[str, tuple[Memory, str]] = {}
        #: id -> source, for rows whose fingerprint is current but whose source is not noted
        self.fixes: dict[str, str] = {}

    def forget(self) -> None:
        self.held, self._parsed, self.fixes = {}, {}, {}

    def wanted(self, memories: Mapping[str, Memory],
               known: dict[str, tuple[int, str]]) -> dict[str, str]:
        """id -> fingerprint of every memory of ``memories``: a memory still held as bytes
        whose blob id is its row's source takes the row's fingerprint unparsed."""
        held = getattr(memories, "held", None)
        if held is None:
            fingerprint = self.fingerprint
            return {i: fingerprint(m) for i, m in memories.items()}
        out: dict[str, str] = {}
        sources, fixes = self.held, self.fixes
        for memory_id in list(memories):
            value = held(memory_id)
            if type(value) is not bytes:
                out[memory_id] = self.fingerprint(value)
                continue
            row = known.get(memory_id)
            blob = blob_id(value)
            if row is not None and sources.get(memory_id) == blob:
                out[memory_id] = row[1]
                continue
            memory = memories[memory_id]
            self._parsed[memory_id] = (memory, blob)
            fp = out[memory_id] = self.fingerprint(memory)
            if row is not None and row[1] == fp:
                fixes[memory_id] = blob
        return out

    def note(self, conn: sqlite3.Connection | None, known: dict[str, tuple[int, str]] | None
             ) -> bool:
        """Write the sources found (:attr:`fixes`) into the rows of ``known`` on ``conn`` (None:
        an index in memory, nothing to spare), in one transaction; a row rewritten meanwhile by
        another connection keeps its own. True when something was written."""
        fixes, self.fixes = self.fixes, {}
        if not fixes or conn is None or known is None:
            return False
        with transaction(conn):
            conn.executemany("UPDATE records SET source = ? WHERE id = ? AND fingerprint = ?",
                             [(source, i, known[i][1]) for i, source in fixes.items()
                              if i in known])
        return True

    def source_of(self, memory_id: str, memory: Memory) -> str | None:
        """The blob id ``memory`` was parsed from here, if it was."""
        parsed = self._parsed.get(memory_id)
        return parsed[1] if parsed is not None and parsed[0] is memory else None

    def made(self, memories: Mapping[str, Memory], memory_id: str) -> MadeRow:
        """The memory ``memory_id`` of ``memories`` with its fingerprint and the blob id of its
        bytes when it is still held as bytes (parsed here)."""
        held = getattr(memories, "held", None)
        value = held(memory_id) if held is not None else None
        memory = memories[memory_id]
        source = blob_id(value) if type(value) is bytes else self.source_of(memory_id, memory)
        return memory, self.fingerprint(memory), source
