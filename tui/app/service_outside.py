"""What the app tells a person about files changed outside memvault (an editor, a copy), and
the copies it keeps of those it cannot use.

The valid ones core's open committed as one ``external:`` commit (``report.external_commit``
and ``external_paths``); the ones it refused are not valid records (``report.refused_external``)
and are never committed: the app copies each into the quarantine (``core.store.quarantine``:
``.git/memvault/quarantine/``), once per content, so what the person typed is kept even if the
file is written over later, and leaves the file where it is for them to fix."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from core import Vault
from core.store.quarantine import quarantine
from core.textutil import neutralise_line


@dataclass
class Refused:
    path: str  # vault-relative
    reason: str
    copy: Path | None  # its copy in the quarantine (None: it could not be read to copy)


@dataclass
class OutsideEdits:
    """The outside edits one open of the vault found."""

    commit: str | None = None  # the external: commit of the valid ones
    committed: list[str] = field(default_factory=list)  # vault-relative paths
    refused: list[Refused] = field(default_factory=list)

    @property
    def refused_key(self) -> tuple[object, ...]:
        """Equal for two opens that refused the same files, unchanged since."""
        return tuple((r.path, r.copy) for r in self.refused)

    def __bool__(self) -> bool:
        return bool(self.committed or self.refused)

    def notes(self, key: str) -> list[str]:
        """One notice for the committed files and one for the refused ones (``key`` shows
        them)."""
        out = []
        n = len(self.committed)
        if n and self.commit:
            out.append(f"{n} outside edit{'s' if n != 1 else ''} committed ({self.commit[:8]}, "
                       f"external:); {key} shows {'them' if n != 1 else 'it'}")
        r = len(self.refused)
        if r:
            names = ", ".join(neutralise_line(x.path) for x in self.refused[:3])
            more = f" and {r - 3} more" if r > 3 else ""
            copies = "a copy of each is" if r != 1 else "a copy is"
            out.append(f"{r} outside edit{'s are' if r != 1 else ' is'} not valid and not "
                       f"committed ({names}{more}): {copies} in the quarantine; {key} shows "
                       "where")
        return out


class Quarantined:
    """Which refused files the app already copied aside (path -> digest of what it copied)."""

    def __init__(self) -> None:
        self._seen: dict[str, tuple[str, Path]] = {}

    def take(self, vault: Vault) -> OutsideEdits:
        report = vault.report
        found = OutsideEdits(report.external_commit, list(report.external_paths))
        for problem in report.refused_external:
            path = Path(problem.path)
            rel = _relative(vault.root, path)
            found.refused.append(Refused(rel, problem.reason,
                                         self._copy(vault, path, rel, problem.reason)))
        return found

    def _copy(self, vault: Vault, path: Path, rel: str, reason: str) -> Path | None:
        digest = _digest(path)
        if digest is None:
            return None
        seen = self._seen.get(rel)
        if seen is not None and seen[0] == digest:
            return seen[1]
        try:
            copy = quarantine(vault.journal.state_dir, vault.root, path,
                              f"changed outside memvault and not a valid record ({reason}); "
                              "not committed, left in place")
        except OSError:
            return None
        self._seen[rel] = (digest, copy)
        return copy


def _relative(root: Path, path: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.name


def _digest(path: Path) -> str | None:
    """What tells one state of the file from another without reading it (never following a
    link, never opening a fifo): its kind, size, modification time and inode."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return f"{stat.S_IFMT(st.st_mode)}:{st.st_size}:{st.st_mtime_ns}:{st.st_ino}"
