"""Opening a vault: reading every file into the cache, finishing what a crashed writer left, and
committing a person's edits made outside memvault (only those that load as valid records)."""

from __future__ import annotations

import contextlib
import gc
import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from pydantic import ValidationError

from ..errors import VaultError
from ..model.records import (
    Memory,
    Relation,
)
from ..store.cache import Store
from ..store.layout import (
    LoadProblem,
)
from ..store.private import make_paths_private, make_tree_private
from ..store.quarantine import quarantine
from ..textutil import neutralise_line
from .indexed_open import READONLY_INDEX_FROM, IndexedOpening


class Opening(IndexedOpening):
    """Opening a vault: load the files, finish crashed operations, commit a person's outside edits."""

    def load(self) -> None:
        """Read every vault file into the cache. Unless read-only: finish a crashed operation,
        commit files changed outside memvault (saying so), and create the vault if it is new."""
        if self.readonly:
            if not self.root.is_dir():
                raise VaultError(f"no vault at {self.root}")
            self._load_settled_view()
            self._open = True
            return
        self.layout.ensure_dirs()
        journal = self.journal
        journal.ensure_private()
        # a person's own clone, files a checkout left readable
        make_tree_private(self.root, journal.shared_on_purpose)
        if journal.has_intent():
            with journal.lock():
                self._recover()
        head = journal.head()
        status = journal.start_status(self.layout.vault_paths())
        files = self._files_index()
        try:
            stale = None if files is None else self._load_from_index(files, head)
            read: dict[str, bytes] | None = None
            if stale is None:
                read = {} if files is not None else None  # the index is written from them
                self._load_files(read)
            self._head = head
            changed = journal.finish_status(status)
            if stale is not None:
                self._read_from_disk(stale | set(changed))
                # files a `git pull` checked out 0644
                make_paths_private(self.root, stale, journal.shared_on_purpose)
            self._adopt_at_open(changed)
            if files is not None:
                self._write_index(files, read=self._vault_relative(read))
        finally:
            if files is not None:
                files.close()
        self._open = True

    def _adopt_at_open(self, changed: list[str]) -> None:
        self.report.writes_refused = self.journal.write_refusal()
        if self.report.writes_refused is None and (changed or not os.path.lexists(self.layout.meta_path)):
            with self.transaction():
                self.adopt_outside_edits(changed)
                if not os.path.lexists(self.layout.meta_path):
                    self._commit("init: create memvault vault", {
                        self.layout.meta_path: self.layout.encode(self.layout.new_meta())})
                    self.report.initialised = True

    def _load_files(self, keep: dict[str, bytes] | None = None) -> None:
        """Read every file into a new cache (``keep``: filled with the path and bytes of each
        file that loaded as a valid record, see :meth:`Layout.load_folder`)."""
        store, layout = Store(), self.layout
        # Tens of thousands of long-lived objects and no garbage among them: the cyclic collector
        # would only rescan them, again and again while loading and once more right after. So it
        # is paused while loading and the loaded heap is frozen out of its scans (objects are
        # still freed by reference counting as usual).
        collecting = gc.isenabled()
        gc.disable()
        try:
            memories, problems = layout.load_folder("memory", keep)
            relations, relation_problems = layout.load_folder("relation", keep)
            for memory in memories:
                store.put_memory(memory)
            for relation in relations:
                store.put_relation(relation)
        finally:
            if collecting:
                gc.freeze()
                gc.enable()
        self.store, self.problems = store, problems + relation_problems
        self.meta = layout.read_meta() or {}

    def _vault_relative(self, read: dict[str, bytes] | None) -> dict[str, bytes] | None:
        """The paths :meth:`_load_files` kept, made relative to the vault (as git names them
        under its folder); the dict is emptied as it goes (the bytes are held once)."""
        if not read:
            return None
        prefix = os.path.join(str(self.root), "")
        cut = len(prefix)
        out: dict[str, bytes] = {}
        while read:
            path, data = read.popitem()
            if path.startswith(prefix):
                out[path[cut:].replace(os.sep, "/")] = data
        return out

    def _recover(self) -> None:
        """Finish operations that crashed or could not put the vault back (the lock is held),
        and bring the cache up to date with the files they touched."""
        journal = self.journal
        touched = journal.pending_paths()
        note = journal.recover()
        self._remove_temp_files()
        if note:
            self.report.recovered = f"{self.report.recovered}; {note}" if self.report.recovered \
                else note
        if self._open:
            self._reload_paths(journal.vault_rel(p) for p in touched)

    def _load_settled_view(self) -> None:
        """Read-only: load the files (from the derived index when it can be used, as a read-write
        open does, but without writing it), and never show an operation half-way. Paths an
        unfinished operation names are shown as at HEAD; a commit landing while loading means
        load again. Nothing is written, under ``.git`` either."""
        from ..git.gitdir import find_git_dir, read_head
        from ..git.intent import IntentLog

        found = find_git_dir(self.root)
        for _attempt in range(5):
            before = _read_head_or_none(found, read_head)
            if before is None or not self._load_indexed_readonly(before):
                keep: dict[str, bytes] | None = {} if self.keep_read else None
                self._load_files(keep)
                if keep is not None and len(keep) >= READONLY_INDEX_FROM:
                    self._read_at_open = self._vault_relative(keep)
            if found is None:
                return
            pending = IntentLog(found[0] / "memvault").pending()
            if _read_head_or_none(found, read_head) != before:
                continue
            if pending and before is not None:
                self._show_at(before, self.journal.pending_paths())
            return

    def _show_at(self, rev: str, repo_paths: list[str]) -> None:
        """Replace what the cache holds for these repository paths by their version at ``rev``
        (in two passes, as :meth:`_reload_paths`: all dropped, then the versions loaded)."""
        contents = self.journal.files_at(rev, repo_paths)
        loads: list[tuple[str, bytes]] = []
        for repo_path in repo_paths:
            rel = self.journal.vault_rel(repo_path)
            what = self.layout.classify(rel)
            if what is None:
                continue
            kind, record_id = what
            data = contents.get(repo_path)
            if kind == "meta":
                with contextlib.suppress(ValueError):
                    self.meta = json.loads(data) if data is not None else {}
                continue
            self.problems = [p for p in self.problems if p.path != self.root / rel]
            if kind == "memory":
                self.store.drop_memory(record_id)
            else:
                self.store.drop_relation(record_id)
            if data is not None:
                loads.append((kind, data))
        for kind, data in loads:
            model = Memory if kind == "memory" else Relation
            try:
                record = model.model_validate_json(data)
            except ValidationError:
                continue
            if kind == "memory":
                self.store.put_memory(record)
            else:
                self.store.put_relation(record)

    def _reload_paths(self, rels: Iterable[str]) -> None:
        """Bring the cache up to date with the given vault-relative paths (after a commit made
        elsewhere: another process, a git pull). Two passes: every record named is dropped
        first, then the files that exist are loaded, so a memory moved between layouts (its
        old path removed, its new one added, in any order) stays in the cache."""
        loads: list[tuple[str, Path]] = []
        for rel in rels:
            what = self.layout.classify(rel)
            if what is None:
                continue
            kind, record_id = what
            path = self.root / rel
            if kind == "meta":
                self.meta = self.layout.read_meta() or {}
                continue
            self.problems = [p for p in self.problems if p.path != path]
            if kind == "memory":
                self.store.drop_memory(record_id)
            else:
                self.store.drop_relation(record_id)
            if os.path.lexists(path):
                loads.append((kind, path))
        for kind, path in loads:
            record, problem = self.layout.load_file(path, kind)
            if record is None:
                self.problems.append(LoadProblem(path, problem or "unreadable"))
            elif kind == "memory":
                self.store.put_memory(record)
            else:
                self.store.put_relation(record)

    def _remove_temp_files(self) -> None:
        from ..store.layout import TEMP_PREFIX
        from ..store.shards import is_shard_name

        folders = [self.layout.memories_dir, self.layout.relations_dir, self.root]
        with contextlib.suppress(OSError):  # and the shard folders of a sharded vault
            folders += [Path(e.path) for e in os.scandir(self.layout.memories_dir)
                        if is_shard_name(e.name) and e.is_dir(follow_symlinks=False)]
        for folder in folders:
            for leftover in folder.glob(TEMP_PREFIX + "*"):
                with contextlib.suppress(OSError):
                    leftover.unlink()

    def adopt_outside_edits(self, candidates: list[str]) -> None:
        """Commit vault files that differ from HEAD and that no memvault operation wrote, when
        they load as valid records (see :meth:`_sort_outside_edits`); the others are reported
        in ``report.refused_external`` and left as they are."""
        if not candidates:
            return
        # Re-check under the lock: a writer that was mid-commit when we looked has finished now.
        still = set(self.journal.finish_status(self.journal.start_status(
            [self.root / c for c in candidates])))
        rels = [c for c in candidates if c in still and self.layout.classify(c) is not None]
        rels, refused = self._sort_outside_edits(rels)
        self.report.refused_external = refused
        self._report_problems(refused)
        if not rels:
            return
        self._commit_external(rels)
        make_paths_private(self.root, rels, self.journal.shared_on_purpose)
        self._note_secrets_in(rels)
        self._reload_paths(rels)
        self.report.external_commit = self._head
        self.report.external_paths = rels

    def _sort_outside_edits(self, rels: list[str]) -> tuple[list[str], list[LoadProblem]]:
        """The rule for a person's edits (vault-relative paths): a file is committed as they left
        it only when it loads as a valid record (or metadata), or when it was deleted. Anything
        else (unreadable, a symbolic link, hard-linked, not JSON, a bad id...) is never
        committed: returned as a problem with the reason."""
        adopt: list[str] = []
        refused: list[LoadProblem] = []
        for rel in rels:
            what = self.layout.classify(rel)
            path = self.root / rel
            if what is None or not os.path.lexists(path):
                adopt.append(rel)
                continue
            if what[0] == "meta":
                _, reason = self.layout.load_meta()
            else:
                _, reason = self.layout.load_file(path, what[0])
            if reason is None:
                adopt.append(rel)
            else:
                refused.append(LoadProblem(path, reason))
        return adopt, refused

    def _report_problems(self, problems: Iterable[LoadProblem]) -> None:
        known = {p.path for p in self.problems}
        self.problems.extend(p for p in problems if p.path not in known)

    def _set_aside(self, path: Path, reason: str) -> None:
        """Copy a file memvault cannot read, and is about to write over or remove, into the
        quarantine (``core.store.quarantine``), and say so in :attr:`notices`."""
        copy = quarantine(self.journal.state_dir, self.root, path, reason)
        rel = path.relative_to(self.root).as_posix()
        self.notices.append(f"{rel} could not be read ({reason}); set it aside as {copy} "
                            "before writing over it")

    def _commit_external(self, rels: list[str], when: str = "") -> None:
        """One ``external:`` commit of vault files (vault-relative paths) as they are on disk."""
        shown = ", ".join(rels[:5]) + (f" and {len(rels) - 5} more" if len(rels) > 5 else "")
        shown = neutralise_line(shown)
        noun = "file" if len(rels) == 1 else "files"
        message = f"external: {len(rels)} {noun} changed outside memvault{' ' + when if when else ''} ({shown})"
        paths = [self.root / r for r in rels]
        self._head = self.journal.commit(message, adopt=paths, via=self.via, tool=self.tool)
        self.layout.note(paths)


def _read_head_or_none(found: tuple[Path, Path] | None, read_head: Callable) -> str | None:
    if found is None:
        return None
    try:
        return read_head(*found)
    except OSError:
        return None

