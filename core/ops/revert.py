"""Undo as revert: take back exactly one operation's own changes, as a new commit.

:func:`revert` reverses the changes one commit made to the vault's records, field by field, on
top of whatever the vault holds now:

* a record the later history left as the commit made it goes back to its state before;
* a field the commit did not change keeps its current value (so a later edit of another field
  survives);
* use records written later are kept, never refused: ``use_count`` and ``review_count`` keep
  the later increases (current + before - after), ``last_used`` and ``last_review_at`` the later
  time;
* anything else a later commit changed in a field the commit changed (or a record deleted or
  re-created since) is a conflict: nothing is written and the error names the memories and the
  later commits. ``.meta.json`` bookkeeping never conflicts: a key changed since keeps its value.

Every undo is one commit, ``undo: <subject of the undone commit>`` with a trailer
``Memvault-Reverts: <commit>``; a redo reverts that undo (``redo: ...``). :func:`undo_list` reads
the first-parent history, so undo works across processes and restarts: the next undo takes the
newest operation not undone yet, whoever made it, except touches (use records, mostly an
assistant's: they are kept, never taken back by undo; :func:`revert` of a touch's commit can);
redo takes the newest undo still in effect, as long as no other operation (touches aside) came
after it. History stops at a merge (a sync) and at the vault's creation.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import VaultError
from ..git.entries import operation_of, trailer_of

if TYPE_CHECKING:
    from ..vault import Plan, Vault

TRAILER = "Memvault-Reverts"
COUNTERS = ("use_count", "review_count")
LATEST = ("last_used", "last_review_at")
NOT_UNDOABLE = ("init", "sync", "migrate")  # whole-vault set-up, merges: git's own tools
USE_RECORDS = ("touch", "use")  # reinforcements and use records (core.vault.use): kept, never taken back by undo
_MISSING = object()


class NothingToUndoError(VaultError):
    """No operation left to undo (or, for redo, no undo to take back)."""


class RevertRefusedError(VaultError):
    """A later commit changed what the operation changed: nothing was written."""


@dataclass(frozen=True)
class UndoEntry:
    commit: str
    subject: str
    timestamp: int


@dataclass
class RevertReport:
    commit: str | None  # the new commit
    reverted: str  # the commit whose changes it reverses
    subject: str  # that commit's subject
    memories: list[str] = field(default_factory=list)
    relations: list[str] = field(default_factory=list)
    kept_touches: list[str] = field(default_factory=list)
    #: the operation this revert takes back (an undo) or does again (a redo): a redo of
    #: "undo: archive: 2 memories" is "archive: 2 memories"
    operation: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"commit": self.commit, "reverted": self.reverted, "subject": self.subject,
                "operation": self.operation, "memories": self.memories,
                "relations": self.relations, "kept_touches": self.kept_touches}


@dataclass(frozen=True)
class _Commit:
    sha: str
    parents: tuple[str, ...]
    timestamp: int
    subject: str
    reverts: str | None

    @property
    def verb(self) -> str:
        return operation_of(self.subject)


# -- reading the history ----------------------------------------------------------------------
def _history(vault: Vault, limit: int = 1000) -> list[_Commit]:
    """First-parent history of HEAD, newest first."""
    journal = vault.journal
    if journal.head() is None:
        return []
    out = journal.commands.output("log", "--first-parent", f"-n{limit}",
                       "--format=%H%x1f%P%x1f%at%x1f%B%x1e", "HEAD")
    commits = []
    for chunk in out.split("\x1e"):
        if not chunk.strip():
            continue
        sha, parents, ts, body = chunk.strip().split("\x1f", 3)
        reverts = trailer_of(body, TRAILER)
        commits.append(_Commit(sha, tuple(parents.split()), int(ts), _subject(body), reverts))
    return commits


def _subject(body: str) -> str:
    """A commit's subject as git's ``%s`` says it (the first paragraph of its message, its
    lines joined by a space), read from the message: ``%s`` beside ``%B`` in one format would
    misread a message holding the separator."""
    lines = []
    for line in body.lstrip("\n").splitlines():
        if not line.strip():
            break
        lines.append(line.rstrip())
    return " ".join(lines)


def _walk(vault: Vault) -> tuple[list[_Commit], _Commit | None]:
    """(operations that undo would take back, newest first; the undo that redo would revert)."""
    cancelled: set[str] = set()  # undos (and redos) reverted by a later commit
    undone: set[str] = set()
    made_again: set[str] = set()  # operations a redo in effect made again: listed as that redo
    entries: list[_Commit] = []
    redo: _Commit | None = None
    blocked = False  # an operation came after the newest undo: nothing to redo
    for c in _history(vault):
        if c.sha in cancelled:
            if c.verb == "undo" and c.reverts:
                made_again.add(c.reverts)
            continue
        if c.verb == "undo" and c.reverts:
            undone.add(c.reverts)
            if redo is None and not blocked:
                redo = c
            continue
        if c.verb == "redo" and c.reverts and c.sha not in undone:
            cancelled.add(c.reverts)  # (a redo undone since cancels nothing: its undo holds)
        if len(c.parents) != 1 or c.verb in NOT_UNDOABLE:
            break  # a merge, the vault's creation: undo stops here
        if c.sha in undone or c.sha in made_again or c.verb in USE_RECORDS:
            continue
        entries.append(c)
        if c.verb != "redo":
            blocked = True
    return entries, redo


def undo_list(vault: Vault, limit: int = 20) -> list[UndoEntry]:
    """What successive undos would take back, newest first."""
    entries, _ = _walk(vault)
    return [UndoEntry(c.sha, c.subject, c.timestamp) for c in entries[:limit]]


def undo(vault: Vault) -> RevertReport:
    entries, _ = _walk(vault)
    if not entries:
        raise NothingToUndoError("nothing to undo")
    return _revert(vault, entries[0], "undo")  # (the log said all it needs: no git of its own)


def redo(vault: Vault) -> RevertReport:
    _, undo_commit = _walk(vault)
    if undo_commit is None:
        raise NothingToUndoError("nothing to redo (no undo, or a change was made after it)")
    return _revert(vault, undo_commit, "redo")


# -- reverting one commit ---------------------------------------------------------------------
def revert(vault: Vault, rev: str, *, verb: str = "undo") -> RevertReport:
    """Reverse the changes commit ``rev`` made to the vault, as one new commit (see the module
    docstring). RevertRefusedError (nothing written) when later commits changed the same."""
    return _revert(vault, _one(vault, vault.journal.history.resolve_rev(rev)), verb)


def _revert(vault: Vault, commit: _Commit, verb: str) -> RevertReport:
    """:func:`revert` of ``commit``, as the log read it. Its git: ``diff-tree`` (what it
    changed), one read of the files before, after and now (two processes:
    :meth:`~core.git.blobs.ObjectStore.blobs_named`), and the commit."""
    journal = vault.journal
    sha = commit.sha
    if len(commit.parents) != 1:
        raise RevertRefusedError(f"cannot {verb} {sha[:8]} ({commit.subject}): "
                                 + ("it is a merge" if commit.parents else "it is the first commit"))
    parent = commit.parents[0]
    under = journal.relpath(vault.root)
    changes = journal.objects.tree_changes(parent, sha, None if under == "." else under)
    if not changes:
        raise NothingToUndoError(f"{sha[:8]} ({commit.subject}) changed no vault file")
    subject = commit.subject
    # "redo: archive: ..." reads better than "redo: undo: archive: ...", and the undo of that
    # redo is "undo: archive: ..." again, never "undo: redo: archive: ..." (the trailer, not the
    # subject, says which commit each takes back)
    subject = subject.removeprefix("undo: " if verb == "redo" else "redo: ")
    report = RevertReport(None, sha, commit.subject, operation=subject)

    def build(v: Vault) -> Plan:
        from ..vault import Plan

        paths = sorted(changes)
        head = journal.head()
        # one record at a time: a memory's files in both layouts are one record (a commit that
        # moved it changed two paths; a later move means its current file is at another path)
        groups: dict[tuple[str, str], list[str]] = {}
        for path in paths:
            what = v.layout.classify(journal.vault_rel(path))
            if what is None:
                raise RevertRefusedError(
                    f"cannot {verb} {sha[:8]} ({commit.subject}): it changed {path}, which is "
                    "not a memory, a relation or .meta.json (use git revert)")
            groups.setdefault(what, []).append(path)
        homes = {what: [journal.relpath(p) for p in v.layout.memory_paths(what[1])]
                 for what in groups if what[0] == "memory"}
        wanted = sorted({*paths, *(p for h in homes.values() for p in h)})
        # the files before and after it by the blob ids diff-tree gave (a submodule is none)
        names = [{p: ends[1] for p, c in changes.items()
                  if (ends := c.old if side == 0 else c.new) is not None and ends[0] != "160000"}
                 for side in (0, 1)]
        names.append(journal.objects.names_at(head, wanted))
        blobs = journal.objects.blobs_named(n for found in names for n in found.values())
        before, after, now = ({p: blobs[n] for p, n in found.items() if n in blobs}
                              for found in names)
        change = Plan(f"{verb}: {subject}\n\n{TRAILER}: {sha}")
        conflicts: list[str] = []
        for (kind, record_id), group in groups.items():
            old, new = (next((f[p] for p in group if p in f), None) for f in (before, after))
            cur = next((now[p] for p in homes.get((kind, record_id), group) if p in now), None)
            moved = len(group) > 1 and old is not None and new is not None
            if cur == old and not moved:
                continue  # already as before (a move is taken back by writing it again)
            target, kept = _merged(kind, old, new, cur)
            if target is _MISSING:
                conflicts.append(f"{kind} {record_id[:8]}" if kind != "meta" else ".meta.json")
                continue
            _put(change, kind, record_id, target, report)
            if kept:
                report.kept_touches.append(record_id)
        if conflicts:
            later = journal.commands.output("log", "--format=%h %s", f"{sha}..HEAD", "--",
                                 *[p for p in paths][:50]).splitlines()
            raise RevertRefusedError(
                f"cannot {verb} {sha[:8]} ({commit.subject}): changed since by a later commit: "
                f"{', '.join(conflicts[:10])} ({'; '.join(later[:3])}); nothing was written")
        if not (change.put_memories or change.drop_memories or change.put_relations
                or change.drop_relations or change.meta):
            raise NothingToUndoError(f"{sha[:8]} ({commit.subject}) is already undone")
        return change

    report.commit = vault.apply(build).commit
    return report


def _one(vault: Vault, sha: str) -> _Commit:
    out = vault.journal.commands.output("log", "-1", "--format=%P%x1f%at%x1f%s", sha)
    parents, ts, subject = out.split("\x1f", 2)
    return _Commit(sha, tuple(parents.split()), int(ts), subject, None)


def _merged(kind: str, old: bytes | None, new: bytes | None, cur: bytes | None
            ) -> tuple[Any, bool]:
    """The record to write (a dict, None to delete, or _MISSING for a conflict) and whether a
    later use record was kept."""
    if cur == new:
        return (_load(old) if old is not None else None), False
    if kind == "relation" or old is None or new is None or cur is None:
        if kind == "memory" and old is None and new is not None and cur is not None:
            # undo of an add, touched since: the touches go with it (they stay in history)
            n, c = _load(new), _load(cur)
            if n is not None and c is not None and _only_use_fields_differ(n, c):
                return None, False
        return _MISSING, False
    o, n, c = _load(old), _load(new), _load(cur)
    if o is None or n is None or c is None:
        return _MISSING, False
    merged = _merge_dicts(o, n, c, top=(kind == "memory"), lenient=(kind == "meta"))
    later_use = kind == "memory" and any(c.get(k) != n.get(k) for k in (*COUNTERS, *LATEST))
    return merged, later_use and merged is not _MISSING


CONFLICT = _MISSING  # what revert_record returns for a field changed since by a later commit


def revert_record(kind: str, old: dict[str, Any] | None, new: dict[str, Any] | None, cur: dict[str, Any] | None
                  ) -> tuple[Any, bool]:
    """The undo rule for one record, on parsed records (None: absent): what to write to take
    back the change ``old`` -> ``new`` from ``cur`` (a dict, None to delete, or CONFLICT), and
    whether a later use record was kept. Used by the review inbox (core/ops/inbox.py), which
    takes back several commits' changes to one memory."""
    if cur == old:
        return old, False
    if cur == new:
        return old, False
    if kind == "relation" or old is None or new is None or cur is None:
        if kind == "memory" and old is None and new is not None and cur is not None \
                and _only_use_fields_differ(new, cur):
            return None, False  # an add touched since: the touches go with it
        return CONFLICT, False
    merged = _merge_dicts(old, new, cur, top=(kind == "memory"), lenient=(kind == "meta"))
    later_use = kind == "memory" and any(cur.get(k) != new.get(k) for k in (*COUNTERS, *LATEST))
    return merged, later_use and merged is not CONFLICT


def _merge_dicts(o: dict[str, Any], n: dict[str, Any], c: dict[str, Any], *, top: bool, lenient: bool) -> Any:
    result = dict(c)
    for key in {*o, *n, *c}:
        ov, nv, cv = o.get(key, _MISSING), n.get(key, _MISSING), c.get(key, _MISSING)
        if ov == nv or cv == ov:
            continue  # the commit did not change it, or it is already back
        if cv == nv:
            if ov is _MISSING:
                result.pop(key, None)
            else:
                result[key] = ov
        elif top and key in COUNTERS and all(isinstance(x, int) for x in (ov, nv, cv)):
            result[key] = max(0, cv + ov - nv)
        elif top and key in LATEST:
            continue  # a later use: keep its time
        elif isinstance(ov, dict) and isinstance(nv, dict) and isinstance(cv, dict):
            inner = _merge_dicts(ov, nv, cv, top=False, lenient=lenient)
            if inner is _MISSING:
                return _MISSING
            result[key] = inner
        elif lenient:
            continue  # bookkeeping changed since: keep the later value
        else:
            return _MISSING
    return result


def _only_use_fields_differ(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return all(a.get(k) == b.get(k) for k in {*a, *b} if k not in (*COUNTERS, *LATEST))


def _load(data: bytes | None) -> dict[str, Any] | None:
    try:
        value = json.loads(data) if data is not None else None
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _put(change: Plan, kind: str, record_id: str, target: Any, report: RevertReport) -> None:
    if kind == "meta":
        if isinstance(target, dict):
            change.meta.update(target)
        return
    (report.memories if kind == "memory" else report.relations).append(record_id)
    change.put_record(kind, record_id, target)
