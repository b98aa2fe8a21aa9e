"""The MCP server's one door to the vault: opened lazily, once the client has said who it is
(``Vault.open(path, via="mcp/<client name>")``: every commit then carries the trailer
``Memvault-Via: mcp/<client>``), caught up with other processes' commits before each tool
(:meth:`Vault.refresh`), one tool at a time (the SDK runs plain tools in worker threads), use
records flushed at most once per interval, and every refusal a :class:`ToolError` with a message a
person (or a model) can read: never a traceback.

Use records (item 3): ``search_memory``, ``open_memories`` and ``recall`` call
``vault.record_use(ids)``, which writes ``last_used``/``use_count`` to the files before the tool
returns (kill -9 loses none); :meth:`VaultAccess.flush_uses` commits what is pending as one
commit, at most once per ``MEMVAULT_MCP_USE_INTERVAL`` seconds (default 30) and when the server
stops. A read-only server records no use.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import ValidationError

from core import Memory, Vault, VaultError
from core.git.commit import LandedCommit
from core.textutil import neutralise_line

if TYPE_CHECKING:
    from .search import Finder

T = TypeVar("T")

DEFAULT_USE_INTERVAL = 30.0
USE_INTERVAL_ENV = "MEMVAULT_MCP_USE_INTERVAL"
UNKNOWN_CLIENT = "unknown"
#: the client of the request being handled (set by the server's middleware for each tool call)
_REQUEST_CLIENT: ContextVar[str | None] = ContextVar("memvault_mcp_client", default=None)
_CLIENT_NAME_LIMIT = 64


class ToolRefusal(ToolError):
    """Bad input or a refused operation: the client gets a tool error (``isError``) with this
    message, and nothing was written."""


def use_interval() -> float:
    """Seconds between two commits of use records (``MEMVAULT_MCP_USE_INTERVAL``, default 30)."""
    raw = os.environ.get(USE_INTERVAL_ENV, "").strip()
    if not raw:
        return DEFAULT_USE_INTERVAL
    try:
        value = float(raw)
    except ValueError:
        raise VaultError(f"{USE_INTERVAL_ENV} must be a number of seconds, not {raw!r}") from None
    if not value > 0:
        raise VaultError(f"{USE_INTERVAL_ENV} must be more than 0 seconds, not {raw!r}")
    return value


def client_label(name: object) -> str:
    """``mcp/<client name>`` from the initialize request's ``clientInfo.name``: one line, control
    characters escaped, at most 64 characters; ``mcp/unknown`` when there is none."""
    text = " ".join(name.split()) if isinstance(name, str) else ""
    text = neutralise_line(text)[:_CLIENT_NAME_LIMIT].strip()
    return f"mcp/{text or UNKNOWN_CLIENT}"


def _is_sqlite_error(exc: BaseException) -> bool:
    """``exc`` is SQLite's (sqlite3 is imported by the search index, not at the server's
    start: if it was never imported, nothing raised one)."""
    sqlite = sys.modules.get("sqlite3")
    return sqlite is not None and isinstance(exc, sqlite.Error)


def _silent(level: str, logger: str, message: str) -> None:
    """No log (a VaultAccess built without a server's)."""


class VaultAccess:
    """The vault at ``path`` as the server's tools see it."""

    def __init__(self, path: Path, *, read_only: bool = False, interval: float | None = None,
                 landed: Callable[[LandedCommit], None] | None = None,
                 tell: Callable[[str, str, str], None] | None = None):
        """``landed``: told of each commit this server makes, as it lands (the change watcher's
        :meth:`~tui.mcp.changes.OwnCommits.landed`); ``tell``: the server's log of its events
        (:meth:`~tui.mcp.logs.ServerLog.tell`: level, logger, message)."""
        self.path = path
        self.landed = landed
        self.tell = tell or _silent
        self.read_only = read_only
        self.interval = use_interval() if interval is None else interval
        self.via = client_label(None)
        self._vault: Vault | None = None
        self._seen_head: str | None = None
        self._lock = threading.Lock()
        self._last_flush = time.monotonic()
        self._uses_pending = False
        self._notices_told = 0
        self._finder: Finder | None = None

    @property
    def finder(self) -> Finder:
        """The ranked search, its index kept open between searches (core's search imported at
        its first use, not at the server's start)."""
        if self._finder is None:
            from .search import Finder

            self._finder = Finder()
        return self._finder

    # -- the client -------------------------------------------------------------------------
    def set_client(self, name: object) -> None:
        """Name the client (from the initialize request); commits made from now on carry it.
        Also names it for the request being handled (a context variable the worker thread
        inherits), so with several clients at once (HTTP) each write carries its own."""
        label = client_label(name)
        _REQUEST_CLIENT.set(label)
        self.via = label  # (each tool's commits carry it: _run)

    # -- running a tool ---------------------------------------------------------------------
    def read(self, job: Callable[[Vault], T]) -> T:
        """Run a tool that only reads, on the up-to-date vault."""
        return self._run(job)

    def write(self, tool: str, job: Callable[[Vault], T]) -> T:
        """Run a tool that writes (its commits carry ``Memvault-Tool: <tool>``); refused on a
        read-only server (nothing written)."""
        if self.read_only:
            raise ToolRefusal(f"refused: {tool} writes to the vault and this server is read-only "
                              "(memvault mcp --read-only); nothing was written")
        return self._run(job, tool=tool)

    def warm_up(self) -> None:
        """Open the vault now, and bring the search index level with it (the server calls this
        once the client has said who it is, so the first search does not wait for either); a
        failure is left for the first tool call to report."""
        try:
            root, memories = self._run(lambda vault: (vault.root, dict(vault.memories.items())))
            # a first build (after a clone) outside the lock: tools answer meanwhile, a search
            # waiting for it within MEMVAULT_SEARCH_WAIT, then from every memory (saying so)
            self.finder.build_first(root, memories,
                                    lambda said: self.tell("info", "memvault.index", said))
            self._run(self.finder.warm)
        except Exception:  # noqa: BLE001 - told by the first tool call, which opens it again
            pass

    def _run(self, job: Callable[[Vault], T], *, tool: str | None = None) -> T:
        """Run ``job`` on the vault as this request's client (several at once over HTTP) and
        ``tool``: a view whose commits carry them (:meth:`Vault.acting_for`), the vault itself
        never changed."""
        with self._lock:
            before = self._head()
            try:
                vault = self._current()
                acting = vault if self.read_only else vault.acting_for(
                    via=_REQUEST_CLIENT.get() or self.via, tool=tool)
                with vault.journal.git_index.paused():  # git's index follows after the call
                    result = job(acting)
            except ToolRefusal:
                raise
            except VaultError as exc:
                raise ToolRefusal(str(exc)) from None
            except OSError as exc:  # a full disk, a file that cannot be read...: said as the CLI
                raise ToolRefusal(self._failed(neutralise_line(str(exc.strerror or exc))
                                               + (f": {exc.filename}" if exc.filename else ""),
                                               before)) from None
            except ValidationError as exc:
                err = exc.errors(include_url=False)[0]
                where = ".".join(str(p) for p in err.get("loc", ()))
                raise ToolRefusal(f"refused: {where}: {err.get('msg')}" if where
                                  else f"refused: {err.get('msg')}") from None
            except ValueError as exc:  # core's plain argument checks (a budget below 1...)
                raise ToolRefusal(f"refused: {exc}") from None
            except Exception as exc:
                if not _is_sqlite_error(exc):
                    raise
                # the search index ("database or disk is full")
                raise ToolRefusal(self._failed(f"the search index: {exc}", before)) from None
            if tool is not None:
                after = self._head()
                if after is not None and after != before:
                    self.tell("info", "memvault.writes", f"{tool}: committed {after[:8]}")
            self._maybe_flush(vault)
            self._tell_notices(vault)
            return result

    def _head(self) -> str | None:
        """HEAD as this server last saw it (None before the vault is open)."""
        if self._vault is None:
            return None
        try:
            return self._vault.journal.head()
        except (OSError, VaultError):
            return None

    def _failed(self, what: str, before: str | None) -> str:
        """What a tool that failed on the way says: what failed, and whether anything was
        committed (a failure before a commit's end puts every file back: core's journal)."""
        after = self._head()
        if after is not None and after != before and before is not None:
            return f"failed: {what}; the change was committed ({after[:8]}) before it failed"
        return f"failed: {what}; nothing was written"

    def _current(self) -> Vault:
        """The vault, opened on first use, caught up with other processes' commits."""
        if self._vault is None:
            self._notices_told = 0
            if self.read_only:
                self._vault = Vault.open(self.path, readonly=True)
                self._seen_head = self._vault.journal.head()
            else:
                self._vault = Vault.open(self.path, via=self.via)
                # git's index follows each commit just after the answer, not before it
                # (core/git/git_index.py): the person's `git status` is right once it is sent
                self._vault.journal.git_index.later = True
                # and the search index's log is copied into its file then too
                from core.search.index import index_path
                from core.search.index_file import checkpoint

                index_file = index_path(self._vault.root)
                if index_file is not None:
                    self._vault.journal.git_index.after_follow.append(
                        lambda: checkpoint(index_file))
                if self.landed is not None:
                    self._vault.journal.landed.append(self.landed)
                self._uses_pending = True  # a list a killed server left: the next flush commits it
                report = self._vault.report
                for said in (report.recovered, report.writes_refused,
                             report.external_commit and f"committed {len(report.external_paths)} "
                             f"file(s) changed outside memvault as {report.external_commit[:8]}"):
                    if said:
                        self._vault.notices.append(said)
            return self._vault
        if self.read_only:  # a read-only vault does not follow HEAD: open it again when it moved
            head = self._vault.journal.head()  # (a read-only vault's own head does not move)
            if head != self._seen_head:
                self._vault = Vault.open(self.path, readonly=True)
                self._notices_told = 0
                self._seen_head = head
        else:
            self._vault.refresh()
        return self._vault

    def _tell_notices(self, vault: Vault) -> None:
        """What the vault did that a person should hear of (a file set aside in the quarantine
        before being written over), on stderr: the client's log of the server."""
        for notice in vault.notices[self._notices_told:]:
            print(f"memvault: note: {neutralise_line(notice)}", file=sys.stderr, flush=True)
            self.tell("notice", "memvault.vault", neutralise_line(notice))
        self._notices_told = len(vault.notices)

    # -- use records ------------------------------------------------------------------------
    def record_use(self, vault: Vault, memories: Iterable[Memory]) -> dict[str, Memory]:
        """Record that ``memories`` were read (written to their files now, committed later);
        the updated records by id. Nothing on a read-only server."""
        ids = list(dict.fromkeys(m.id for m in memories))
        if self.read_only or not ids:
            return {}
        updated = vault.record_use(ids)
        self._uses_pending = True
        return {m.id: m for m in updated}

    def _maybe_flush(self, vault: Vault) -> None:
        if self._uses_pending and time.monotonic() - self._last_flush >= self.interval:
            self._flush(vault)

    def _flush(self, vault: Vault) -> str | None:
        commit = vault.flush_use()
        if commit:
            self.tell("debug", "memvault.writes", f"use records committed: {commit[:8]}")
        self._uses_pending = False
        self._last_flush = time.monotonic()
        return commit

    def flush_uses(self, *, force: bool = False) -> str | None:
        """Commit pending use records when the interval has passed (or ``force``: at shutdown)."""
        with self._lock:
            vault = self._vault
            if vault is None or self.read_only or not self._uses_pending:
                return None
            if not force and time.monotonic() - self._last_flush < self.interval:
                return None
            try:
                return self._flush(vault)
            except Exception as exc:  # noqa: BLE001 - the timer must not stop the server
                # The records stay on disk, listed as pending: the next flush (or any writer)
                # commits them.
                print(f"memvault: note: use records not committed yet: {neutralise_line(str(exc))}",
                      file=sys.stderr, flush=True)
                return None

    def close(self) -> None:
        """Commit pending use records and let the vault go (the server is stopping)."""
        self.flush_uses(force=True)
        with self._lock:
            if self._finder is not None:
                self._finder.close()
            if self._vault is not None:
                self._vault.close()
                self._vault = None

