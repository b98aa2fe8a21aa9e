"""Telling clients that a memory changed, whoever changed it (this server, another server, the
app, the command line, a sync): :class:`ChangeWatcher` looks at the vault's refs a few times a
second and announces what the new commits changed.

It reads HEAD and the inbox's review mark and accepted set (a few small file reads, whatever the
vault's size). When HEAD moved, it learns which files the new commits changed: for the commits
this server made, from its own write path, which tells what each commit wrote as it lands
(:class:`~tui.mcp.changes.OwnCommits`); for any other commit, from git (``git diff-tree``: work
in proportion to the change, never to the vault). Then it announces:

* ``notifications/resources/updated`` for ``memvault://memory/{id}`` of every memory a commit
  changed (its file, or a relation to or from it), for ``memvault://stats`` after any commit and
  for ``memvault://inbox`` after any commit or review;
* ``notifications/resources/list_changed`` when memories came or went.

Both protocol eras are served: a client of the 2026-07-28 era listens with
``subscriptions/listen`` (the SDK's listen handler, fed through the server's subscription bus);
an earlier client subscribes with ``resources/subscribe`` (answered here, by a middleware, since
MCPServer leaves that method unserved) and gets the notifications on its session, as
``initialize`` now advertises (``resources.subscribe`` and ``listChanged``).

Memory URIs are announced with the full id: subscribe to the URI a read answered with.
"""

from __future__ import annotations

import os
import sys
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
from mcp.server.subscriptions import SubscriptionBus
from mcp.shared.exceptions import MCPError
from mcp.shared.subscriptions import ResourcesListChanged, ResourceUpdated, ServerEvent
from mcp.types import INVALID_PARAMS, SubscribeRequestParams
from pydantic import ValidationError

from core import VaultError
from core.git.gitdir import find_git_dir, read_head
from core.git.journal import Journal
from core.ops.inbox_state import ACCEPTED_FILE, REF
from core.store.layout import Layout
from core.textutil import neutralise_line

from .changes import Changes, OwnCommits

WATCH_INTERVAL_ENV = "MEMVAULT_MCP_WATCH_INTERVAL"
DEFAULT_WATCH_INTERVAL = 0.5
MAX_CLIENTS = 1024
SESSION_HEADER = "mcp-session-id"
STDIO_CLIENT = "stdio"
_SUBSCRIBE = "resources/subscribe"
_UNSUBSCRIBE = "resources/unsubscribe"


def watch_interval() -> float:
    """Seconds between two looks at the refs (``MEMVAULT_MCP_WATCH_INTERVAL``, default 0.5)."""
    raw = os.environ.get(WATCH_INTERVAL_ENV, "").strip()
    if not raw:
        return DEFAULT_WATCH_INTERVAL
    try:
        value = float(raw)
    except ValueError:
        raise VaultError(f"{WATCH_INTERVAL_ENV} must be a number of seconds, not {raw!r}") from None
    if not 0 < value <= 3600:
        raise VaultError(f"{WATCH_INTERVAL_ENV} must be more than 0 and at most 3600 seconds, "
                         f"not {raw!r}")
    return value


@dataclass(frozen=True)
class Look:
    """What one look at the refs saw: HEAD, and the stat of the review mark and accepted set."""

    head: str | None
    review: tuple[Any, ...]


def _stat_key(path: Path) -> tuple[int, int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return (info.st_mtime_ns, info.st_size, info.st_ino)


@dataclass
class _Client:
    session: Any  # the SDK's ServerSession of its latest request: its connection's channel
    uris: set[str] = field(default_factory=set)


class VaultRefs:
    """The vault's refs as the watcher reads them: plain file reads, git only for a diff."""

    def __init__(self, root: Path):
        self.root = root
        self._dirs: tuple[Path, Path] | None = None
        self._journal: Journal | None = None
        self._layout = Layout(root)

    def look(self) -> Look | None:
        """None while the vault does not exist yet (it is made at the first write)."""
        if self._dirs is None:
            if not self.root.is_dir() or not (self.root / ".git").exists():
                return None
            self._dirs = find_git_dir(self.root)
            if self._dirs is None:
                return None
        git_dir, common = self._dirs
        try:
            head = read_head(git_dir, common)
        except OSError:
            return None
        if head is None and (git_dir / "HEAD").is_file():
            head = self.journal().head()  # a ref only git can read (a reftable); rare
        review = (_stat_key(common / REF), _stat_key(common / "packed-refs"),
                  _stat_key(git_dir / "memvault" / ACCEPTED_FILE))
        return Look(head, review)

    def journal(self) -> Journal:
        if self._journal is None:
            self._journal = Journal(self.root)
        return self._journal

    def changes(self, old: str | None, new: str | None) -> Changes:
        """What the commits from ``old`` to ``new`` changed, from git's list of changed paths."""
        found = Changes(committed=True)
        if new is None:
            return found
        journal = self.journal()
        if old is None:  # the first commit(s): everything there is came
            pairs = [("A", p) for p in journal.history.changed_between(None, new)]
        else:
            pairs = journal.history.changes_between(old, new)
        for status, rel in pairs:
            found.note(self._layout, status, rel,
                       partial(self._relation, rel, old if status == "D" else new))
        return found

    def _relation(self, rel: str, rev: str | None) -> bytes | None:
        """A relation file's bytes at ``rev``."""
        if rev is None:
            return None
        try:
            return self.journal().history.show(rev, self.root / rel)
        except VaultError:
            return None


class ChangeWatcher:
    """Watches the vault at ``root`` and tells every listening or subscribed client."""

    def __init__(self, root: Path, bus: SubscriptionBus, *, interval: float | None = None,
                 tell: Callable[[str, str, str], None] | None = None):
        """``tell``: the server's log (level, logger, message), told of commits another process
        made."""
        self.tell = tell
        self.refs = VaultRefs(root)
        #: the commits this server makes, told by its write path (``own.landed`` listens to
        #: the vault's journal: :class:`~tui.mcp.access.VaultAccess` hands it over)
        self.own = OwnCommits(Layout(root))
        self.bus = bus
        self.interval = watch_interval() if interval is None else interval
        #: clients of the handshake era (by connection: the HTTP session id, or the one stdio
        #: client), each with its latest session proxy and the URIs it subscribed to; the
        #: longest idle are forgotten past MAX_CLIENTS (an HTTP session ends without a word)
        self._clients: OrderedDict[str, _Client] = OrderedDict()
        self._seen: Look | None = None

    # -- the middleware: the handshake era's subscriptions ------------------------------------
    async def middleware(self, ctx: Any, call_next: Any) -> Any:
        method = ctx.method
        if method in (_SUBSCRIBE, _UNSUBSCRIBE):
            uri = _subscribed_uri(ctx.params)
            uris = self._client(ctx).uris
            if method == _SUBSCRIBE:
                uris.add(uri)
            else:
                uris.discard(uri)
            return {}
        result = await call_next(ctx)
        if method == "initialize":
            _advertise(result)
        elif method == "notifications/initialized" or ctx.request_id is not None:
            self._client(ctx)  # known from now on: told when the list changes
        return result

    def _client(self, ctx: Any) -> _Client:
        headers = getattr(ctx.request, "headers", None)
        key = (headers.get(SESSION_HEADER) if headers is not None else None) or STDIO_CLIENT
        client = self._clients.get(key)
        if client is None:
            client = self._clients[key] = _Client(ctx.session)
            while len(self._clients) > MAX_CLIENTS:
                self._clients.popitem(last=False)
        else:
            client.session = ctx.session
            self._clients.move_to_end(key)
        return client

    # -- the watch ----------------------------------------------------------------------------
    async def run(self) -> None:
        """Look at the refs every interval until cancelled (the server's lifespan runs this)."""
        self._seen = self.refs.look()
        while True:
            await anyio.sleep(self.interval)
            try:
                changes = await self._look_again()
            except Exception as exc:  # noqa: BLE001 - the watch must outlive a bad moment
                print(f"memvault: note: change notifications paused: "
                      f"{neutralise_line(str(exc))}", file=sys.stderr, flush=True)
                continue
            if changes is not None:
                await self.announce(changes.events())

    async def _look_again(self) -> Changes | None:
        now = self.refs.look()
        before, self._seen = self._seen, now
        if now is None or now == before:
            return None
        if before is None or now.head is None:  # the vault appeared (made by a first write),
            return Changes(committed=True, came_or_went=True)  # or its HEAD went: no diff
        if now.head == before.head:
            return Changes(reviewed=True)
        changes = await self.changes_between(before.head, now.head)
        changes.reviewed = now.review != before.review
        return changes

    async def changes_between(self, old: str | None, new: str) -> Changes:
        """What the commits from ``old`` to ``new`` changed: this server's own as its write
        path told them; git is asked only about the commits it did not make."""
        changes, stop = self.own.take(old, new)
        changes.committed = True
        if stop != old:
            outside = await anyio.to_thread.run_sync(self.refs.changes, old, stop)
            changes.merge(outside)
            if self.tell is not None:
                self.tell("info", "memvault.vault",
                          f"the vault changed outside this server (now at {stop[:8]}): "
                          f"{len(outside.memories)} memories touched")
        return changes

    async def announce(self, events: list[ServerEvent]) -> None:
        for event in events:
            await self.bus.publish(event)  # the listen streams of the 2026-07-28 era
        for key, client in list(self._clients.items()):  # on each connection's own channel
            try:
                for event in events:
                    if isinstance(event, ResourcesListChanged):
                        await client.session.send_resource_list_changed()
                    elif isinstance(event, ResourceUpdated) and event.uri in client.uris:
                        await client.session.send_resource_updated(event.uri)
            except Exception:  # noqa: BLE001 - a connection that is gone: forget it
                self._clients.pop(key, None)


def _subscribed_uri(params: Any) -> str:
    try:
        return str(SubscribeRequestParams.model_validate(params or {}, by_name=False).uri)
    except ValidationError:
        raise MCPError(code=INVALID_PARAMS,
                       message="refused: resources/subscribe takes a uri") from None


def _advertise(result: Any) -> None:
    """``initialize``'s answer says resources can be subscribed to and their list changes."""
    capabilities = result.get("capabilities") if isinstance(result, dict) else None
    resources = capabilities.get("resources") if isinstance(capabilities, dict) else None
    if isinstance(resources, dict):
        resources["subscribe"] = True
        resources["listChanged"] = True
