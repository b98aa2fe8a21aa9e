"""What sync never takes from a remote, refused before anything is checked out
(:func:`refuse_foreign`). A refusal raises :class:`ForeignCommitError`: sync then forgets what
the fetch brought (:func:`forget_refused`), so no object of the refused commits stays in the
object store (``git fsck --strict`` stays clean: a tree holding ``.git`` is an fsck error)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ..errors import VaultError
from ..git.entries import TreeChange
from ..store.layout import META_FILE
from ..store.shards import LAYOUT_KEY, LAYOUTS
from ..textutil import neutralise_line
from .conflicts import FOLDER as CONFLICTS_DIR
from .report import conflicts_dir, vault_rel_of

if TYPE_CHECKING:
    from ..vault import Vault

#: A configuration file memvault (and CortexGraph) would read from the folder it runs in: a
#: remote never adds one at the repository's or the vault's root.
ENV_FILE = ".env"


class ForeignCommitError(VaultError):
    """The remote's commits hold what sync never takes; nothing was brought in."""


def forget_refused(vault: Vault, tracking: str, before: str | None) -> None:
    """Put the remote-tracking ref back where it was before the fetch and prune the objects only
    the refused commits had (that ref's reflog entries for them included; no other reflog is
    touched)."""
    vault.journal.rewriting.forget_fetch(tracking, before)


def _is_git_dir_name(name: str) -> bool:
    """A path part git (or a case-insensitive, or NTFS, file system) takes for ``.git``."""
    folded = name.casefold().rstrip(". ")
    return folded == ".git" or folded == "git~1"


def refuse_foreign(vault: Vault, ours: str, commit: str, target: str) -> None:
    """Raise :class:`ForeignCommitError` (nothing brought in) when ``commit`` holds:

    * a ``.git`` folder or file anywhere (``.GIT``, ``.git.`` too): checking it out would write
      into a repository's private folder;
    * a ``.env`` at the repository's or the vault's root that ``ours`` does not have as it is:
      a configuration file a program run in that folder would read;
    * a ``.meta.json`` memvault cannot take: not a JSON object, or a layout it does not know
      (every later write would be refused);
    * anything in ``sync-conflicts/`` (memvault's own, never committed: a link there would
      send the files waiting for a person, and their clearing, elsewhere on this machine);
    * a symbolic link or a submodule where vault files go (``memories/``, ``relations/``,
      ``.meta.json``): memvault never follows one, and a link to a file elsewhere would be
      read and pushed back;
    * a folder above the vault's (a vault in a folder of a larger repository) that is not a
      folder in the commit: the vault's own path would lead elsewhere."""
    journal = vault.journal
    changes = journal.objects.tree_changes(ours, commit)
    dot_git = sorted(p for p in changes if changes[p].new is not None
                     and any(_is_git_dir_name(part) for part in p.split("/")))
    if dot_git:
        raise ForeignCommitError(
            f"refused: {target} holds {_shown(dot_git)}, a path git keeps for a repository's "
            "own private folder (checking it out would write into it); nothing was brought in "
            f"and what was fetched is forgotten. Remove it from {target}, then sync again")
    rel_root = journal.relpath(vault.root)
    roots = sorted({ENV_FILE, ENV_FILE if rel_root == "." else f"{rel_root}/{ENV_FILE}"})
    added_env = [p for p in roots if p in changes and changes[p].new is not None]
    if added_env:
        raise ForeignCommitError(
            f"refused: {target} adds or changes {_shown(added_env)}, a configuration file a "
            "program run in that folder may read (memvault never reads one from a folder a "
            "remote writes); nothing was brought in and what was fetched is forgotten. Remove "
            f"it from {target}, then sync again")
    _check_meta(vault, commit, target, changes)
    _check_vault_paths(vault, commit, target, rel_root)


def _check_meta(vault: Vault, commit: str, target: str, changes: dict[str, TreeChange]) -> None:
    journal = vault.journal
    meta_path = journal.relpath(vault.root / META_FILE)
    change = changes.get(meta_path)
    if change is None or change.new is None or change.new[0] not in ("100644", "100755"):
        return  # unchanged, removed (the merge keeps ours) or a link (refused below)
    data = journal.objects.files_at(commit, [meta_path]).get(meta_path, b"")
    try:
        meta = json.loads(data)
    except ValueError:
        meta = None
    if not isinstance(meta, dict):
        why = "is not a JSON object"
    elif not isinstance(meta.get(LAYOUT_KEY, LAYOUTS[0]), str) or \
            meta.get(LAYOUT_KEY, LAYOUTS[0]) not in LAYOUTS:
        why = (f"names the layout {neutralise_line(repr(meta.get(LAYOUT_KEY)))[:80]}, which "
               f"this memvault does not know (it knows {' and '.join(LAYOUTS)}; a newer "
               "memvault wrote it? upgrade this one)")
    else:
        return
    raise ForeignCommitError(
        f"refused: in {target}, {neutralise_line(meta_path)} {why}; taking it would stop every "
        f"write here, so nothing was brought in. Fix it on {target}, then sync again")


def _check_vault_paths(vault: Vault, commit: str, target: str, rel_root: str) -> None:
    journal = vault.journal
    if rel_root != ".":
        parts = rel_root.split("/")
        above = ["/".join(parts[: i + 1]) for i in range(len(parts))]
        for path, mode in journal.objects.entries_at(commit, above).items():
            if mode != "040000":
                raise ForeignCommitError(
                    f"refused: in {target}, {neutralise_line(path)} (a folder above the "
                    "vault's) is not a folder (a link to elsewhere?); nothing was brought in. "
                    f"Make it a folder again on {target}, then sync again")
    bad, conflicts = [], False
    for path, (mode, _sha) in journal.objects.ls_tree(commit, None if rel_root == "." else rel_root
                                              ).items():
        rel = vault_rel_of(journal, path) or ""
        top = rel.split("/", 1)[0]
        if top == CONFLICTS_DIR:
            conflicts = True
        elif top in ("memories", "relations", META_FILE) and mode in ("120000", "160000"):
            bad.append(path)
    if conflicts:
        raise ForeignCommitError(
            f"refused: {target} has {neutralise_line(journal.relpath(conflicts_dir(vault)))} in "
            "its commits, a folder memvault keeps for files waiting for a person and never "
            "commits (it may be a link to elsewhere on this machine); nothing was brought in. "
            f"Remove it from {target} (git rm -r --cached it there, commit, push), then sync "
            "again")
    if bad:
        many = len(bad) != 1
        raise ForeignCommitError(
            f"refused: {target} has {len(bad)} symbolic link{'s' if many else ''} or "
            f"submodule{'s' if many else ''} where vault files go ({_shown(bad)}); memvault "
            "never follows one (it may point at a file elsewhere on this machine) and nothing "
            f"was brought in. Replace {'them' if many else 'it'} with regular files on "
            f"{target}, then sync again")


def _shown(paths: list[str]) -> str:
    return ", ".join(neutralise_line(p) for p in paths[:3]) + (
        f" and {len(paths) - 3} more" if len(paths) > 3 else "")
