"""The review inbox: what the assistant wrote since the person last looked, one entry per memory.

An **assistant commit** is one carrying the trailer ``Memvault-Via: <client>`` (a vault opened
with ``via=``, the MCP server); its steps are read by :mod:`core.ops.inbox_steps`. What is
reviewed is kept by :mod:`core.ops.inbox_state`: the ref ``refs/memvault/reviewed`` (with none
yet, the whole history is unreviewed) and a per-memory accepted set.

:func:`inbox` lists, for every memory the assistant added, changed, archived or removed in
unreviewed commits, one :class:`InboxEntry`: the operation, the fields it changed (content,
gist, tags, entities, status, strength, source; before = the memory just before the assistant's
first unreviewed change, after = as its last unreviewed change left it), when, which clients,
the commits, the relations those commits changed around the memory (a relation-only commit, a
``relate``, belongs to its ``from`` memory), and the person's own later commits to it. Use
records (``touch:``/``use:`` commits, or changes of only ``use_count``, ``last_used``,
``review_count``, ``last_review_at``) are never entries. A memory the assistant added then
removed again (nothing left to review) is not listed.

:func:`accept` marks entries reviewed: all (the mark moves) or some memories (the accepted set).
:func:`reject` takes back every unreviewed assistant change to one memory (and its relations),
newest first, by the undo rules of :mod:`core.ops.revert`: a person's later change to another
field is kept, later use records are kept, and a person's later change to a field the assistant
changed refuses the reject (nothing written; the entry's ``blocked`` says so beforehand). One
commit, ``reject: <id> <first words> (...)``; the memory is then reviewed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import AmbiguousIdError, UnknownIdError, VaultError
from ..git.journal import CommitChanges
from ..store.prefixes import MIN_PREFIX
from ..textutil import neutralise_line
from .inbox_diff import (FieldChange, changed_fields, field_changes, operation,
                         relation_label, without_use)
from .inbox_model import (AcceptReport, InboxEntry, InboxRefusedError, InboxView, LaterChange,
                          RejectReport, RelationChange, via_of)
from .inbox_state import ReviewState, move_mark, read_state, write_accepted
from .inbox_steps import Gathered, Step, gather, memory_rel, plan_reject

if TYPE_CHECKING:
    from ..vault import Plan, Vault
__all__ = ["AcceptReport", "FieldChange", "InboxEntry", "InboxRefusedError", "InboxView",
           "LaterChange", "RejectReport", "RelationChange", "accept", "inbox", "reject", "review",
           "still_as_reviewed", "via_of"]


# -- the entries ----------------------------------------------------------------------------
def inbox(vault: Vault) -> list[InboxEntry]:
    """The unreviewed entries, newest first."""
    return review(vault).entries


def review(vault: Vault) -> InboxView:
    """The entries and the commit they were computed at (give it to :func:`accept` as ``upto``
    so that only what was shown is accepted)."""
    head = vault.journal.head()
    state = read_state(vault.journal)
    if head is None:
        return InboxView(None, state.mark, [])
    got = gather(vault, head, state)
    return InboxView(head, state.mark, _entries(vault, got))


def still_as_reviewed(vault: Vault, view: InboxView, head: str) -> bool:
    """Whether ``view``'s entries (read at ``view.head``) are the entries at ``head`` too, known
    from the commits in between alone (one ``git log``, no record read): each a person's (no
    client named), the child of the one before back to ``view.head``, none touching a memory
    with an entry (nor a relation, when an entry lists relations). The app's own writes are
    such commits: the inbox's count after one is read from this, not gathered again."""
    if view.head is None or view.head == head:
        return view.head == head
    commits = vault.journal.history.commits_with_changes(since=view.head)
    entry_ids = {e.memory_id for e in view.entries}
    relations = any(e.relations for e in view.entries)
    seen = {view.head}
    for c in commits:
        if len(c.parents) != 1 or c.parents[0] not in seen or via_of(c.message) is not None:
            return False
        for ch in c.changes:
            what = vault.layout.classify(ch.path)
            if what and (what[0] == "memory" and what[1] in entry_ids
                         or what[0] == "relation" and relations):
                return False
        seen.add(c.commit)
    return bool(commits) and commits[-1].commit == head


def _entries(vault: Vault, got: Gathered) -> list[InboxEntry]:
    out = []
    for mid in sorted({*got.steps, *got.rel_steps}):
        entry = _entry(mid, memory_rel(vault, mid), got)
        if entry is not None:
            out.append(entry)
    out.sort(key=lambda e: -got.order.get(e.commits[-1], 0))  # newest change first
    return out


def _entry(mid: str, path: str, got: Gathered) -> InboxEntry | None:
    from ..vault.reports import subject_words  # (core.vault imports core.ops)
    steps, rel_steps = got.steps.get(mid, []), got.rel_steps.get(mid, [])
    current = got.now.get(path)
    if steps:
        before, after = steps[0].old, steps[-1].new
        if without_use(before) == without_use(after) and not rel_steps:
            return None  # added and removed again, or changed and changed back
        if without_use(current) == without_use(before) and all(
                got.now.get(s.path) == _first_old(rel_steps, s.path) for s in rel_steps):
            return None  # already back as it was (the person's undo): nothing to review
        op = operation(before, after)
    else:
        before = after = current
        op = "related"
        if not _relation_changes(rel_steps):
            return None  # a relation added and removed again
    by_sha = {s.commit.commit: s.commit for s in (*steps, *rel_steps)}
    commits = sorted(by_sha, key=lambda sha: got.order.get(sha, 0))
    record = current or after or before or {}
    entry = InboxEntry(
        memory_id=mid, operation=op, preview=subject_words(str(record.get("content") or "")),
        changes=field_changes(before, after) if steps else [],
        relations=_relation_changes(rel_steps),
        when=max(by_sha[c].timestamp for c in commits),
        clients=list(dict.fromkeys(v for c in commits if (v := via_of(by_sha[c].message)))),
        commits=commits, subjects=[_subject(by_sha[c]) for c in commits],
        later=[LaterChange(s.commit.commit, _subject(s.commit), s.commit.timestamp,
                           tuple(changed_fields(s.old, s.new))) for s in got.later.get(mid, [])],
        exists=current is not None)
    _, conflicts, _, _ = plan_reject(path, steps, rel_steps, got.now)
    if conflicts:
        entry.blocked = _blocked_message(mid, entry.later)
    return entry


def _first_old(steps: list[Step], path: str) -> dict[str, Any] | None:
    return next(s.old for s in steps if s.path == path)


def _subject(c: CommitChanges) -> str:
    return neutralise_line(c.message.splitlines()[0] if c.message else "")


def _relation_changes(steps: list[Step]) -> list[RelationChange]:
    first: dict[str, Step] = {}
    last: dict[str, Step] = {}
    for s in steps:
        first.setdefault(s.path, s)
        last[s.path] = s
    out = []
    for p, s in first.items():
        old, new = s.old, last[p].new
        if old == new:
            continue
        op = "added" if old is None else "removed" if new is None else "changed"
        rid = p.rsplit("/", 1)[-1].removesuffix(".json")
        out.append(RelationChange(rid, op, relation_label(new or old)))
    return out


def _blocked_message(mid: str, later: list[LaterChange]) -> str:
    fields = sorted({f for c in later for f in c.fields})
    what = f" ({', '.join(fields)})" if fields else ""
    whose = "; ".join(f"{c.commit[:8]} {c.subject}" for c in later[-3:])
    return (f"you changed memory {mid[:8]} since the assistant did{what}"
            f"{': ' + whose if whose else ''}; rejecting would discard your change")


# -- rejecting ------------------------------------------------------------------------------
def reject(vault: Vault, key: str) -> RejectReport:
    """Take back the assistant's unreviewed changes to one memory, as one commit (see the
    module docstring); InboxRefusedError, nothing written, over a person's later change."""
    journal = vault.journal
    holder: dict[str, RejectReport] = {}
    left: list[int] = []  # entries left once this one is rejected

    def build(v: Vault) -> Plan:
        from ..vault import Plan

        head = journal.head()
        if head is None:
            raise VaultError("the inbox is empty")
        got = gather(v, head, read_state(journal))
        entries = _entries(v, got)
        entry = _find(v, entries, key)
        if entry.blocked:
            raise InboxRefusedError(f"cannot reject {entry.memory_id[:8]}: {entry.blocked}; "
                                    "nothing was written")
        mid = entry.memory_id
        writes, conflicts, kept_use, kept_fields = plan_reject(
            memory_rel(v, mid), got.steps.get(mid, []), got.rel_steps.get(mid, []), got.now)
        n = len(entry.commits)
        trailers = "\n".join(f"Memvault-Reverts: {c}" for c in entry.commits)
        by = neutralise_line(", ".join(entry.clients))
        change = Plan(f"reject: {mid[:8]} {neutralise_line(entry.preview)} "
                           f"({entry.operation} by {by}, {n} commit{'s' * (n != 1)})"
                           f"\n\n{trailers}")
        report = RejectReport(None, mid, entry.commits, [], kept_use, kept_fields)
        for p, (kind, record) in sorted(writes.items()):
            rid = (v.layout.classify(p) or ("", ""))[1]
            if kind != "memory":
                report.relations.append(rid)
            change.put_record(kind, rid, record)
        holder["report"] = report
        left.append(len(entries) - 1)
        return change

    with journal.lock():
        before = journal.head()
        change = vault.apply(build)
        report = holder["report"]
        head = journal.head()
        report.commit = change.commit if head != before else None
        state = read_state(journal)
        if head is not None:
            state.accepted[report.memory_id] = head
        _settle(vault, state, head, left[-1])
    return report


def _find(vault: Vault, entries: list[InboxEntry], key: str) -> InboxEntry:
    """The entry of a memory id or unique prefix (>= 4 characters)."""
    exact = [e for e in entries if e.memory_id == key]
    if exact:
        return exact[0]
    if len(key) >= MIN_PREFIX:
        matches = [e for e in entries if e.memory_id.startswith(key)]
        if len(matches) > 1:
            raise AmbiguousIdError(key, [e.memory_id for e in matches])
        if matches:
            return matches[0]
    try:
        found = vault.resolve_any(key)
    except UnknownIdError:
        raise UnknownIdError(f"no memory with id or prefix {key!r} in the inbox") from None
    raise VaultError(f"memory {neutralise_line(found[:8])} has nothing to review in the inbox")


# -- accepting ------------------------------------------------------------------------------
def accept(vault: Vault, keys: list[str] | None = None, *, upto: str | None = None
           ) -> AcceptReport:
    """Mark entries reviewed: every entry (``keys`` None: the mark moves), or the memories
    named by id or prefix (the accepted set; when nothing is left, the mark moves). ``upto``:
    accept only what was there at that commit (what :func:`review` showed); default HEAD."""
    journal = vault.journal
    with journal.lock():
        head = journal.head()
        if head is None:
            return AcceptReport(None, [], keys is None)
        target = journal.history.resolve_rev(upto) if upto else head
        if not journal.history.is_ancestor(target, head):
            raise VaultError(f"{upto} is not in the vault's history; nothing was accepted")
        state = read_state(journal)
        entries = _entries(vault, gather(vault, head, state))
        if keys is None:
            accepted = [e.memory_id for e in entries]
            move_mark(journal, state, target)
            return AcceptReport(state.mark, accepted, True)
        ids = list(dict.fromkeys(_find(vault, entries, k).memory_id for k in keys))
        for mid in ids:
            old = state.accepted.get(mid)
            if old is None or not journal.history.is_ancestor(target, old):
                state.accepted[mid] = target
        left = len([e for e in entries if e.memory_id not in ids]) or int(target != head)
        _settle(vault, state, head, left)
        return AcceptReport(state.mark, ids, False)


def _settle(vault: Vault, state: ReviewState, head: str | None, left: int) -> None:
    """Write the accepted set; when no entry is ``left`` (counted under the lock, up to HEAD),
    move the mark to HEAD instead."""
    if head is not None and not left:
        move_mark(vault.journal, state, head)
    else:
        write_accepted(vault.journal, state)
