"""Filling a vault's cache from its files: every file at once (an open), or the paths a commit
changed (catching up with another writer), or paths as git holds them at a commit (a read-only
open that never shows an operation half-way). Reads only: nothing here writes a file."""

from __future__ import annotations

import contextlib
import gc
import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from ..errors import VaultError
from ..store.cache import Store
from ..store.layout import MEMORIES_DIR, RELATIONS_DIR, LoadProblem
from ..store.record_loading import RecordFeed, check_record
from ..store.kept_bytes import KeptWhileSmall
from .state import VaultState

if TYPE_CHECKING:  # (a read makes its records without the models: core.model.plain_records)
    from ..git.clean_files import CleanFiles
    from ..model.records import Memory, Relation


class MemoryFeed(RecordFeed, Protocol):
    """Told the memories an open loads, as it loads them (:class:`~core.search.read_rows.
    RowsWhileReading`): the size of each folder (``expect``), its memories a few at a time
    (``add``), then that there are no more (``end``)."""

    def end(self) -> None: ...


#: A read-only open that keeps no bytes leaves a relations folder of this many entries or more
#: unread until relations are first used (:meth:`CacheLoader.load_files`).
UNREAD_FROM = 10_000
#: The first search after a clone takes the memory files git vouches for from git's objects
#: from this many files on (:mod:`core.git.clean_files`; below, reading them is quicker than
#: starting git).
FROM_GIT_FROM = 1000


def _holds_many(folder: Path, n: int) -> bool:
    """Whether ``folder`` holds ``n`` entries or more, or a folder (a sharded layout's shard);
    counted up to ``n``, never through a link."""
    try:
        with os.scandir(folder) as entries:
            for count, entry in enumerate(entries, 1):
                if count >= n or entry.is_dir(follow_symlinks=False):
                    return True
    except OSError:
        return False
    return False


def _is_big(folder: Path) -> bool:
    """Whether the relations folder has :data:`UNREAD_FROM` entries or more."""
    try:
        with os.scandir(folder) as entries:
            return sum(1 for _ in entries) >= UNREAD_FROM
    except OSError:
        return False


def _check(kind: str, record_id: str, data: bytes) -> Memory | Relation:
    """The record a file held unchecked makes (:func:`check_record`)."""
    return check_record(kind, record_id, data)  # type: ignore[no-any-return]


def _keeping(keep: dict[str, bytes] | None) -> bool:
    """Whether the open keeps the bytes of what it reads (for the open index: then every file's,
    relations too); a :class:`KeptWhileSmall` that let go of them keeps none."""
    return keep is not None and not (isinstance(keep, KeptWhileSmall) and keep.full)


class CacheLoader:
    """Reads the vault's files into ``state``'s cache."""

    def __init__(self, state: VaultState) -> None:
        self.state = state

    def load_files(self, keep: dict[str, bytes] | None = None,
                   fed: MemoryFeed | None = None, *, unchecked: bool = False,
                   into: Store | None = None) -> None:
        """Read every file into a new cache (``keep``: filled with the vault-relative path and
        bytes of each file that loaded as a valid record; ``fed``: handed the memories as each
        folder is loaded; see :meth:`Layout.load_folder`). A read-only open (a command's) that
        keeps no bytes (the first search after a clone of a big vault keeps none) leaves a big
        relations folder unread until relations are first used, and any relations folder when
        it is ``fed`` (a search: it never uses them; at 100k, 4.46 s -> 3.96 s). Any other
        read-only open reads them but parses none (:meth:`_relations_unchecked`); a writer's
        reads them at once (its next operations use them). ``unchecked``
        (with no ``fed``): the records are held as their bytes, each checked when first read
        (:meth:`_load_unchecked`). ``into``: the cache filled, an empty one (default: a new
        one), its mappings perhaps waiting to be filled on first use (:mod:`.later_copies`)."""
        self.state.layout.vouched = {}  # (every file read from disk below, or named again)
        if unchecked and fed is None and self._load_unchecked(keep, into):
            return
        state = self.state
        store, layout = into or Store(), state.layout
        # Tens of thousands of long-lived objects and no garbage among them: the cyclic collector
        # would only rescan them, again and again while loading and once more right after. So it
        # is paused while loading and the loaded heap is frozen out of its scans (objects are
        # still freed by reference counting as usual).
        collecting = gc.isenabled()
        gc.disable()
        try:
            known = None if fed is None else self._clean_memories()
            try:
                memories, problems = layout.load_folder("memory", keep, fed, known)
            finally:
                if known is not None:
                    known.close()
            if fed is not None:
                fed.end()
            relation_problems: list[LoadProblem] = []
            if state.readonly and not _keeping(keep) and (
                    fed is not None or _is_big(layout.relations_dir)):
                store.fill_loaded(memories, ())
                store.relations_later(lambda: self._relations_on_first_use(store))
            elif state.readonly:  # read, held unchecked: parsed when first used
                store.fill_loaded(memories, ())
                relation_problems = self._relations_unchecked(store, keep)
            else:
                relations, relation_problems = layout.load_folder("relation", keep)
                store.fill_loaded(memories, relations)  # (one file per id: the loader's rule)
        finally:
            if collecting:
                gc.freeze()
                gc.enable()
        state.store, state.problems = store, problems + relation_problems
        state.meta = layout.read_meta() or {}

    def _clean_memories(self, folder: str = MEMORIES_DIR) -> CleanFiles | None:
        """The memory files (or the ``folder``'s) git vouches for, read from its objects in one
        stream instead of one by one (:mod:`core.git.clean_files`): for the first search after a
        clone of a big vault (it reads every memory for its rows), and any open after a clone.
        None when the folder is small, the vault is in no repository or git cannot answer:
        every file is read from disk."""
        state = self.state
        if not _holds_many(state.root / folder, FROM_GIT_FROM):
            return None
        from ..git.clean_files import CleanFiles
        from ..store.files import MAX_FILE_BYTES

        try:
            journal = state.journal
            return CleanFiles.start(journal.commands, journal.repository, folder,
                                    MAX_FILE_BYTES)
        except (VaultError, OSError):
            return None

    def _load_unchecked(self, keep: dict[str, bytes] | None, into: Store | None = None) -> bool:
        """Read every file into a new cache that holds each record as its bytes, checked when
        first read or when all are (:meth:`Store.fill_unchecked`: at 10k memories the open
        parses none of them). A file that is no valid record of its id joins the vault's
        problems with the reason reading it at once would give (its bytes dropped from
        ``keep``), as soon as it is checked: reading the problems checks every record first
        (:attr:`VaultState.problems`). False (nothing read) when a memory may have two files:
        the rule that picks one reads them. A read-only open that keeps no bytes leaves a big
        relations folder unread until relations are first used, as :meth:`load_files` does."""
        state, layout = self.state, self.state.layout
        later = state.readonly and not _keeping(keep) and _is_big(layout.relations_dir)
        known = self._clean_memories()  # (a big folder: from git's objects, as a search does)
        both = [known, None if later else self._clean_memories(RELATIONS_DIR)]
        collecting = gc.isenabled()
        gc.disable()  # (as load_files: nothing but long-lived objects made while reading)
        try:
            memories = layout.read_folder("memory", keep, known)
            relations = None if memories is None else ({}, {}, []) if later \
                else layout.read_folder("relation", keep, both[1])
        finally:
            for clean in both:
                if clean is not None:
                    clean.close()
            if collecting:
                gc.freeze()
                gc.enable()
        if memories is None or relations is None:
            return False
        # the files taken from git were never stat'ed: a write checks their blob first
        layout.vouched = {rel: blob for clean in both if clean is not None
                          for rel, blob in clean.blobs().items()}
        store = into or Store()
        paths = {"memory": memories[1], "relation": relations[1]}
        store.fill_unchecked(memories[0], relations[0], _check,
                             self._refusals(store, paths, keep))
        if later:
            store.relations_later(lambda: self._relations_on_first_use(store))
        state.store, state.problems = store, memories[2] + relations[2]
        state.meta = layout.read_meta() or {}
        return True

    def _relations_unchecked(self, store: Store, keep: dict[str, bytes] | None
                             ) -> list[LoadProblem]:
        """The relations folder of a read-only open read into ``store`` (whose memories are
        loaded), each relation held as its bytes and checked when first read or when all are
        (:meth:`Store.relations_unchecked`): a search never reads them (at 10k memories and
        3,333 relations, the 3,333 parses of the first search after a clone). The problems of
        the files that could not be read are returned; one refused when checked joins the
        vault's problems then, its bytes dropped from ``keep``."""
        kept = keep if _keeping(keep) else None
        found = self.state.layout.read_folder("relation", kept)
        if found is None:  # (only memories have shard folders)
            raise AssertionError("a relations folder with shard folders")
        read, paths, problems = found
        store.relations_unchecked(read, _check, self._refusals(store, {"relation": paths}, kept))
        return problems

    def _refusals(self, store: Store, paths: dict[str, dict[str, str]],
                  keep: dict[str, bytes] | None) -> Callable[[str, str, ValueError], None]:
        """What ``store`` calls for a record held unchecked that is no record of its id: its
        path (``paths``: kind -> id -> path) joins the vault's problems, while ``store`` is
        still the vault's cache, and its bytes are dropped from ``keep``."""
        state = self.state
        cut = len(os.path.join(str(state.root), ""))

        def refused(kind: str, record_id: str, exc: ValueError) -> None:
            path = paths[kind].pop(record_id)
            if keep is not None:
                rel = path[cut:]
                keep.pop(rel if os.sep == "/" else rel.replace(os.sep, "/"), None)
            if state.store is store:  # (not a cache the vault has replaced since)
                state.add_problem(LoadProblem(Path(path), str(exc)))

        return refused

    def _relations_on_first_use(self, store: Store) -> list[Relation]:
        """The relations folder of a read-only open that left it unread (:meth:`load_files`),
        read when relations are first used; its problems join the vault's then, as the open
        would have reported them (while ``store`` is still the vault's cache)."""
        state = self.state
        collecting = gc.isenabled()
        gc.disable()
        try:
            relations, problems = state.layout.load_folder("relation")
        finally:
            if collecting:
                gc.enable()
        if state.store is store and problems:
            state.problems = [*state.problems, *problems]
        return relations

    def show_at(self, rev: str, repo_paths: list[str]) -> None:
        """Replace what the cache holds for these repository paths by their version at ``rev``
        (in two passes, as :meth:`reload_paths`: all dropped, then the versions loaded)."""
        state = self.state
        contents = state.journal.objects.files_at(rev, repo_paths)
        loads: list[tuple[str, bytes]] = []
        for repo_path in repo_paths:
            rel = state.journal.vault_rel(repo_path)
            what = state.layout.classify(rel)
            if what is None:
                continue
            kind, record_id = what
            data = contents.get(repo_path)
            if kind == "meta":
                with contextlib.suppress(ValueError):
                    state.meta = json.loads(data) if data is not None else {}
                continue
            state.problems = [p for p in state.problems if p.path != state.root / rel]
            if kind == "memory":
                state.store.drop_memory(record_id)
            else:
                state.store.drop_relation(record_id)
            if data is not None:
                loads.append((kind, data))
        from pydantic import ValidationError

        from ..model.records import Memory, Relation

        for kind, data in loads:
            try:
                if kind == "memory":
                    state.store.put_memory(Memory.model_validate_json(data))
                else:
                    state.store.put_relation(Relation.model_validate_json(data))
            except ValidationError:
                continue

    def reload_paths(self, rels: Iterable[str]) -> None:
        """Bring the cache up to date with the given vault-relative paths (after a commit made
        elsewhere: another process, a git pull). Two passes: every record named is dropped
        first, then the files that exist are loaded, so a memory moved between layouts (its
        old path removed, its new one added, in any order) stays in the cache."""
        state = self.state
        loads: list[tuple[str, Path]] = []
        for rel in rels:
            what = state.layout.classify(rel)
            if what is None:
                continue
            kind, record_id = what
            path = state.root / rel
            if kind == "meta":
                state.meta = state.layout.read_meta() or {}
                continue
            state.problems = [p for p in state.problems if p.path != path]
            if kind == "memory":
                state.store.drop_memory(record_id)
            else:
                state.store.drop_relation(record_id)
            if os.path.lexists(path):
                loads.append((kind, path))
        for kind, path in loads:
            record, problem = state.layout.load_file(path, kind)
            if record is None:
                state.problems.append(LoadProblem(path, problem or "unreadable"))
            elif kind == "memory":
                state.store.put_memory(record)
            else:
                state.store.put_relation(record)
