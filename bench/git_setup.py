"""What every bench that writes a vault in its own process sets first: git reads no config of
the machine's (a user's hooks, signing or fsmonitor would time their machine, not memvault) and
commits under a fixed name. Imported by the bench scripts (bench/ is first on their path)."""

from __future__ import annotations

import os


def isolate_git() -> None:
    """No global or system git config; a fixed author and committer."""
    for var in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"):
        os.environ[var] = os.devnull
    os.environ.update(GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@x",
                      GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@x")
