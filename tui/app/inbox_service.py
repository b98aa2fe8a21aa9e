"""The app's door to the review inbox (core/ops/inbox.py): :class:`InboxService`.

Same pattern as :class:`tui.app.service.VaultService`: screens call it from ``@work(thread=True)``
workers; every method takes the service's lock (one core call at a time) and returns plain
results, with every text from the vault or git neutralised for the terminal.

By default it reads through a :class:`core.Vault` object it never loads (the inbox reads only
git and the git directory, so the count in the header costs no second copy of the memories) and
opens a full one the first time it rejects: reject commits through it, under the vault's write
lock like any other writer, and the main screen's poll picks the new commit up. A service that
wants to share its open vault and its lock passes ``open_vault`` (returns the open vault) and
``lock``: the app's :class:`~tui.app.service.VaultService` does (``service.inbox``), so the app
holds one vault and one lock.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core import DecayConfig, Vault, VaultError
from core.model.records import now_epoch
from core.textutil import neutralise_controls, neutralise_line

if TYPE_CHECKING:  # the inbox's core is imported when the inbox is first read (after the open)
    from core.ops.inbox import InboxEntry, InboxView


@dataclass
class InboxResult:
    """What an accept or reject did, for the notification."""

    title: str
    note: str
    commit: str | None = None


class InboxService:
    def __init__(self, path: Path | str, *, clock: Callable[[], int] | None = None,
                 config: DecayConfig | None = None, lock_timeout: float = 30.0,
                 open_vault: Callable[[], Vault] | None = None,
                 lock: threading.RLock | None = None) -> None:
        self.path = Path(path).expanduser()
        self.clock = clock or now_epoch
        self.config = config
        self.lock_timeout = lock_timeout
        self._open_vault = open_vault
        self._lock = lock or threading.RLock()
        self._vault: Vault | None = None
        self._reader: Vault | None = None
        self._cached: tuple[Any, InboxView] | None = None

    def _reading(self) -> Vault:
        """For review and accept: git and the git directory only (no memory is loaded)."""
        if self._open_vault is not None:
            return self._open_vault()
        if self._vault is not None:
            return self._vault
        if self._reader is None:
            if not self.path.is_dir():
                raise VaultError(f"no vault at {self.path}")
            self._reader = Vault(self.path, config=self.config, readonly=True,
                                 lock_timeout=self.lock_timeout)
        return self._reader

    def _vault_now(self) -> Vault:
        """For reject: an open vault (its cache is what a commit updates)."""
        if self._open_vault is not None:
            return self._open_vault()
        if self._vault is None:
            self._vault = Vault.open(self.path, config=self.config,
                                     lock_timeout=self.lock_timeout)
        return self._vault

    def _key(self, vault: Vault) -> tuple[Any, ...]:
        """What the entries depend on: HEAD, the mark, the accepted set's file."""
        from core.ops.inbox_state import ACCEPTED_FILE, REF

        journal = vault.journal
        try:
            stat = (journal.state_dir / ACCEPTED_FILE).stat()
            accepted: Any = (stat.st_mtime_ns, stat.st_size, stat.st_ino)
        except OSError:
            accepted = None
        return (journal.head(), journal.history.rev_parse(REF), accepted)

    def review(self) -> InboxView:
        """The unreviewed entries (newest first), texts neutralised; cached while HEAD, the mark
        and the accepted set stay as they were."""
        with self._lock:
            vault = self._reading()
            key = self._key(vault)
            cached = self._cached
            if cached is not None and cached[0] == key:
                return cached[1]
            from core.ops.inbox import review, still_as_reviewed

            if cached is not None and cached[0][1:] == key[1:] and key[0] is not None \
                    and still_as_reviewed(vault, cached[1], key[0]):
                # only writes that leave the entries as they were (the person's, through the
                # app) since they were read: the same entries, at the new HEAD
                view = dataclasses.replace(cached[1], head=key[0],
                                           entries=list(cached[1].entries))
                self._cached = (key, view)
                return view

            view = review(vault)
            view.entries = [shown_entry(e) for e in view.entries]
            self._cached = (key, view)
            return view

    def count(self) -> int:
        return len(self.review().entries)

    def accept(self, ids: list[str] | None, upto: str | None = None) -> InboxResult:
        """Accept these memories (None: every entry up to ``upto``, what the screen showed)."""
        from core.ops.inbox import accept

        with self._lock:
            report = accept(self._reading(), ids, upto=upto)
            n = len(report.accepted)
            if not n:
                return InboxResult("accept", "Nothing to accept")
            noun = "entry" if n == 1 else "entries"
            return InboxResult("accept", f"Accepted {n} {noun}"
                               + (" (the review mark moved)" if report.all else ""))

    def reject(self, memory_id: str) -> InboxResult:
        """Take the assistant's change to one memory back (one commit); VaultError when it
        would discard a later change of the person's (nothing written)."""
        from core.ops.inbox import reject

        with self._lock:
            report = reject(self._vault_now(), memory_id)
            if report.commit is None:
                return InboxResult("reject", f"{memory_id[:8]} was already as before; marked "
                                             "reviewed")
            note = f"Rejected the assistant's change to {memory_id[:8]}"
            if report.kept_fields:
                note += f" (kept your later change to {', '.join(report.kept_fields)})"
            return InboxResult("reject", neutralise_line(note), report.commit)

    def reject_many(self, memory_ids: list[str]) -> InboxResult:
        """Reject each (one commit each); stops at the first refusal, saying what was done."""
        done: list[str] = []
        with self._lock:
            for memory_id in memory_ids:
                try:
                    self.reject(memory_id)
                except VaultError as exc:
                    raise VaultError((f"rejected {len(done)} of {len(memory_ids)}; " if done
                                      else "") + str(exc)) from None
                done.append(memory_id)
        n = len(done)
        return InboxResult("reject", f"Rejected the assistant's changes to {n} "
                                     f"memor{'y' if n == 1 else 'ies'}")


def shown_entry(entry: InboxEntry) -> InboxEntry:
    """The entry with every text neutralised for the terminal (content keeps its newlines)."""
    from core.ops.inbox_diff import FieldChange

    def value(v: Any) -> Any:
        if isinstance(v, str):
            return neutralise_controls(v)
        if isinstance(v, list):
            return [value(x) for x in v]
        return v

    return dataclasses.replace(
        entry,
        preview=neutralise_line(entry.preview),
        changes=[FieldChange(neutralise_line(c.field), value(c.before), value(c.after))
                 for c in entry.changes],
        relations=[dataclasses.replace(r, label=neutralise_line(r.label))
                   for r in entry.relations],
        clients=[neutralise_line(c) for c in entry.clients],
        subjects=[neutralise_line(s) for s in entry.subjects],
        later=[dataclasses.replace(c, subject=neutralise_line(c.subject)) for c in entry.later],
        blocked=neutralise_line(entry.blocked) if entry.blocked else None)
