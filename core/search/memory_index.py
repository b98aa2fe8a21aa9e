"""A search index in memory, made from the memories a process holds: what a search answers from
while the index file is first built by another process (:mod:`.background_build`).

It holds the same FTS5 rows as the index file will (every memory, every status, the same
columns and tokenizer), so bm25 sees the same documents, row counts and lengths, and the ranking
is the one the file will give. Only the search rows are made: no near-duplicate keys and no word
lists ahead (a common word's list is made in memory the first time it is searched), which is
what makes it quick: ~1.5 s for 100k memories, where the file's first build takes a minute.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..model.records import Memory
from .index import SearchIndex
from .transaction import transaction


def memory_index(memories: Mapping[str, Memory]) -> SearchIndex:
    """An index in memory with the search rows of every memory of ``memories`` (never synced:
    made again for other memories)."""
    index = SearchIndex(None)
    conn = index.conn
    records, texts = [], []
    for rowid, (memory_id, m) in enumerate(memories.items(), 1):
        records.append((rowid, memory_id))
        texts.append((rowid, m.content, m.gist or "", "\n".join(m.meta.tags),
                      "\n".join(m.entities)))
    with transaction(conn):
        # (no fingerprint: these rows are never compared with the memories again)
        conn.executemany("INSERT INTO records (rowid, id, fingerprint) VALUES (?, ?, '')",
                         records)
        conn.executemany("INSERT INTO fts (rowid, content, gist, tags, entities) "
                         "VALUES (?, ?, ?, ?, ?)", texts)
    return index
