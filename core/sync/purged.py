"""Sync never takes back what ``memvault purge`` removed (:mod:`core.secrets.purge`).

The ids a purge removed are listed in ``.meta.json`` (:data:`core.secrets.purge.META_KEY`), on
this side or the remote's. Before anything is brought in:

* a remote whose commits (those this vault does not have) still hold a purged memory or
  relation is refused: merging would put them back into this vault's history. It needs the
  force push ``memvault purge`` printed;
* a clone whose own history still holds records only the remote's list calls purged is refused
  too, saying so: memvault never purges on a remote's word (a hostile list could name this
  vault's own memories); a person who knows another machine of theirs purged them runs
  ``memvault purge`` here.

And at the merge step, the merged tree never holds a purged record, nor a relation to a purged
memory (:func:`purged_paths`), whatever either side's tree has."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ..errors import VaultError
from ..secrets.purge import purged_ids
from ..store.layout import META_FILE

if TYPE_CHECKING:
    from ..vault import Vault


def purged_on_either_side(vault: Vault, theirs: str) -> tuple[set[str], set[str]]:
    journal = vault.journal
    meta_path = journal.relpath(vault.root / META_FILE)
    theirs_meta: dict[str, Any] = {}
    data = journal.objects.files_at(theirs, [meta_path]).get(meta_path)
    if data is not None:
        try:
            loaded = json.loads(data)
        except ValueError:
            loaded = None
        theirs_meta = loaded if isinstance(loaded, dict) else {}
    mine_m, mine_r = purged_ids(vault.meta)
    their_m, their_r = purged_ids(theirs_meta)
    return mine_m | their_m, mine_r | their_r


class PurgedHistoryError(VaultError):
    """The remote's history still holds purged records: what the fetch brought is forgotten
    again (:func:`forget_fetched`) and nothing is brought in."""


def forget_fetched(vault: Vault, tracking: str, before: str | None) -> None:
    """Put the remote-tracking ref back where it was before the fetch and prune what the fetch
    brought (the purged versions must not stay in this clone's object store)."""
    vault.journal.rewriting.set_ref(tracking, before)
    vault.journal.rewriting.expire_and_prune()


def refuse_purged_history(vault: Vault, ours: str, theirs: str, target: str) -> None:
    """Raise VaultError (nothing brought in) in the two cases of the module docstring."""
    memories, relations = purged_on_either_side(vault, theirs)
    if not memories and not relations:
        return
    journal = vault.journal
    paths = sorted(journal.relpath(vault.root / f"memories/{i}.json") for i in memories) + \
        sorted(journal.relpath(vault.root / f"relations/{i}.json") for i in relations)
    shown = ", ".join(i[:8] for i in sorted(memories)[:5]) or "relations"
    if journal.rewriting.touches([theirs, f"^{ours}"], paths):
        raise PurgedHistoryError(
            f"refused: {target} still holds memories this vault purged ({shown}) in its history; "
            "bringing it in would put them back, so nothing was brought in. It needs a force "
            f"push first (`memvault purge` printed the command: git push "
            f"--force-with-lease=<branch>:<commit before the purge> <remote> <branch>)")
    if journal.rewriting.touches([ours], paths):
        # Only the remote says they were purged: memvault never purges on a remote's word (a
        # remote's list naming this vault's own memories would have them erased from history).
        mine_m, _mine_r = purged_ids(vault.meta)
        claimed = sorted(i for i in memories - mine_m if journal.rewriting.touches(
            [ours], [journal.relpath(vault.root / f"memories/{i}.json")]))
        listed = ", ".join(i[:8] for i in claimed[:5]) + (
            f" and {len(claimed) - 5} more" if len(claimed) > 5 else "")
        raise VaultError(
            f"refused: {target}'s .meta.json lists as purged {len(claimed) or 'some'} "
            f"memor{'y' if len(claimed) == 1 else 'ies'} this vault holds and never purged "
            f"({listed or shown}); nothing was brought in and nothing was purged. memvault "
            "never purges on a remote's word: see what they hold (`memvault show <id>`) and "
            f"ask whoever pushed that list (`git log -p {target} -- .meta.json`)")


def purged_paths(memories: set[str], relations: set[str], paths: Iterable[str],
                 classify: Callable[[str], tuple[str, str] | None],
                 relations_of: Callable[[], Mapping[str, Mapping[str, Any]]]) -> list[str]:
    """The paths of a merged tree to drop so it holds no purged record (``memories``,
    ``relations``: the purged ids, :func:`purged_on_either_side`) nor a relation to a purged
    memory. ``paths``: the merged tree's paths; ``classify``: a path's (kind, id), or None for
    a path that is no record; ``relations_of``: the tree's relation records by path, asked
    only when something was purged."""
    if not memories and not relations:
        return []
    dropped = []
    for path in paths:
        what = classify(path)
        if what is None:
            continue
        kind, record_id = what
        if (kind == "memory" and record_id in memories) or (
                kind == "relation" and record_id in relations):
            dropped.append(path)
    for path, record in relations_of().items():
        if {record.get("from_memory_id"), record.get("to_memory_id")} & memories:
            dropped.append(path)
    return list(dict.fromkeys(dropped))
