"""What the person has reviewed: the mark ``refs/memvault/reviewed`` and the per-memory accepted
set, both in the vault's git directory (never in the vault's files, never committed).

* **The mark** is a git ref. Everything the assistant committed up to it has been seen. With no
  mark yet (a vault where nobody reviewed anything), every assistant commit in the whole history
  is unreviewed: what an assistant wrote before the person first looked is exactly what they
  want to see. The ref is created by the first accept that covers everything (``--all``, or
  accepting memories one by one until none is left).
* **The accepted set** (``.git/memvault/inbox-accepted.json``, written atomically, mode 0600)
  holds ``memory id -> commit`` pairs: the person accepted (or rejected) that memory as it was
  at that commit, so the assistant's commits to it that are ancestors of that commit are
  reviewed; its later commits show again. A ref cannot move for some memories only, hence the
  file. Pairs whose commit the mark has reached are dropped whenever the file is written, and
  the file is emptied when the mark reaches HEAD. A lost or unreadable file only shows more
  (never hides anything): it is review state, not data.

Both are changed only under the vault's write lock; the ref with a compare-and-swap
``update-ref``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..store.layout import remove_file, write_atomic

if TYPE_CHECKING:
    from ..git.journal import Journal

REF = "refs/memvault/reviewed"
ACCEPTED_FILE = "inbox-accepted.json"


@dataclass
class ReviewState:
    mark: str | None  # the commit the mark points at; None: nothing reviewed yet
    accepted: dict[str, str] = field(default_factory=dict)  # memory id -> commit


def git_text(journal: Journal, *args: str) -> str:
    """git's output through the journal (its one way of running git); VaultError on failure."""
    return journal.commands.output(*args)


def read_state(journal: Journal) -> ReviewState:
    mark = journal.history.rev_parse(REF)
    path = journal.state_dir / ACCEPTED_FILE
    accepted: dict[str, str] = {}
    try:
        data = json.loads(path.read_bytes())
        raw = data.get("accepted", {}) if isinstance(data, dict) else {}
        accepted = {k: v for k, v in raw.items() if isinstance(k, str) and isinstance(v, str)}
    except (OSError, ValueError):
        pass  # none yet, or unreadable: everything not under the mark shows
    return ReviewState(mark, accepted)


def write_accepted(journal: Journal, state: ReviewState) -> None:
    """Write the accepted set, dropping the pairs the mark has reached (lock held)."""
    if not journal.locked:
        raise RuntimeError("write_accepted called without holding the lock")
    if state.mark is not None:
        state.accepted = {m: c for m, c in state.accepted.items()
                          if not journal.history.is_ancestor(c, state.mark)}
    path = journal.state_dir / ACCEPTED_FILE
    if not state.accepted:
        remove_file(path)
        return
    body: dict[str, Any] = {"version": 1, "accepted": dict(sorted(state.accepted.items()))}
    write_atomic(path, json.dumps(body, indent=2).encode() + b"\n")


def move_mark(journal: Journal, state: ReviewState, to: str) -> None:
    """Move the mark to commit ``to`` (compare-and-swap against ``state.mark``; lock held) and
    rewrite the accepted set without what the mark now covers."""
    if not journal.locked:
        raise RuntimeError("move_mark called without holding the lock")
    if state.mark == to:
        write_accepted(journal, state)
        return
    if state.mark is not None and journal.history.is_ancestor(to, state.mark):
        return  # never move the mark back
    old = state.mark or "0" * len(to)
    git_text(journal, "update-ref", "-m", "memvault: inbox accept", REF, to, old)
    state.mark = to
    write_accepted(journal, state)


def reviewed_commits(journal: Journal, state: ReviewState) -> dict[str, set[str]]:
    """For each commit named in the accepted set: the commits it covers (its ancestors and
    itself, down to the mark). A commit git no longer has covers nothing."""
    covered: dict[str, set[str]] = {}
    for commit in set(state.accepted.values()):
        if journal.history.rev_parse(commit) is None:
            covered[commit] = set()
            continue
        args = [commit] + ([f"^{state.mark}"] if state.mark else [])
        covered[commit] = set(git_text(journal, "rev-list", *args).split())
    return covered
