"""Warnings of the vault files a command could not read as records, on stderr.

An open after a clone holds each record as its file's bytes, checked when first read
(:mod:`core.store.lazy`): asking the vault for all its problems at once would check every record,
so that ``memvault search`` would parse 10k files to answer from ten. So a verb warns of the
problems known when it asks (:func:`warn_problems`: those the open found, and every memory file of
a search, which parses them), and of those found by the checks the command then made anyway (a
record it read, every record when it listed them) when it ends (:func:`warn_later_problems`): a bad
file a command shows or uses is always reported, never silently.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from ..text import plural

if TYPE_CHECKING:
    from core import Vault

#: The vaults whose problems a command warned of, with the paths it named (see
#: :func:`warn_later_problems`).
_warned: list[tuple[Vault, set[Any]]] = []


def warn_problems(vault: Vault) -> None:
    """Warn of the files of ``vault`` known so far to be no record (none checked for it) and
    remember them: those found later in the command are warned of when it ends."""
    problems = list(vault.state.problems_found)
    _warned.append((vault, {p.path for p in problems}))
    _say(problems, "")


def warn_later_problems(opened: list[Vault]) -> None:
    """At the end of a command: warn of the files found to be no record since
    :func:`warn_problems` (a record held unchecked, refused when the command read it), and, of
    the other read-only vaults ``opened`` (a verb that shows one memory: ``show``), of those
    refused as the command read them."""
    warned = {id(vault) for vault, _ in _warned}
    for vault, said in _warned:
        _say([p for p in vault.state.problems_found if p.path not in said],
             "more " if said else "")
    for vault in opened:
        if vault.readonly and id(vault) not in warned:
            warned.add(id(vault))
            _say(list(vault.state.refused_on_check), "")
    _warned.clear()


def forget_warned() -> None:
    """Forget the vaults warned of (a new command in the same process)."""
    _warned.clear()


def _say(problems: list[Any], more: str) -> None:
    if not problems:
        return
    one = len(problems) == 1
    line = (f"{plural(len(problems), more + 'vault file')} could not be read "
            f"and {'was' if one else 'were'} left untouched:")
    print(f"memvault: warning: {line}", file=sys.stderr)
    list_problems(problems)


def list_problems(problems: list[Any], limit: int = 5) -> None:
    """The first ``limit`` of ``problems`` on stderr, one a line, and how many more."""
    for p in problems[:limit]:
        print(f"  {p}", file=sys.stderr)
    if len(problems) > limit:
        print(f"  ... and {len(problems) - limit} more", file=sys.stderr)
