"""Memories that moved into the other layout on one side of a merge (``memvault migrate-layout``
on one clone, core.store.shards): one record, not a deletion and an addition.

Sync compares each side with the merge base path by path, without rename detection (a file is
its id). A memory a side moved shows there as its old path removed and its new path added, and
an edit the other side made at the old path would look like modify/delete: the edit would come
back at the old path beside the moved file. :func:`follow_moves` rewrites both sides' changes
first, so that the rules of :mod:`core.sync.merge` see one record at its new path:

* the moving side's change becomes ``old content -> new content`` at the new path, or nothing
  when it only moved the file (a rename: no change of content);
* the other side's change at the old path (an edit, a deletion) is taken to the new path;
* the old path is removed from the merged tree.

git's own merge (merge-ort, renames on) usually did the same already; this makes the outcome
not depend on its rename detection (limits, similarity).
"""

from __future__ import annotations

from collections.abc import Callable

from ..git.journal import TreeChange

Classify = Callable[[str], "tuple[str, str] | None"]


def follow_moves(classify: Classify, ours: dict[str, TreeChange],
                 theirs: dict[str, TreeChange]) -> dict[str, str]:
    """Rewrite both sides' changes (repository path -> change) in place as described in the
    module docstring. Returns each moved memory's old path -> new path."""
    moves = [_moves(classify, ours), _moves(classify, theirs)]
    moved: dict[str, str] = {}
    for side, other, mine in ((ours, theirs, moves[0]), (theirs, ours, moves[1])):
        for old_path, new_path in mine.items():
            moved[old_path] = new_path
            removed, added = side.pop(old_path), side.pop(new_path)
            if added.new != removed.old:  # moved and changed on this side
                side[new_path] = TreeChange(removed.old, added.new, "M")
    for side, other, mine in ((ours, theirs, moves[0]), (theirs, ours, moves[1])):
        for old_path, new_path in mine.items():
            change = other.pop(old_path, None)
            if change is not None and new_path not in other:
                other[new_path] = change
    return moved


def _moves(classify: Classify, changes: dict[str, TreeChange]) -> dict[str, str]:
    """Old path -> new path of the memories one side removed at one path and added at another."""
    gone: dict[str, str] = {}
    came: dict[str, str] = {}
    for path, change in changes.items():
        what = classify(path)
        if what is None or what[0] != "memory":
            continue
        if change.new is None and change.old is not None:
            gone[what[1]] = path
        elif change.old is None and change.new is not None:
            came[what[1]] = path
    return {gone[rid]: came[rid] for rid in gone.keys() & came.keys()}
