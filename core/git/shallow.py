"""A shallow clone (``git clone --depth N``) has no history before its boundary commits: a
memory's history stops there, and may show it "created" at a boundary commit although it is
older. The one place that tells (``<git_dir>/shallow``, the boundary commits git keeps), read
without running git (kept apart from journal.py, which is being reworked)."""

from __future__ import annotations

import re
from pathlib import Path

_OID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
UNSHALLOW = "git fetch --unshallow"


def shallow_commits(git_dir: Path | str) -> list[str]:
    """The boundary commits listed in ``<git_dir>/shallow`` (the repository's common git
    directory), [] when the clone has its whole history."""
    try:
        with open(Path(git_dir) / "shallow", "rb") as fh:
            text = fh.read(1 << 20).decode("ascii", "replace")
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError:
        return ["?"]  # there, but unreadable: still shallow
    return [line for line in text.split() if _OID.fullmatch(line)] or (["?"] if text.strip() else [])


def shallow_note(git_dir: Path | str) -> str | None:
    """One sentence for a shallow clone (None otherwise): history before the boundary is
    missing, and how to bring it in."""
    commits = shallow_commits(git_dir)
    if not commits:
        return None
    n = len(commits)
    where = "its boundary commit" if n == 1 else f"its {n} boundary commits"
    return (f"this is a shallow clone: history before {where} is missing (a memory shown as "
            f"created there may be older); `{UNSHALLOW}` brings in the rest")


__all__ = ["UNSHALLOW", "shallow_commits", "shallow_note"]
