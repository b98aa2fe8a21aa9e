"""Opening the vault while ``memvault mcp`` starts: :class:`EarlyOpen` opens it (and brings the
search index level with it) in a thread of its own as soon as the command knows its path, while
the main thread imports the ``mcp`` package and builds the server. Opening is mostly waiting
(git, the derived index's SQLite, the files), which that import's Python does not wait for, so
the first tool call finds the vault ready sooner. The server's access to the vault
(:class:`~tui.mcp.access.VaultAccess`) takes the vault and its searcher from here when it first
needs them, waiting for the thread if it is still at work.

Nothing here imports the ``mcp`` package (it would undo the point). A vault that does not exist
yet is left to the server (made at its first write, as before); a failure is left to the first
tool call, which opens the vault again and reports it. The vault is opened before the client has
said who it is: a commit the open itself makes (files a person changed outside memvault, an
operation a killed process left) carries ``Memvault-Via: mcp/unknown``; every commit after the
handshake carries the client's name.
"""

from __future__ import annotations

import threading
from pathlib import Path

from core import Vault
from core.search import first_build

from .search import Finder

#: The client's name until the handshake: what a commit the open makes carries.
UNNAMED = "mcp/unknown"


class EarlyOpen:
    """The vault at ``path``, opened by a thread started at once (``read_only``: as
    ``memvault mcp --read-only`` opens it)."""

    def __init__(self, path: Path, *, read_only: bool = False):
        self.path = path
        self.read_only = read_only
        self._vault: Vault | None = None
        self._finder: Finder | None = None
        self._taken = False
        self._thread: threading.Thread | None = None
        if (path / ".git").exists():
            self._thread = threading.Thread(target=self._open, name="memvault-early-open",
                                            daemon=True)
            self._thread.start()

    def _open(self) -> None:
        vault = None
        try:
            vault = (Vault.open(self.path, readonly=True) if self.read_only
                     else Vault.open(self.path, via=UNNAMED))
            finder = Finder()
            # a first build (after a clone) is the server's to run, outside its lock, once it
            # serves: the searches meanwhile answer from the rows so far (access.warm_up)
            if len(vault.memories) - finder.index(vault).row_count() < first_build.FIRST_BUILD_FROM:
                finder.warm(vault)
                self._finder = finder
            else:
                finder.close()
            self._vault = vault
        except Exception:  # noqa: BLE001 - the first tool call opens it again and says why
            if vault is not None:
                try:
                    vault.close()
                except Exception:  # noqa: BLE001
                    pass

    def wait(self) -> None:
        """Until the thread is done (at once when none was started)."""
        if self._thread is not None:
            self._thread.join()

    def take(self) -> tuple[Vault, Finder | None] | None:
        """The vault and its warmed searcher (None when the search index needs its first
        build, left to the server), once (waiting for the thread); None when it opened nothing
        (no vault yet, or a failure): the caller opens the vault itself."""
        if self._taken:
            return None
        self._taken = True
        self.wait()
        if self._vault is None:
            return None
        return self._vault, self._finder

