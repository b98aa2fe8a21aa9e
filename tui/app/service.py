"""The one door between the app and the vault: :class:`VaultService`.

The app never touches files or git. Screens call the service's methods from ``@work(thread=True)``
workers; each method takes the service lock (one core call at a time), does the core work, and
returns plain results: a :class:`Change` for an operation (the next :class:`~tui.app.view.VaultView`,
the memories it touched, a sentence for the notification), history entries, a lineage... The
worker posts them back to the UI as messages (:mod:`tui.app.messages`).

Undo and redo are core's (``Vault.undo`` / ``Vault.redo``: a revert of exactly one operation's
own changes, read from the log; a later change by another process is never written over).

Following the vault: :meth:`VaultService.changed_on_disk` compares git's HEAD and the modification times of
the memories and relations folders with what the service last saw (cheap: three small reads,
no git process) and, when they moved, catches up: a new HEAD (another process, a git pull) by
re-reading the files that changed between the two commits, files changed without a commit (an
editor) by opening the vault again, which commits the valid ones as ``external:`` as every
writer does and refuses the others; :attr:`VaultService.outside_edits` says which (the screen
announces them), and refused files are copied into the quarantine (:mod:`.service_outside`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core import (
    DecayConfig,
    HistoryEntry,
    Memory,
    Relation,
    Vault,
    VaultError,
    relations_of_gone,
)
from core.model.records import now_epoch
from core.textutil import neutralise_controls, neutralise_line
from core.vault import GcReport
from core.vault.preview import glance_of, read_glance, read_preview

from ..text import operation_label
from .service_results import (  # noqa: F401  (part of tui.app.service's API)
    Change,
    DeletePreview,
    HistoryInfo,
    MergePreview,
    SplitDraft,
    SplitPreview,
    describe,
    maintenance_note,
)
from .service_edit import EditService, EditSession  # noqa: F401  (EditSession: part of the API)
from .service_bulk import BulkDeletePreview, BulkService  # noqa: F401  (part of the API)
from .inbox_service import InboxService
from .open_vault import OpenVault
from .service_outside import OutsideEdits, Quarantined
from .service_wizards import WizardService
from .view import Row, VaultView, shown

if TYPE_CHECKING:  # provenance, undo and sync are imported on first use (in a worker), not on
    from core.ops.provenance import Lineage  # the app's first paint


#: Vaults of fewer memories than this open without a first look from the index.
PREVIEW_FROM = 20_000
#: Vaults of fewer memories than this open without a glance at the index's counts (it costs
#: milliseconds, and the open of 5k memories about as much as a paint; at 10k the open and the
#: view of every memory take most of a second).
GLANCE_FROM = 5_000


class VaultService:
    """Thread-safe access to one vault. ``clock`` gives "now" in epoch seconds (tests and
    screenshots pass a fixed one); every score the app shows is computed at ``view.now``.

    Its parts share its :class:`~tui.app.open_vault.OpenVault` (the vault, the view, the lock):
    :attr:`edits` (one memory: the form, ``$EDITOR``, a new memory, pin), :attr:`bulk` (many
    memories at once, the undo list), :attr:`wizards` (split and consolidate) and :attr:`inbox`
    (the review inbox)."""

    def __init__(self, path: Path | str, *, clock: Callable[[], int] | None = None,
                 config: DecayConfig | None = None, lock_timeout: float = 30.0):
        self.path = Path(path).expanduser()
        self.clock = clock or now_epoch
        self.config = config
        self.lock_timeout = lock_timeout
        self.state = OpenVault(self.clock)
        self.edits = EditService(self.state)
        self.bulk = BulkService(self.state)
        self.wizards = WizardService(self.state)
        #: the review inbox, on this very vault and lock (one vault, one lock for the app)
        self.inbox = InboxService(self.path, clock=self.clock, config=config,
                                  lock_timeout=lock_timeout, open_vault=self.state.vault_or_fail,
                                  lock=self.state.lock)
        self.open_notes: list[str] = []
        #: the index's counts as the app's first frame read them, of HEAD then
        #: (:func:`core.search.index_counts.read_counts`): the first glance is made from them
        #: (at 100k memories, counting again took ~0.1 s of CPU before every action was ready)
        self.counted: tuple[str, list[tuple[str, int]], list[tuple[str, str, int]]] | None = None
        #: the outside edits the last open found, and how many opens found some (the screen
        #: announces each once); refused files are copied into the quarantine, once each
        self.outside_edits = OutsideEdits()
        self.outside_edits_found = 0
        self._quarantined = Quarantined()

    # -- opening and the current view ------------------------------------------------------
    @property
    def is_open(self) -> bool:
        return self.state.is_open

    @property
    def view(self) -> VaultView:
        return self.state.view

    @property
    def root(self) -> Path:
        vault = self.state.vault
        return vault.root if vault is not None else self.path.resolve()

    def use_config(self, config: DecayConfig) -> VaultView:
        """Score with ``config`` from now on (the settings screen): the view made anew."""
        self.config = self.inbox.config = config
        return self.state.rescore(config)

    def open(self) -> VaultView:
        """Open the vault (blocking: call from a worker) and build the first view."""
        with self.state.lock:
            # (the index's copies of the files read once the open vault is shown: copies_read)
            vault = Vault.open(self.path, config=self.config, lock_timeout=self.lock_timeout,
                               copies_later=True)
            self.state.vault = vault
            self.config = vault.config
            self.open_notes = _report_notes(vault)
            self._take_outside_edits(vault)
            view = self.state.rebuild()
            self.state.remember_disk()
            return view

    def copies_read(self) -> tuple[VaultView, list[str]] | None:
        """(Once the open vault is shown, in a worker) the copies of the files the open left
        for the cache's first use read now (:mod:`core.vault.later_copies`: an action meanwhile
        waits for them); when the cache is not exactly what the view was made from (a damaged
        copy read from disk, the index gone meanwhile), the view made again and what the read
        found to say. None otherwise."""
        with self.state.lock:
            vault = self.state.vault_or_fail()
            told = len(vault.notices)
            if not vault.copies_read():
                return None
            view = self.state.rebuild()
            notes = [*vault.notices[told:], *_report_notes(vault)]
            return view, [n for n in notes if n not in self.open_notes]

    def preview(self) -> VaultView | None:
        """A first look at the vault from its derived index, to paint while :meth:`open` runs
        (``VaultView.preview``): None once open, when the index has no summaries, or for a vault
        of fewer than :data:`PREVIEW_FROM` memories (it opens about as fast)."""
        if self.state.vault is not None:
            return None
        found = read_preview(self.path, at_least=PREVIEW_FROM)
        if found is None:
            return None
        return VaultView.preview(self.root, found.memories, self.config or DecayConfig.from_env(),
                                 self.clock())

    def glance(self) -> VaultView | None:
        """Before even the first look, a glance (``VaultView.glanced``): the index's counts of
        the memories by status and tag, read in milliseconds, for the tree's groups (the first
        time, those the service was made with when it has some: :attr:`counted`). None once
        open, when the index has no counts, or for a vault of fewer than :data:`GLANCE_FROM`
        memories."""
        if self.state.vault is not None:
            return None
        counted, self.counted = self.counted, None
        found = glance_of(counted, at_least=GLANCE_FROM) if counted is not None \
            else read_glance(self.path, at_least=GLANCE_FROM)
        if found is None:
            return None
        return VaultView.glanced(self.root, found, self.config or DecayConfig.from_env(),
                                 self.clock())

    def rescore(self) -> VaultView | None:
        """A view with every score recomputed at the clock's now (None if it has not moved)."""
        with self.state.lock:
            self.state.vault_or_fail()
            now = self.clock()
            if now == self.view.now:
                return None
            return self.state.rebuild(now)

    # -- operations -------------------------------------------------------------------------
    def delete_preview(self, key: str) -> DeletePreview:
        """What deleting the memory takes with it, and which of its relations stay (lineage:
        core's one rule); read from the current view, no lock."""
        view = self.view
        memory_id = view.resolve(key)
        fate = relations_of_gone(view.relations_of(memory_id), {memory_id})

        def ends(relations: list[Relation]) -> list[tuple[Relation, str, Row | None]]:
            out = []
            for r in relations:
                other = r.to_memory_id if r.from_memory_id == memory_id else r.from_memory_id
                out.append((r, other, view.get(other)))
            return out

        return DeletePreview(view.rows[memory_id], ends(fate.removed), ends(fate.kept))

    def restore_version(self, key: str, entry: HistoryEntry) -> Change:
        """Make the version of history ``entry`` the current one (for a "deleted" entry: the
        version it deleted), as a new commit."""
        with self.state.lock:
            vault = self.state.vault_or_fail()
            memory_id = vault.resolve_any(key)
            at = f"{entry.commit}^" if entry.action == "deleted" else entry.commit
            report = vault.restore(memory_id, at=at)
            if report.unchanged:
                raise VaultError(f"{memory_id[:8]} already is that version")
            ids = [memory_id] + [r.from_memory_id for r in report.relations] + \
                [r.to_memory_id for r in report.relations]
            rels = len(report.relations)
            extra = f" with {rels} relation{'s' if rels != 1 else ''}" if rels else ""
            return Change(self.state.next_view(ids), [memory_id], "restore",
                          f"Restored {describe(report.memory)} from {report.source_commit[:8]}"
                          f"{extra}", focus=memory_id, undoable=True)

    def gc_preview(self) -> GcReport:
        with self.state.lock:
            return self.state.vault_or_fail().gc(dry_run=True, now=self.view.now)

    def maintenance_note(self, operation: str = "gc") -> str | None:
        """Why gc (or consolidate) would be refused on this machine, or None."""
        return maintenance_note(self.state.vault_or_fail(), operation)

    def gc_apply(self, archive: bool = False, keep: Sequence[str] = ()) -> Change:
        """Apply gc (``keep``: candidates the person kept out of it in the preview)."""
        with self.state.lock:
            vault = self.state.vault_or_fail()
            report = vault.gc(archive=archive, now=self.view.now, keep=keep)
            ids = [m.id for m, _ in report.candidates]
            n = len(ids)
            noun = "memory" if n == 1 else "memories"
            if not n:
                return Change(self.view, [], "gc", "Nothing to collect")
            if archive:
                note = f"gc archived {n} {noun} scoring below {report.threshold:g}"
            else:
                rels = len(report.relations_removed)
                extra = f" and {rels} relation{'s' if rels != 1 else ''}" if rels else ""
                note = f"gc deleted {n} {noun}{extra} scoring below {report.threshold:g}"
            touched = ids + [e for r in report.relations_removed
                             for e in (r.from_memory_id, r.to_memory_id)]
            return Change(self.state.next_view(touched), ids, "gc", note, undoable=True)

    # -- undo -------------------------------------------------------------------------------
    def undo(self) -> Change:
        """Undo the newest operation not undone yet (:func:`core.ops.revert.undo`: a revert of exactly its own
        changes, read from the log, so it also takes back what another process did and works
        after a restart; later touches are kept)."""
        from core.ops.revert import undo
        return self._revert(undo, "undo", "Undid")

    def redo(self) -> Change:
        from core.ops.revert import redo
        return self._revert(redo, "redo", "Redid")

    def undo_list(self, limit: int = 20) -> list[tuple[str, str, int]]:
        """(commit, subject, time) of what successive undos would take back, newest first."""
        from core.ops.revert import undo_list
        with self.state.lock:
            return [(e.commit, e.subject, e.timestamp)
                    for e in undo_list(self.state.vault_or_fail(), limit)]

    def _revert(self, run: Callable[[Vault], Any], title: str, done: str) -> Change:
        with self.state.lock:
            vault = self.state.vault_or_fail()
            report = run(vault)
            relations = [r for rid in report.relations if (r := vault.relations.get(rid))]
            ids = [*report.memories,
                   *[e for r in relations for e in (r.from_memory_id, r.to_memory_id)]]
            ids = list(dict.fromkeys(ids))
            note = f"{done} {operation_label(report.operation)}"
            if report.kept_touches:
                n = len(report.kept_touches)
                note += f" (later use of {n} memor{'y' if n == 1 else 'ies'} kept)"
            focus = next((i for i in report.memories if vault.find(i)), None)
            return Change(self.state.next_view(ids), ids, title, note, focus=focus)

    # -- reading history and provenance ----------------------------------------------------
    def resolve_any(self, key: str) -> str:
        """A living memory's id, or the id of one that exists only in history."""
        with self.state.lock:
            return self.state.vault_or_fail().resolve_any(key)

    def history(self, key: str) -> HistoryInfo:
        with self.state.lock:
            vault = self.state.vault_or_fail()
            memory_id = vault.resolve_any(key)
            entries = [dataclasses.replace(e, message=neutralise_controls(e.message),
                                           author=neutralise_line(e.author))
                       for e in vault.history(memory_id)]  # a remote's messages may hold ESC
            return HistoryInfo(memory_id, vault.find(memory_id) is not None, entries)

    def version(self, key: str, entry: HistoryEntry) -> Memory:
        """The memory as history ``entry`` left it (for a deletion: as it was before)."""
        with self.state.lock:
            at = f"{entry.commit}^" if entry.action == "deleted" else entry.commit
            return shown(self.state.vault_or_fail().version(key, at))

    def lineage(self, key: str) -> Lineage:
        from core.ops.provenance import lineage
        with self.state.lock:
            found = lineage(self.state.vault_or_fail(), key)
            for node in found.nodes.values():
                if node.memory is not None:
                    node.memory = shown(node.memory)
            return found

    def stats(self) -> dict[str, Any]:
        with self.state.lock:
            return self.state.vault_or_fail().stats(self.view.now)

    def last_sync(self) -> dict[str, Any] | None:
        """The last ``memvault sync`` on this clone (core.sync.engine's record: outcome, time, counts,
        ``conflicts`` waiting for a person), or None (never synced)."""
        from core.sync.engine import last_sync as read_last_sync
        with self.state.lock:
            return read_last_sync(self.state.vault_or_fail())

    # -- following the vault ---------------------------------------------------------------
    def changed_on_disk(self) -> bool:
        """Did HEAD or the vault's folders move since the service last looked? (Cheap; never
        waits for an operation in progress: then it answers False.)"""
        if not self.state.lock.acquire(blocking=False):
            return False
        try:
            if self.state.vault is None:
                return False
            return self.state.disk_signature() != self.state.seen_on_disk
        finally:
            self.state.lock.release()

    def reload(self) -> VaultView:
        """Catch up with the vault on disk and return the new view (always a fresh one)."""
        with self.state.lock:
            vault = self.state.vault_or_fail()
            head = vault.journal.head()
            seen = self.state.seen_on_disk or (None,)
            if head != seen[0] and self._only_head_moved():
                # A commit made elsewhere: re-read the files that differ between our HEAD and
                # the new one (under the write lock; nothing is committed).
                vault.refresh()
            else:
                vault = Vault.open(self.path, config=self.config, lock_timeout=self.lock_timeout)
                self.state.vault = vault
                self.open_notes = _report_notes(vault)
                self._take_outside_edits(vault)
            view = self.state.rebuild()
            self.state.remember_disk()
            return view

    def _take_outside_edits(self, vault: Vault) -> None:
        found = self._quarantined.take(vault)
        new_commit = found.commit is not None and found.commit != self.outside_edits.commit
        if new_commit or (found.refused and found.refused_key != self.outside_edits.refused_key):
            self.outside_edits = found  # (refused files seen before, unchanged: told once)
            self.outside_edits_found += 1

    def _only_head_moved(self) -> bool:
        """True unless files differ from HEAD without a commit (then a full open adopts them)."""
        vault = self.state.vault_or_fail()
        work_tree = vault.journal.work_tree
        status = work_tree.finish_status(work_tree.start_status(vault.layout.vault_paths()))
        return not status


def waiting_conflicts(info: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The conflicts of a sync record that still wait for a person."""
    if not info:
        return []
    return [c for c in info.get("conflicts") or [] if isinstance(c, dict) and
            not c.get("resolved")]


def _report_notes(vault: Vault) -> list[str]:
    notes = []
    report = vault.report
    if report.recovered:
        notes.append(report.recovered)
    if report.writes_refused:
        notes.append(report.writes_refused)
    # (outside edits, committed or refused, are told by the screen: service_outside.py)
    if report.initialised:
        notes.append(f"created a new vault at {vault.root}")
    refused = {p.path for p in report.refused_external}
    if [p for p in vault.problems if p.path not in refused]:
        n = len([p for p in vault.problems if p.path not in refused])
        notes.append(f"{n} vault file{'s' if n != 1 else ''} could not be read (see stats)")
    return notes
