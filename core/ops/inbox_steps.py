"""The assistant's unreviewed steps in the vault's history, one memory at a time, for the review
inbox (:mod:`core.ops.inbox`): read from the commits since the mark (:func:`gather`), and taken
back newest first by the undo rule of :mod:`core.ops.revert` (:func:`plan_reject`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..git.journal import VIA_TRAILER, CommitChanges
from .inbox_diff import changed_fields, parse, without_use
from .inbox_model import via_of
from .inbox_state import ReviewState, git_text, reviewed_commits
from .revert import CONFLICT, revert_record

if TYPE_CHECKING:
    from ..vault import Vault

USE_VERBS = ("touch", "use")


# -- gathering the steps --------------------------------------------------------------------
@dataclass
class Step:
    commit: CommitChanges
    path: str  # vault-relative
    kind: str  # memory, relation
    old: dict[str, Any] | None
    new: dict[str, Any] | None


@dataclass
class Gathered:
    head: str
    steps: dict[str, list[Step]] = field(default_factory=dict)  # memory id -> assistant steps
    rel_steps: dict[str, list[Step]] = field(default_factory=dict)  # memory id -> relations
    later: dict[str, list[Step]] = field(default_factory=dict)  # memory id -> person steps
    now: dict[str, dict[str, Any] | None] = field(default_factory=dict)  # vault path -> record at head
    order: dict[str, int] = field(default_factory=dict)  # commit -> position, oldest first


def gather(vault: Vault, head: str, state: ReviewState) -> Gathered:
    journal, layout = vault.journal, vault.layout
    got = Gathered(head)
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
        rel_steps: list[Step] = []
        mine: dict[str, Step] = {}  # one step a memory: a move in both layouts is one change
        for ch in c.changes:
            what = layout.classify(ch.path)
            if what is None or what[0] == "meta" or not needed(ch.path):
                continue
            step = Step(c, ch.path, what[0],
                         parse(blobs.get(ch.old_blob)) if ch.old_blob else None,
                         parse(blobs.get(ch.new_blob)) if ch.new_blob else None)
            if step.kind == "relation":
                rel_steps.append(step)
                continue
            step.path = memory_rel(vault, what[1])  # its files in either layout are one record
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
    homes = {memory_rel(vault, mid): [journal.relpath(f) for f in layout.memory_paths(mid)]
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


def _is_use(c: CommitChanges, step: Step) -> bool:
    """A use record: a touch/use commit, or a change of use fields only."""
    if c.operation in USE_VERBS:
        return True
    return step.old is not None and step.new is not None and \
        without_use(step.old) == without_use(step.new)


def memory_rel(vault: Vault, memory_id: str) -> str:
    return vault.layout.memory_path(memory_id).relative_to(vault.layout.root).as_posix()


# -- taking them back ------------------------------------------------------------------------
def plan_reject(path: str, steps: list[Step], rel_steps: list[Step],
                 now: dict[str, dict[str, Any] | None]
                 ) -> tuple[dict[str, tuple[str, dict[str, Any] | None]], list[tuple[str, str]], bool,
                            list[str]]:
    """Take the steps back newest first, by the undo rule, from the records as they are now:
    (vault path -> (kind, record to write, None to delete) for those that change; conflicts as
    (path, commit); whether later use records were kept; fields a person changed that stay)."""
    per_path: dict[str, list[Step]] = {}
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
