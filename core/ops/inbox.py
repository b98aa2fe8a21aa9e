"""The review inbox: what the assistant wrote since the person last looked, one entry per memory.

An **assistant commit** is one carrying the trailer ``Memvault-Via: <client>`` (a vault opened
with ``via=``, the MCP server). What is reviewed is kept by :mod:`core.ops.inbox_state`: the ref
``refs/memvault/reviewed`` (with none yet, the whole history is unreviewed) and a per-memory
accepted set.

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

from dataclasses import dataclass, field
from typing import Any, TYPE_CHECKING

from ..errors import AmbiguousIdError, UnknownIdError, VaultError
from ..git.journal import VIA_TRAILER, CommitChanges
from ..store.cache import MIN_PREFIX
from ..textutil import neutralise_line
from .inbox_diff import (FieldChange, changed_fields, field_changes, first_words, operation,
                         parse, relation_label, without_use)
from .inbox_model import (AcceptReport, InboxEntry, InboxRefusedError, InboxView, LaterChange,
                          RejectReport, RelationChange, via_of)
from .inbox_state import (ReviewState, git_text, move_mark, read_state, reviewed_commits,
                          write_accepted)
from .revert import CONFLICT, revert_record

if TYPE_CHECKING:
    from ..vault import Plan, Vault

USE_VERBS = ("touch", "use")
__all__ = ["AcceptReport", "FieldChange", "InboxEntry", "InboxRefusedError", "InboxView",
           "LaterChange", "RejectReport", "RelationChange", "accept", "inbox", "reject", "review",
           "via_of"]


# -- gathering the steps --------------------------------------------------------------------
@dataclass
class _Step:
    commit: CommitChanges
    path: str  # vault-relative
    kind: str  # memory, relation
    old: dict[str, Any] | None
    new: dict[str, Any] | None


@dataclass
class _Gathered:
    head: str
    steps: dict[str, list[_Step]] = field(default_factory=dict)  # memory id -> assistant steps
    rel_steps: dict[str, list[_Step]] = field(default_factory=dict)  # memory id -> relations
    later: dict[str, list[_Step]] = field(default_factory=dict)  # memory id -> person steps
    now: dict[str, dict[str, Any] | None] = field(default_factory=dict)  # vault path -> record at head
    order: dict[str, int] = field(default_factory=dict)  # commit -> position, oldest first


def _gather(vault: Vault, head: str, state: ReviewState) -> _Gathered:
    journal, layout = vault.journal, vault.layout
    got = _Gathered(head)
    since = _start(vault, head, state)
    if since is False:
        return got  # no assistant commit since the mark: nothing to read
    commits = journal.history.commits_with_changes(since=since if isinstance(since, str) else None)
    covered = reviewed_commits(journal, state)

    def reviewed(memory_id: str, sha: str) -> bool:
        return sha in covered.get(state.accepted.get(memory_id, ""), ())

    # which memories have unreviewed assistant changes, from the blob ids alone
    wanted: set[str] = set()
    relations = False
    for c in commits:
        if via_of(c.message) is None or c.operation in USE_VERBS:
            continue
        for ch in c.changes:
            what = layout.classify(ch.path)
            if what and what[0] == "memory" and not reviewed(what[1], c.commit):
                wanted.add(what[1])
            relations = relations or bool(what and what[0] == "relation")

    def needed(path: str) -> bool:
        what = layout.classify(path)
        return what is not None and (what[0] == "relation" and relations
                                     or what[0] == "memory" and what[1] in wanted)

    blobs = journal.objects.read_blobs({b for c in commits for ch in c.changes if needed(ch.path)
                                for b in (ch.old_blob, ch.new_blob) if b})
    got.order = {c.commit: n for n, c in enumerate(commits)}
    for c in commits:  # oldest first: a person's step is "later" once an assistant step is in
        via = via_of(c.message)
        in_commit: set[str] = set()
        rel_steps: list[_Step] = []
        mine: dict[str, _Step] = {}  # one step a memory: a move in both layouts is one change
        for ch in c.changes:
            what = layout.classify(ch.path)
            if what is None or what[0] == "meta" or not needed(ch.path):
                continue
            step = _Step(c, ch.path, what[0],
                         parse(blobs.get(ch.old_blob)) if ch.old_blob else None,
                         parse(blobs.get(ch.new_blob)) if ch.new_blob else None)
            if step.kind == "relation":
                rel_steps.append(step)
                continue
            step.path = _memory_rel(vault, what[1])  # its files in either layout are one record
            if what[1] in mine:
                first = mine[what[1]]
                step.old = first.old if first.old is not None else step.old
                step.new = first.new if first.new is not None else step.new
            mine[what[1]] = step
        for rid, step in mine.items():
            what = ("memory", rid)
            if _is_use(c, step):
                continue
            elif via is not None and not reviewed(what[1], c.commit):
                got.steps.setdefault(what[1], []).append(step)
                in_commit.add(what[1])
            elif via is None and (what[1] in got.steps or what[1] in got.rel_steps):
                got.later.setdefault(what[1], []).append(step)
        if via is None or c.operation in USE_VERBS:
            continue
        for step in rel_steps:  # a relation goes with the memories of its commit it touches,
            ends = [e for rec in (step.old, step.new) if rec  # else with its "from" memory
                    for e in (rec.get("from_memory_id"), rec.get("to_memory_id"))
                    if isinstance(e, str)]
            owners = [e for e in dict.fromkeys(ends) if e in in_commit] or ends[:1]
            for owner in owners:
                if not reviewed(owner, c.commit):
                    got.rel_steps.setdefault(owner, []).append(step)
    paths = {s.path for lst in got.rel_steps.values() for s in lst}
    homes = {_memory_rel(vault, mid): [journal.relpath(f) for f in layout.memory_paths(mid)]
             for mid in (*got.steps, *got.rel_steps)}  # a memory: where it is now, either layout
    repo = {p: journal.relpath(layout.root / p) for p in paths}
    to_read = [*repo.values(), *(r for found in homes.values() for r in found)]
    raw = journal.objects.files_at(head, to_read) if to_read else {}
    got.now = {p: parse(raw.get(r)) for p, r in repo.items()}
    got.now.update({p: parse(next((raw[r] for r in found if r in raw), None))
                    for p, found in homes.items()})
    return got


def _start(vault: Vault, head: str, state: ReviewState) -> str | bool | None:
    """Where reading the history starts: False when no commit since the mark names a client
    (one ``git log --grep``, no diffs: the common case of a vault no assistant writes to);
    else the parent of the oldest such commit (None: from the first commit)."""
    journal = vault.journal
    revs = [head, f"^{state.mark}"] if state.mark else [head]
    out = git_text(journal, "log", "--format=%H", "--date-order", "--reverse",
                   f"--grep=^{VIA_TRAILER}: ", *revs)
    oldest = out.split()[:1]
    if not oldest:
        return False
    parent = journal.history.rev_parse(f"{oldest[0]}^")
    if parent is None or (state.mark and not journal.history.is_ancestor(state.mark, parent)):
        return state.mark
    return parent


def _is_use(c: CommitChanges, step: _Step) -> bool:
    """A use record: a touch/use commit, or a change of use fields only."""
    if c.operation in USE_VERBS:
        return True
    return step.old is not None and step.new is not None and \
        without_use(step.old) == without_use(step.new)


def _memory_rel(vault: Vault, memory_id: str) -> str:
    return vault.layout.memory_path(memory_id).relative_to(vault.layout.root).as_posix()


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
    got = _gather(vault, head, state)
    return InboxView(head, state.mark, _entries(vault, got))


def _entries(vault: Vault, got: _Gathered) -> list[InboxEntry]:
    out = []
    for mid in sorted({*got.steps, *got.rel_steps}):
        entry = _entry(mid, _memory_rel(vault, mid), got)
        if entry is not None:
            out.append(entry)
    out.sort(key=lambda e: -got.order.get(e.commits[-1], 0))  # newest change first
    return out


def _entry(mid: str, path: str, got: _Gathered) -> InboxEntry | None:
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
        memory_id=mid, operation=op, preview=first_words(record.get("content")),
        changes=field_changes(before, after) if steps else [],
        relations=_relation_changes(rel_steps),
        when=max(by_sha[c].timestamp for c in commits),
        clients=list(dict.fromkeys(v for c in commits if (v := via_of(by_sha[c].message)))),
        commits=commits, subjects=[_subject(by_sha[c]) for c in commits],
        later=[LaterChange(s.commit.commit, _subject(s.commit), s.commit.timestamp,
                           tuple(changed_fields(s.old, s.new))) for s in got.later.get(mid, [])],
        exists=current is not None)
    _, conflicts, _, _ = _plan_reject(path, steps, rel_steps, got.now)
    if conflicts:
        entry.blocked = _blocked_message(mid, entry.later)
    return entry


def _first_old(steps: list[_Step], path: str) -> dict[str, Any] | None:
    return next(s.old for s in steps if s.path == path)


def _subject(c: CommitChanges) -> str:
    return neutralise_line(c.message.splitlines()[0] if c.message else "")


def _relation_changes(steps: list[_Step]) -> list[RelationChange]:
    first: dict[str, _Step] = {}
    last: dict[str, _Step] = {}
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
def _plan_reject(path: str, steps: list[_Step], rel_steps: list[_Step],
                 now: dict[str, dict[str, Any] | None]
                 ) -> tuple[dict[str, tuple[str, dict[str, Any] | None]], list[tuple[str, str]], bool,
                            list[str]]:
    """Take the steps back newest first, by the undo rule, from the records as they are now:
    (vault path -> (kind, record to write, None to delete) for those that change; conflicts as
    (path, commit); whether later use records were kept; fields a person changed that stay)."""
    per_path: dict[str, list[_Step]] = {}
    for s in (*steps, *rel_steps):
        lst = per_path.setdefault(s.path, [])
        if all(x.commit.commit != s.commit.commit for x in lst):
            lst.append(s)
    writes: dict[str, tuple[str, dict[str, Any] | None]] = {}
    conflicts: list[tuple[str, str]] = []
    kept_use = False
    for p, lst in per_path.items():
        cur = now.get(p)
        for s in reversed(lst):
            target, kept = revert_record(s.kind, s.old, s.new, cur)
            if target is CONFLICT:
                conflicts.append((p, s.commit.commit))
                break
            kept_use = kept_use or kept
            cur = target
        else:
            if cur != now.get(p):
                writes[p] = (lst[0].kind, cur)
    kept_fields: list[str] = []
    if steps and now.get(path) is not None and steps[-1].new is not None:
        kept_fields = changed_fields(steps[-1].new, now.get(path))
    return writes, conflicts, kept_use, kept_fields


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
        got = _gather(v, head, read_state(journal))
        entries = _entries(v, got)
        entry = _find(v, entries, key)
        if entry.blocked:
            raise InboxRefusedError(f"cannot reject {entry.memory_id[:8]}: {entry.blocked}; "
                                    "nothing was written")
        mid = entry.memory_id
        writes, conflicts, kept_use, kept_fields = _plan_reject(
            _memory_rel(v, mid), got.steps.get(mid, []), got.rel_steps.get(mid, []), got.now)
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
    matches = [e for e in entries if len(key) >= MIN_PREFIX and e.memory_id.startswith(key)]
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
        entries = _entries(vault, _gather(vault, head, state))
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
