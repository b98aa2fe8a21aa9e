"""Likely duplicates through the derived near-duplicate index (:mod:`core.search.near_dupes`):
the candidates a locality-sensitive hash names, then the exact similarity the consolidate
clusters use (:func:`core.ops.similarity.similarity`) on those only, never on every pair.

The index is the vault's search index file (``.git/memvault/index.sqlite``), brought level with
the memories given before each question (its rows and the search rows, one transaction). An
index is kept open for each of the last :data:`KEPT_OPEN` vault folders asked about. Only
suggestions come out of here: nothing is merged or refused.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import JournalError
from ..model.records import Memory
from ..search.index import SearchIndex
from ..search.near_dupes import keys_of_text

if TYPE_CHECKING:
    from ..vault import Vault

#: Below this similarity threshold the clusters compare pairs without the index: a link may
#: then rest on content tokens with Jaccard near 0.5, where the hash's recall falls off.
INDEX_FROM = 0.7

#: A pair is a candidate for the clusters when it shares this many keys: one shared key is
#: mostly chance between short notes of common words (at 50k such notes, 125k pairs for 375
#: sharing two), while a pair at the clusters' least Jaccard (0.76) shares two or more with
#: probability 0.96, at 0.8 0.994 (see docs/duplicates.md). A single text's check takes one.
MIN_SHARED = 2
#: A sync follows at most this many changed files from the commit its rows were noted level
#: with (more: it compares every memory).
FOLLOW_AT_MOST = 5000
#: Indexes kept open (the vaults asked about last): each holds a SQLite connection.
KEPT_OPEN = 4

_lock = threading.Lock()
_indexes: OrderedDict[Path, SearchIndex] = OrderedDict()


@contextlib.contextmanager
def synced_index(root: Path, memories: Mapping[str, Memory], index: SearchIndex | None = None,
                 vault: Vault | None = None) -> Iterator[SearchIndex]:
    """The index of the vault at ``root``, level with ``memories`` (every memory of the vault,
    every status: the search rows mirror them too): ``index`` when the caller keeps one open
    (the MCP server's search index: one index, one sync for both), else one kept here for
    this process's other callers, held until the block ends.

    ``memories`` is synced as it is, not copied: a mapping that logs its changes
    (:class:`core.store.lazy.LazyRecords`, ``vault.memories``) then costs what changed since
    the last sync, not the vault's size. ``vault`` (whose ``memories`` they are): the rows are
    noted as level with its head, and an index this process never synced (a ``memvault add``)
    is brought level with only what git says changed since the commit last noted (see
    :meth:`SearchIndex.sync_changed`), not by comparing every memory."""
    if index is not None:
        _sync(index, memories, vault)
        yield index
        return
    with _lock:
        kept = _indexes.get(root)
        if kept is None:
            kept = _indexes[root] = SearchIndex.for_root(root)
            while len(_indexes) > KEPT_OPEN:
                _indexes.popitem(last=False)[1].close()
        _indexes.move_to_end(root)
        _sync(kept, memories, vault)
        yield kept


def _sync(index: SearchIndex, memories: Mapping[str, Memory], vault: Vault | None) -> None:
    at = _tree_of(vault, memories)
    try:
        if vault is not None and at is not None and not index.follows(memories):
            since = index.near_duplicates().level_at()
            if since is not None:
                ids = _changed_memories(vault, since, at)
                if ids is not None and index.sync_changed(memories, ids, since, at) is not None:
                    return
    except sqlite3.DatabaseError as exc:  # (the whole sync below opens it again, or builds it)
        if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
            raise
    index.sync(memories, at=at)


def _tree_of(vault: Vault | None, memories: Mapping[str, Memory]) -> str | None:
    """The commit whose tree ``memories`` are: the head of a read-write ``vault`` whose
    memories they are (its outside edits are committed as it opens, its writes as they are
    made); None when that is not known."""
    if vault is None or vault.readonly or vault.memories is not memories:
        return None
    return vault.head


def _changed_memories(vault: Vault, since: str, at: str) -> set[str] | None:
    """Ids of the memories whose files differ between two commits (None: more than
    :data:`FOLLOW_AT_MOST`, or git cannot say: compare every memory instead)."""
    try:
        paths = vault.journal.history.changed_between(since, at)
    except JournalError:  # the noted commit is gone (history rewritten)
        return None
    if len(paths) > FOLLOW_AT_MOST:
        return None
    ids = set()
    for rel in paths:
        what = vault.layout.classify(rel)
        if what is not None and what[0] == "memory":
            ids.add(what[1])
    return ids


def forget(root: Path) -> None:
    """Close the index kept for ``root`` (a vault deleted, a test's end)."""
    with _lock:
        index = _indexes.pop(root, None)
    if index is not None:
        index.close()


def candidate_pairs(root: Path, memories: Mapping[str, Memory], pool: Collection[str],
                    vault: Vault | None = None) -> set[tuple[str, str]]:
    """The pairs of ids of ``pool`` the index names as likely similar, sharing at least
    :data:`MIN_SHARED` keys (each once, lower id first): the similar pairs up to the hash's
    recall, and a few others; compare each exactly. ``vault``: see :func:`synced_index`."""
    wanted = set(pool)
    def read(index: SearchIndex) -> tuple[set[tuple[int, int]], dict[int, str]]:
        docs = index.near_duplicates().pairs(MIN_SHARED)
        return docs, index.ids_of(sorted({d for pair in docs for d in pair}))

    with synced_index(root, memories, vault=vault) as index:
        docs, ids = index.answer(memories, lambda: read(index))
        _pass_on(index, vault)
    pairs: set[tuple[str, str]] = set()
    for a, b in docs:
        x, y = ids.get(a), ids.get(b)
        if x is None or y is None or x == y or x not in wanted or y not in wanted:
            continue
        pairs.add((x, y) if x < y else (y, x))
    return pairs


def candidates_for(root: Path, memories: Mapping[str, Memory], content: str,
                   index: SearchIndex | None = None, vault: Vault | None = None) -> list[str]:
    """Ids of the memories the index names as likely similar to a text, those sharing the
    most keys with it first (at most :data:`core.search.near_dupes.COMPARED`). ``index``,
    ``vault``: see :func:`synced_index`."""
    keys = keys_of_text(content)
    if not keys:
        return []
    def read(synced: SearchIndex) -> list[str]:
        docs = synced.near_duplicates().candidates(keys)
        ids = synced.ids_of(docs)
        return [ids[d] for d in docs if d in ids]

    with synced_index(root, memories, index, vault) as synced:
        found = synced.answer(memories, lambda: read(synced))
        _pass_on(synced, vault)
    return found


def _pass_on(index: SearchIndex, vault: Vault | None) -> None:
    """The index's notes (built again: damaged) into the vault's notices, when it is known."""
    notes = index.take_notes()
    if vault is not None:
        vault.notices.extend(notes)
