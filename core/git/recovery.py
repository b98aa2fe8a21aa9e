"""Crash recovery: intent records of unfinished operations are rolled back (or forward, if their
commit landed) by the next writer, keeping anything written since."""

from __future__ import annotations

import contextlib
from pathlib import Path

from ..errors import JournalError
from ..store.files import remove_file
from ..store.quarantine import quarantine
from .commit import Committer
from .faults import FaultPoints
from .intent import ABSENT, Intent, IntentLog, read_state, state_id
from .plumbing import GitCommands, reason
from .reading import HistoryReader
from .repository import Repository


class Recovery:
    """Finishing what a crashed writer left: through ``committer`` (putting paths back, git's
    index), reading ``history`` (did its commit land?)."""

    def __init__(self, repository: Repository, commands: GitCommands, history: HistoryReader,
                 committer: Committer, faults: FaultPoints):
        self.repository = repository
        self.commands = commands
        self.history = history
        self.objects = history.objects
        self.committer = committer
        self.faults = faults

    def has_intent(self) -> bool:
        """An operation did not finish (crashed, or could not put the vault back). A commit of
        this process that landed and waits for git's index (:mod:`.git_index`) is no such
        operation: it is finished right after, here."""
        git_index = self.committer.git_index
        return any(not git_index.holds(record)
                   for record in IntentLog(self.repository.git_dir / "memvault").pending())

    def pending_paths(self) -> list[str]:
        """Repository paths of unfinished operations (for a read-only view of a vault that is
        being written: those files may be half-way)."""
        found: list[str] = []
        for record in IntentLog(self.repository.git_dir / "memvault").pending():
            with contextlib.suppress(OSError, ValueError):
                found.extend(IntentLog.read(record).paths)
        return found

    def recover(self) -> str | None:
        """Finish what crashed (or failed) writers left, oldest first: put their files back if
        their commit never landed, or bring git's index up to date if it did. A file someone
        changed after the crash is kept as it is (and said so). Returns a description, or None.
        The caller holds :meth:`lock`. If finishing fails, the record stays: JournalError."""
        notes = []
        try:
            self.commands.forget_private_index()  # it may hold a crashed operation's half-staged paths
            with contextlib.suppress(JournalError):  # (its paths stay waiting: skipped below)
                self.committer.git_index.settle()  # this process's own landed commits first
            for record in self.repository.intents.pending():
                if self.committer.git_index.holds(record):
                    continue  # its index update failed again: left for the next try
                self.faults.reached("recover")
                notes.append(self._recover_one(record))
        except OSError as exc:
            raise JournalError(f"finishing an unfinished operation failed ({reason(exc)}); its "
                               "record is kept and the next memvault command tries again") from exc
        return "; ".join(notes) or None

    def finish_landed(self) -> bool:
        """Bring git's index level for operations whose commit landed but whose index update
        never came (a kill -9 in between: a person's `git commit` would commit the deletion of
        their paths), rolling nothing back: what a read-only open repairs (the caller holds the
        lock). A memvault ``index.lock`` whose process is gone is removed too. True when it
        finished one."""
        done = False
        for record in self.repository.intents.pending():
            if self.committer.git_index.holds(record):
                continue
            try:
                intent = IntentLog.read(record)
            except (OSError, ValueError):
                continue  # (the next writer sets it aside)
            if self._landed(intent):
                self.committer.reset_index("HEAD", intent.paths)
                self.repository.intents.finish(intent)
                done = True
        self.committer.git_index.index_lock.remove_if_left()
        return done

    def _recover_one(self, record: Path) -> str:
        try:
            intent = IntentLog.read(record)
        except (OSError, ValueError) as exc:
            copy = quarantine(self.repository.state_dir, self.repository.git_dir, record,
                              f"unreadable intent record: {reason(exc)}")
            remove_file(record)
            return f"set aside an unreadable intent record ({copy}); files left as they are"
        message = intent.message.strip()
        if self._landed(intent):
            rels = intent.paths
            self.committer.reset_index("HEAD", rels)
            self.repository.intents.finish(intent)
            return f"completed an operation whose commit had landed ({message!r})"
        if intent.legacy:
            self._fill_legacy(intent)
        kept = self.committer.undo(intent)
        note = f"rolled back an unfinished operation ({message!r})"
        if kept:
            note += (f"; kept {len(kept)} file{'s' if len(kept) != 1 else ''} changed after it "
                     f"as they are ({', '.join(kept[:5])})")
        return note

    def _landed(self, intent: Intent) -> bool:
        """The intent's own commit is HEAD or in HEAD's history."""
        head, pre = self.commands.head(), intent.pre_head
        if head is None or head == pre:
            return False
        if intent.target:
            return head == intent.target or self.history.is_ancestor(intent.target, head)
        rng = [f"{pre}..{head}"] if pre else [head]
        status, out, _ = self.commands.try_run("log", "-n", "200", "--format=%P%x1f%B%x1e", *rng)
        if status != 0:
            return False
        for chunk in out.split("\x1e"):
            parents, _, body = chunk.strip().partition("\x1f")
            first_parent = parents.split()[0] if parents.split() else None
            if first_parent == pre and body.strip() == intent.message.strip():
                return True
        return False

    def _fill_legacy(self, intent: Intent) -> None:
        """A record of an older memvault names paths only. Each path goes back to ``pre``; what
        is on disk first goes to the quarantine when it differs (nothing is lost)."""
        fmt = self.commands.object_format
        at_pre = self.objects.blob_ids(intent.pre_head, [w.path for w in intent.writes])
        for entry in intent.writes:
            path = self.repository.worktree / entry.path
            kind, data = read_state(path)
            now = state_id(kind, data, fmt)
            entry.before = f"file:{at_pre[entry.path]}" if entry.path in at_pre else ABSENT
            entry.after = now
            if now not in (entry.before, ABSENT):
                quarantine(self.repository.state_dir, self.repository.worktree, path,
                           f"on disk when an older memvault's unfinished operation "
                           f"({intent.message.strip()!r}) was rolled back")
