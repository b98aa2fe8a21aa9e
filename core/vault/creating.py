"""When an open may make a new vault: only when asked, and never inside another repository.

A folder holds a vault when it has ``memories/`` or ``.meta.json`` (:func:`core.vault.finding.holds_vault`: every
vault memvault made has ``.meta.json``, its ``init:`` commit; a vault copied in without it has
``memories/``). An open for writing of a folder that holds none makes one only when its caller
asks (``Vault.open(path, create=True)``, the Python API's default; the CLI asks for ``init``,
``--create`` and its per-user default folder, docs/cli.md), so a mistyped path is an error
naming it, with nothing written and no folder made.

Even when asked, a new vault is never made inside a git repository it would commit into (a
person's code or notes): a folder inside a repository's work tree (another vault's included),
or the top of one, unless that repository is new and empty (``git init`` or a clone of an empty
remote: nothing there but ``.git``, no commit). A caller who means it says so
(``inside_repo=True``, ``memvault init --inside-repo``): a vault may live in a folder of a
notes repository (docs/vault.md). An existing vault is opened wherever it is."""

from __future__ import annotations

import subprocess
from pathlib import Path

from ..errors import VaultError
from ..git.runner import git_environment, locate


def check_new_vault(root: Path, *, create: bool, inside_repo: bool = False) -> None:
    """Refuse (VaultError, before anything is written) making a vault at ``root``, which holds
    none, unless ``create``; and inside another git repository unless ``inside_repo`` too."""
    if root.exists() and not root.is_dir():
        raise VaultError(f"{root} is not a folder")
    if not create:
        raise VaultError(f"no vault at {root}: nothing was created (a new vault is made only "
                         "when asked: `memvault init`, `--create`, "
                         "Vault.open(path, create=True))")
    if inside_repo:
        return
    existing = _nearest_folder(root)
    found = locate(existing)
    if found is None or found.worktree is None:  # (a bare one is refused when opened)
        return
    if found.worktree == root and _new_and_empty(root):
        return
    where = "the top of" if found.worktree == root else "inside"
    raise VaultError(
        f"{root} is {where} the git repository at {found.worktree}: a new vault there would "
        "commit into that repository, so nothing was created. Choose a folder outside any "
        "repository, or ask for this one on purpose (`memvault init --inside-repo`, "
        "Vault.open(path, inside_repo=True))")


def _nearest_folder(root: Path) -> Path:
    """``root``, or its nearest ancestor that exists (git looks for a repository from there)."""
    for folder in (root, *root.parents):
        if folder.exists():
            if not folder.is_dir():
                raise VaultError(f"{folder} is not a folder: no vault can be made at {root}")
            return folder
    return Path(root.anchor)


def _new_and_empty(root: Path) -> bool:
    """The repository at ``root`` holds nothing yet: no file but ``.git``, and no commit."""
    if [p.name for p in root.iterdir()] != [".git"]:
        return False
    done = subprocess.run(["git", "rev-parse", "-q", "--verify", "HEAD"], cwd=root,
                          env=git_environment(), stdin=subprocess.DEVNULL, capture_output=True)
    return done.returncode != 0
